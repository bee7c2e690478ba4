// Full Set: the live table. The page works without this file; it only
//  - refuses to swap in a fragment older than the one shown (an htmx response
//    and a socket message for different versions can arrive in either order),
//  - keeps an open card menu open when its fragment is redrawn,
//  - shows the running total of a payment and the count of a discard.
(function () {
  "use strict";

  function versionOf(element) {
    if (!element || !element.getAttribute) return null;
    const value = element.getAttribute("data-version");
    return value === null ? null : Number(value);
  }

  let openMenus = [];

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const target = event.detail.target;
    const fragment = event.detail.fragment;
    const incoming = fragment && fragment.firstElementChild;
    const shown = versionOf(target);
    const next = versionOf(incoming);
    if (shown !== null && next !== null && next < shown) {
      event.detail.shouldSwap = false;
      return;
    }
    openMenus = Array.from(target.querySelectorAll("details[open][data-card-menu]")).map(
      function (menu) { return menu.getAttribute("data-card-menu"); }
    );
  });

  document.addEventListener("htmx:oobAfterSwap", function () {
    openMenus.forEach(function (card) {
      const menu = document.querySelector('details[data-card-menu="' + card + '"]');
      if (menu) menu.open = true;
    });
    openMenus = [];
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

  // Close an open card menu with Escape or a click elsewhere.
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
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
