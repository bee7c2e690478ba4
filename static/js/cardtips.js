// Full Set: a long press on a card shows what it does. A mouse shows a card's
// tooltip (.card-tip) on hover and a keyboard on focus, with CSS alone; a
// touch screen has neither, so holding a card for a moment opens its tooltip
// (class "tip-open") until the next touch or Escape, even across a redraw.
// The click that ends a long press does not open the card's menu. A redraw does not open
// the tooltip of a card it moves under a still mouse.
(function () {
  "use strict";

  const HOLD_MS = 450;
  let timer = null;
  let opened = null;
  let swallowClick = false;

  // The same card in a fragment a socket update has just swapped in, if it is still there.
  function drawnAgain(card) {
    const tip = card.getAttribute("aria-describedby");
    return document.querySelector('[data-card-tip][aria-describedby="' + tip + '"]');
  }

  function close() {
    if (opened) opened.classList.remove("tip-open");
    opened = null;
  }

  function cancel() {
    clearTimeout(timer);
    timer = null;
  }

  document.addEventListener("touchstart", function (event) {
    swallowClick = false;
    close();
    cancel();
    const card = event.target.closest && event.target.closest("[data-card-tip]");
    if (!card) return;
    timer = setTimeout(function () {
      opened = card.isConnected ? card : drawnAgain(card);
      if (opened) opened.classList.add("tip-open");
      swallowClick = true;
    }, HOLD_MS);
  }, { passive: true });

  document.addEventListener("touchmove", cancel, { passive: true });
  document.addEventListener("touchend", cancel);
  document.addEventListener("touchcancel", cancel);

  document.addEventListener("click", function (event) {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);

  // A long press would otherwise open the browser's own menu over the tooltip.
  document.addEventListener("contextmenu", function (event) {
    if (event.target.closest && event.target.closest("[data-card-tip]")) event.preventDefault();
  });

  // A socket update redraws the cards: keep the open text open on the new drawing.
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (!opened || opened.isConnected) return;
    opened = drawnAgain(opened);
    if (opened) opened.classList.add("tip-open");
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") close();
  });

  // A redraw moves other cards under a mouse that stays still (a prompt pushes the hand
  // down): no tooltip opens by itself over the prompt's buttons until the mouse moves
  // (class "tips-rest" on the root; the browser's own moves after a redraw move nothing).
  const root = document.documentElement;
  let mouse = "";
  function rest() { root.classList.add("tips-rest"); }
  document.addEventListener("htmx:oobAfterSwap", rest);
  document.addEventListener("htmx:afterSwap", rest);
  document.addEventListener("pointermove", function (event) {
    const at = event.clientX + "," + event.clientY;
    if (at !== mouse) root.classList.remove("tips-rest");
    mouse = at;
  }, { passive: true });
})();
