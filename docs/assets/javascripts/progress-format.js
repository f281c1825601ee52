// The format of the reader's progress, as every module reads it: where it is kept, its version,
// the question id rule, the ratings, and the types of a stored value. The rules that check and
// change a value are in progress-core.js (validation, migration, imports) and scheduling.js (FSRS),
// loaded only when needed; this is what every page needs without them.
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
import { dayOf } from "./days.js";

/** The localStorage key of the value, and of the list of copies set aside as unreadable. */
export const KEY = "pytorch-interview-questions.progress";
export const ASIDE = KEY + ".set-aside";
/** Version 1's single backup: moved into the list. */
export const LEGACY_ASIDE = KEY + ".unreadable";
export const VERSION = 2;
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
