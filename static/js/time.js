// Full Set: times and deadlines, on every page. The server writes times in
// UTC (with the zone named) and "2 days, 3 hours left"; this file shows
// <time data-local-time> in the reader's own time zone and, in the last day
// before a deadline, a countdown ticking every second on [data-deadline]
// (H:MM:SS needs no translation). Fragments swapped in by htmx are redone.
(function () {
  "use strict";

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (element) {
      const left = Math.max(0, Date.parse(element.dataset.deadline) - now);
      if (isNaN(left) || left >= 86400000) return; // a day or more: the server's words will do
      const seconds = Math.floor(left / 1000);
      element.textContent =
        Math.floor(seconds / 3600) + ":" + pad(Math.floor(seconds / 60) % 60) + ":" + pad(seconds % 60);
      element.classList.toggle("urgent", seconds < 20);
    });
  }

  let format;
  function localTimes(root) {
    if (!format) {
      const options = { dateStyle: "medium", timeStyle: "short" };
      try {
        format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, options);
      } catch (error) { // a language tag the browser does not know
        format = new Intl.DateTimeFormat(undefined, options);
      }
    }
    root.querySelectorAll("time[data-local-time]:not([data-localized])").forEach(function (element) {
      const when = new Date(element.getAttribute("datetime"));
      if (isNaN(when)) return;
      element.title = element.textContent.trim();
      element.textContent = format.format(when);
      element.dataset.localized = "1";
    });
  }

  function refresh() {
    localTimes(document);
    tick();
  }

  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("htmx:oobAfterSwap", refresh);
  setInterval(tick, 1000);
})();
