// The list of questions a progress tool's marker embeds in its page (markers.question_list in
// scripts/question_pages): every question in learning order, with what the tools sort and draw
// by. Read from the page, so the tools make no request for it.

/**
 * @typedef {{id: string, question: string, url: string, topic: string, topic_title: string,
 *            topic_rank: number, level: string, importance: string, frequency: number,
 *            minutes: number, read_minutes?: number, kind?: "drill"}} ListedQuestion
 */

/** The levels of the pages, from the first a reader learns to the last. */
export const LEVELS = ["junior", "middle", "senior", "principal"];
/** How much a question matters, most first. */
export const IMPORTANCE = ["must know", "should know", "nice to know"];

/** The questions a tool's marker embedded. @param {Element} tool @returns {ListedQuestion[]} */
export function questionsOf(tool) {
  const list = tool.querySelector("script.question-list");
  return JSON.parse((list && list.textContent) || "[]");
}

/** The topics of a list, in its order, with their titles.
 * @param {ListedQuestion[]} questions @returns {{id: string, title: string}[]} */
export function topicsOf(questions) {
  /** @type {{id: string, title: string}[]} */
  const topics = [];
  questions.forEach((q) => {
    if (!topics.some((t) => t.id === q.topic)) topics.push({ id: q.topic, title: q.topic_title });
  });
  return topics;
}

/** "Senior" for "senior". @param {string} text @returns {string} */
export function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
