// Full Set: show the <time data-local-time> of a page in the reader's own time zone.
// Without this file the server's rendering (in UTC, with its zone named) stays.
(function () {
  "use strict";

  function localize(root) {
    const options = { dateStyle: "medium", timeStyle: "short" };
    let format;
    try {
      format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, options);
    } catch (error) {  // a language tag the browser does not know
      format = new Intl.DateTimeFormat(undefined, options);
    }
    root.querySelectorAll("time[data-local-time]").forEach(function (element) {
      const when = new Date(element.getAttribute("datetime"));
      if (isNaN(when)) return;
      element.title = element.textContent.trim();
      element.textContent = format.format(when);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { localize(document); });
})();
