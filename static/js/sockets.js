// Full Set: how soon a page's sockets (htmx-ext-ws) try again after they closed: a server
// process restarting, or new sockets refused while the live layer is away
// (games/live/sockets.py). The extension's own "full-jitter" waits up to 2^n seconds, 64 at
// most, so a table could stay behind for a minute after the site was back. Here: a random
// wait of up to 1, 2, then 4 seconds for the first FAST_TRIES (about half a minute), which
// still spreads the reconnects of many pages over a few seconds; then growing again to 64
// as the extension's, so that a socket refused for good (a 13th tab, an ended session)
// does not knock every two seconds for as long as its page stays open.
(function () {
  "use strict";
  if (!window.htmx) return;
  const FAST_TRIES = 15;
  const FAST_MS = 4000;
  const SLOWEST_MS = 64000;
  window.htmx.config.wsReconnectDelay = function (retryCount) {
    const most =
      retryCount < FAST_TRIES
        ? Math.min(1000 * Math.pow(2, retryCount), FAST_MS)
        : Math.min(FAST_MS * Math.pow(2, retryCount - FAST_TRIES + 1), SLOWEST_MS);
    return most * Math.random();
  };
})();
