// Filters and sorts the question index table. Ours, no dependencies, no requests.
// The filters and the sort live in the page's URL (?level=senior&importance=must+know&sort=frequency),
// so a guide can link to a view; the first click on a column sorts the useful way first.
(function () {
  "use strict";

  // The direction a first click sorts in: most frequent and most important first, junior first.
  var FIRST = { frequency: "descending", importance: "ascending", level: "ascending",
                question: "ascending", topic: "ascending", learning: "ascending" };
  var FILTERS = ["level", "importance", "topic"];

  function setUp(root) {
    var table = root.querySelector(".question-table");
    if (!table || table.dataset.ready) return;
    table.dataset.ready = "1";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var filters = root.querySelectorAll("[data-filter]");
    var sortBy = root.querySelector("[data-sort-by]");
    var count = root.querySelector(".question-count");
    var empty = root.querySelector(".question-empty");
    var sort = { key: "learning", order: "ascending" };

    function byName(name) {
      return root.querySelector('[data-filter="' + name + '"]');
    }

    function keyOf(row, key) {
      if (key === "level") return Number(row.dataset.levelRank);
      if (key === "importance") return Number(row.dataset.importanceRank);
      if (key === "frequency") return Number(row.dataset.frequency);
      if (key === "topic") return Number(row.dataset.topicRank);
      if (key === "question") return row.cells[0].textContent.toLowerCase();
      return Number(row.dataset.learningRank);
    }

    function writeUrl() {
      var params = new URLSearchParams(window.location.search);
      filters.forEach(function (el) {
        var name = el.dataset.filter === "text" ? "q" : el.dataset.filter;
        if (el.value.trim()) params.set(name, el.value.trim()); else params.delete(name);
      });
      if (sort.key !== "learning" || sort.order !== "ascending") {
        params.set("sort", sort.key);
        if (sort.order !== FIRST[sort.key]) params.set("order", sort.order === "ascending" ? "asc" : "desc");
        else params.delete("order");
      } else {
        params.delete("sort");
        params.delete("order");
      }
      var query = params.toString();
      window.history.replaceState(window.history.state, "",
        window.location.pathname + (query ? "?" + query : "") + window.location.hash);
    }

    function readUrl() {
      var params = new URLSearchParams(window.location.search);
      FILTERS.forEach(function (name) {
        var el = byName(name), value = (params.get(name) || "").toLowerCase();
        if (el && Array.prototype.some.call(el.options, function (o) { return o.value === value; })) {
          el.value = value;
        }
      });
      var text = byName("text");
      if (text && params.get("q")) text.value = params.get("q");
      var key = params.get("sort");
      if (key && FIRST[key]) {
        var order = params.get("order");
        sort = { key: key, order: order === "asc" ? "ascending" : order === "desc" ? "descending" : FIRST[key] };
      }
    }

    function apply() {
      var wanted = {};
      filters.forEach(function (el) { wanted[el.dataset.filter] = el.value.trim().toLowerCase(); });
      var shown = 0;
      rows.forEach(function (row) {
        var ok = FILTERS.every(function (key) { return !wanted[key] || row.dataset[key] === wanted[key]; });
        if (ok && wanted.text) ok = row.cells[0].textContent.toLowerCase().indexOf(wanted.text) !== -1;
        row.hidden = !ok;
        if (ok) shown += 1;
      });
      if (count) count.textContent = shown + " of " + rows.length + " questions";
      if (empty) empty.hidden = shown !== 0;
      table.hidden = shown === 0;
      // The reader's progress filter (progress.js), when it has loaded, narrows this further.
      if (window.InterviewProgress) window.InterviewProgress.filterIndex();
    }

    function applySort() {
      table.querySelectorAll("th").forEach(function (th) {
        var button = th.querySelector("[data-sort]");
        th.setAttribute("aria-sort", button && button.dataset.sort === sort.key ? sort.order : "none");
      });
      if (sortBy) sortBy.value = sort.key;
      var sign = sort.order === "ascending" ? 1 : -1;
      rows.sort(function (a, b) {
        var x = keyOf(a, sort.key), y = keyOf(b, sort.key);
        var order = x < y ? -1 : x > y ? 1 : 0;
        // Ties keep the learning order, whichever way the column goes.
        return order * sign || keyOf(a, "learning") - keyOf(b, "learning");
      });
      rows.forEach(function (row) { body.appendChild(row); });
    }

    table.querySelectorAll("[data-sort]").forEach(function (button) {
      button.addEventListener("click", function () {
        var key = button.dataset.sort;
        var again = sort.key === key;
        sort = { key: key, order: again ? (sort.order === "ascending" ? "descending" : "ascending") : FIRST[key] };
        applySort();
        writeUrl();
      });
    });
    if (sortBy) {
      sortBy.addEventListener("change", function () {
        sort = { key: sortBy.value, order: FIRST[sortBy.value] };
        applySort();
        writeUrl();
      });
    }
    filters.forEach(function (el) {
      el.addEventListener("input", function () { apply(); writeUrl(); });
    });
    var clear = root.querySelector("[data-clear-filters]");
    if (clear) {
      clear.addEventListener("click", function () {
        filters.forEach(function (el) { el.value = ""; });
        var progress = root.querySelector("[data-progress-filter]");
        if (progress) {
          progress.value = "";
          var params = new URLSearchParams(window.location.search);
          params.delete("progress");
          window.history.replaceState(window.history.state, "", window.location.pathname +
            (params.toString() ? "?" + params.toString() : "") + window.location.hash);
        }
        apply();
        writeUrl();
        var first = filters[0];
        if (first) first.focus();
      });
    }
    readUrl();
    // The table is served in learning order: re-order it only for another sort.
    if (sort.key !== "learning" || sort.order !== "ascending") applySort();
    var filtered = Array.prototype.some.call(filters, function (el) { return el.value.trim(); });
    if (filtered) apply();
    else if (count) count.textContent = rows.length + " of " + rows.length + " questions";
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(function () { setUp(document); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  }
})();
