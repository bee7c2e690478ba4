// Full Set: deadlines. The server writes "2 days, 3 hours left" and a UTC time;
// this file shows the time in the browser's own time zone and, in the last
// day, a countdown that ticks every second (H:MM:SS needs no translation).
(function () {
  "use strict";

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (element) {
      const left = Math.max(0, Date.parse(element.dataset.deadline) - now);
      if (left >= 86400000) return; // a day or more: the server's words are precise enough
      const seconds = Math.floor(left / 1000);
      element.textContent =
        Math.floor(seconds / 3600) + ":" + pad(Math.floor(seconds / 60) % 60) + ":" + pad(seconds % 60);
      element.classList.toggle("urgent", seconds < 20);
    });
  }

  function localTimes(root) {
    const language = document.documentElement.lang || undefined;
    root.querySelectorAll("time.local-time:not([data-local])").forEach(function (element) {
      const when = new Date(element.getAttribute("datetime"));
      if (isNaN(when)) return;
      element.textContent = when.toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });
      element.dataset.local = "1";
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
