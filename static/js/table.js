// Full Set: the live table. The page works without this file; it only
//  - refuses to swap in a fragment older than the one shown (an htmx response
//    and a socket message for different versions can arrive in either order),
//  - keeps an open card menu open when its fragment is redrawn (the same card in the same
//    place: a wild laid from the hand does not open its menu on the table), with the
//    second step of a move it had open (Forced Deal), and closes the menu a move was made from,
//  - places an open card menu wholly within the viewport,
//  - shows the running total of a payment and the count of a discard, and keeps the cards
//    ticked in one when its fragment is redrawn (the same choice, the same cards still offered),
//  - says so when the game socket has been closed for a few seconds (#live-status),
//  - posts a move form (sent over the game socket: ws-send) while the socket is not open,
//    sends it once until the socket answers, and posts it if the socket has not answered
//    within a few seconds.
(function () {
  "use strict";

  // Moves go over the game socket while it is open (games/live/moves.py). While it is not
  // (still connecting, reconnecting, closed), the form is posted as before: htmx-ext-ws would
  // hold the move in a queue until the socket opens, perhaps never.
  let socketOpen = false;
  let sentForm = null;

  function isGameSocket(event) {
    return event.target.matches && event.target.matches(".game-page");
  }

  // While the socket is closed the table follows the game no more: after a moment (a
  // reconnect usually takes under one) #live-status says so. A socket that opens again means
  // the live layer is back (games/live/sockets.py refuses new sockets while it is away): the
  // notice goes, the server's own "paused" one too, left from before a restart. A close
  // that htmx-ext-ws does not retry (an ended session, 4401; a flood, 4408; access lost)
  // says at once that the page must be reloaded.
  const QUIET_CLOSE_MS = 3000;
  // Still closed after the quick tries (static/js/sockets.js): the site is away for long, or
  // its database (which a socket's session is read from): a reload may help, and a new login
  // if the session ended meanwhile. A session that ended is told by a 4401 when it can be.
  const LONG_CLOSE_MS = 40000;
  const RETRIED = [1006, 1011, 1012, 1013]; // as htmx-ext-ws's socket.onclose
  let closedTimer = null;

  function liveStatus(text) {
    const status = document.getElementById("live-status");
    if (!status) return;
    status.textContent = text;
    status.hidden = !text;
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    if (!isGameSocket(event)) return;
    socketOpen = true;
    clearTimeout(closedTimer);
    closedTimer = null;
    liveStatus("");
  });
  document.addEventListener("htmx:wsClose", function (event) {
    if (!isGameSocket(event)) return;
    socketOpen = false;
    sentForm = null;
    const page = event.target;
    const closing = event.detail && event.detail.event;
    if (closing && RETRIED.indexOf(closing.code) < 0) {
      clearTimeout(closedTimer);
      liveStatus(page.getAttribute("data-socket-ended-text"));
      return;
    }
    if (closedTimer !== null) return; // counted from the first close: refused tries close too
    closedTimer = setTimeout(function () {
      liveStatus(page.getAttribute("data-socket-closed-text"));
      closedTimer = setTimeout(function () {
        liveStatus(page.getAttribute("data-socket-long-text"));
      }, LONG_CLOSE_MS - QUIET_CLOSE_MS);
    }, QUIET_CLOSE_MS);
  });
  // A form sent once is not sent again until the socket answers (its board, or the flash
  // with a refusal): a double click would otherwise meet "the board has changed". (htmx
  // drops a form's second POST while the first is in flight in the same way.)
  // A socket can look open and be dead (a network that dropped it without a word): a move
  // sent that the socket has not answered within RESEND_MS is posted. It carries the version
  // it was drawn from, so if the socket's move did arrive the POST is refused as stale, never
  // made twice.
  const RESEND_MS = 5000;
  let resendTimer = null;

  function post(form) {
    window.htmx.ajax("POST", form.getAttribute("action"), { source: form, swap: "none" });
  }

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (!isGameSocket(event)) return;
    sentForm = null;
    clearTimeout(resendTimer);
  });
  document.addEventListener("htmx:wsConfigSend", function (event) {
    const form = event.target;
    if (socketOpen && sentForm !== form) {
      sentForm = form;
      // What the flash said was about before this move (a refusal comes back into it); the
      // socket cannot know to empty one a POST's answer filled.
      const flash = document.getElementById("flash");
      if (flash) flash.replaceChildren();
      clearTimeout(resendTimer);
      resendTimer = setTimeout(function () {
        if (sentForm !== form) return;
        sentForm = null;
        if (form.isConnected) post(form);
      }, RESEND_MS);
      return;
    }
    event.preventDefault();
    if (!socketOpen) post(form);
  });

  function versionOf(element) {
    if (!element || !element.getAttribute) return null;
    const value = element.getAttribute("data-version");
    return value === null ? null : Number(value);
  }

  let openMenus = [];
  let openSteps = [];
  let ticked = [];

  // A payment or discard is known by its kind and the share it answers: a redraw that
  // still asks the same keeps what the player had ticked in it.
  function choiceKey(form) {
    const share = form.querySelector('input[name="share"]');
    return form.dataset.choice + ":" + (share ? share.value : "");
  }

  function tickedIn(target) {
    return Array.from(target.querySelectorAll("form[data-choice]")).map(function (form) {
      const cards = Array.from(form.querySelectorAll('input[name="cards"]:checked'));
      return { key: choiceKey(form), cards: cards.map(function (box) { return box.value; }) };
    }).filter(function (choice) { return choice.cards.length; });
  }

  function tickAgain(choice) {
    const form = Array.from(document.querySelectorAll("form[data-choice]")).find(function (f) {
      return choiceKey(f) === choice.key;
    });
    if (!form) return;
    form.querySelectorAll('input[name="cards"]').forEach(function (box) {
      if (!box.disabled && choice.cards.indexOf(box.value) >= 0) box.checked = true;
    });
    update(form);
  }

  // A menu is known by its place (hand or table) and its card: a card laid from the hand
  // keeps its id on the table, where its own menu must stay closed.
  function menuKey(menu) {
    return (menu.getAttribute("name") || "") + ":" + menu.getAttribute("data-card-menu");
  }

  // A move's first step in a menu (Forced Deal's card to take) is known by its words.
  function stepName(step) {
    return step.querySelector("summary").textContent.trim();
  }

  function findMenu(key) {
    return Array.from(document.querySelectorAll("details[data-card-menu]")).find(function (menu) {
      return menuKey(menu) === key;
    });
  }

  // The fragment around a part of it swapped alone (a player's table inside the board).
  function around(element) {
    return element.parentElement && element.parentElement.closest("[data-version]");
  }

  // The newest version the page shows where `target` is: its own, or that of the fragment
  // around it, which holds the newest of the parts swapped into it (below).
  function shownVersion(target) {
    const own = versionOf(target);
    const outer = versionOf(around(target));
    return outer !== null && (own === null || outer > own) ? outer : own;
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const target = event.detail.target;
    const fragment = event.detail.fragment;
    const incoming = fragment && fragment.firstElementChild;
    const shown = shownVersion(target);
    const next = versionOf(incoming);
    if (shown !== null && next !== null && next < shown) {
      event.detail.shouldSwap = false;
      return;
    }
    openMenus = openMenus.concat(
      Array.from(target.querySelectorAll("details[open][data-card-menu]")).map(menuKey)
    );
    openSteps = openSteps.concat(
      Array.from(target.querySelectorAll("details[open][data-card-menu] .menu-step[open]")).map(
        function (step) {
          return [menuKey(step.closest("details[data-card-menu]")), stepName(step)];
        }
      )
    );
    ticked = ticked.concat(tickedIn(target));
  });

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    // A part swapped alone brings the fragment around it to its version: the board's
    // data-version is that of the newest table or piles it shows.
    const part = event.target;
    const version = versionOf(part);
    const outer = part && part.isConnected ? around(part) : null;
    if (version !== null && outer && versionOf(outer) < version) {
      outer.setAttribute("data-version", String(version));
    }
    openMenus.forEach(function (key) {
      const menu = findMenu(key);
      if (menu) menu.open = true;
    });
    openMenus = [];
    openSteps.forEach(function (pair) {
      const menu = findMenu(pair[0]);
      const step = menu && Array.from(menu.querySelectorAll(".menu-step")).find(function (s) {
        return stepName(s) === pair[1];
      });
      if (step) step.open = true;
    });
    openSteps = [];
    ticked.forEach(tickAgain);
    ticked = [];
  });

  // A move made from a menu closes it: the redrawn table must not show it open again.
  document.addEventListener("submit", function (event) {
    const menu = event.target.closest && event.target.closest("details[data-card-menu]");
    if (menu) menu.open = false;
  }, true);

  // Keep an open menu inside the viewport: shift it sideways, open it upwards when there
  // is no room below, and scroll the page as a last resort. (The phone's sheet is fixed
  // to the bottom of the screen already.)
  const MARGIN = 8;

  function place(details) {
    const menu = details.querySelector(".menu");
    if (!menu) return;
    // No empty style="" left behind: copied as markup, the CSP (style-src 'self') refuses it.
    menu.style.removeProperty("transform");
    if (!menu.getAttribute("style")) menu.removeAttribute("style");
    menu.classList.remove("menu-up");
    if (getComputedStyle(menu).position === "fixed") return;
    const width = document.documentElement.clientWidth;
    const height = window.innerHeight;
    let box = menu.getBoundingClientRect();
    if (box.bottom > height - MARGIN) {
      const card = details.querySelector("summary").getBoundingClientRect();
      if (card.top - box.height - MARGIN >= MARGIN) {
        menu.classList.add("menu-up");
        box = menu.getBoundingClientRect();
      }
    }
    let shift = 0;
    if (box.right + shift > width - MARGIN) shift = width - MARGIN - box.right;
    if (box.left + shift < MARGIN) shift = MARGIN - box.left;
    if (shift) menu.style.transform = "translateX(" + Math.round(shift) + "px)";
    box = menu.getBoundingClientRect();
    if (box.top < 0 || box.bottom > height) menu.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("toggle", function (event) {
    const details = event.target;
    if (details.matches && details.matches("details[data-card-menu]") && details.open) {
      place(details);
    } else if (details.matches && details.matches(".menu-step") && details.open) {
      // A move's second step opened: the menu grew.
      const outer = details.closest("details[data-card-menu]");
      const box = outer.querySelector(".menu").getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) place(outer);
      details.scrollIntoView({ block: "nearest" });
    }
  }, true);

  window.addEventListener("resize", function () {
    document.querySelectorAll("details[data-card-menu][open]").forEach(place);
  });

  function update(form) {
    const checked = Array.from(form.querySelectorAll('input[name="cards"]:checked'));
    if (form.dataset.choice === "pay") {
      const amount = Number(form.dataset.amount);
      const chosen = checked.reduce(function (sum, box) { return sum + Number(box.dataset.value); }, 0);
      form.querySelector(".js-chosen").textContent = chosen;
      form.querySelector(".js-owed").textContent = Math.max(amount - chosen, 0);
    } else if (form.dataset.choice === "discard") {
      form.querySelector(".js-count").textContent = checked.length;
    }
  }

  document.addEventListener("change", function (event) {
    const form = event.target.closest && event.target.closest("form[data-choice]");
    if (form) update(form);
  });

  // A move posted while the database restarts (503), or too many at once (429), is answered
  // with a sentence (nothing was changed): htmx swaps no error response, so the flash shows it.
  document.addEventListener("htmx:responseError", function (event) {
    const xhr = event.detail.xhr;
    const flash = document.getElementById("flash");
    if (!xhr || (xhr.status !== 503 && xhr.status !== 429) || !flash) return;
    const message = document.createElement("p");
    message.className = "message error";
    message.setAttribute("role", "alert");
    message.textContent = xhr.responseText;
    flash.replaceChildren(message);
  });

  // The flash floats at the top of the window (table.css): a click puts it away.
  document.addEventListener("click", function (event) {
    const flash = event.target.closest && event.target.closest("#flash");
    if (flash) flash.replaceChildren();
  });

  // Close an open card menu with Escape or a click elsewhere. Escape within a move's open
  // second step closes that step alone (static/js/keys.js).
  document.addEventListener("keydown", function (event) {
    const step = event.target.closest && event.target.closest(".menu-step[open]");
    if (event.key === "Escape" && !step) {
      document.querySelectorAll("details[data-card-menu][open]").forEach(function (menu) {
        menu.open = false;
      });
    }
  });
  document.addEventListener("click", function (event) {
    document.querySelectorAll("details[data-card-menu][open]").forEach(function (menu) {
      if (!menu.contains(event.target)) menu.open = false;
    });
  });
})();
