// The question index's rules, with no page: which rows a view shows, in which order, and how a
// view is written in the page's URL (?level=senior&importance=must+know&sort=frequency&order=asc),
// so that a guide can link to it. questions.js applies them to the table's rows (each row's
// data attributes, from catalog.py); `node --test tests/js` tests them.

/**
 * What a row of the table holds, from its data attributes and its first cell.
 * @typedef {{title: string, level?: string, importance?: string, topic?: string, levelRank?: string,
 *            importanceRank?: string, frequency?: string, topicRank?: string, learningRank?: string,
 *            progress?: string}} Row
 * @typedef {"ascending" | "descending"} Order
 * @typedef {{key: string, order: Order}} Sort
 */

/** The direction a first click sorts in: most frequent and most important first, junior first.
 * @type {Readonly<Record<string, Order>>} */
export const FIRST = { frequency: "descending", importance: "ascending", level: "ascending",
                       question: "ascending", topic: "ascending", learning: "ascending" };
/** The filters that match a row's data attribute exactly (the text filter matches its title). */
export const FILTERS = ["level", "importance", "topic"];
/** @type {Sort} */
export const LEARNING = { key: "learning", order: "ascending" };

/** Whether a row shows under the index's own filters (by name, lower-case; "text" is the title's).
 * @param {Row} row @param {Record<string, string>} wanted @returns {boolean} */
export function matches(row, wanted) {
  const ok = FILTERS.every((key) => !wanted[key] || row[/** @type {"level" | "importance" | "topic"} */ (key)] === wanted[key]);
  return ok && (!wanted.text || row.title.toLowerCase().indexOf(wanted.text) !== -1);
}

/** Whether a row shows under the reader's progress filter ("" for every row; "review" shows due
 * questions too). @param {string | undefined} state the row's progress @param {string} wanted
 * @returns {boolean} */
export function progressAllows(state, wanted) {
  return !wanted || state === wanted || (wanted === "review" && state === "due");
}

/** @param {Row} row @param {string} key @returns {number | string} */
export function keyOf(row, key) {
  if (key === "level") return Number(row.levelRank);
  if (key === "importance") return Number(row.importanceRank);
  if (key === "frequency") return Number(row.frequency);
  if (key === "topic") return Number(row.topicRank);
  if (key === "question") return row.title.toLowerCase();
  return Number(row.learningRank);
}

/** The order of two rows; ties keep the learning order, whichever way the column goes.
 * @param {Row} a @param {Row} b @param {Sort} sort @returns {number} */
export function compare(a, b, sort) {
  const x = keyOf(a, sort.key), y = keyOf(b, sort.key);
  const order = x < y ? -1 : x > y ? 1 : 0;
  return order * (sort.order === "ascending" ? 1 : -1) ||
    /** @type {number} */ (keyOf(a, "learning")) - /** @type {number} */ (keyOf(b, "learning"));
}

/** The sort a click on a column gives: the other way on the same column, else its first way.
 * @param {Sort} sort @param {string} key @returns {Sort} */
export function clicked(sort, key) {
  if (sort.key === key) return { key: key, order: sort.order === "ascending" ? "descending" : "ascending" };
  return { key: key, order: FIRST[key] || "ascending" };
}

/** The sort a URL asks for, or the learning order. @param {URLSearchParams} params @returns {Sort} */
export function sortOf(params) {
  const key = params.get("sort");
  if (!key || !FIRST[key]) return LEARNING;
  const order = params.get("order");
  return { key: key, order: order === "asc" ? "ascending" : order === "desc" ? "descending" : FIRST[key] };
}

/** Write a sort into URL parameters (nothing for the learning order, no order for a first way).
 * @param {URLSearchParams} params @param {Sort} sort */
export function writeSort(params, sort) {
  if (sort.key !== LEARNING.key || sort.order !== LEARNING.order) {
    params.set("sort", sort.key);
    if (sort.order !== FIRST[sort.key]) params.set("order", sort.order === "ascending" ? "asc" : "desc");
    else params.delete("order");
  } else {
    params.delete("sort");
    params.delete("order");
  }
}
