// Full Set: how soon a page's sockets (htmx-ext-ws) try again after they closed: a server
// process restarting, or new sockets refused while the live layer is away
// (games/live/sockets.py). The extension's own "full-jitter" waits up to 2^n seconds, 64 at
// most, so a table could stay behind for a minute after the site was back. Here: a random
// wait of up to 1, 2, then 4 seconds at most, which still spreads the reconnects of many
// pages over a few seconds.
(function () {
  "use strict";
  if (!window.htmx) return;
  const MAX_MS = 4000;
  window.htmx.config.wsReconnectDelay = function (retryCount) {
    return Math.min(1000 * Math.pow(2, retryCount), MAX_MS) * Math.random();
  };
})();
