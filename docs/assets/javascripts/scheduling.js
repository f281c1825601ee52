// When a rated question comes back: FSRS from ts-fsrs (no fuzz, whole days), kept before the
// reader's interview date; and a follow-up's rating on its question's entry. No page and no
// storage: storage.js gives it the scheduler it loaded (assets/vendor/ts-fsrs, imported only
// when a rating is near), the unit tests give it ts-fsrs from node_modules.
import { calendarDay, dayOf, startOfDay } from "./days.js";
import { MAX_INTERVAL_DAYS, LIMITS } from "./progress-core.js";

/**
 * @typedef {import("./progress-format.js").RatingName} RatingName
 * @typedef {import("./progress-format.js").StoredCard} StoredCard
 * @typedef {import("./progress-format.js").Entry} Entry
 * @typedef {Pick<typeof import("ts-fsrs"), "fsrs" | "generatorParameters" | "createEmptyCard" |
 *   "Rating">} Fsrs the parts of ts-fsrs used here
 * @typedef {import("ts-fsrs").Card} Card
 */

/** The last moment a question rated Review or Not yet may come back, before an interview on
 * `interview`: the day before it (so there is a day to catch up), but never today: on the eve
 * it is the morning of the interview (a last look), and on the day of the interview or after it
 * there is none. A question rated again is never due again the same day, so what is due on any
 * day, the last ones included, can all be practised.
 * @param {string | null} interview @param {Date} now @returns {Date | null} */
export function interviewLimit(interview, now) {
  const day = calendarDay(interview);
  if (day === null || interview === null || dayOf(now) >= interview) return null;
  const limit = startOfDay(day, -1), tomorrow = startOfDay(now, 1);
  return limit.getTime() < tomorrow.getTime() ? tomorrow : limit;
}

/**
 * The entry a rating gives, from the one before it: FSRS (ts-fsrs, no fuzz, waits in whole
 * days) on the question's card; "Got it" marks it done; "Not yet" comes back the next
 * day; before an interview, nothing rated Review or Not yet comes back after the day before it
 * (on the eve, after the morning of the interview: interviewLimit). So it is never due again the
 * day it is rated: FSRS waits at least a whole day (no short-term steps), and the limit is never
 * before tomorrow.
 * @param {Entry | null} before @param {RatingName} rating @param {Date} now
 * @param {string | null} interview @param {Fsrs} lib ts-fsrs
 * @returns {Entry}
 */
export function schedule(before, rating, now, interview, lib) {
  const scheduler = lib.fsrs(lib.generatorParameters({ enable_fuzz: false, enable_short_term: false,
                                                       maximum_interval: MAX_INTERVAL_DAYS }));
  /** @type {Card} */
  let card;
  if (before) {
    const stored = before.card;
    card = { due: before.due ? new Date(before.due) : now, stability: stored.stability,
             difficulty: stored.difficulty, elapsed_days: stored.elapsed_days,
             scheduled_days: stored.scheduled_days, learning_steps: stored.learning_steps,
             reps: stored.reps, lapses: stored.lapses, state: stored.state,
             // A stored last review a little ahead of now (this browser's clock moved back: the
             // validator's slack) is read as now: ts-fsrs refuses a review before the last one.
             last_review: stored.last_review ? new Date(Math.min(Date.parse(stored.last_review), now.getTime())) : undefined };
  } else {
    card = lib.createEmptyCard(now);
  }
  const grade = rating === "got-it" ? lib.Rating.Good : rating === "review" ? lib.Rating.Hard : lib.Rating.Again;
  const next = scheduler.next(card, now, grade).card;
  let due = new Date(next.due);
  if (rating === "not-yet") {
    const tomorrow = startOfDay(now, 1);
    if (due.getTime() > tomorrow.getTime()) due = tomorrow;
  }
  const limit = rating === "got-it" ? null : interviewLimit(interview, now);
  if (limit && due.getTime() > limit.getTime()) due = limit;
  /** @type {StoredCard} */
  const saved = { state: next.state, stability: next.stability, difficulty: next.difficulty,
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
export function rateFollowUp(before, title, rating, now) {
  /** @type {Entry} */
  const entry = before ? Object.assign({}, before) : {
    state: "review", rating: "not-yet", rated: now.toISOString(), due: now.toISOString(),
    card: { state: 0, stability: 0, difficulty: 0, reps: 0, lapses: 0, scheduled_days: 0,
            learning_steps: 0, elapsed_days: 0, last_review: null },
    followups: {} };
  entry.followups = Object.assign({}, entry.followups);
  entry.followups[title.slice(0, LIMITS.title)] = { rating: rating, rated: now.toISOString() };
  return entry;
}

/** The reviews already scheduled, fitted to an interview date the reader has just given: each
 * due after the last moment before it (interviewLimit: the day before, or on the eve the morning
 * of the interview) comes back by then; the rest, and done questions, are left alone. The
 * entries given are not changed. @param {Record<string, Entry>} questions
 * @param {string | null} interview @param {Date} now
 * @returns {{questions: Record<string, Entry>, moved: string[]}} */
export function fitInterview(questions, interview, now) {
  const limit = interviewLimit(interview, now);
  /** @type {Record<string, Entry>} */
  const fitted = Object.assign({}, questions);
  /** @type {string[]} */
  const moved = [];
  if (!limit) return { questions: fitted, moved: moved };
  Object.keys(questions).forEach((id) => {
    const e = questions[id];
    if (e.state !== "review" || e.due === null || Date.parse(e.due) <= limit.getTime()) return;
    fitted[id] = Object.assign({}, e, { due: limit.toISOString() });
    moved.push(id);
  });
  return { questions: fitted, moved: moved };
}
