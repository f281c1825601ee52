// The reader's progress as every page reads it, without its rules (progress-core.js, imported
// only when needed): where it is kept, its version, the question id rule, the ratings, the types
// of a stored value (its format: progress-core.js), and the start of storage.js where progress is.
import { dayOf } from "./days.js";
import { runModule } from "./dom.js";

/** The localStorage key of the value, and of the list of copies set aside as unreadable. */
export const KEY = "pytorch-interview-questions.progress";
export const ASIDE = KEY + ".set-aside";
/** The IndexedDB database of the mock interview's recordings (mock.js's DB_NAME). */
export const RECORDINGS = "pytorch-interview-questions.recordings";
/** The mock interviews kept in this browser (mock-sessions.js; "Clear all progress" removes them). */
export const MOCK_SESSIONS = "pytorch-interview-questions.mock-sessions";
/** Version 1's single backup: moved into the list. */
export const LEGACY_ASIDE = KEY + ".unreadable";
export const VERSION = 2;
/** The revision of the rules within VERSION (what progress-core.js's validator accepts, what the
 * scheduler may write), stored with the value as `revision`. Bump it with any change that lets a
 * value be written that the earlier rules would refuse (a longer wait, a new field's value): a
 * page of the earlier site still open in another tab then leaves the value alone (readValue says
 * "newer") instead of setting aside what its rules refuse and rewriting the rest. A value without
 * it is revision 1. */
export const REVISION = 1;
// The question id: "<topic>/<slug>", lower-case words joined by hyphens. The same rule as
// scripts/question_pages/ids.py (a test compares the two), so no page can have an id that
// this site refuses.
export const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** @typedef {"got-it" | "review" | "not-yet"} RatingName */
/** @type {readonly RatingName[]} */
export const RATINGS = ["got-it", "review", "not-yet"];
/** @param {unknown} x @returns {x is RatingName} */
export function isRating(x) { return RATINGS.some((r) => r === x); }
/** @type {Readonly<Record<RatingName, string>>} */
export const RATING_LABELS = { "got-it": "Got it", "review": "Review", "not-yet": "Not yet" };

/**
 * @typedef {{state: number, stability: number, difficulty: number, reps: number, lapses: number,
 *            scheduled_days: number, learning_steps: number, elapsed_days: number,
 *            last_review: string | null}} StoredCard
 * @typedef {{rating: RatingName, rated: string}} FollowUp
 * @typedef {{state: "review" | "done", rating: RatingName, rated: string, due: string | null,
 *            card: StoredCard, followups: Record<string, FollowUp>}} Entry
 * @typedef {{version: number, interview: string | null, questions: Record<string, Entry>}} Value
 * @typedef {{question: string | null, reason: string, raw: string}} Rejected
 * @typedef {{id: string, at: string, reason: string, question: string | null, raw: string,
 *            seen?: boolean}} SetAsideCopy
 * @typedef {"due" | "not-started" | "review" | "done"} Standing
 */

/** Whether this browser holds anything of ours (then storage.js and the rules are needed).
 * @returns {boolean} */
export function holdsProgress() {
  try {
    return [KEY, ASIDE, LEGACY_ASIDE].some((key) => window.localStorage.getItem(key) !== null);
  } catch (error) {
    return false;
  }
}

/** @typedef {typeof import("./storage.js")} Storage */
/** @type {Array<(storage: Storage) => void>} */
const drawers = [];
/** @type {Storage | null} */
let storage = null;

/** Draw the reader's progress with storage.js: now if this browser holds some (or `now` says
 * so), else once some is written (on this page or in another tab); then whenever it changes.
 * A first visit, with nothing stored, downloads none of it. storage.js runs by a script element
 * (progress-start.js), so a page with progress is drawn before its load event, as it was when
 * these were classic scripts.
 * @param {boolean} now @param {(storage: Storage) => void} draw */
export function withProgress(now, draw) {
  drawers.push(draw);
  if (storage) {
    started(storage, [draw]);
    return;
  }
  const start = () => {
    runModule(new URL("./progress-start.js", import.meta.url)).catch(() => { /* works without progress */ });
  };
  if (now || holdsProgress()) start();
  else {
    document.addEventListener(CHANGED, start, { once: true });
    window.addEventListener("storage", (event) => { if (event.key === KEY || event.key === ASIDE) start(); });
  }
}

/** storage.js is here (progress-start.js): draw what asked for it, now and on every change.
 * @param {Storage} loaded @param {Array<(storage: Storage) => void>} [only] */
export function started(loaded, only) {
  const first = !storage;
  storage = loaded;
  loaded.start();
  (only || (first ? drawers : [])).forEach((draw) => {
    draw(loaded);
    loaded.onChange(() => draw(loaded));
  });
}

/** The event storage.js sends on the document when the progress changed. */
export const CHANGED = "progress-change";

/** A value with nothing in it. @returns {Value} */
export function empty() { return { version: VERSION, interview: null, questions: {} }; }

/** Whether a question is due on a day: its due date is that day or before.
 * @param {Entry | null | undefined} entry @param {string} on "YYYY-MM-DD" @returns {boolean} */
export function isDue(entry, on) {
  return !!entry && entry.due !== null && dayOf(entry.due) <= on;
}

/** Where a question stands on a day: due, not started, in review, or done.
 * @param {Entry | null | undefined} entry @param {string} on @returns {Standing} */
export function standing(entry, on) {
  if (!entry) return "not-started";
  return isDue(entry, on) ? "due" : entry.state;
}

/** The question id a link leads to, or null: a page of this site whose path is an id.
 * @param {string} href @param {URL} root the site's root @param {string} [from] the page's URL
 * @returns {string | null} */
export function idOf(href, root, from) {
  const url = new URL(href, from || root.href);
  if (url.origin !== root.origin || url.pathname.indexOf(root.pathname) !== 0) return null;
  const id = url.pathname.slice(root.pathname.length).replace(/(\/index\.html|\/)$/, "");
  return ID.test(id) ? id : null;
}
