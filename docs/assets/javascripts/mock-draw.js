// The mock interview's rules, with no page: which questions are drawn and how a red flag is
// quoted back. mock.js runs the interview; `node --test tests/js` tests these.
import { LEVELS } from "./question-list.js";

/**
 * @typedef {import("./question-list.js").ListedQuestion} ListedQuestion
 * @typedef {import("./progress-format.js").Standing} Standing
 * @typedef {{topics: string[], level: string, includeDone: boolean, minutes: number, count: number}} Settings
 * @typedef {ListedQuestion & {state: Standing}} Drawn
 */

/** @type {Readonly<Record<string, number>>} */
const IMPORTANCE = { "must know": 3, "should know": 2, "nice to know": 1 };
export const MINUTES_PER_QUESTION = 4;  // answer, reveal, grade and one follow-up

/** How likely a question is drawn: by importance, by how often it comes up, and by what is due.
 * @param {ListedQuestion} q @param {Standing} state @returns {number} */
export function weight(q, state) {
  let w = (IMPORTANCE[q.importance] || 1) * (0.5 + q.frequency / 100);
  if (state === "due") w *= 3;
  else if (state === "not-started") w *= 1.5;
  return w;
}

/** The settings a length choice gives ("q5": five questions, "m15": as many as fit 15 minutes).
 * @param {string} length @param {string[]} topics @param {string} level @param {boolean} includeDone
 * @returns {Settings} */
export function settingsOf(length, topics, level, includeDone) {
  const minutes = length.charAt(0) === "m" ? Number(length.slice(1)) : 0;
  return { topics: topics, level: level, includeDone: includeDone, minutes: minutes,
           count: minutes ? Math.max(1, Math.floor(minutes / MINUTES_PER_QUESTION)) : Number(length.slice(1)) };
}

/**
 * Questions drawn for an interview, weighted (weight): of the chosen topics up to the level; a
 * question marked done (rated Got it) is left out unless the reader asks for it.
 * @param {ListedQuestion[]} questions @param {Settings} settings
 * @param {(id: string) => Standing} standingOf where each question stands today
 * @param {() => number} [random] in [0, 1)
 * @returns {Drawn[]}
 */
export function draw(questions, settings, standingOf, random) {
  const next = random || Math.random;
  const top = LEVELS.indexOf(settings.level);
  const pool = questions.filter((q) => settings.topics.indexOf(q.topic) >= 0 && LEVELS.indexOf(q.level) <= top)
    .map((q) => Object.assign({}, q, { state: standingOf(q.id) }))
    .filter((q) => settings.includeDone || q.state !== "done");
  /** @type {Drawn[]} */
  const drawn = [];
  while (drawn.length < settings.count && pool.length) {
    const total = pool.reduce((sum, q) => sum + weight(q, q.state), 0);
    let pick = next() * total, index = 0;
    for (; index < pool.length - 1; index++) {
      pick -= weight(pool[index], pool[index].state);
      if (pick < 0) break;
    }
    drawn.push(pool.splice(index, 1)[0]);
  }
  return drawn;
}

/** A red flag as the reader would have said it: its quoted words, without the explanation.
 * @param {string} flag @returns {string} */
export function quoted(flag) {
  const match = /^[\u201c"](.+?)[\u201d"]/.exec(flag);
  return "\u201c" + (match ? match[1] : flag.slice(0, 80)) + "\u201d";
}
