// The study plan's rule, with no page: the questions of the chosen topics up to the target level,
// and the must-know questions above it that are a topic's core (must know and asked often:
// frequency 50% or more); what is due first, then must know, should know, nice to know, each in
// learning order; done questions are left out unless due again; spread evenly over the days left.
// study.js draws it; `node --test tests/js` tests it.
import { IMPORTANCE, LEVELS } from "./question-list.js";
import { standing } from "./progress-format.js";
import { addDays, calendarDay, daysBetween } from "./days.js";

/**
 * @typedef {import("./question-list.js").ListedQuestion} ListedQuestion
 * @typedef {import("./progress-format.js").Value} Value
 * @typedef {{perDay: number, days: ListedQuestion[][], total: number}} Plan
 */

export const CORE_FREQUENCY = 50;

/** Where a question of the list stands in a value on a day.
 * @param {{id: string}} question @param {Value} value @param {string} on
 * @returns {import("./progress-format.js").Standing} */
export function stateOf(question, value, on) {
  return standing(value.questions[question.id], on);
}

/** Whether a question at `level` is above the target level but in the plan as its topic's core.
 * @param {ListedQuestion} q @param {string} level @returns {boolean} */
export function isCoreAbove(q, level) {
  return LEVELS.indexOf(q.level) > LEVELS.indexOf(level);
}

/**
 * @param {ListedQuestion[]} questions in learning order
 * @param {number} days days left before the interview (at least 1)
 * @param {string} level the target level
 * @param {string[]} topics the chosen topics' ids
 * @param {Value} value the reader's progress
 * @param {string} on today, "YYYY-MM-DD"
 * @returns {Plan}
 */
export function planOf(questions, days, level, topics, value, on) {
  const top = LEVELS.indexOf(level);
  const wanted = questions.filter((q) => {
    if (topics.indexOf(q.topic) < 0 || stateOf(q, value, on) === "done") return false;
    return LEVELS.indexOf(q.level) <= top || (q.importance === "must know" && q.frequency >= CORE_FREQUENCY);
  });
  const ordered = wanted.filter((q) => stateOf(q, value, on) === "due");
  IMPORTANCE.forEach((importance) => {
    wanted.forEach((q) => {
      if (q.importance === importance && ordered.indexOf(q) < 0) ordered.push(q);
    });
  });
  const perDay = Math.max(1, Math.ceil(ordered.length / days));
  /** @type {ListedQuestion[][]} */
  const plan = [];
  for (let day = 0; day < days; day++) plan.push(ordered.slice(day * perDay, (day + 1) * perDay));
  return { perDay: perDay, days: plan, total: ordered.length };
}

/** The minutes a list of questions takes to practise. @param {ListedQuestion[]} list @returns {number} */
export function minutes(list) {
  return list.reduce((sum, q) => sum + (q.minutes || 0), 0);
}

/** The interview day a plan's URL asks for (?interview=YYYY-MM-DD, or ?days=N from today), or null.
 * @param {URLSearchParams} params @param {string} on today @returns {string | null} */
export function interviewFromUrl(params, on) {
  const asked = params.get("interview");
  if (asked && calendarDay(asked)) return asked;
  const wanted = Math.floor(Number(params.get("days")));
  return wanted >= 1 && wanted <= 365 ? addDays(on, wanted) : null;
}

/** The days a plan spreads over: from today to the interview, 1 to 365.
 * @param {string} on today @param {string} interview @returns {number} */
export function planLength(on, interview) {
  return Math.min(365, Math.max(1, daysBetween(on, interview)));
}
