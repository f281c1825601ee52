// Filters and sorts the question index table. Ours, no dependencies, no requests.
(function () {
  "use strict";

  function setUp(root) {
    var table = root.querySelector(".question-table");
    if (!table || table.dataset.ready) return;
    table.dataset.ready = "1";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var filters = root.querySelectorAll("[data-filter]");
    var count = root.querySelector(".question-count");

    function apply() {
      var wanted = {};
      filters.forEach(function (el) { wanted[el.dataset.filter] = el.value.trim().toLowerCase(); });
      var shown = 0;
      rows.forEach(function (row) {
        var ok = ["level", "importance", "topic"].every(function (key) {
          return !wanted[key] || row.dataset[key] === wanted[key];
        });
        if (ok && wanted.text) ok = row.cells[0].textContent.toLowerCase().indexOf(wanted.text) !== -1;
        row.hidden = !ok;
        if (ok) shown += 1;
      });
      if (count) count.textContent = shown + " of " + rows.length + " questions";
    }

    function keyOf(row, key) {
      if (key === "level") return Number(row.dataset.levelRank);
      if (key === "importance") return Number(row.dataset.importanceRank);
      if (key === "frequency") return Number(row.dataset.frequency);
      if (key === "topic") return row.dataset.topic;
      return row.cells[0].textContent.toLowerCase();
    }

    table.querySelectorAll("[data-sort]").forEach(function (button) {
      button.addEventListener("click", function () {
        var th = button.parentElement;
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        table.querySelectorAll("th").forEach(function (other) { other.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var key = button.dataset.sort;
        rows.sort(function (a, b) {
          var x = keyOf(a, key), y = keyOf(b, key);
          var order = x < y ? -1 : x > y ? 1 : 0;
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
    filters.forEach(function (el) { el.addEventListener("input", apply); });
    apply();
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(function () { setUp(document); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  }
})();
