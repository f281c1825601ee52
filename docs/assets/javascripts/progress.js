// The reader's progress, kept in this browser only: one localStorage key holding a versioned
// value (format and rules: progress-core.js) and an FSRS review schedule (ts-fsrs). On every
// page: marks the navigation and the index; loads the self-test (practice.js) and the tools
// (study.js) where they are. Nothing is lost without the reader's consent: a refused entry is
// set aside alone, into a list that only grows (KEY + ".set-aside", listed on Your progress), and
// the value is rewritten only once that copy is kept; version 1 is moved to version 2; a newer
// version's value is left alone (the page asks for a reload); a failed write is said where the
// reader looks, every time, and no "Saved" is shown for it.
(function () {
  "use strict";

  /** @type {any} */
  var W = window;
  // The rules (progress-core.js) are loaded only when they are needed: when this browser holds
  // progress, when the reader reaches for the self-test, and with the progress tools. A first
  // visit, with nothing stored, does without them (and without the scheduler).
  /** @type {any} */
  var C = null;
  var KEY = "pytorch-interview-questions.progress";
  var ASIDE = KEY + ".set-aside";
  var LEGACY_ASIDE = KEY + ".unreadable";  // version 1's single backup: moved into the list
  var VERSION = 2;  // progress-core.js's VERSION (test_ids.py compares them)
  var RATINGS = ["got-it", "review", "not-yet"];
  /** @type {string | null} */
  var problem = null;
  /** @type {number | null} a newer version's number, when one is stored */
  var newer = null;
  var repaired = false;

  /** @returns {Date} */
  function now() { return new Date(); }

  /** The local calendar date of a moment (as progress-core's dayOf, which may not be loaded).
   * @param {Date | number | string} moment @returns {string} */
  function dayOf(moment) {
    var date = new Date(moment);
    return date.getFullYear() + "-" + String(date.getMonth() + 1).padStart(2, "0") + "-" +
      String(date.getDate()).padStart(2, "0");
  }

  function today() { return dayOf(now()); }

  /** @param {string} iso "YYYY-MM-DD" @param {number} days @returns {string} */
  function addDays(iso, days) {
    var parts = iso.split("-").map(Number);
    return dayOf(new Date(parts[0], parts[1] - 1, parts[2] + days));
  }

  function empty() { return { version: VERSION, interview: null, questions: {} }; }

  /** @param {string} text */
  function report(text) {
    problem = text;
    showProblem();
  }

  /** Every copy set aside so far, oldest first (never overwritten, only appended to).
   * @returns {Array<{id: string, at: string, reason: string, question: string | null, raw: string, seen?: boolean}>} */
  function setAside() {
    var raw;
    try { raw = window.localStorage.getItem(ASIDE); } catch (error) { return []; }
    if (raw === null) return [];
    try {
      var list = JSON.parse(raw);
      if (Array.isArray(list)) return list.filter(function (x) { return x && typeof x === "object"; });
    } catch (error) { /* kept as it is, below */ }
    return [{ id: "unreadable-list", at: "", reason: "the list of set-aside copies could not be read",
              question: null, raw: raw }];
  }

  /** Append copies to the set-aside list; false when they could not be written (then nothing
   * else may change). @param {Array<{reason: string, question: string | null, raw: string}>} items */
  function keepAside(items) {
    var list = setAside(), at = now().toISOString();
    items.forEach(function (item, index) {
      list.push({ id: at + "-" + index + "-" + Math.random().toString(36).slice(2, 8), at: at,
                  reason: item.reason, question: item.question, raw: item.raw });
    });
    try {
      window.localStorage.setItem(ASIDE, JSON.stringify(list));
      return true;
    } catch (error) {
      return false;
    }
  }

  function load() {
    var raw;
    try {
      raw = window.localStorage.getItem(KEY);
    } catch (error) {
      problem = problem || "This browser does not let the site keep your progress (" + /** @type {Error} */ (error).name + ").";
      return empty();
    }
    if (raw === null) {
      if (C) migrateLegacyAside();
      return empty();
    }
    if (!C) {
      // Written since this page loaded (another tab): read it once the rules are here.
      loadCore().then(refresh, function () { /* the page works without progress */ });
      return empty();
    }
    var read;
    try {
      read = C.readValue(JSON.parse(raw), now());
    } catch (error) {
      read = { kind: "unreadable", reason: "it is not JSON" };
    }
    if (read.kind === "newer") {
      newer = read.version;
      problem = "Your progress was saved by a newer version of this site (version " + read.version +
        "). Reload the page to see and change it; this page changed nothing.";
      return empty();
    }
    if (read.kind === "ok" && !read.rejected.length && !read.migrated) return read.value;
    if (repaired) {
      // Tried once on this page already (and failed to write): use what could be read.
      return read.kind === "ok" ? read.value : empty();
    }
    repaired = true;
    migrateLegacyAside();
    var items = read.kind === "ok" ? read.rejected : [{ reason: read.reason, question: null, raw: raw }];
    if (items.length && !keepAside(items)) {
      problem = "Some of your saved progress could not be read, and the browser would not keep a copy " +
        "of it, so nothing was changed. Free some storage for this site, then reload.";
      return read.kind === "ok" ? read.value : empty();
    }
    var value = read.kind === "ok" ? read.value : empty();
    if (!write(value)) return value;
    if (items.length) {
      problem = (read.kind === "ok"
        ? items.length + " saved entr" + (items.length > 1 ? "ies" : "y") + " could not be read (" +
          items.map(function (i) { return (i.question || "") + ": " + i.reason; }).slice(0, 3).join("; ") +
          (items.length > 3 ? "; …" : "") + ") and " + (items.length > 1 ? "were" : "was") + " set aside; the rest of your progress is kept."
        : "Your saved progress could not be read (" + items[0].reason + "), so it was set aside and a new one started.") +
        " Your progress page lists what was set aside, to download or drop.";
    }
    return value;
  }

  // Version 1 kept one backup, under KEY + ".unreadable": it goes into the list, once.
  function migrateLegacyAside() {
    try {
      var old = window.localStorage.getItem(LEGACY_ASIDE);
      if (old === null) return;
      if (keepAside([{ reason: "set aside by an earlier version of this site", question: null, raw: old }])) {
        window.localStorage.removeItem(LEGACY_ASIDE);
      }
    } catch (error) { /* left where it is */ }
  }

  /** @param {object} value @returns {boolean} */
  function write(value) {
    if (newer !== null) {
      report("Your progress was saved by a newer version of this site (version " + newer +
             "). Reload the page before rating: this page did not save anything.");
      return false;
    }
    try {
      window.localStorage.setItem(KEY, JSON.stringify(value));
      return true;
    } catch (error) {
      var name = /** @type {Error} */ (error).name;
      report("Your progress could not be saved in this browser (" +
             (name === "QuotaExceededError" ? "its storage for this site is full" : name) +
             "). Nothing was saved at " + new Date().toLocaleTimeString() + ".");
      return false;
    }
  }

  /** Save a whole value; false (and the reason reported) when the write failed.
   * @param {object} value */
  function save(value) {
    var ok = write(value);
    if (ok) refresh();
    return ok;
  }

  /** @param {string} id */
  function entry(id) { return load().questions[id] || null; }

  /** @param {string} id */
  function state(id) {
    var e = entry(id);
    return e ? e.state : "not-started";
  }

  /** @param {any} e @param {string} [on] a day "YYYY-MM-DD" (today when absent) */
  function isDue(e, on) {
    return !!e && e.due !== null && dayOf(e.due) <= (on || today());
  }

  /** The rating's entry, saved; null when it could not be saved (the reason is in problemText()).
   * Needs ts-fsrs (window.FSRS), which progress.js loads with the self-test and progress tools.
   * @param {string} id @param {string} rating */
  function rate(id, rating) {
    if (!W.FSRS || !C) {
      report("The review scheduler has not loaded yet, so nothing was saved. Rate again in a moment.");
      loadScheduler().catch(function () { /* said above */ });
      return null;
    }
    var value = load();
    var e = C.schedule(value.questions[id] || null, rating, now(), value.interview, W.FSRS);
    value.questions[id] = e;
    return save(value) ? e : null;
  }

  /** @param {string} id @param {string} title @param {string} rating */
  function rateFollowUp(id, title, rating) {
    if (!C) {
      report("The progress rules have not loaded yet, so nothing was saved. Rate again in a moment.");
      loadCore().catch(function () { /* said above */ });
      return null;
    }
    var value = load();
    var e = C.rateFollowUp(value.questions[id] || null, title, rating, now());
    value.questions[id] = e;
    return save(value) ? e : null;
  }

  function clear() {
    try {
      window.localStorage.removeItem(KEY);
    } catch (error) {
      report("Your progress could not be cleared (" + /** @type {Error} */ (error).name + ").");
      return false;
    }
    refresh();
    return true;
  }

  /** @param {string} id @param {string} [on] */
  function label(id, on) {
    var e = entry(id);
    if (!e) return "Not started";
    if (e.state === "done") return "Done";
    return isDue(e, on) ? "Due for review" : "Review on " + dayOf(e.due);
  }

  /**
   * The next question to practise: what is due first (the longest overdue first), then what is
   * not started, in the order given (learning order). Done and waiting questions are left out.
   * @template {{id: string}} Q
   * @param {Q[]} questions
   * @param {string} [skip] an id to leave out
   * @returns {{question: Q, due: boolean} | null}
   */
  function nextQuestion(questions, skip) {
    var value = load(), on = today();
    var due = questions.filter(function (q) { return q.id !== skip && isDue(value.questions[q.id], on); });
    due.sort(function (a, b) { return Date.parse(value.questions[a.id].due) - Date.parse(value.questions[b.id].due); });
    if (due.length) return { question: due[0], due: true };
    var fresh = questions.filter(function (q) { return q.id !== skip && !value.questions[q.id]; })[0];
    return fresh ? { question: fresh, due: false } : null;
  }

  function problemText() { return problem; }

  // Until the reader has seen the set-aside copies on Your progress, every page says they exist.
  function asideNotice() {
    var unseen = setAside().filter(function (item) { return !item.seen; }).length;
    if (!unseen || problem) return;
    problem = unseen + " cop" + (unseen > 1 ? "ies" : "y") + " of your progress " + (unseen > 1 ? "were" : "was") +
      " set aside as unreadable. Your progress page lists " + (unseen > 1 ? "them" : "it") + ", to download or drop.";
  }

  // The site's root URL, from Material's own config, so ids can be read off any link.
  /** @type {URL | null} */
  var rootUrl = null;
  /** @returns {URL} */
  function root() {
    if (!rootUrl) {
      var config = document.getElementById("__config");
      var base = config ? JSON.parse(config.textContent || "{}").base : ".";
      rootUrl = new URL(base.replace(/\/?$/, "/"), window.location.href);
    }
    return rootUrl;
  }

  /** @param {string} href @returns {string | null} */
  function idOf(href) {
    var url = new URL(href, window.location.href), base = root();
    if (url.origin !== base.origin || url.pathname.indexOf(base.pathname) !== 0) return null;
    var id = url.pathname.slice(base.pathname.length).replace(/(\/index\.html|\/)$/, "");
    return /^[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id) ? id : null;  // ids.py's rule
  }

  // The problem at the top of the page, on every page, each time it happens again (a new alert
  // element, so that a screen reader announces it again).
  function showProblem() {
    if (!problem) return;
    var content = document.querySelector(".md-content__inner");
    if (!content) return;
    var old = content.querySelector(".progress-problem");
    if (old) old.remove();
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
    var table = /** @type {HTMLTableElement | null} */ (document.querySelector(".question-table"));
    var line = /** @type {HTMLElement | null} */ (document.querySelector(".progress-index-line"));
    if (!table || !line) return;
    var value = load(), on = today();
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var stored = Object.keys(value.questions).length > 0;
    if (stored && table.dataset.rest && window.QuestionIndex) {
      // Due questions and the next one may be in the rows the page did not serve: fetch them first
      // (questions.js then says "question-index-whole", which calls this again).
      window.QuestionIndex.whole().catch(function () { /* questions.js says so beside the table */ });
    }
    if (stored || line.dataset.filled) {
      var ranked = rows.slice().sort(function (a, b) {
        return Number(a.dataset.learningRank) - Number(b.dataset.learningRank);
      });
      var dueCount = ranked.filter(function (row) { return isDue(value.questions[row.dataset.id], on); }).length;
      var pick = nextQuestion(ranked.map(function (row) { return { id: row.dataset.id }; }));
      var nextRow = pick ? ranked.filter(function (row) { return row.dataset.id === pick.question.id; })[0] : null;
      line.textContent = "Due for review today: " + dueCount + ". ";
      if (nextRow) {
        var source = nextRow.querySelector("a");
        line.appendChild(document.createTextNode("Next question: "));
        var next = document.createElement("a");
        next.href = source.getAttribute("href") + (pick && pick.due ? "#practice" : "");
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
    var select = /** @type {HTMLSelectElement | null} */ (document.querySelector("[data-progress-filter]"));
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
      if (window.QuestionIndex) window.QuestionIndex.whole().catch(function () { /* said beside the table */ });
    });
  }

  // The progress filter works with the index's own filters: a row shows when both allow it.
  function filterIndex() {
    var select = /** @type {HTMLSelectElement | null} */ (document.querySelector("[data-progress-filter]"));
    var table = /** @type {HTMLTableElement | null} */ (document.querySelector(".question-table"));
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
    var none = /** @type {HTMLElement | null} */ (document.querySelector(".question-empty"));
    if (none) none.hidden = shown !== 0;
    table.hidden = shown === 0;
  }

  // Added scripts run in the order they are added (async off).
  /** @param {string} path under assets/ */
  function loadScript(path) {
    var name = path.split("/").pop() || path;
    var old = /** @type {HTMLScriptElement | null} */ (document.querySelector('script[data-progress-part="' + name + '"]'));
    if (old) return old;
    var script = document.createElement("script");
    script.src = new URL("assets/" + path, root()).href;
    script.async = false;
    script.dataset.progressPart = name;
    document.head.appendChild(script);
    return script;
  }

  // The scheduler (ts-fsrs, 15 kB gzipped, shipped from its pinned npm package) is loaded only
  // when a rating is near: when the reader reaches for the self-test, not on a first visit.
  /** @type {Promise<void> | null} */
  var scheduler = null;
  /** @returns {Promise<void>} */
  function loadScheduler() {
    if (W.FSRS) return loadCore();
    if (!scheduler) {
      var done = loadCore();
      var script = loadScript("vendor/ts-fsrs/index.umd.js");
      scheduler = new Promise(function (resolve, reject) {
        script.addEventListener("load", function () { done.then(resolve, reject); });
        script.addEventListener("error", function () { scheduler = null; reject(new Error("ts-fsrs did not load")); });
      });
    }
    return scheduler;
  }

  /** @type {Promise<void> | null} */
  var rules = null;
  /** @returns {Promise<void>} */
  function loadCore() {
    if (C) return Promise.resolve();
    if (!rules) {
      var script = loadScript("javascripts/progress-core.js");
      rules = new Promise(function (resolve, reject) {
        script.addEventListener("load", function () { C = W.InterviewProgressCore; resolve(); });
        script.addEventListener("error", function () { rules = null; reject(new Error("progress-core.js did not load")); });
      });
    }
    return rules;
  }

  /** Whether this browser holds anything of ours (then the rules are needed at once). */
  function holdsProgress() {
    try {
      return [KEY, ASIDE, LEGACY_ASIDE].some(function (key) { return window.localStorage.getItem(key) !== null; });
    } catch (error) {
      return false;
    }
  }

  var listeners = [];
  function refresh() {
    markNav();
    markIndex();
    listeners.forEach(function (listener) { listener(); });
  }

  W.InterviewProgress = {
    KEY: KEY, VERSION: VERSION, RATINGS: RATINGS,
    load: load, save: save, entry: entry, state: state, isDue: isDue,
    rate: rate, rateFollowUp: rateFollowUp, clear: clear, label: label,
    today: today, addDays: addDays, dayOf: dayOf, idOf: idOf, root: root, loadCore: loadCore,
    ASIDE: ASIDE, setAside: setAside, loadScheduler: loadScheduler, refresh: refresh, report: report, nextQuestion: nextQuestion, problem: problemText,
    /** @param {() => void} listener */
    onChange: function (listener) { listeners.push(listener); },
    filterIndex: filterIndex
  };

  function setUp() {
    var practice = document.querySelector(".practice-slot");
    var tools = document.querySelector("[data-progress-tool]");
    if (!C && (holdsProgress() || tools)) {
      // The self-test and the tools are added after the rules (scripts run in the order added).
      loadCore().then(function () { start(practice, tools); }, function () { start(practice, tools); });
    } else {
      start(practice, tools);
    }
  }

  /** @param {Element | null} practice @param {Element | null} tools */
  function start(practice, tools) {
    load();
    asideNotice();
    showProblem();
    markNav();
    watchIndexFilter();
    markIndex();
    // The index's later rows arrived (questions.js): mark them and redo the line and the filter.
    document.addEventListener("question-index-whole", markIndex);
    document.addEventListener("question-index-ready", markIndex);
    // The scheduler (ts-fsrs, shipped from its pinned npm package) only where a question is rated.
    if (practice) {
      ["pointerdown", "focusin", "keydown"].forEach(function (type) {
        practice.addEventListener(type, function () { loadScheduler().catch(function () { /* reported on rating */ }); },
                                  { once: true });
      });
      if (window.location.hash === "#practice") loadScheduler().catch(function () { /* reported on rating */ });
      loadScript("javascripts/practice.js");
    }
    if (tools) loadScript("javascripts/study.js");
    document.addEventListener("input", function (event) {
      var target = /** @type {Element} */ (event.target);
      if (target.matches && target.matches("[data-filter]")) filterIndex();
    });
    // Another tab saved: redraw from the stored value.
    window.addEventListener("storage", function (event) {
      if (event.key === KEY || event.key === ASIDE) refresh();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
