// The study plan's rule, with no page: the questions of the chosen topics up to the target level,
// and the must-know questions above it that are a topic's core (must know and asked often:
// frequency 50% or more); what is due first, then must know, should know, nice to know, each in
// learning order; done questions are left out unless due again; spread evenly over the days left.
// study.js draws it; `node --test tests/js` tests it.
import { IMPORTANCE, LEVELS } from "./question-list.js";
import { standing } from "./progress-format.js";
import { addDays, calendarDay, dayOf, daysBetween } from "./days.js";
import { nextQuestion } from "./progress-core.js";

/**
 * @typedef {import("./question-list.js").ListedQuestion} ListedQuestion
 * @typedef {import("./progress-format.js").Value} Value
 * @typedef {{id: string, topic: string, level: string, importance: string, frequency: number}}
 *   PlanQuestion what a plan chooses a question by
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
 * @param {PlanQuestion} q @param {string} level @returns {boolean} */
export function isCoreAbove(q, level) {
  return LEVELS.indexOf(q.level) > LEVELS.indexOf(level);
}

/**
 * @template {PlanQuestion} Q
 * @param {Q[]} questions in learning order
 * @param {number} days days left before the interview (at least 1)
 * @param {string} level the target level
 * @param {string[]} topics the chosen topics' ids
 * @param {Value} value the reader's progress
 * @param {string} on today, "YYYY-MM-DD"
 * @returns {{perDay: number, days: Q[][], total: number}}
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
  // A question in review waits for its day: it is on the plan the day it is due (first), on no
  // day before, and not at all when due after the last day. The others are spread evenly.
  const waiting = ordered.filter((q) => stateOf(q, value, on) === "review");
  const spread = ordered.filter((q) => waiting.indexOf(q) < 0);
  const perDay = Math.max(1, Math.ceil(spread.length / days));
  /** @type {Q[][]} */
  const plan = [];
  for (let day = 0; day < days; day++) plan.push(spread.slice(day * perDay, (day + 1) * perDay));
  let total = spread.length;
  waiting.slice().reverse().forEach((q) => {
    const e = value.questions[q.id];
    const day = e && e.due ? daysBetween(on, dayOf(e.due)) : -1;
    if (day < 0 || day >= days) return;
    plan[day].unshift(q);
    total += 1;
  });
  return { perDay: perDay, days: plan, total: total };
}

/** The roles a plan can be made for: each a choice of topics (docs/topics.yml's ids, and the
 * coding drills) and a target level. */
export const ROLES = {
  "training-infrastructure": { title: "Training infrastructure", level: "senior",
                               topics: ["core", "compile", "distributed", "gpu", "drills"] },
  "inference-and-deployment": { title: "Inference and deployment", level: "senior",
                                topics: ["core", "llm", "export", "compile", "deployment", "gpu"] },
  "compiler": { title: "Compiler", level: "principal", topics: ["core", "export", "compile", "gpu"] },
  "research-engineer": { title: "Research engineer", level: "middle",
                         topics: ["core", "llm", "distributed", "gpu", "drills"] },
};

/** @typedef {{level: string, topics: string[], role?: string}} PlanSettings a plan's topics and
 * level (and the role they came from) */

/** A kept plan, read: its level and topics (ids as written), or null when there is none or it
 * is not one. @param {string | null} raw @returns {PlanSettings | null} */
export function readPlanSettings(raw) {
  if (raw === null) return null;
  /** @type {unknown} */
  let data;
  try { data = JSON.parse(raw); } catch (error) { return null; }
  if (!data || typeof data !== "object") return null;
  const level = /** @type {{level?: unknown}} */ (data).level;
  const topics = /** @type {{topics?: unknown}} */ (data).topics;
  const role = /** @type {{role?: unknown}} */ (data).role;
  if (typeof level !== "string" || LEVELS.indexOf(level) < 0 || !Array.isArray(topics)) return null;
  const ids = topics.filter((t) => typeof t === "string" && t.length <= 100).slice(0, 100);
  if (!ids.length) return null;
  return { level: level, topics: ids, role: typeof role === "string" && role in ROLES ? role : "" };
}

/** The next question on a plan: every due question first, in or out of the plan (a rated
 * question is on the reader's schedule: progress-core's nextQuestion, the longest overdue
 * first), then the first not started in the plan's own order; never a new one outside the plan.
 * @template {PlanQuestion} Q @param {Q[]} questions in learning order
 * @param {PlanSettings} settings @param {Value} value @param {string} on today
 * @param {string} [skip] an id to leave out
 * @returns {{question: Q, due: boolean} | null} */
export function nextInPlan(questions, settings, value, on, skip) {
  const due = nextQuestion(questions.filter((q) => value.questions[q.id]), value, on, skip);
  if (due) return due;
  const ordered = planOf(questions, 1, settings.level, settings.topics, value, on).days[0];
  return nextQuestion(ordered, value, on, skip);
}

/** The minutes the first read of a list of questions takes (each page's words at a reading
 * pace: the build's read_minutes; none from a list without it).
 * @param {ListedQuestion[]} list @returns {number} */
export function readingMinutes(list) {
  return list.reduce((sum, q) => sum + (q.read_minutes || 0), 0);
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
