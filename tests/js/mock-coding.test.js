// The coding round's choices (mock-coding.js): its length and which drill it draws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pickDrill, roundMinutes, RUBRIC } from "../../docs/assets/javascripts/mock-coding.js";

const drill = (id, minutes) => ({ id: "drills/" + id, question: id, url: "../drills/" + id + "/",
  topic: "drills", topic_title: "Coding drills", topic_rank: 5, level: "middle",
  importance: "should know", frequency: 0, minutes: minutes, kind: "drill" });

test("the round lasts the drill's minutes, kept within 30 to 45", () => {
  assert.deepEqual([10, 20, 30, 35, 45, 60, 0, Number.NaN].map(roundMinutes), [30, 30, 30, 35, 45, 45, 30, 30]);
});

test("it draws what storage says is next (due, then new) and otherwise any drill", () => {
  const drills = [drill("rope", 25), drill("kv-cache", 40), drill("rms-norm", 20)];
  const next = (pick) => ({ nextQuestion: (list) => pick(list) });
  assert.equal(pickDrill(drills, next((list) => ({ question: list[1], due: true }))).id, "drills/kv-cache");
  // Everything done: a drill all the same, chosen by the random draw, never outside the list.
  const none = next(() => null);
  assert.equal(pickDrill(drills, none, () => 0).id, "drills/rope");
  assert.equal(pickDrill(drills, none, () => 0.99).id, "drills/rms-norm");
  assert.equal(pickDrill(drills, none, () => 1).id, "drills/rope");
  assert.equal(pickDrill([], none), null);
});

test("the rubric asks for the judge's verdict and the cost", () => {
  assert.ok(RUBRIC.some((line) => line.includes("judge's tests")));
  assert.ok(RUBRIC.some((line) => line.includes("time and memory")));
});
