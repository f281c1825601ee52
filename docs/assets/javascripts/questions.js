// Filters and sorts the question index table. Ours, no dependencies.
// The filters and the sort live in the page's URL (?level=senior&importance=must+know&sort=frequency),
// so a guide can link to a view; the first click on a column sorts the useful way first.
// The page serves the first rows in learning order (catalog.py), so a first visit weighs the same
// however many questions there are; the rest (the table's data-rest file) are fetched once, when
// the reader filters, sorts, asks for every question, or progress.js has progress to show.
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
    var counter = root.querySelector(".question-count");
    var empty = root.querySelector(".question-empty");
    var sort = { key: "learning", order: "ascending" };
    var more = /** @type {HTMLElement | null} */ (root.querySelector(".question-more"));
    /** @type {Promise<void> | null} */
    var loading = null;

    // Every row in the table: the served ones, and the rest fetched once and appended in
    // learning order, then sorted as the reader asked. Says so beside the table if it fails.
    function whole() {
      var rest = table.dataset.rest;
      if (!rest) return Promise.resolve();
      if (!loading) {
        loading = fetch(new URL(rest, window.location.href).href).then(function (response) {
          if (!response.ok) throw new Error(response.status + " " + response.statusText);
          return response.text();
        }).then(function (text) {
          var template = document.createElement("template");
          template.innerHTML = text;
          Array.prototype.forEach.call(template.content.querySelectorAll("tr"), function (row) {
            body.appendChild(row);
            rows.push(row);
          });
          delete table.dataset.rest;
          if (more) more.hidden = true;
          if (sort.key !== "learning" || sort.order !== "ascending") applySort();
          apply();  // the filters and the count, over every row now
          document.dispatchEvent(new CustomEvent("question-index-whole"));
        }).catch(function (error) {
          loading = null;
          if (more) {
            more.textContent = "The other questions could not be loaded (" + error.message +
              "): reload the page, or open each topic's page from the navigation.";
          }
          throw error;
        });
      }
      return loading;
    }
    window.QuestionIndex = { whole: whole };
    // progress.js may have run first: it marks the index again now that whole() is here.
    document.dispatchEvent(new CustomEvent("question-index-ready"));

    function count(shown) {
      if (!counter) return;
      counter.textContent = table.dataset.rest
        ? "The first " + rows.length + " of " + table.dataset.total + " questions"
        : shown + " of " + rows.length + " questions";
    }

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
      count(shown);
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
        whole().catch(function () { /* said beside the table */ });
      });
    });
    if (sortBy) {
      sortBy.addEventListener("change", function () {
        sort = { key: sortBy.value, order: FIRST[sortBy.value] };
        applySort();
        writeUrl();
        whole().catch(function () { /* said beside the table */ });
      });
    }
    filters.forEach(function (el) {
      el.addEventListener("input", function () {
        apply();
        writeUrl();
        whole().catch(function () { /* said beside the table */ });
      });
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
        whole().catch(function () { /* said beside the table */ });
        var first = filters[0];
        if (first) first.focus();
      });
    }
    var showAll = root.querySelector("[data-show-all]");
    if (showAll) {
      showAll.addEventListener("click", function () {
        whole().then(function () {
          count(rows.length);
          // The first row the reader had not seen, so the keyboard goes on from there.
          var next = rows[Number(table.dataset.first || 0)];
          var link = next && next.querySelector("a");
          if (link) link.focus();
        }, function () { /* said beside the table */ });
      });
    }
    table.dataset.first = String(rows.length);
    readUrl();
    // The table is served in learning order: re-order it only for another sort.
    var sorted = sort.key !== "learning" || sort.order !== "ascending";
    if (sorted) applySort();
    var filtered = Array.prototype.some.call(filters, function (el) { return el.value.trim(); });
    if (filtered) apply();
    else count(rows.length);
    // A linked view (a filter, a sort or a progress filter in the URL) covers every question.
    if (filtered || sorted || new URLSearchParams(window.location.search).get("progress")) {
      whole().catch(function () { /* said beside the table */ });
    }
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(function () { setUp(document); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  }
})();
