// The coding round's choices (mock-coding.js): its length and which drill it draws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pickDrill, roundMinutes, RUBRIC } from "../../docs/assets/javascripts/mock-coding.js";

/** @typedef {import("../../docs/assets/javascripts/question-list.js").ListedQuestion} ListedQuestion */

/** @param {string} id @param {number} minutes @returns {ListedQuestion} */
const drill = (id, minutes) => ({ id: "drills/" + id, question: id, url: "../drills/" + id + "/",
  topic: "drills", topic_title: "Coding drills", topic_rank: 5, level: "middle",
  importance: "should know", frequency: 0, minutes: minutes, kind: "drill" });

/** A stand-in for storage.js: only nextQuestion is read.
 * @param {(list: ListedQuestion[]) => {question: ListedQuestion, due: boolean} | null} pick */
const storage = (pick) => /** @type {any} */ ({ nextQuestion: pick });

/** @param {ListedQuestion | null} picked @returns {string} */
const idOf = (picked) => (picked ? picked.id : "none");

test("the round lasts the drill's minutes, kept within 30 to 45", () => {
  assert.deepEqual([10, 20, 30, 35, 45, 60, 0, Number.NaN].map(roundMinutes), [30, 30, 30, 35, 45, 45, 30, 30]);
});

test("it draws what storage says is next (due, then new) and otherwise any drill", () => {
  const drills = [drill("rope", 25), drill("kv-cache", 40), drill("rms-norm", 20)];
  assert.equal(idOf(pickDrill(drills, storage((list) => ({ question: list[1], due: true })))), "drills/kv-cache");
  // Everything done: a drill all the same, chosen by the random draw, never outside the list.
  const none = storage(() => null);
  assert.equal(idOf(pickDrill(drills, none, () => 0)), "drills/rope");
  assert.equal(idOf(pickDrill(drills, none, () => 0.99)), "drills/rms-norm");
  assert.equal(idOf(pickDrill(drills, none, () => 1)), "drills/rope");
  assert.equal(pickDrill([], none), null);
});

test("the rubric asks for the judge's verdict and the cost", () => {
  assert.ok(RUBRIC.some((line) => line.includes("judge's tests")));
  assert.ok(RUBRIC.some((line) => line.includes("time and memory")));
});
