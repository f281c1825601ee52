// The rules of the reader's progress, with no page and no storage: what a stored or imported value
// may hold (one validator for both), how a version-1 value becomes the current format, when a
// rated question comes back (FSRS from ts-fsrs, kept before the reader's interview date), and what
// an import would change. progress.js (the browser) and the unit tests (`node --test tests/js`)
// use these same functions, so what is tested is what runs.
//
// The current value (version 2), as JSON:
//   {"version": 2, "interview": "YYYY-MM-DD" | null, "questions": {"<topic>/<slug>": {
//      "state": "review" | "done", "rating": "got-it" | "review" | "not-yet",
//      "rated": "<ISO timestamp>", "due": "<ISO timestamp>" | null,
//      "card": {FSRS memory state: "state" 0-3, "stability", "difficulty", "reps", "lapses",
//               "scheduled_days", "learning_steps", "elapsed_days", "last_review"},
//      "followups": {"<follow-up question>": {"rating": ..., "rated": "<ISO timestamp>"}}}}}
// Timestamps are full instants (UTC, as toISOString writes them), so two ratings on one day, or in
// two time zones, still compare the right way. Version 1 kept calendar dates and a Leitner box.
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else /** @type {any} */ (root).InterviewProgressCore = factory();
})(this, function () {
  "use strict";

  var VERSION = 2;
  var RATINGS = ["got-it", "review", "not-yet"];
  var STATES = ["review", "done"];
  // The longest wait the scheduler may give (FSRS's maximum_interval), in days. A due date later
  // than a rating plus this (and a day of slack) cannot come from this site.
  var MAX_INTERVAL_DAYS = 365;
  // How far in the future a rating may be dated: another device's clock may run a little ahead.
  var CLOCK_SLACK_MS = 2 * 86400000;
  var DAY_MS = 86400000;
  // The version-1 Leitner intervals, by box: what a version-1 value could hold.
  var V1_INTERVALS = [0, 1, 3, 7, 14, 30];
  // The question id: "<topic>/<slug>", lower-case words joined by hyphens. The same rule as
  // scripts/question_pages/ids.py (a test compares the two), so no page can have an id that
  // this file refuses.
  var ID = /^[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z0-9]+(?:-[a-z0-9]+)*$/;
  var LIMITS = { entries: 5000, followups: 100, title: 500, fileBytes: 5 * 1024 * 1024 };
  var TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;
  var DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
  var CARD_KEYS = ["state", "stability", "difficulty", "reps", "lapses", "scheduled_days",
                   "learning_steps", "elapsed_days"];

  /** @typedef {"got-it" | "review" | "not-yet"} RatingName */
  /**
   * @typedef {{state: number, stability: number, difficulty: number, reps: number, lapses: number,
   *            scheduled_days: number, learning_steps: number, elapsed_days: number,
   *            last_review: string | null}} StoredCard
   * @typedef {{rating: RatingName, rated: string}} FollowUp
   * @typedef {{state: "review" | "done", rating: RatingName, rated: string, due: string | null,
   *            card: StoredCard, followups: Object<string, FollowUp>}} Entry
   * @typedef {{version: number, interview: string | null, questions: Object<string, Entry>}} Value
   * @typedef {{question: string | null, reason: string, raw: string}} Rejected
   * @typedef {{kind: "empty"} | {kind: "unreadable", reason: string}
   *   | {kind: "newer", version: number}
   *   | {kind: "ok", value: Value, rejected: Rejected[], migrated: boolean}} ReadResult
   */

  /** @param {unknown} x @returns {x is Object<string, unknown>} */
  function isPlainObject(x) {
    return typeof x === "object" && x !== null && !Array.isArray(x);
  }

  /** @param {unknown} x @returns {boolean} */
  function isWhole(x) { return typeof x === "number" && Number.isInteger(x); }

  /** @param {unknown} x @returns {boolean} */
  function isFiniteNumber(x) { return typeof x === "number" && Number.isFinite(x); }

  /** A real instant in the form toISOString writes (no 2026-13-45, no 24:61).
   * @param {unknown} text @returns {number | null} its time in milliseconds, or null */
  function timestamp(text) {
    if (typeof text !== "string" || text.length > 30) return null;
    var m = TIMESTAMP.exec(text);
    if (!m) return null;
    var ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], m[7] ? +m[7].padEnd(3, "0") : 0);
    var back = new Date(ms);
    if (isNaN(ms) || back.getUTCFullYear() !== +m[1] || back.getUTCMonth() !== +m[2] - 1 ||
        back.getUTCDate() !== +m[3] || back.getUTCHours() !== +m[4] || back.getUTCMinutes() !== +m[5] ||
        back.getUTCSeconds() !== +m[6]) return null;
    return ms;
  }

  /** A real calendar date "YYYY-MM-DD", as the local midnight it starts at.
   * @param {unknown} text @returns {Date | null} */
  function calendarDay(text) {
    if (typeof text !== "string" || text.length !== 10) return null;
    var m = DAY.exec(text);
    if (!m) return null;
    var date = new Date(+m[1], +m[2] - 1, +m[3]);
    if (date.getFullYear() !== +m[1] || date.getMonth() !== +m[2] - 1 || date.getDate() !== +m[3]) return null;
    return date;
  }

  /** The local calendar date of a moment, "YYYY-MM-DD".
   * @param {Date | number | string} moment @returns {string} */
  function dayOf(moment) {
    var date = new Date(moment);
    var month = String(date.getMonth() + 1), day = String(date.getDate());
    return date.getFullYear() + "-" + (month.length < 2 ? "0" : "") + month + "-" +
      (day.length < 2 ? "0" : "") + day;
  }

  /** Local midnight `days` days after the day of `moment`.
   * @param {Date | number} moment @param {number} days @returns {Date} */
  function startOfDay(moment, days) {
    var date = new Date(moment);
    return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
  }

  /** @param {Entry | null | undefined} entry @param {Date} now @returns {boolean} */
  function isDue(entry, now) {
    return !!entry && entry.due !== null && dayOf(entry.due) <= dayOf(now);
  }

  /** @param {unknown} raw @returns {string} */
  function rawText(raw) {
    try {
      var text = JSON.stringify(raw);
      return text === undefined ? String(raw) : text;
    } catch (error) {
      return String(raw);
    }
  }

  /** A stored FSRS card, checked field by field, or the reason it is not one.
   * @param {unknown} raw @param {number} now @returns {StoredCard | string} */
  function checkCard(raw, now) {
    if (!isPlainObject(raw)) return "its schedule is not an object";
    var c = raw;
    if (!isWhole(c.state) || /** @type {number} */ (c.state) < 0 || /** @type {number} */ (c.state) > 3) {
      return "its schedule has an unknown state";
    }
    if (!isFiniteNumber(c.stability) || /** @type {number} */ (c.stability) < 0 ||
        /** @type {number} */ (c.stability) > 36500) return "its schedule has a bad stability";
    if (!isFiniteNumber(c.difficulty) || /** @type {number} */ (c.difficulty) < 0 ||
        /** @type {number} */ (c.difficulty) > 10) return "its schedule has a bad difficulty";
    var wholes = ["reps", "lapses", "scheduled_days", "learning_steps", "elapsed_days"];
    for (var i = 0; i < wholes.length; i++) {
      var v = c[wholes[i]];
      if (!isWhole(v) || /** @type {number} */ (v) < 0 || /** @type {number} */ (v) > 1000000) {
        return "its schedule has a bad " + wholes[i].replace("_", " ");
      }
    }
    if (/** @type {number} */ (c.scheduled_days) > MAX_INTERVAL_DAYS) return "its schedule waits longer than " + MAX_INTERVAL_DAYS + " days";
    var last = null;
    if (c.last_review !== undefined && c.last_review !== null) {
      var at = timestamp(c.last_review);
      if (at === null) return "its schedule has a bad date of last review";
      if (at > now + CLOCK_SLACK_MS) return "its schedule was last reviewed in the future";
      last = /** @type {string} */ (c.last_review);
    }
    /** @type {any} */
    var card = {};
    CARD_KEYS.forEach(function (key) { card[key] = c[key]; });
    card.last_review = last;
    return /** @type {StoredCard} */ (card);
  }

  /** @param {unknown} raw @param {number} now @param {(text: unknown) => number | null} when
   * @returns {Object<string, FollowUp> | string} */
  function checkFollowUps(raw, now, when) {
    if (raw === undefined) return {};
    if (!isPlainObject(raw)) return "its follow-ups are not an object";
    var titles = Object.keys(raw);
    if (titles.length > LIMITS.followups) return "it has more than " + LIMITS.followups + " follow-ups";
    /** @type {Object<string, FollowUp>} */
    var clean = {};
    for (var i = 0; i < titles.length; i++) {
      var title = titles[i], f = raw[title];
      if (!title.trim() || title.length > LIMITS.title || title === "__proto__") return "a follow-up has no title or one over " + LIMITS.title + " characters";
      if (!isPlainObject(f) || RATINGS.indexOf(/** @type {string} */ (f.rating)) < 0) return "a follow-up has an unknown rating";
      var at = when(f.rated);
      if (at === null) return "a follow-up has no real date of rating";
      if (at > now + CLOCK_SLACK_MS) return "a follow-up is rated in the future";
      clean[title] = { rating: /** @type {RatingName} */ (f.rating), rated: new Date(at).toISOString() };
    }
    return clean;
  }

  /** Why an id is not a question id, or "". @param {string} id @returns {string} */
  function idProblem(id) {
    if (id.length > 200 || !ID.test(id)) return "it is not a question id (topic/slug)";
    return "";
  }

  /** One version-2 entry, checked; only the known fields are kept.
   * @param {string} id @param {unknown} raw @param {number} now @returns {Entry | string} */
  function checkEntry(id, raw, now) {
    var bad = idProblem(id);
    if (bad) return bad;
    if (!isPlainObject(raw)) return "it is not an object";
    if (STATES.indexOf(/** @type {string} */ (raw.state)) < 0) return "it has an unknown state";
    if (RATINGS.indexOf(/** @type {string} */ (raw.rating)) < 0) return "it has an unknown rating";
    if ((raw.state === "done") !== (raw.rating === "got-it")) return "its state does not match its rating";
    var rated = timestamp(raw.rated);
    if (rated === null) return "it has no real date of rating";
    if (rated > now + CLOCK_SLACK_MS) return "it is rated in the future (" + raw.rated + ")";
    var due = null;
    if (raw.state === "done") {
      if (raw.due !== null) return "it is done but has a due date";
    } else {
      due = timestamp(raw.due);
      if (due === null) return "it has no real due date";
      if (due > rated + (MAX_INTERVAL_DAYS + 1) * DAY_MS) {
        return "its due date is later than the longest wait (" + MAX_INTERVAL_DAYS + " days) allows";
      }
    }
    var card = checkCard(raw.card, now);
    if (typeof card === "string") return card;
    var followups = checkFollowUps(raw.followups, now, timestamp);
    if (typeof followups === "string") return followups;
    return { state: /** @type {"review" | "done"} */ (raw.state), rating: /** @type {RatingName} */ (raw.rating),
             rated: new Date(rated).toISOString(), due: due === null ? null : new Date(due).toISOString(),
             card: card, followups: followups };
  }

  /** A version-1 day as the instant it is kept as: local noon of that day (rated) or local
   * midnight (due, so that it is due all that day).
   * @param {unknown} text @param {number} hours @returns {number | null} */
  function v1Day(text, hours) {
    var day = calendarDay(text);
    return day === null ? null : day.getTime() + hours * 3600000;
  }

  /** One version-1 entry (a Leitner box and calendar dates), checked and moved to version 2 with
   * its rating, dates and follow-ups as they were.
   * @param {string} id @param {unknown} raw @param {number} now @returns {Entry | string} */
  function migrateEntry(id, raw, now) {
    var bad = idProblem(id);
    if (bad) return bad;
    if (!isPlainObject(raw)) return "it is not an object";
    if (STATES.indexOf(/** @type {string} */ (raw.state)) < 0) return "it has an unknown state";
    if (RATINGS.indexOf(/** @type {string} */ (raw.rating)) < 0) return "it has an unknown rating";
    if (!isWhole(raw.box) || /** @type {number} */ (raw.box) < 0 ||
        /** @type {number} */ (raw.box) >= V1_INTERVALS.length) return "it has a bad box (a whole number 0 to 5)";
    var box = /** @type {number} */ (raw.box);
    var rated = v1Day(raw.rated, 12);
    if (rated === null) return "it has no real date of rating";
    if (rated > now + CLOCK_SLACK_MS) return "it is rated in the future (" + raw.rated + ")";
    var due = null;
    if (raw.due !== null) {
      due = v1Day(raw.due, 0);
      if (due === null) return "it has no real due date";
      if (due > rated + (V1_INTERVALS[V1_INTERVALS.length - 1] + 1) * DAY_MS) {
        return "its due date is later than the longest wait (" + V1_INTERVALS[V1_INTERVALS.length - 1] + " days) allows";
      }
    }
    var followups = checkFollowUps(raw.followups, now, function (text) { return v1Day(text, 12); });
    if (typeof followups === "string") return followups;
    var done = raw.rating === "got-it";
    // FSRS's memory state from the box: a question waited about its box's interval, which FSRS
    // reads as its stability (the days until recall drops to 90%); difficulty is not known, so
    // the middle of FSRS's scale.
    var interval = V1_INTERVALS[box];
    /** @type {StoredCard} */
    var card = { state: box === 0 && !done ? 0 : 2, stability: Math.max(interval, 0.5), difficulty: 5,
                 reps: Math.max(box, 1), lapses: raw.rating === "not-yet" ? 1 : 0, scheduled_days: interval,
                 learning_steps: 0, elapsed_days: 0, last_review: new Date(rated).toISOString() };
    return { state: done ? "done" : "review", rating: /** @type {RatingName} */ (raw.rating),
             rated: new Date(rated).toISOString(),
             due: done ? null : new Date(due === null ? rated : due).toISOString(),
             card: card, followups: followups };
  }

  /** Read a whole stored or imported value: a bad entry is set aside alone, the good ones stay.
   * @param {unknown} data @param {Date} now @returns {ReadResult} */
  function readValue(data, now) {
    if (!isPlainObject(data)) return { kind: "unreadable", reason: "it is not an object" };
    var version = data.version;
    if (isWhole(version) && /** @type {number} */ (version) > VERSION) {
      return { kind: "newer", version: /** @type {number} */ (version) };
    }
    if (version !== 1 && version !== VERSION) {
      return { kind: "unreadable", reason: "it has version " + rawText(version) + ", this site reads versions 1 and " + VERSION };
    }
    if (!isPlainObject(data.questions)) return { kind: "unreadable", reason: "it has no questions" };
    var questions = data.questions;
    var ids = Object.keys(questions);
    if (ids.length > LIMITS.entries) {
      return { kind: "unreadable", reason: "it has " + ids.length + " questions, more than " + LIMITS.entries + " (no progress of this site has)" };
    }
    var check = version === 1 ? migrateEntry : checkEntry;
    /** @type {Value} */
    var value = { version: VERSION, interview: null, questions: {} };
    /** @type {Rejected[]} */
    var rejected = [];
    ids.forEach(function (id) {
      var entry = check(id, questions[id], now.getTime());
      if (typeof entry === "string") rejected.push({ question: id, reason: entry, raw: rawText(questions[id]) });
      else value.questions[id] = entry;
    });
    if (data.interview !== undefined && data.interview !== null) {
      if (calendarDay(data.interview) !== null) value.interview = /** @type {string} */ (data.interview);
      else rejected.push({ question: null, reason: "the interview date is not a real date", raw: rawText(data.interview) });
    }
    return { kind: "ok", value: value, rejected: rejected, migrated: version === 1 };
  }

  /** The last moment a question rated Review or Not yet may come back, before an interview on
   * `interview`: the day before it (so there is a day to catch up), and never before now.
   * @param {string | null} interview @param {Date} now @returns {Date | null} */
  function interviewLimit(interview, now) {
    var day = calendarDay(interview);
    if (day === null || dayOf(now) > /** @type {string} */ (interview)) return null;
    var limit = startOfDay(day, -1);
    return limit.getTime() < now.getTime() ? now : limit;
  }

  /**
   * The entry a rating gives, from the one before it: FSRS (ts-fsrs, no fuzz, waits in whole
   * days) on the question's card; "Got it" marks it done; "Not yet" comes back the same or next
   * day; before an interview, nothing rated Review or Not yet comes back after the day before it.
   * @param {Entry | null} before @param {RatingName} rating @param {Date} now
   * @param {string | null} interview @param {any} lib ts-fsrs (window.FSRS or require("ts-fsrs"))
   * @returns {Entry}
   */
  function schedule(before, rating, now, interview, lib) {
    var scheduler = lib.fsrs(lib.generatorParameters({ enable_fuzz: false, enable_short_term: false,
                                                       maximum_interval: MAX_INTERVAL_DAYS }));
    var card;
    if (before) {
      var stored = before.card;
      card = { due: before.due ? new Date(before.due) : now, stability: stored.stability,
               difficulty: stored.difficulty, elapsed_days: stored.elapsed_days,
               scheduled_days: stored.scheduled_days, learning_steps: stored.learning_steps,
               reps: stored.reps, lapses: stored.lapses, state: stored.state,
               last_review: stored.last_review ? new Date(stored.last_review) : undefined };
    } else {
      card = lib.createEmptyCard(now);
    }
    var grade = rating === "got-it" ? lib.Rating.Good : rating === "review" ? lib.Rating.Hard : lib.Rating.Again;
    var next = scheduler.next(card, now, grade).card;
    var due = /** @type {Date} */ (next.due);
    if (rating === "not-yet") {
      var tomorrow = startOfDay(now, 1);
      if (due.getTime() > tomorrow.getTime()) due = tomorrow;
    }
    var limit = rating === "got-it" ? null : interviewLimit(interview, now);
    if (limit && due.getTime() > limit.getTime()) due = limit;
    /** @type {StoredCard} */
    var saved = { state: next.state, stability: next.stability, difficulty: next.difficulty,
                  reps: next.reps, lapses: next.lapses, scheduled_days: next.scheduled_days,
                  learning_steps: next.learning_steps, elapsed_days: next.elapsed_days,
                  last_review: now.toISOString() };
    return { state: rating === "got-it" ? "done" : "review", rating: rating, rated: now.toISOString(),
             due: rating === "got-it" ? null : due.toISOString(), card: saved,
             followups: before ? Object.assign({}, before.followups) : {} };
  }

  /** A follow-up's rating, on its question's entry (a question not yet rated is due today).
   * @param {Entry | null} before @param {string} title @param {RatingName} rating @param {Date} now
   * @returns {Entry} */
  function rateFollowUp(before, title, rating, now) {
    /** @type {Entry} */
    var entry = before ? Object.assign({}, before) : {
      state: "review", rating: "not-yet", rated: now.toISOString(), due: now.toISOString(),
      card: { state: 0, stability: 0, difficulty: 0, reps: 0, lapses: 0, scheduled_days: 0,
              learning_steps: 0, elapsed_days: 0, last_review: null },
      followups: {} };
    entry.followups = Object.assign({}, entry.followups);
    entry.followups[title.slice(0, LIMITS.title)] = { rating: rating, rated: now.toISOString() };
    return entry;
  }

  /**
   * What importing `incoming` into `mine` would change, per question: new (not here), newer (its
   * rating replaces this browser's), older (this browser's is as recent or newer: kept),
   * followups (only newer follow-up ratings come in). Follow-ups merge on their own, title by
   * title, the later rating winning.
   * @param {Value} mine @param {Value} incoming
   * @returns {{added: string[], newer: string[], older: string[], followups: string[], merged: Value}}
   */
  function planImport(mine, incoming) {
    /** @type {Value} */
    var merged = { version: VERSION, interview: mine.interview || incoming.interview,
                   questions: Object.assign({}, mine.questions) };
    /** @type {string[]} */ var added = [];
    /** @type {string[]} */ var newer = [];
    /** @type {string[]} */ var older = [];
    /** @type {string[]} */ var followups = [];
    Object.keys(incoming.questions).forEach(function (id) {
      var theirs = incoming.questions[id], here = mine.questions[id];
      if (!here) {
        added.push(id);
        merged.questions[id] = theirs;
        return;
      }
      var theirsNewer = Date.parse(theirs.rated) > Date.parse(here.rated);
      var base = Object.assign({}, theirsNewer ? theirs : here);
      var titles = Object.keys(theirs.followups);
      var fu = Object.assign({}, here.followups), changedFollowUps = false;
      titles.forEach(function (title) {
        var mineF = here.followups[title], theirsF = theirs.followups[title];
        if (!mineF || Date.parse(theirsF.rated) > Date.parse(mineF.rated)) {
          if (!mineF || mineF.rating !== theirsF.rating || mineF.rated !== theirsF.rated) changedFollowUps = true;
          fu[title] = theirsF;
        }
      });
      base.followups = fu;
      merged.questions[id] = base;
      if (theirsNewer) newer.push(id);
      else if (changedFollowUps) followups.push(id);
      else older.push(id);
    });
    return { added: added, newer: newer, older: older, followups: followups, merged: merged };
  }

  /**
   * A progress file's text, checked before anything is merged: its size, JSON, that this site
   * exported it, its version; then each question alone.
   * @param {string} text @param {Date} now
   * @returns {{error: string} | {value: Value, rejected: Rejected[]}}
   */
  function readImport(text, now) {
    if (text.length > LIMITS.fileBytes) {
      return { error: "it is " + (text.length / 1048576).toFixed(1) + " MB, larger than any progress file of this site (at most " +
               LIMITS.fileBytes / 1048576 + " MB)" };
    }
    var data;
    try {
      data = JSON.parse(text);
    } catch (error) {
      return { error: "it is not JSON" };
    }
    if (!isPlainObject(data) || data.app !== "pytorch-interview-questions" || data.kind !== "progress") {
      return { error: "it is not a progress file of this site (it was not exported by this site's Export button)" };
    }
    var read = readValue({ version: data.version, interview: data.interview, questions: data.questions }, now);
    if (read.kind === "newer") {
      return { error: "a newer version of this site exported it (version " + read.version + "); reload the page to get the newer site, then import it again" };
    }
    if (read.kind !== "ok") return { error: read.kind === "unreadable" ? read.reason : "it is empty" };
    return { value: read.value, rejected: read.rejected };
  }

  return {
    VERSION: VERSION, RATINGS: RATINGS, MAX_INTERVAL_DAYS: MAX_INTERVAL_DAYS, ID: ID, LIMITS: LIMITS,
    timestamp: timestamp, calendarDay: calendarDay, dayOf: dayOf, startOfDay: startOfDay, isDue: isDue,
    idProblem: idProblem, checkEntry: checkEntry, migrateEntry: migrateEntry, readValue: readValue,
    interviewLimit: interviewLimit, schedule: schedule, rateFollowUp: rateFollowUp,
    planImport: planImport, readImport: readImport
  };
});
