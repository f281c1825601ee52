// The reader's progress, kept in this browser only (no account, no server, no request to any
// other host): one localStorage key holding a versioned value (its format and rules are in
// progress-core.js, loaded just before this file), and a review schedule (FSRS, ts-fsrs, loaded
// with the self-test). Loaded on every page. It marks the navigation and the question index, and
// loads the self-test (practice.js) or the progress tools (study.js) only on the pages that have
// them.
//
// Nothing is lost without the reader's consent:
// - an entry the validator refuses is set aside alone (the good ones stay), into a list under
//   KEY + ".set-aside" that only grows (Your progress lists it, to download or drop each copy);
//   the stored value is rewritten only once that copy is written;
// - a version-1 value is moved to the current version, every rating kept;
// - a value written by a newer version of the site is left alone: this tab reads and writes
//   nothing, and says the page needs a reload;
// - a write that fails (quota, blocked storage) is reported where the reader is looking, every
//   time, and no "Saved" is shown for it.
(function () {
  "use strict";

  /** @type {any} */
  var W = window;
  var C = W.InterviewProgressCore;
  var KEY = "pytorch-interview-questions.progress";
  var ASIDE = KEY + ".set-aside";
  var LEGACY_ASIDE = KEY + ".unreadable";  // version 1's single backup: moved into the list
  var VERSION = C.VERSION;
  var RATINGS = C.RATINGS;
  /** @type {string | null} */
  var problem = null;
  /** @type {number | null} a newer version's number, when one is stored */
  var newer = null;
  var repaired = false;

  /** @returns {Date} */
  function now() { return new Date(); }

  function today() { return C.dayOf(now()); }

  /** @param {string} iso @param {number} days @returns {string} */
  function addDays(iso, days) { return C.dayOf(C.startOfDay(/** @type {Date} */ (C.calendarDay(iso)), days)); }

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

  /** Drop one set-aside copy (the reader asked to). @param {string} id @returns {boolean} */
  function dropAside(id) {
    var list = setAside().filter(function (item) { return item.id !== id; });
    try {
      if (list.length) window.localStorage.setItem(ASIDE, JSON.stringify(list));
      else window.localStorage.removeItem(ASIDE);
      refresh();
      return true;
    } catch (error) {
      report("The set-aside copy could not be dropped (" + /** @type {Error} */ (error).name + ").");
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
      migrateLegacyAside();
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
    return !!e && e.due !== null && C.dayOf(e.due) <= (on || today());
  }

  /** The rating's entry, saved; null when it could not be saved (the reason is in problemText()).
   * Needs ts-fsrs (window.FSRS), which progress.js loads with the self-test and progress tools.
   * @param {string} id @param {string} rating */
  function rate(id, rating) {
    var value = load();
    var e = C.schedule(value.questions[id] || null, rating, now(), value.interview, W.FSRS);
    value.questions[id] = e;
    return save(value) ? e : null;
  }

  /** @param {string} id @param {string} title @param {string} rating */
  function rateFollowUp(id, title, rating) {
    var value = load();
    var e = C.rateFollowUp(value.questions[id] || null, title, rating, now());
    value.questions[id] = e;
    return save(value) ? e : null;
  }

  /** The interview date kept with the progress ("YYYY-MM-DD" or null). */
  function interview() { return load().interview; }

  /** @param {string | null} day @returns {boolean} */
  function setInterview(day) {
    var value = load();
    if (day !== null && !C.calendarDay(day)) return false;
    if (value.interview === day) return true;
    value.interview = day;
    return save(value);
  }

  /** What an import file would change (nothing is written). @param {string} text */
  function planImport(text) {
    var read = C.readImport(text, now());
    if ("error" in read) return read;
    var plan = C.planImport(load(), read.value);
    plan.rejected = read.rejected;
    return plan;
  }

  /** Write a planned import; false when the write failed. @param {any} plan */
  function applyImport(plan) { return save(plan.merged); }

  // Version 1's merge, kept for callers of the old API: plan, then write.
  /** @param {any} incoming */
  function merge(incoming) {
    var plan = planImport(JSON.stringify({ app: "pytorch-interview-questions", kind: "progress",
                                            version: incoming.version, questions: incoming.questions }));
    if ("error" in plan) return { error: plan.error };
    if (!applyImport(plan)) return { error: problem };
    return { added: plan.added.length, newer: plan.newer.length, total: Object.keys(incoming.questions).length };
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
    return isDue(e, on) ? "Due for review" : "Review on " + C.dayOf(e.due);
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

  /** Mark every set-aside copy seen (Your progress lists them). */
  function sawAside() {
    var list = setAside();
    if (!list.some(function (item) { return !item.seen; })) return;
    list.forEach(function (item) { item.seen = true; });
    try { window.localStorage.setItem(ASIDE, JSON.stringify(list)); } catch (error) { /* shown again next time */ }
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
    return C.ID.test(id) ? id : null;
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

  // Added scripts run in the order they are added (async off), so the scheduler is there before
  // the self-test and the tools that rate.
  /** @param {string} path under assets/ */
  function loadScript(path) {
    var name = path.split("/").pop() || path;
    if (document.querySelector('script[data-progress-part="' + name + '"]')) return;
    var script = document.createElement("script");
    script.src = new URL("assets/" + path, root()).href;
    script.async = false;
    script.dataset.progressPart = name;
    document.head.appendChild(script);
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
    rate: rate, rateFollowUp: rateFollowUp, merge: merge, clear: clear, label: label,
    today: today, addDays: addDays, dayOf: C.dayOf, idOf: idOf, root: root,
    interview: interview, setInterview: setInterview, planImport: planImport, applyImport: applyImport,
    setAside: setAside, dropAside: dropAside, sawAside: sawAside, nextQuestion: nextQuestion, problem: problemText,
    /** @param {() => void} listener */
    onChange: function (listener) { listeners.push(listener); },
    filterIndex: filterIndex
  };

  function setUp() {
    load();
    asideNotice();
    showProblem();
    markNav();
    watchIndexFilter();
    markIndex();
    var practice = document.querySelector(".practice-slot");
    var tools = document.querySelector("[data-progress-tool]");
    // The scheduler (ts-fsrs, shipped from its pinned npm package) only where a question is rated.
    if (practice || tools || document.querySelector(".question-table")) loadScript("vendor/ts-fsrs/index.umd.js");
    if (practice) loadScript("javascripts/practice.js");
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
