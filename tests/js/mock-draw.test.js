// Unit tests of the mock interview's draw (docs/assets/javascripts/mock-draw.js).
// Run by scripts/dev.sh test as `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import { draw, quoted, settingsOf, weight } from "../../docs/assets/javascripts/mock-draw.js";

/** @param {string} id @param {string} topic @param {string} level @param {string} importance */
function question(id, topic, level, importance, frequency = 50) {
  return { id, question: id + "?", url: id + "/", topic, topic_title: topic, topic_rank: 0, level,
           importance, frequency, minutes: 3 };
}
const QUESTIONS = [
  question("t/a", "t", "junior", "must know"), question("t/b", "t", "senior", "nice to know"),
  question("t/c", "t", "principal", "must know"), question("u/d", "u", "junior", "should know"),
  question("t/e", "t", "middle", "should know"),
];

/** A fixed sequence of "random" numbers. @param {number[]} values */
function sequence(values) {
  let i = 0;
  return () => values[i++ % values.length];
}

test("a length gives a number of questions, or as many as fit its minutes", () => {
  assert.equal(settingsOf("q5", ["t"], "senior", false).count, 5);
  assert.equal(settingsOf("m15", ["t"], "senior", false).count, 3);
  assert.equal(settingsOf("m30", ["t"], "senior", false).minutes, 30);
  assert.equal(settingsOf("m3", ["t"], "senior", false).count, 1);
});

test("only the chosen topics up to the level are drawn, done ones only when asked", () => {
  const states = /** @type {Record<string, import("../../docs/assets/javascripts/progress-format.js").Standing>} */ (
    { "t/e": "done" });
  const standingOf = (/** @type {string} */ id) => states[id] || "not-started";
  const drawn = draw(QUESTIONS, settingsOf("q8", ["t"], "senior", false), standingOf, sequence([0.5]));
  assert.deepEqual(drawn.map((q) => q.id).sort(), ["t/a", "t/b"]);
  const withDone = draw(QUESTIONS, settingsOf("q8", ["t"], "senior", true), standingOf, sequence([0.5]));
  assert.deepEqual(withDone.map((q) => q.id).sort(), ["t/a", "t/b", "t/e"]);
  assert.equal(withDone.find((q) => q.id === "t/e")?.state, "done");
});

test("the draw is weighted: importance, frequency, and due questions three times as likely", () => {
  const a = QUESTIONS[0], b = QUESTIONS[1];
  assert.equal(weight(a, "review"), 3);
  assert.equal(weight(b, "review"), 1);
  assert.equal(weight(a, "due"), 9);
  assert.equal(weight(a, "not-started"), 4.5);
  // With weights 3 (t/a) and 1 (t/b), a pick below 3/4 takes t/a, one above takes t/b.
  const standingOf = () => /** @type {const} */ ("review");
  const settings = settingsOf("q1", ["t"], "senior", false);
  assert.equal(draw([a, b], settings, standingOf, sequence([0.74]))[0].id, "t/a");
  assert.equal(draw([a, b], settings, standingOf, sequence([0.76]))[0].id, "t/b");
});

test("a red flag is quoted by its own words", () => {
  assert.equal(quoted("\u201cexport is just tracing.\u201d It is not: see the guards."), "\u201cexport is just tracing.\u201d");
  assert.equal(quoted('"no quotes" left'), "\u201cno quotes\u201d");
  assert.equal(quoted("x".repeat(100)), "\u201c" + "x".repeat(80) + "\u201d");
});
