// Progressive enhancement only: the page reads completely without this script.
(function () {
  "use strict";

  // Search: every top-level `.item` (card or table row) is a hit when it contains all the typed
  // words; groups and parts with no hit are hidden with it.
  var box = document.getElementById("search-box");
  var input = document.getElementById("search");
  var status = document.getElementById("search-status");
  var items = Array.prototype.filter.call(document.querySelectorAll("main .item"), function (el) {
    return !el.parentElement.closest(".item");
  });
  var texts = items.map(function (el) { return el.textContent.toLowerCase(); });
  var containers = Array.prototype.slice.call(document.querySelectorAll("main section"));

  function filter() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    items.forEach(function (el, i) {
      var hit = words.every(function (w) { return texts[i].indexOf(w) !== -1; });
      el.classList.toggle("search-hidden", !hit);
      if (hit) { shown += 1; }
    });
    // Innermost sections first, so a part sees its groups' final state.
    containers.slice().reverse().forEach(function (section) {
      var empty = words.length > 0 && !section.querySelector(".item:not(.search-hidden)");
      section.classList.toggle("search-hidden", empty);
    });
    document.querySelectorAll("main h4.channel").forEach(function (h) {
      var next = h.nextElementSibling;
      var any = false;
      while (next && next.classList.contains("item")) {
        any = any || !next.classList.contains("search-hidden");
        next = next.nextElementSibling;
      }
      h.classList.toggle("search-hidden", words.length > 0 && !any);
    });
    status.textContent = words.length ? shown + (shown === 1 ? " match" : " matches") : "";
  }

  box.hidden = false;
  input.addEventListener("input", filter);
  input.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { input.value = ""; filter(); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== input) { e.preventDefault(); input.focus(); }
  });

  // Dates: marked against the reader's clock, never the build's, so the file stays the same.
  var today = new Date().toISOString().slice(0, 10);
  document.querySelectorAll("[data-date]").forEach(function (el) {
    var upcoming = el.getAttribute("data-date") > today;
    el.classList.add(upcoming ? "upcoming" : "past");
  });
})();
