/* Being told that a game waits for me.
 *
 * The tab's title and icon say so while it lasts: on a table, when this game
 * waits for a decision of mine (#status[data-awaiting-me], re-sent by the
 * table's socket); on other pages, while the header's badge counts games
 * waiting for me (#nav-your-turn .badge, re-sent by the ws/me/ socket).
 * When a game starts waiting while the page is hidden, a short tone and a
 * browser notification, each only if switched on in the settings (attributes
 * on <body>). Only whether a game waits for me is used, nothing of any hand.
 */
(function () {
  "use strict";

  var body = document.body;
  if (!body || !body.hasAttribute("data-turn-title")) return; // signed-in pages only

  // The header's badges are drawn again by the ws/me/ socket whenever they change: a link of
  // theirs that had the focus keeps it (a keyboard user on "Your turn" is not sent to <body>).
  var badgeFocus = null;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var swapped = event.detail && event.detail.target;
    var active = document.activeElement;
    if (swapped && swapped.id === "nav-badges" && active && swapped.contains(active) && active.id) {
      badgeFocus = active.id;
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (!badgeFocus) return;
    var again = document.getElementById(badgeFocus);
    badgeFocus = null;
    var active = document.activeElement;
    if (again && (!active || active === document.body || !active.isConnected)) again.focus();
  });

  var wantsSound = body.hasAttribute("data-turn-sound");
  var wantsNotification = body.hasAttribute("data-turn-notification");
  var waitingText = body.getAttribute("data-turn-waiting-text");
  var plainTitle = document.title;
  // The mark goes before the page's own title, which a screen reader still reads.
  var turnTitle = body.getAttribute("data-turn-title") + " · " + plainTitle;
  var icon = document.querySelector('link[rel="icon"]');
  var plainIcon = icon ? icon.getAttribute("href") : null;
  var turnIcon = icon ? icon.getAttribute("data-turn-icon") : null;

  // A table's status and the header's badge both change for one move: alerts
  // that come close together are gathered into one, the table's words first.
  var GATHER_MS = 400;
  var QUIET_MS = 4000;

  function tableAwaitsMe() {
    var status = document.getElementById("status");
    if (!status || !status.hasAttribute("data-awaiting-me")) return null; // not a table
    return status.getAttribute("data-awaiting-me") === "true";
  }

  function gamesWaiting() {
    // The header's badge shows the count, and is left out when nothing waits.
    var badge = document.querySelector("#nav-your-turn .badge");
    return badge ? parseInt(badge.textContent, 10) || 0 : 0;
  }

  function tableText() {
    var page = document.querySelector("[data-turn-text]");
    return page ? page.getAttribute("data-turn-text") : null;
  }

  function show(table, count) {
    var mine = table === null ? count > 0 : table;
    var title = mine ? turnTitle : plainTitle;
    if (document.title !== title) document.title = title;
    if (icon && turnIcon) {
      var href = mine ? turnIcon : plainIcon;
      if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
    }
  }

  // --- the sound: a short rising tone, made by the Web Audio API ------------------------------

  var audio = null;

  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    return audio;
  }

  function playTone() {
    var context = audioContext();
    if (!context) return;
    if (context.state === "suspended" && context.resume) context.resume();
    var now = context.currentTime;
    var oscillator = context.createOscillator();
    var gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.setValueAtTime(660, now);
    oscillator.frequency.setValueAtTime(880, now + 0.12);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
    oscillator.connect(gain);
    gain.connect(context.destination);
    oscillator.start(now);
    oscillator.stop(now + 0.32);
  }

  if (wantsSound) {
    // Browsers let a page make sound only after a gesture on it: take the first one.
    ["pointerdown", "keydown"].forEach(function (type) {
      document.addEventListener(
        type,
        function () {
          var context = audioContext();
          if (context && context.state === "suspended" && context.resume) context.resume();
        },
        { once: true, capture: true }
      );
    });
  }

  // --- the browser notification --------------------------------------------------------------

  var shown = null;

  function notify(text) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try {
      shown = new Notification(text, { tag: "full-set-turn", icon: plainIcon || undefined });
      shown.onclick = function () {
        window.focus();
        this.close();
      };
    } catch (error) {
      // Some mobile browsers notify only through a service worker: the title says it still.
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && shown) {
      shown.close();
      shown = null;
    }
  });

  var pending = null;
  var pendingText = null;
  var lastAlert = 0;

  function alertSoon(text) {
    if (!document.hidden || !(wantsSound || wantsNotification)) return;
    if (Date.now() - lastAlert < QUIET_MS) return;
    if (text) pendingText = text;
    if (pending) return;
    pending = setTimeout(function () {
      pending = null;
      lastAlert = Date.now();
      var words = pendingText || waitingText;
      pendingText = null;
      if (wantsSound) playTone();
      if (wantsNotification) notify(words);
    }, GATHER_MS);
  }

  // --- watching the fragments the sockets swap in --------------------------------------------

  var lastTable = tableAwaitsMe();
  var lastCount = gamesWaiting();

  function check() {
    var table = tableAwaitsMe();
    var count = gamesWaiting();
    if (table === true && lastTable === false) alertSoon(tableText());
    if (count > lastCount) alertSoon(null);
    lastTable = table;
    lastCount = count;
    show(table, count);
  }

  show(lastTable, lastCount);
  new MutationObserver(check).observe(body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-awaiting-me"],
  });

  // --- the settings page: ask for permission only when the player clicks ----------------------

  var permission = document.getElementById("notification-permission");
  if (permission) {
    var showPermission = function () {
      var state = "Notification" in window ? Notification.permission : "unsupported";
      permission.querySelectorAll("[data-permission]").forEach(function (part) {
        part.hidden = part.getAttribute("data-permission") !== state;
      });
      permission.hidden = false;
    };
    permission.querySelector("[data-ask-permission]").addEventListener("click", function () {
      var asked = Notification.requestPermission(showPermission);
      if (asked && asked.then) asked.then(showPermission);
    });
    showPermission();
  }
})();
