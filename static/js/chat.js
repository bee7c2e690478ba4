// Full Set: the table chat. The chat works without this file (a plain form); it only
//  - keeps each room's list scrolled to its newest message as messages arrive,
//  - puts the focus back in the message box after an htmx send.
(function () {
  "use strict";

  function scrollDown(list) {
    list.scrollTop = list.scrollHeight;
  }

  function scrollAll() {
    document.querySelectorAll(".chat .chat-list").forEach(scrollDown);
  }

  document.addEventListener("DOMContentLoaded", scrollAll);

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    const target = event.detail.target;
    if (target && target.classList && target.classList.contains("chat-list")) scrollDown(target);
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    const target = event.detail.target;
    if (!target || !target.id) return;
    if (target.id === "chat") scrollAll();
    const box = document.getElementById("chat-text");
    if ((target.id === "chat-form" || target.id === "chat") && box) box.focus();
  });
})();
