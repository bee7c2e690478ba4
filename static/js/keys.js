// Full Set: the table with the keyboard alone, and told to screen readers (issue 18).
// The page works without this file (Tab, Enter and the forms); it adds
//  - arrow keys within the hand and within an open card menu, Escape back to the card,
//  - the shortcuts listed in the "?" dialog (#shortcuts),
//  - focus that lands somewhere useful after a fragment is redrawn (not on <body>),
//  - the announcer (#announcer, aria-live): each new line of the log, once, whether the
//    move came back from my own request or over the socket, and the prompt that waits for me.
(function () {
  "use strict";

  const page = document.querySelector(".game-page");
  if (!page) return;
  const announcer = document.getElementById("announcer");

  // --- the announcer ---------------------------------------------------------------------

  function logLines() {
    return Array.from(document.querySelectorAll("#log ol > li")).map(function (li) {
      return { index: Number(li.getAttribute("value")), text: li.textContent.trim() };
    });
  }

  function newestIndex() {
    return logLines().reduce(function (most, line) { return Math.max(most, line.index); }, 0);
  }

  function promptText() {
    const prompt = document.getElementById("prompt");
    if (!prompt) return "";
    return Array.from(prompt.querySelectorAll(".answer-text, .choice-form > p:first-of-type"))
      .map(function (p) { return p.textContent.replace(/\s+/g, " ").trim(); })
      .join(" ");
  }

  // The game's result, once it is over: read out, and the focus goes to it (the review and
  // the rematch follow it), not left on a hand that can do nothing more.
  function resultText() {
    const result = document.querySelector("#status .result");
    return result ? result.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The cards of my hand, by id, with their names: those new after a redraw are told ("New in
  // your hand: ..."), my own draws being in no line of the log. My own hand only, on my page.
  function handCards() {
    const cards = new Map();
    document.querySelectorAll("#hand .hand > li .card[data-card]").forEach(function (card) {
      const label = card.querySelector(".card-label");
      cards.set(card.getAttribute("data-card"), label ? label.textContent.trim() : "");
    });
    return cards;
  }

  // My turn's start is told ("Your turn: 3 plays left"), once a turn (the status leaves "my
  // turn" while the others answer an action of mine): the log says whose turn ended, not
  // whose begins.
  function myTurnNow() {
    const status = document.querySelector("#status.my-turn .status-main[data-turn]");
    if (!status) return null;
    return { turn: status.getAttribute("data-turn"), text: status.textContent.replace(/\s+/g, " ").trim() };
  }

  let announced = newestIndex();
  let prompted = promptText();
  let ended = resultText();
  let held = handCards();
  let toldTurn = (myTurnNow() || {}).turn || null;
  let promptIsNew = false;

  function announce(texts) {
    if (!texts.length || !announcer) return;
    announcer.replaceChildren.apply(announcer, texts.map(function (text) {
      const p = document.createElement("p");
      p.textContent = text;
      return p;
    }));
  }

  function tell() {
    const fresh = logLines()
      .filter(function (line) { return line.index > announced; })
      .sort(function (a, b) { return a.index - b.index; });
    const texts = fresh.map(function (line) { return line.text; });
    if (fresh.length) announced = fresh[fresh.length - 1].index;
    const turn = myTurnNow();
    if (turn && turn.turn !== toldTurn) {
      texts.push(turn.text);
      toldTurn = turn.turn;
    }
    const hand = handCards();
    const drawn = Array.from(hand.keys()).filter(function (id) { return !held.has(id); });
    if (drawn.length && page.getAttribute("data-new-cards-text")) {
      texts.push(page.getAttribute("data-new-cards-text") + " " +
        drawn.map(function (id) { return hand.get(id); }).join(page.getAttribute("data-list-separator") || ", "));
    }
    held = hand;
    const prompt = promptText();
    promptIsNew = Boolean(prompt) && prompt !== prompted;
    if (promptIsNew) texts.push(prompt);
    prompted = prompt;
    const result = resultText();
    const justEnded = Boolean(result) && result !== ended;
    if (justEnded) texts.push(result);
    ended = result;
    announce(texts);
    return justEnded;
  }

  // --- focus that survives a redraw --------------------------------------------------------

  const FOCUSABLE = "summary, .card[tabindex], button, input, a[href]";

  function handItems() {
    return Array.from(document.querySelectorAll("#hand .hand > li")).map(function (li) {
      return li.querySelector("details[data-card-menu] > summary, .card[tabindex]");
    }).filter(Boolean);
  }

  // Where the focus was, told by the card (or control) it was on and its place in the hand.
  let remembered = null;

  function remember() {
    const active = document.activeElement;
    if (!active || active === document.body) {
      remembered = { nothing: true }; // a new prompt takes the focus (restore)
      return;
    }
    if (!page.contains(active)) return;
    const within = active.closest("#hand, #board, #status, #log");
    if (!within) return;
    const menu = active.closest("details[data-card-menu]");
    const li = active.closest("#hand .hand > li");
    remembered = {
      menu: menu ? (menu.getAttribute("name") || "") + ":" + menu.getAttribute("data-card-menu") : null,
      card: active.getAttribute("data-card"),
      place: li ? Array.from(li.parentNode.children).indexOf(li) : -1,
      // Any other control (the log's link, the resign's confirmation): found again by what
      // it is, in the same part of the page.
      like: within.matches("#log, #status") ? likeness(active, within) : null,
    };
  }

  function likeness(element, within) {
    return {
      within: within.id,
      tag: element.tagName,
      href: element.getAttribute("href"),
      name: element.getAttribute("name"),
      value: element.getAttribute("value"),
      text: element.textContent.trim(),
    };
  }

  function findLike(like) {
    const within = document.getElementById(like.within);
    if (!within) return null;
    return Array.from(within.querySelectorAll(like.tag)).find(function (element) {
      return element.getAttribute("href") === like.href &&
        element.getAttribute("name") === like.name &&
        element.getAttribute("value") === like.value &&
        element.textContent.trim() === like.text &&
        element.getClientRects().length > 0; // shown (an open box's)
    }) || null;
  }

  function lost() {
    const active = document.activeElement;
    return !active || active === document.body || !active.isConnected;
  }

  function restore() {
    const was = remembered;
    remembered = null;
    if (!was || !lost()) return;
    const prompt = document.getElementById("prompt");
    if (was.nothing) {
      // Nothing had the focus (a page left alone): a decision that now waits takes it,
      // without scrolling a reader elsewhere on the page away (the announcer reads it).
      if (prompt && promptIsNew) prompt.focus({ preventScroll: true });
      return;
    }
    // A new decision first; else a control of the log or the status found again.
    let target = was.like && !(prompt && promptIsNew) ? findLike(was.like) : null;
    if (target) {
      // where it was
    } else if (prompt) {
      target = prompt;
    } else if (was.menu) {
      const parts = was.menu.split(":");
      const menu = document.querySelector(
        'details[name="' + parts[0] + '"][data-card-menu="' + parts[1] + '"]'
      );
      if (menu) target = menu.querySelector("summary");
    } else if (was.card) {
      target = document.querySelector('.card[tabindex][data-card="' + was.card + '"]');
    }
    if (!target && was.place >= 0) {
      const items = handItems();
      target = items[Math.min(was.place, items.length - 1)] || null;
    }
    if (!target) target = document.querySelector("#status .result");
    if (!target) target = document.getElementById("hand-title");
    if (target) target.focus();
  }

  // A prompt already waiting when the page opens (from a "your turn" link) takes the focus.
  const waiting = document.getElementById("prompt");
  if (waiting && (!document.activeElement || document.activeElement === document.body)) {
    waiting.focus();
  }

  document.addEventListener("submit", remember, true);
  document.addEventListener("htmx:oobBeforeSwap", function () {
    if (!remembered) remember();
  });

  // One request or socket message swaps several fragments: act once, after the last.
  let pending = false;
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (pending) return;
    pending = true;
    setTimeout(function () {
      pending = false;
      // htmx binds the new fragments' forms only when they settle (20 ms after an HTTP
      // response's swap): a key pressed sooner, on the focus put back below, would post
      // the form without htmx and reload the page. Bind them now (htmx skips bound ones).
      if (window.htmx) window.htmx.process(page);
      if (tell()) {
        remembered = null;
        document.querySelector("#status .result").focus();
      } else {
        restore();
      }
    }, 0);
  });

  // --- arrow keys and Escape -------------------------------------------------------------

  // The menu's moves in sight, with the first steps of moves chosen in two (Forced Deal):
  // a step's own moves are in the list while it is open.
  function menuButtons(menu) {
    return Array.from(menu.querySelectorAll(".menu button, .menu .menu-step > summary")).filter(
      function (item) { return !item.closest(".menu-step:not([open]) > .menu-step-moves"); }
    );
  }

  function openMenu(menu) {
    menu.open = true;
    const first = menuButtons(menu)[0];
    if (first) first.focus();
  }

  function moveInList(items, current, step) {
    const at = items.indexOf(current);
    if (at < 0) return;
    const next = items[(at + step + items.length) % items.length];
    if (next) next.focus();
  }

  // A menu opened with Enter or Space puts the focus on its first move.
  let byKeyboard = false;
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  document.addEventListener("toggle", function (event) {
    const menu = event.target;
    if (byKeyboard && menu.matches && menu.matches("details[data-card-menu]") && menu.open) {
      // Opened from its card (not by a shortcut, which chose the move to focus itself).
      const first = menuButtons(menu)[0];
      if (first && document.activeElement === menu.querySelector("summary")) first.focus();
    }
  }, true);

  function typing(target) {
    if (!target || !target.closest) return false;
    if (target.isContentEditable || target.closest("textarea, select")) return true;
    return target.matches("input") && !target.matches('[type="checkbox"], [type="radio"]');
  }

  function shortcutButton(selector) {
    return Array.from(document.querySelectorAll(selector)).find(function (button) {
      return !button.disabled && button.offsetParent !== null;
    }) || document.querySelector(selector);
  }

  function cardShortcut(kind) {
    const active = document.activeElement;
    const menu = active && active.closest && active.closest("details[data-card-menu]");
    const buttons = menu ? Array.from(menu.querySelectorAll(".menu .move-" + kind)) : [];
    if (buttons.length === 1) {
      buttons[0].click();
    } else if (buttons.length > 1) {
      // Several ways (lay as one colour or the other, whom to charge): let me choose.
      menu.open = true;
      const step = buttons[0].closest(".menu-step");
      (step && !step.open ? step.querySelector("summary") : buttons[0]).focus();
    } else {
      announce([page.dataset.noSuchMove]);
    }
  }

  const dialog = document.getElementById("shortcuts");
  const opener = document.querySelector("[data-shortcuts-open]");
  if (dialog && opener && dialog.showModal) {
    opener.hidden = false;
    opener.addEventListener("click", function () { dialog.showModal(); });
  }

  document.addEventListener("keydown", function (event) {
    byKeyboard = true;
    const active = document.activeElement;
    const menu = active && active.closest && active.closest("details[data-card-menu]");
    const inMenu = menu && menu.open && active.closest(".menu");

    const step = inMenu && active.closest(".menu-step");
    if (event.key === "Escape" && step && step.open) {
      // Out of a move's second step, back to its first.
      step.open = false;
      step.querySelector("summary").focus();
      return;
    }
    if (event.key === "Escape" && menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
      return;
    }
    if (inMenu && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      moveInList(menuButtons(menu), active, event.key === "ArrowDown" ? 1 : -1);
      return;
    }
    if (menu && active.matches("summary") && event.key === "ArrowDown") {
      event.preventDefault();
      openMenu(menu);
      return;
    }
    const items = handItems();
    if (items.indexOf(active) >= 0 && !inMenu) {
      const steps = { ArrowRight: 1, ArrowLeft: -1, ArrowUp: -1 };
      if (event.key in steps) {
        event.preventDefault();
        if (menu) menu.open = false;
        moveInList(items, active, steps[event.key]);
        return;
      }
      if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        items[event.key === "Home" ? 0 : items.length - 1].focus();
        return;
      }
    }

    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (dialog && dialog.open) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    let button = null;
    if (key === "?" && dialog && dialog.showModal) {
      event.preventDefault();
      dialog.showModal();
    } else if (/^[1-9]$/.test(key)) {
      const item = items[Number(key) - 1];
      if (item) {
        event.preventDefault();
        item.focus();
      }
    } else if (key === "e") {
      button = shortcutButton("#hand .hand-head .move-end");
    } else if (key === "a") {
      button = shortcutButton("#prompt .move-accept, #prompt .pay-form button[type=submit]");
    } else if (key === "n") {
      button = shortcutButton("#prompt .move-just_say_no, #hand .move-just_say_no");
    } else if (key === "b" || key === "l" || key === "p") {
      event.preventDefault();
      cardShortcut({ b: "bank", l: "lay", p: "play" }[key]);
    }
    if (button) {
      event.preventDefault();
      remember();
      button.click();
    }
  });
})();
