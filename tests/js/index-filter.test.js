// Unit tests of the question index's rules (docs/assets/javascripts/index-filter.js): which rows a
// view shows, their order, and the view in the URL. Run by scripts/dev.sh test as `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import { clicked, compare, matches, progressAllows, sortOf, writeSort } from "../../docs/assets/javascripts/index-filter.js";

/** @param {string} title @param {number} learning @param {Record<string, string>} rest */
const row = (title, learning, rest) => ({ title, learningRank: String(learning), ...rest });
const A = row("How does Export work?", 0, { level: "junior", importance: "must know", topic: "export",
                                           levelRank: "0", importanceRank: "0", frequency: "40", topicRank: "1" });
const B = row("What is a graph break?", 1, { level: "senior", importance: "should know", topic: "compile",
                                            levelRank: "2", importanceRank: "1", frequency: "90", topicRank: "2" });
const C = row("Why dynamo?", 2, { level: "senior", importance: "must know", topic: "compile",
                                 levelRank: "2", importanceRank: "0", frequency: "40", topicRank: "2" });

test("every filter must allow a row; the text filter reads the title", () => {
  assert.equal(matches(A, {}), true);
  assert.equal(matches(A, { level: "junior", importance: "must know" }), true);
  assert.equal(matches(A, { level: "junior", topic: "compile" }), false);
  assert.equal(matches(B, { text: "graph" }), true);
  assert.equal(matches(B, { text: "export" }), false);
  assert.equal(matches(A, { text: "export", level: "" }), true, "an empty filter allows every row");
});

test("the progress filter: review shows due questions too", () => {
  assert.equal(progressAllows("due", "review"), true);
  assert.equal(progressAllows("review", "due"), false);
  assert.equal(progressAllows("done", ""), true);
  assert.equal(progressAllows(undefined, "not-started"), false);
});

test("sorting: ties keep the learning order either way, a second click reverses", () => {
  const rows = [C, B, A];
  const byFrequency = clicked({ key: "learning", order: "ascending" }, "frequency");
  assert.deepEqual(byFrequency, { key: "frequency", order: "descending" }, "most frequent first");
  assert.deepEqual(rows.slice().sort((x, y) => compare(x, y, byFrequency)).map((r) => r.learningRank), ["1", "0", "2"]);
  const back = clicked(byFrequency, "frequency");
  assert.deepEqual(rows.slice().sort((x, y) => compare(x, y, back)).map((r) => r.learningRank), ["0", "2", "1"]);
  const byTitle = { key: "question", order: /** @type {const} */ ("ascending") };
  assert.deepEqual(rows.slice().sort((x, y) => compare(x, y, byTitle)).map((r) => r.title[0]), ["H", "W", "W"]);
});

test("a view round-trips through the URL, saying only what differs from the default", () => {
  const params = new URLSearchParams("level=senior");
  writeSort(params, { key: "frequency", order: "descending" });
  assert.equal(params.toString(), "level=senior&sort=frequency");
  writeSort(params, { key: "frequency", order: "ascending" });
  assert.equal(params.toString(), "level=senior&sort=frequency&order=asc");
  assert.deepEqual(sortOf(params), { key: "frequency", order: "ascending" });
  writeSort(params, { key: "learning", order: "ascending" });
  assert.equal(params.toString(), "level=senior");
  assert.deepEqual(sortOf(new URLSearchParams("sort=nonsense")), { key: "learning", order: "ascending" });
  assert.deepEqual(sortOf(new URLSearchParams("sort=level")), { key: "level", order: "ascending" });
});
