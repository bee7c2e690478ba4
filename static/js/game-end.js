// The table's ways out of a game (templates/games/table.html, the status fragment):
//  - keeps the Resign confirmation open when the status is redrawn by a move;
//  - follows a player to the rematch they accepted once it starts: the game socket
//    redraws the status with a [data-follow-rematch] link at a version newer than the
//    page's. A page opened after the rematch began shows the link and stays put; a
//    page whose own answer started the rematch follows that answer's redirect.
(function () {
  "use strict";

  let loadedVersion = null;
  let resignOpen = false;
  let following = false;

  function statusVersion() {
    const status = document.getElementById("status");
    return status ? Number(status.dataset.version) : null;
  }

  document.addEventListener("DOMContentLoaded", function () {
    loadedVersion = statusVersion();
  });

  // A player's own Rematch answer is followed by its response (HX-Redirect): a second
  // navigation from the socket's redraw would abort the first. The request's own
  // events are used, not the form's: a redraw may have taken the form out of the page.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const xhr = event.detail.xhr;
    if (!xhr || !event.target.closest("#game-over")) return;
    following = true;
    xhr.addEventListener("loadend", function () {
      if (xhr.getResponseHeader("HX-Redirect")) return;
      following = false;
      follow();
    });
  });

  document.addEventListener("htmx:oobBeforeSwap", function () {
    const details = document.querySelector('details[data-keep-open="resign"]');
    resignOpen = Boolean(details && details.open);
  });

  document.addEventListener("htmx:oobAfterSwap", function () {
    const details = document.querySelector('details[data-keep-open="resign"]');
    if (details && resignOpen) details.open = true;
    follow();
  });

  function follow() {
    const link = document.querySelector("[data-follow-rematch]");
    const version = statusVersion();
    if (link && !following && loadedVersion !== null && version !== null && version > loadedVersion) {
      following = true;
      window.location.assign(link.href);
    }
  }
})();
