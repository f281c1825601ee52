// The reader's progress, kept in this browser only (no account, no server, no request to any
// other host): one localStorage key, a versioned value, and a review schedule. Loaded on every
// page, deferred. It marks the navigation and the question index, and loads the self-test
// (practice.js) or the progress tools (study.js) only on the pages that have them.
//
// Stored under KEY, as JSON:
//   {"version": 1, "questions": {"<topic>/<slug>": {
//      "state": "review" | "done", "rating": "got-it" | "review" | "not-yet",
//      "rated": "YYYY-MM-DD", "box": 0..5, "due": "YYYY-MM-DD" | null,
//      "followups": {"<follow-up question>": {"rating": ..., "rated": "YYYY-MM-DD"}}}}}
// A question with no entry is "not started". A value that cannot be read (corrupt, or written by
// another version) is moved to KEY + ".unreadable", reported once on the page, and reset: the page
// never breaks on it and nothing is silently lost.
(function () {
  "use strict";

  var KEY = "pytorch-interview-questions.progress";
  var VERSION = 1;
  // A Leitner schedule: days until a question comes back, by box. "Not yet" goes back to box 1,
  // "review" moves one box up (starting at box 2), "got it" marks it done and not due.
  var INTERVALS = [0, 1, 3, 7, 14, 30];
  var RATINGS = ["got-it", "review", "not-yet"];
  var STATES = ["review", "done"];
  var DATE = /^\d{4}-\d{2}-\d{2}$/;
  var problem = null;

  function today() {
    var now = new Date();
    return isoDate(now);
  }

  function isoDate(date) {
    var month = String(date.getMonth() + 1), day = String(date.getDate());
    return date.getFullYear() + "-" + (month.length < 2 ? "0" : "") + month + "-" +
      (day.length < 2 ? "0" : "") + day;
  }

  function addDays(iso, days) {
    var parts = iso.split("-").map(Number);
    return isoDate(new Date(parts[0], parts[1] - 1, parts[2] + days));
  }

  // Why an entry is not one of ours, or "" when it is.
  function entryProblem(id, entry) {
    if (!/^[\w-]+\/[\w-]+$/.test(id)) return "'" + id + "' is not a question id";
    if (!entry || typeof entry !== "object") return id + " is not an object";
    if (STATES.indexOf(entry.state) < 0) return id + " has an unknown state";
    if (RATINGS.indexOf(entry.rating) < 0) return id + " has an unknown rating";
    if (!DATE.test(entry.rated || "")) return id + " has no date of rating";
    if (entry.due !== null && !DATE.test(entry.due || "")) return id + " has a bad due date";
    if (typeof entry.box !== "number" || entry.box < 0 || entry.box >= INTERVALS.length) {
      return id + " has a bad box";
    }
    if (entry.followups !== undefined && (typeof entry.followups !== "object" || entry.followups === null)) {
      return id + " has bad follow-ups";
    }
    return "";
  }

  // Why a whole value (stored or imported) is not ours, or "".
  function valueProblem(value) {
    if (!value || typeof value !== "object" || Array.isArray(value)) return "it is not an object";
    if (value.version !== VERSION) {
      return "it has version " + JSON.stringify(value.version) + ", this site reads version " + VERSION;
    }
    if (!value.questions || typeof value.questions !== "object" || Array.isArray(value.questions)) {
      return "it has no questions";
    }
    var ids = Object.keys(value.questions);
    for (var i = 0; i < ids.length; i++) {
      var why = entryProblem(ids[i], value.questions[ids[i]]);
      if (why) return why;
    }
    return "";
  }

  function empty() { return { version: VERSION, questions: {} }; }

  function load() {
    var raw;
    try {
      raw = window.localStorage.getItem(KEY);
    } catch (error) {
      problem = problem || "This browser does not let the site keep your progress (" + error.name + ").";
      return empty();
    }
    if (raw === null) return empty();
    var value, why;
    try {
      value = JSON.parse(raw);
      why = valueProblem(value);
    } catch (error) {
      why = "it is not JSON";
    }
    if (!why) return value;
    try {
      window.localStorage.setItem(KEY + ".unreadable", raw);
      window.localStorage.removeItem(KEY);
    } catch (error) { /* reported below either way */ }
    problem = "Your saved progress could not be read (" + why + "), so it was reset. The old value " +
      "is kept in this browser's storage under " + KEY + ".unreadable.";
    return empty();
  }

  function save(value) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(value));
      return true;
    } catch (error) {
      problem = "Your progress could not be saved in this browser (" + error.name + ").";
      showProblem();
      return false;
    }
  }

  function entry(id) { return load().questions[id] || null; }

  function state(id) {
    var e = entry(id);
    return e ? e.state : "not-started";
  }

  function isDue(e, on) {
    return !!e && e.due !== null && e.due <= (on || today());
  }

  // The entry a rating gives, from the one before it (or null).
  function scheduled(before, rating, on) {
    var day = on || today();
    var box = before ? before.box : 0;
    if (rating === "got-it") box = INTERVALS.length - 1;
    else if (rating === "not-yet") box = 1;
    else box = Math.min(Math.max(box + 1, 2), INTERVALS.length - 1);
    return {
      state: rating === "got-it" ? "done" : "review",
      rating: rating,
      rated: day,
      box: box,
      due: rating === "got-it" ? null : addDays(day, INTERVALS[box]),
      followups: (before && before.followups) || {}
    };
  }

  function rate(id, rating) {
    var value = load();
    value.questions[id] = scheduled(value.questions[id] || null, rating);
    save(value);
    refresh();
    return value.questions[id];
  }

  function rateFollowUp(id, title, rating) {
    var value = load();
    var e = value.questions[id];
    if (!e) {
      // Practising a follow-up first: the question itself is still to review today.
      e = value.questions[id] = { state: "review", rating: "not-yet", rated: today(), box: 0,
                                  due: today(), followups: {} };
    }
    e.followups = e.followups || {};
    e.followups[title] = { rating: rating, rated: today() };
    save(value);
    return e;
  }

  // Merge another device's progress: for each question, the entry rated last wins.
  function merge(incoming) {
    var why = valueProblem(incoming);
    if (why) return { error: why };
    var value = load(), added = 0, newer = 0;
    Object.keys(incoming.questions).forEach(function (id) {
      var mine = value.questions[id], theirs = incoming.questions[id];
      if (!mine) added += 1;
      else if (theirs.rated > mine.rated) newer += 1;
      else return;
      value.questions[id] = theirs;
    });
    save(value);
    refresh();
    return { added: added, newer: newer, total: Object.keys(incoming.questions).length };
  }

  function clear() {
    try { window.localStorage.removeItem(KEY); } catch (error) { /* nothing kept */ }
    refresh();
  }

  function label(id, on) {
    var e = entry(id);
    if (!e) return "Not started";
    if (e.state === "done") return "Done";
    return isDue(e, on) ? "Due for review" : "Review on " + e.due;
  }

  // The site's root URL, from Material's own config, so ids can be read off any link.
  var rootUrl = null;
  function root() {
    if (!rootUrl) {
      var config = document.getElementById("__config");
      var base = config ? JSON.parse(config.textContent).base : ".";
      rootUrl = new URL(base.replace(/\/?$/, "/"), window.location.href);
    }
    return rootUrl;
  }

  function idOf(href) {
    var url = new URL(href, window.location.href), base = root();
    if (url.origin !== base.origin || url.pathname.indexOf(base.pathname) !== 0) return null;
    var id = url.pathname.slice(base.pathname.length).replace(/(\/index\.html|\/)$/, "");
    return /^[\w-]+\/[\w-]+$/.test(id) ? id : null;
  }

  function showProblem() {
    if (!problem) return;
    var content = document.querySelector(".md-content__inner");
    if (!content || content.querySelector(".progress-problem")) return;
    var box = document.createElement("p");
    box.className = "progress-problem admonition warning";
    box.setAttribute("role", "alert");
    box.textContent = problem;
    content.insertBefore(box, content.firstChild);
  }

  function markNav() {
    var value = load(), on = today();
    // A reader with no progress has nothing to mark: skip reading every link of the navigation.
    if (!Object.keys(value.questions).length && !document.querySelector(".progress-mark")) return;
    document.querySelectorAll(".md-nav__link[href]").forEach(function (link) {
      var id = idOf(link.getAttribute("href"));
      var old = link.querySelector(".progress-mark");
      if (old) old.remove();
      var e = id && value.questions[id];
      if (!e) return;
      var mark = document.createElement("span");
      var due = isDue(e, on);
      mark.className = "progress-mark progress-" + (due ? "due" : e.state);
      mark.textContent = e.state === "done" ? "done" : due ? "due" : "review";
      link.appendChild(mark);
    });
  }

  // The index's progress column, filter and "due today" line are in its HTML (catalog.py), as a
  // reader who has rated nothing sees them; this rewrites them from the reader's progress.
  function markIndex() {
    var table = document.querySelector(".question-table");
    var line = document.querySelector(".progress-index-line");
    if (!table || !line) return;
    var value = load(), on = today();
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var stored = Object.keys(value.questions).length > 0;
    if (stored || line.dataset.filled) {
      var ranked = rows.slice().sort(function (a, b) {
        return Number(a.dataset.learningRank) - Number(b.dataset.learningRank);
      });
      var dueCount = 0, nextRow = null;
      ranked.forEach(function (row) {
        var e = value.questions[row.dataset.id];
        if (isDue(e, on)) dueCount += 1;
        if (!nextRow && (!e || isDue(e, on))) nextRow = row;
      });
      line.textContent = "Due for review today: " + dueCount + ". ";
      if (nextRow) {
        var source = nextRow.querySelector("a");
        line.appendChild(document.createTextNode("Next question: "));
        var next = document.createElement("a");
        next.href = source.getAttribute("href");
        next.className = "progress-next";
        next.textContent = source.textContent;
        line.appendChild(next);
      } else {
        line.appendChild(document.createTextNode("Nothing is due and every question is started."));
      }
      line.dataset.filled = "1";
      rows.forEach(function (row) {
        var e = value.questions[row.dataset.id];
        row.dataset.progress = e ? (isDue(e, on) ? "due" : e.state) : "not-started";
        var cell = row.querySelector(".progress-cell");
        var text = label(row.dataset.id, on);
        if (cell && cell.textContent !== text) cell.textContent = text;
      });
    } else {
      rows.forEach(function (row) { row.dataset.progress = "not-started"; });
    }
    filterIndex();
  }

  function watchIndexFilter() {
    var select = document.querySelector("[data-progress-filter]");
    if (!select) return;
    var wanted = new URLSearchParams(window.location.search).get("progress");
    if (wanted && Array.prototype.some.call(select.options, function (o) { return o.value === wanted; })) {
      select.value = wanted;
    }
    select.addEventListener("input", function () {
      var url = new URLSearchParams(window.location.search);
      if (select.value) url.set("progress", select.value); else url.delete("progress");
      var query = url.toString();
      window.history.replaceState(window.history.state, "",
        window.location.pathname + (query ? "?" + query : "") + window.location.hash);
      filterIndex();
    });
  }

  // The progress filter works with the index's own filters: a row shows when both allow it.
  function filterIndex() {
    var select = document.querySelector("[data-progress-filter]");
    var table = document.querySelector(".question-table");
    if (!select || !table) return;
    var wanted = select.value;
    if (!wanted && !table.querySelector(".progress-filtered")) return;  // nothing to change
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var state = row.dataset.progress;
      var ok = !wanted || state === wanted || (wanted === "review" && state === "due");
      row.classList.toggle("progress-filtered", !ok);
    });
    var count = document.querySelector(".question-count");
    var rows = table.tBodies[0].rows, shown = 0;
    Array.prototype.forEach.call(rows, function (row) {
      if (!row.hidden && !row.classList.contains("progress-filtered")) shown += 1;
    });
    if (count) count.textContent = shown + " of " + rows.length + " questions";
    var none = document.querySelector(".question-empty");
    if (none) none.hidden = shown !== 0;
    table.hidden = shown === 0;
  }

  function loadScript(name) {
    if (document.querySelector('script[data-progress-part="' + name + '"]')) return;
    var script = document.createElement("script");
    script.src = new URL("assets/javascripts/" + name, root()).href;
    script.async = true;
    script.dataset.progressPart = name;
    document.head.appendChild(script);
  }

  var listeners = [];
  function refresh() {
    markNav();
    markIndex();
    listeners.forEach(function (listener) { listener(); });
  }

  window.InterviewProgress = {
    KEY: KEY, VERSION: VERSION, INTERVALS: INTERVALS,
    load: load, save: save, entry: entry, state: state, isDue: isDue, scheduled: scheduled,
    rate: rate, rateFollowUp: rateFollowUp, merge: merge, clear: clear, label: label,
    today: today, addDays: addDays, idOf: idOf, root: root, valueProblem: valueProblem,
    onChange: function (listener) { listeners.push(listener); },
    filterIndex: filterIndex
  };

  function setUp() {
    load();
    showProblem();
    markNav();
    watchIndexFilter();
    markIndex();
    if (document.querySelector(".practice-slot")) loadScript("practice.js");
    if (document.querySelector("[data-progress-tool]")) loadScript("study.js");
    document.addEventListener("input", function (event) {
      if (event.target.matches && event.target.matches("[data-filter]")) filterIndex();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
