// The rules of the reader's progress, with no page and no storage: what a stored or imported value
// may hold (one validator for both), how a version-1 value becomes the current format, and what
// an import would change. The format itself is in progress-format.js, the review schedule in
// scheduling.js. storage.js (the browser) and the unit tests (`node --test tests/js`) use these
// same functions, so what is tested is what runs.
// The current value (version 2), as JSON:
//   {"version": 2, "interview": "YYYY-MM-DD" | null, "questions": {"<topic>/<slug>": {
//      "state": "review" | "done", "rating": "got-it" | "review" | "not-yet",
//      "rated": "<ISO timestamp>", "due": "<ISO timestamp>" | null,
//      "card": {FSRS memory state: "state" 0-3, "stability", "difficulty", "reps", "lapses",
//               "scheduled_days", "learning_steps", "elapsed_days", "last_review"},
//      "followups": {"<follow-up question>": {"rating": ..., "rated": "<ISO timestamp>"}}}}}
// Timestamps are full instants (UTC, as toISOString writes them), so two ratings on one day, or in
// two time zones, still compare the right way. Version 1 kept calendar dates and a Leitner box.
import { calendarDay, DAY_MS, dayOf } from "./days.js";
import { ID, isDue, isRating, REVISION, VERSION } from "./progress-format.js";

/**
 * @typedef {import("./progress-format.js").RatingName} RatingName
 * @typedef {import("./progress-format.js").StoredCard} StoredCard
 * @typedef {import("./progress-format.js").FollowUp} FollowUp
 * @typedef {import("./progress-format.js").Entry} Entry
 * @typedef {import("./progress-format.js").Value} Value
 * @typedef {import("./progress-format.js").Rejected} Rejected
 * @typedef {{kind: "empty"} | {kind: "unreadable", reason: string}
 *   | {kind: "newer", version: number, revision?: number}
 *   | {kind: "ok", value: Value, rejected: Rejected[], migrated: boolean}} ReadResult
 * @typedef {{added: string[], newer: string[], older: string[], followups: string[],
 *            merged: Value}} ImportPlan
 * @typedef {{questions: Record<string, Entry>,
 *            interview: {from: string | null, to: string | null} | null}} OwnChanges
 */

const STATES = ["review", "done"];
// The longest wait the scheduler may give (FSRS's maximum_interval), in days. A due date later
// than a rating plus this (and a day of slack) cannot come from this site.
export const MAX_INTERVAL_DAYS = 365;
// The longest wait the scheduler writes: ts-fsrs gives "Good" at least a day more than "Hard",
// so a Got it at the longest wait is scheduled MAX_INTERVAL_DAYS + 1 days on (issue 39, item 6).
const MAX_WRITTEN_DAYS = MAX_INTERVAL_DAYS + 1;
// ts-fsrs's S_MIN: the least stability its next_state accepts (with a difficulty of at least 1),
// unless both are 0 (a card with no memory yet).
const MIN_STABILITY = 0.001;
// How far in the future a stored rating may be dated: this browser's clock may have been moved
// back since it was written (scheduling.js then rates it as if reviewed now). An imported file
// gets no slack: what is dated ahead of now is refused (issue 39, item 6).
export const CLOCK_SLACK_MS = 2 * DAY_MS;
// The version-1 Leitner intervals, by box: what a version-1 value could hold.
const V1_INTERVALS = [0, 1, 3, 7, 14, 30];
export const LIMITS = { entries: 5000, followups: 100, title: 500, fileBytes: 5 * 1024 * 1024 };
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;
const CARD_KEYS = /** @type {const} */ (["state", "stability", "difficulty", "reps", "lapses", "scheduled_days",
                                        "learning_steps", "elapsed_days"]);

/** @param {unknown} x @returns {x is Record<string, unknown>} */
function isPlainObject(x) {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** @param {unknown} x @returns {boolean} */
function isWhole(x) { return typeof x === "number" && Number.isInteger(x); }

/** @param {unknown} x @returns {boolean} */
function isFiniteNumber(x) { return typeof x === "number" && Number.isFinite(x); }

/** A real instant in the form toISOString writes (no 2026-13-45, no 24:61).
 * @param {unknown} text @returns {number | null} its time in milliseconds, or null */
export function timestamp(text) {
  if (typeof text !== "string" || text.length > 30) return null;
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], m[7] ? +m[7].padEnd(3, "0") : 0);
  const back = new Date(ms);
  if (isNaN(ms) || back.getUTCFullYear() !== +m[1] || back.getUTCMonth() !== +m[2] - 1 ||
      back.getUTCDate() !== +m[3] || back.getUTCHours() !== +m[4] || back.getUTCMinutes() !== +m[5] ||
      back.getUTCSeconds() !== +m[6]) return null;
  return ms;
}

/** @param {unknown} raw @returns {string} */
function rawText(raw) {
  try {
    const text = JSON.stringify(raw);
    return text === undefined ? String(raw) : text;
  } catch (error) {
    return String(raw);
  }
}

/** A stored FSRS card, checked field by field, or the reason it is not one.
 * @param {unknown} raw @param {number} now @returns {StoredCard | string} */
function checkCard(raw, now) {
  // `now` here is the latest instant allowed (now, plus the slack for a stored value).
  if (!isPlainObject(raw)) return "its schedule is not an object";
  const c = raw;
  if (!isWhole(c.state) || /** @type {number} */ (c.state) < 0 || /** @type {number} */ (c.state) > 3) {
    return "its schedule has an unknown state";
  }
  if (!isFiniteNumber(c.stability) || /** @type {number} */ (c.stability) < 0 ||
      /** @type {number} */ (c.stability) > 36500) return "its schedule has a bad stability";
  if (!isFiniteNumber(c.difficulty) || /** @type {number} */ (c.difficulty) < 0 ||
      /** @type {number} */ (c.difficulty) > 10) return "its schedule has a bad difficulty";
  // What ts-fsrs's next_state refuses: a memory (not both 0) with a difficulty under 1 or a
  // stability under S_MIN.
  const s = /** @type {number} */ (c.stability), d = /** @type {number} */ (c.difficulty);
  if (!(s === 0 && d === 0)) {
    if (s < MIN_STABILITY) return "its schedule has a stability under the scheduler's least (" + MIN_STABILITY + ")";
    if (d < 1) return "its schedule has a difficulty under the scheduler's least (1)";
  }
  const wholes = ["reps", "lapses", "scheduled_days", "learning_steps", "elapsed_days"];
  for (let i = 0; i < wholes.length; i++) {
    const v = c[wholes[i]];
    if (!isWhole(v) || /** @type {number} */ (v) < 0 || /** @type {number} */ (v) > 1000000) {
      return "its schedule has a bad " + wholes[i].replace("_", " ");
    }
  }
  if (/** @type {number} */ (c.scheduled_days) > MAX_WRITTEN_DAYS) return "its schedule waits longer than " + MAX_WRITTEN_DAYS + " days";
  /** @type {string | null} */
  let last = null;
  if (c.last_review !== undefined && c.last_review !== null) {
    const at = timestamp(c.last_review);
    if (at === null) return "its schedule has a bad date of last review";
    if (at > now) return "its schedule was last reviewed in the future";
    last = /** @type {string} */ (c.last_review);
  }
  /** @type {Record<string, unknown>} */
  const card = {};
  CARD_KEYS.forEach(function (key) { card[key] = c[key]; });
  card.last_review = last;
  return /** @type {StoredCard} */ (/** @type {unknown} */ (card));
}

/** @param {unknown} raw @param {number} now @param {(text: unknown) => number | null} when
 * @returns {Record<string, FollowUp> | string} */
function checkFollowUps(raw, now, when) {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) return "its follow-ups are not an object";
  const titles = Object.keys(raw);
  if (titles.length > LIMITS.followups) return "it has more than " + LIMITS.followups + " follow-ups";
  /** @type {Record<string, FollowUp>} */
  const clean = {};
  for (let i = 0; i < titles.length; i++) {
    const title = titles[i], f = raw[title];
    if (!title.trim() || title.length > LIMITS.title || title === "__proto__") return "a follow-up has no title or one over " + LIMITS.title + " characters";
    if (!isPlainObject(f) || !isRating(f.rating)) return "a follow-up has an unknown rating";
    const at = when(f.rated);
    if (at === null) return "a follow-up has no real date of rating";
    if (at > now) return "a follow-up is rated in the future";
    clean[title] = { rating: /** @type {RatingName} */ (f.rating), rated: new Date(at).toISOString() };
  }
  return clean;
}

/** Why an id is not a question id, or "". @param {string} id @returns {string} */
export function idProblem(id) {
  if (id.length > 200 || !ID.test(id)) return "it is not a question id (topic/slug)";
  return "";
}

/** One version-2 entry, checked; only the known fields are kept. What is kept, the scheduler can
 * rate (scheduling.js, ts-fsrs), and what it writes is kept again.
 * @param {string} id @param {unknown} raw @param {number} now
 * @param {number} [slack] how far ahead of now a date may be (CLOCK_SLACK_MS for a stored value,
 *   0 for an imported file) @returns {Entry | string} */
export function checkEntry(id, raw, now, slack = CLOCK_SLACK_MS) {
  const latest = now + slack;
  const bad = idProblem(id);
  if (bad) return bad;
  if (!isPlainObject(raw)) return "it is not an object";
  if (STATES.indexOf(/** @type {string} */ (raw.state)) < 0) return "it has an unknown state";
  if (!isRating(raw.rating)) return "it has an unknown rating";
  if ((raw.state === "done") !== (raw.rating === "got-it")) return "its state does not match its rating";
  const rated = timestamp(raw.rated);
  if (rated === null) return "it has no real date of rating";
  if (rated > latest) return "it is rated in the future (" + raw.rated + ")";
  /** @type {number | null} */
  let due = null;
  if (raw.state === "done") {
    if (raw.due !== null) return "it is done but has a due date";
  } else {
    due = timestamp(raw.due);
    if (due === null) return "it has no real due date";
    if (due > rated + (MAX_INTERVAL_DAYS + 1) * DAY_MS) {
      return "its due date is later than the longest wait (" + MAX_INTERVAL_DAYS + " days) allows";
    }
  }
  const card = checkCard(raw.card, latest);
  if (typeof card === "string") return card;
  const followups = checkFollowUps(raw.followups, latest, timestamp);
  if (typeof followups === "string") return followups;
  return { state: /** @type {"review" | "done"} */ (raw.state), rating: /** @type {RatingName} */ (raw.rating),
           rated: new Date(rated).toISOString(), due: due === null ? null : new Date(due).toISOString(),
           card: card, followups: followups };
}

/** A version-1 day as the instant it is kept as: local noon of that day (rated) or local
 * midnight (due, so that it is due all that day).
 * @param {unknown} text @param {number} hours @returns {number | null} */
function v1Day(text, hours) {
  const day = calendarDay(text);
  return day === null ? null : day.getTime() + hours * 3600000;
}

/** One version-1 entry (a Leitner box and calendar dates), checked and moved to version 2 with
 * its rating, dates and follow-ups as they were. A day is kept as its local noon, or now when that
 * noon is still to come (so that today's ratings are not ahead of now).
 * @param {string} id @param {unknown} raw @param {number} now
 * @param {number} [slack] how far ahead of now a date may be (0 for an imported file) @returns {Entry | string} */
export function migrateEntry(id, raw, now, slack = CLOCK_SLACK_MS) {
  const latest = now + slack;
  const bad = idProblem(id);
  if (bad) return bad;
  if (!isPlainObject(raw)) return "it is not an object";
  if (STATES.indexOf(/** @type {string} */ (raw.state)) < 0) return "it has an unknown state";
  if (!isRating(raw.rating)) return "it has an unknown rating";
  if (!isWhole(raw.box) || /** @type {number} */ (raw.box) < 0 ||
      /** @type {number} */ (raw.box) >= V1_INTERVALS.length) return "it has a bad box (a whole number 0 to 5)";
  const box = /** @type {number} */ (raw.box);
  /** @param {unknown} text @returns {number | null} */
  const noon = function (text) {
    const at = v1Day(text, 12);
    return at === null || at > latest ? at : Math.min(at, now);
  };
  const rated = noon(raw.rated);
  if (rated === null) return "it has no real date of rating";
  if (rated > latest) return "it is rated in the future (" + raw.rated + ")";
  /** @type {number | null} */
  let due = null;
  if (raw.due !== null) {
    due = v1Day(raw.due, 0);
    if (due === null) return "it has no real due date";
    if (due > rated + (V1_INTERVALS[V1_INTERVALS.length - 1] + 1) * DAY_MS) {
      return "its due date is later than the longest wait (" + V1_INTERVALS[V1_INTERVALS.length - 1] + " days) allows";
    }
  }
  const followups = checkFollowUps(raw.followups, latest, noon);
  if (typeof followups === "string") return followups;
  const done = raw.rating === "got-it";
  // FSRS's memory state from the box: a question waited about its box's interval, which FSRS
  // reads as its stability (the days until recall drops to 90%); difficulty is not known, so
  // the middle of FSRS's scale.
  const interval = V1_INTERVALS[box];
  /** @type {StoredCard} */
  const card = { state: box === 0 && !done ? 0 : 2, stability: Math.max(interval, 0.5), difficulty: 5,
               reps: Math.max(box, 1), lapses: raw.rating === "not-yet" ? 1 : 0, scheduled_days: interval,
               learning_steps: 0, elapsed_days: 0, last_review: new Date(rated).toISOString() };
  return { state: done ? "done" : "review", rating: /** @type {RatingName} */ (raw.rating),
           rated: new Date(rated).toISOString(),
           due: done ? null : new Date(due === null ? rated : due).toISOString(),
           card: card, followups: followups };
}

/** Read a whole stored or imported value: a bad entry is set aside alone, the good ones stay.
 * @param {unknown} data @param {Date} now
 * @param {number} [slack] how far ahead of now a date may be (0 for an imported file)
 * @returns {ReadResult} */
export function readValue(data, now, slack = CLOCK_SLACK_MS) {
  if (!isPlainObject(data)) return { kind: "unreadable", reason: "it is not an object" };
  const version = data.version;
  if (isWhole(version) && /** @type {number} */ (version) > VERSION) {
    return { kind: "newer", version: /** @type {number} */ (version) };
  }
  if (version !== 1 && version !== VERSION) {
    return { kind: "unreadable", reason: "it has version " + rawText(version) + ", this site reads versions 1 and " + VERSION };
  }
  // Written by later rules of this version (REVISION): left alone, as a newer version is.
  if (version === VERSION && isWhole(data.revision) && /** @type {number} */ (data.revision) > REVISION) {
    return { kind: "newer", version: VERSION, revision: /** @type {number} */ (data.revision) };
  }
  if (!isPlainObject(data.questions)) return { kind: "unreadable", reason: "it has no questions" };
  const questions = data.questions;
  const ids = Object.keys(questions);
  if (ids.length > LIMITS.entries) {
    return { kind: "unreadable", reason: "it has " + ids.length + " questions, more than " + LIMITS.entries + " (no progress of this site has)" };
  }
  const check = version === 1 ? migrateEntry : checkEntry;
  /** @type {Value} */
  const value = { version: VERSION, interview: null, questions: {} };
  /** @type {Rejected[]} */
  const rejected = [];
  ids.forEach(function (id) {
    const entry = check(id, questions[id], now.getTime(), slack);
    if (typeof entry === "string") rejected.push({ question: id, reason: entry, raw: rawText(questions[id]) });
    else value.questions[id] = entry;
  });
  if (data.interview !== undefined && data.interview !== null) {
    if (calendarDay(data.interview) !== null) value.interview = /** @type {string} */ (data.interview);
    else rejected.push({ question: null, reason: "the interview date is not a real date", raw: rawText(data.interview) });
  }
  return { kind: "ok", value: value, rejected: rejected, migrated: version === 1 };
}


/**
 * The next question to practise on day `on`: what is due first, then what is not started, in
 * the order given (learning order); done and waiting questions are left out. Due questions come
 * the longest overdue day first and, within a day, the one rated longest ago first: "due" is
 * decided by day, so a question rated again today (an older version of the site made it due
 * "now") goes behind every other question due today, and each is offered before any comes again.
 * @template {{id: string}} Q
 * @param {Q[]} questions @param {Value} value @param {string} on "YYYY-MM-DD"
 * @param {string} [skip] an id to leave out (the question just rated)
 * @returns {{question: Q, due: boolean} | null}
 */
export function nextQuestion(questions, value, on, skip) {
  const due = questions.filter((q) => q.id !== skip && isDue(value.questions[q.id], on));
  /** @param {Q} q @returns {[string, number]} */
  const key = (q) => {
    const e = value.questions[q.id];
    return [dayOf(e.due || e.rated), Date.parse(e.rated)];
  };
  due.sort((a, b) => {
    const x = key(a), y = key(b);
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1];
  });
  if (due.length) return { question: due[0], due: true };
  const fresh = questions.filter((q) => q.id !== skip && !value.questions[q.id])[0];
  return fresh ? { question: fresh, due: false } : null;
}

/**
 * What importing `incoming` into `mine` would change, per question: new (not here), newer (its
 * rating replaces this browser's), older (this browser's is as recent or newer: kept),
 * followups (only newer follow-up ratings come in). Follow-ups merge on their own, title by
 * title, the later rating winning.
 * @param {Value} mine @param {Value} incoming
 * @returns {{added: string[], newer: string[], older: string[], followups: string[], merged: Value}}
 */
export function planImport(mine, incoming) {
  /** @type {Value} */
  const merged = { version: VERSION, interview: mine.interview || incoming.interview,
                 questions: Object.assign({}, mine.questions) };
  /** @type {string[]} */ const added = [];
  /** @type {string[]} */ const newer = [];
  /** @type {string[]} */ const older = [];
  /** @type {string[]} */ const followups = [];
  Object.keys(incoming.questions).forEach(function (id) {
    const theirs = incoming.questions[id], here = mine.questions[id];
    if (!here) {
      added.push(id);
      merged.questions[id] = theirs;
      return;
    }
    const theirsNewer = Date.parse(theirs.rated) > Date.parse(here.rated);
    const base = Object.assign({}, theirsNewer ? theirs : here);
    const titles = Object.keys(theirs.followups);
    const fu = Object.assign({}, here.followups);
    let changedFollowUps = false;
    titles.forEach(function (title) {
      const mineF = here.followups[title], theirsF = theirs.followups[title];
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
export function readImport(text, now) {
  if (text.length > LIMITS.fileBytes) {
    return { error: "it is " + (text.length / 1048576).toFixed(1) + " MB, larger than any progress file of this site (at most " +
             LIMITS.fileBytes / 1048576 + " MB)" };
  }
  /** @type {unknown} */
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { error: "it is not JSON" };
  }
  if (!isPlainObject(data) || data.app !== "pytorch-interview-questions" || data.kind !== "progress") {
    return { error: "it is not a progress file of this site (it was not exported by this site's Export button)" };
  }
  const read = readValue({ version: data.version, revision: data.revision, interview: data.interview,
                          questions: data.questions }, now, 0);
  if (read.kind === "newer") {
    return { error: "a newer version of this site exported it (" + versionName(read) + "); reload the page to get the newer site, then import it again" };
  }
  if (read.kind !== "ok") return { error: read.kind === "unreadable" ? read.reason : "it is empty" };
  return { value: read.value, rejected: read.rejected };
}

/**
 * What importing a file's text into `mine` would change, checked on the merged result before
 * anything is written (issue 39, item 6): a question whose follow-ups, merged, would be over the
 * limit keeps this browser's entry (its file entry refused), a merge over the question limit is
 * refused whole, and the merged value must read back whole, with nothing to set aside. So an
 * accepted file never costs a real rating, and every question in it can be rated.
 * @param {Value} mine @param {string} text @param {Date} now
 * @returns {{error: string} | (ImportPlan & {rejected: Rejected[]})}
 */
export function importPlan(mine, text, now) {
  const read = readImport(text, now);
  if ("error" in read) return read;
  const rejected = read.rejected.slice();
  const incoming = { version: VERSION, interview: read.value.interview, questions: Object.assign({}, read.value.questions) };
  Object.keys(incoming.questions).forEach(function (id) {
    const here = mine.questions[id];
    if (!here) return;
    const titles = Object.keys(Object.assign({}, here.followups, incoming.questions[id].followups));
    if (titles.length > LIMITS.followups) {
      rejected.push({ question: id, reason: "with this browser's follow-ups it would have " + titles.length +
                      ", more than " + LIMITS.followups, raw: rawText(incoming.questions[id]) });
      delete incoming.questions[id];
    }
  });
  const plan = planImport(mine, incoming);
  const count = Object.keys(plan.merged.questions).length;
  if (count > LIMITS.entries) {
    return { error: "with this browser's " + Object.keys(mine.questions).length + " questions it would make " + count +
             ", more than " + LIMITS.entries + " (no progress of this site has)" };
  }
  const back = readValue(JSON.parse(JSON.stringify(plan.merged)), now);
  if (back.kind !== "ok" || back.rejected.length) {
    return { error: "merged with this browser's progress it could not be read back (" +
             (back.kind === "ok" ? back.rejected.map((r) => (r.question || "") + ": " + r.reason).slice(0, 3).join("; ")
               : back.kind === "unreadable" ? back.reason : back.kind) + ")" };
  }
  return Object.assign(plan, { rejected: rejected });
}

/**
 * A set-aside copy as a progress file this site imports again: an entry under its question id,
 * a whole value as it was (its version kept, so a version-1 value is moved on import).
 * @param {import("./progress-format.js").SetAsideCopy} item @returns {string}
 */
export function asideFile(item) {
  /** @type {unknown} */
  let raw;
  try { raw = JSON.parse(String(item.raw)); } catch (error) { return String(item.raw); }
  const head = { app: "pytorch-interview-questions", kind: "progress", exported: item.at || null };
  if (item.question) {
    const v1 = isPlainObject(raw) && "box" in raw;
    return JSON.stringify(Object.assign(head, { version: v1 ? 1 : VERSION, interview: null,
                                                questions: { [item.question]: raw } }), null, 1) + "\n";
  }
  if (isPlainObject(raw) && isPlainObject(raw.questions)) {
    return JSON.stringify(Object.assign(head, { version: raw.version, interview: raw.interview === undefined ? null : raw.interview,
                                                questions: raw.questions }), null, 1) + "\n";
  }
  return String(item.raw);
}

/** How a newer value's version is said: "version 3", or "version 2, revision 4".
 * @param {{version: number, revision?: number}} read @returns {string} */
export function versionName(read) {
  return "version " + read.version + (read.revision === undefined ? "" : ", revision " + read.revision);
}

/** What a write changes in the stored value it replaces: the questions whose entry it writes
 * differently (or newly), and the interview date when it changes it. What storage.js keeps of its
 * own writes, to put back into a value another tab wrote over them (reapply).
 * @param {Value} stored @param {Value} value @returns {OwnChanges} */
export function ownChanges(stored, value) {
  /** @type {Record<string, Entry>} */
  const questions = {};
  Object.keys(value.questions).forEach(function (id) {
    if (JSON.stringify(stored.questions[id]) !== JSON.stringify(value.questions[id])) questions[id] = value.questions[id];
  });
  return { questions: questions,
           interview: stored.interview === value.interview ? null : { from: stored.interview, to: value.interview } };
}

/**
 * Two tabs that write within a few milliseconds each read the value before the other's write
 * reached it, and the later write replaced the earlier one. This tab's own changes go back into
 * the value another tab wrote: per question the later rating wins, per follow-up the later rating
 * wins (an equal date keeps what is stored); the interview date goes back only where the other
 * tab's value still holds the date this tab replaced (a date the other tab chose is kept).
 * `changed` is false when nothing of this tab's is missing: then nothing is written again, so
 * two tabs never rewrite each other's values back and forth.
 * @param {Value} stored @param {OwnChanges} own @returns {{value: Value, changed: boolean}}
 */
export function reapply(stored, own) {
  const plan = planImport(stored, { version: VERSION, interview: null, questions: own.questions });
  const value = plan.merged;
  value.interview = stored.interview;
  let changed = plan.added.length + plan.newer.length + plan.followups.length > 0;
  if (own.interview && stored.interview === own.interview.from) {
    value.interview = own.interview.to;
    changed = true;
  }
  return { value: value, changed: changed };
}
