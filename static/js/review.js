// Full Set: the review of a finished game. The page works without this file
// (its links load each position); this file adds
//  - the keys: left and right arrows for the previous and next move, Home and End,
//  - the highlighted move in the list, following the position htmx swapped in (and the
//    page of the list shown, for a long game's),
//  - autoplay at a chosen speed,
//  - the position stepped to, read out in words (#review-announcer), with the
//    analysis' verdict on its move when there is one,
//  - the focus kept on the stepper's link that was used (the swap replaces it), or on
//    the move list's when a step brought another page of it.
(function () {
  "use strict";

  let timer = null;

  function position() {
    return document.getElementById("review-position");
  }

  function go(which) {
    const link = position() && position().querySelector('a[data-nav="' + which + '"]');
    if (!link) return false;
    link.click(); // htmx fetches the fragment and pushes the address
    return true;
  }

  const KEYS = { ArrowRight: "next", ArrowLeft: "previous", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    const which = KEYS[event.key];
    if (!which || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    if (!position()) return;
    event.preventDefault();
    stop();
    go(which);
  });

  function highlight() {
    const shown = position();
    if (!shown) return;
    const n = shown.dataset.move;
    document.querySelectorAll(".move-list li[data-move]").forEach(function (item) {
      const current = item.dataset.move === n;
      item.classList.toggle("current", current);
      if (current) {
        item.setAttribute("aria-current", "step");
        const list = item.closest(".move-list");
        // Scroll the list only, never the page.
        if (item.offsetTop < list.scrollTop || item.offsetTop > list.scrollTop + list.clientHeight - item.offsetHeight) {
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
        }
      } else {
        item.removeAttribute("aria-current");
      }
    });
  }

  // Autoplay: a click on "next" every few moments until the last move.
  function button() {
    return document.querySelector(".js-autoplay");
  }

  function speed() {
    const select = document.querySelector(".js-speed");
    return select ? Number(select.value) : 1000;
  }

  function stop() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    button().textContent = button().dataset.play;
  }

  function start() {
    if (!position().querySelector('a[data-nav="next"]')) go("first");
    timer = setInterval(function () {
      if (!go("next")) stop();
    }, speed());
    button().textContent = button().dataset.pause;
  }

  function setUp() {
    highlight();
    const play = button();
    if (!play) return;
    play.dataset.play = play.textContent;
    play.dataset.pause = play.dataset.pauseLabel || "❚❚";
    play.hidden = false;
    document.querySelector(".js-speed").closest("label").hidden = false;
    play.addEventListener("click", function () {
      if (timer === null) start();
      else stop();
    });
    document.querySelector(".js-speed").addEventListener("change", function () {
      if (timer !== null) {
        stop();
        start();
      }
    });
  }

  // A long game's move list shows one page of it: each request says which page is shown, so
  // that a step off it brings the page of the new position too (games/views.py, review).
  document.addEventListener("htmx:configRequest", function (event) {
    const list = document.getElementById("review-move-list");
    if (list) event.detail.headers["Review-Move-Page"] = list.dataset.first;
  });

  document.addEventListener("DOMContentLoaded", setUp);
  // Again once the page is whole (its fonts: Chinese text laid out with its font makes the
  // moves taller, and the current one was left cut off at the list's foot).
  window.addEventListener("load", highlight);
  document.addEventListener("htmx:afterSettle", highlight);

  // A step taken with Enter on "Next" replaces that link: the focus goes to the new one (or,
  // at either end, to the move count), never to the top of the page.
  const FALLBACK = { next: "last", previous: "first" };
  let stepped = null;

  // The judged decisions' table comes with a new page of the list: it stays open if it was.
  let decisionsOpen = false;

  document.addEventListener("htmx:beforeSwap", function () {
    const table = document.querySelector("#review-decisions details");
    decisionsOpen = Boolean(table && table.open);
  });

  document.addEventListener("htmx:afterSettle", function () {
    const table = document.querySelector("#review-decisions details");
    if (table && decisionsOpen) table.open = true;
  });

  document.addEventListener("htmx:beforeSwap", function () {
    const active = document.activeElement;
    const shown = position();
    const list = document.getElementById("review-move-list");
    if (active && shown && shown.contains(active)) {
      stepped = active.getAttribute("data-nav") || "count";
    } else if (active && list && list.contains(active)) {
      // A link of the move list, which a step onto another page replaces.
      stepped = "page:" + (active.getAttribute("data-page") || "");
    } else {
      stepped = null;
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    const was = stepped;
    stepped = null;
    const shown = position();
    const active = document.activeElement;
    if (!was || !shown || (active && active !== document.body && active.isConnected)) return;
    if (was.indexOf("page:") === 0) {
      // The same link of the new page ("Earlier moves" again), else its current move's.
      const list = document.getElementById("review-move-list");
      const page = was.slice(5) && list.querySelector('[data-page="' + was.slice(5) + '"]');
      const link = page || list.querySelector("li.current a");
      if (link) link.focus();
      return;
    }
    let target = shown.querySelector('a[data-nav="' + was + '"]');
    if (!target && FALLBACK[was]) target = shown.querySelector('a[data-nav="' + FALLBACK[was] + '"]');
    if (!target) {
      target = shown.querySelector(".review-count");
      if (target) target.tabIndex = -1;
    }
    if (target) target.focus();
  });

  // The stepper in words for screen readers: "Move 11 of 80: alice banked 5M".
  document.addEventListener("htmx:afterSettle", function () {
    const announcer = document.getElementById("review-announcer");
    const shown = position();
    if (!announcer || !shown) return;
    const count = shown.querySelector(".review-count");
    const current = shown.querySelector(".review-current strong");
    const verdict = shown.querySelector(".review-verdict");
    announcer.textContent = [count, current, verdict]
      .filter(Boolean)
      .map(function (element) { return element.textContent.replace(/\s+/g, " ").trim(); })
      .join(": ");
  });
})();
