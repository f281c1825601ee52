// Unit tests of the study plan's rule (docs/assets/javascripts/plan.js): which questions, in which
// order, over how many days. Run by scripts/dev.sh test as `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { interviewFromUrl, minutes, nextInPlan, planLength, planOf, readingMinutes, ROLES } from "../../docs/assets/javascripts/plan.js";

/** @param {string} id @param {string} level @param {string} importance @param {number} [frequency] */
function question(id, level, importance, frequency = 10) {
  return { id: "t/" + id, question: id + "?", url: id + "/", topic: id.startsWith("x") ? "x" : "t",
           topic_title: "T", topic_rank: 0, level, importance, frequency, minutes: 3 };
}
const card = { state: 2, stability: 3, difficulty: 5, reps: 1, lapses: 0, scheduled_days: 2,
               learning_steps: 0, elapsed_days: 0, last_review: null };
/** @param {Record<string, {state: "review" | "done", due: string | null}>} entries */
function value(entries) {
  /** @type {import("../../docs/assets/javascripts/progress-format.js").Value} */
  const v = { version: 2, interview: null, questions: {} };
  for (const [id, e] of Object.entries(entries)) {
    v.questions[id] = { state: e.state, rating: e.state === "done" ? "got-it" : "review",
                        rated: "2026-11-01T10:00:00.000Z", due: e.due, card, followups: {} };
  }
  return v;
}

const QUESTIONS = [
  question("a", "junior", "nice to know"), question("b", "senior", "should know"),
  question("c", "middle", "must know"), question("d", "principal", "must know", 80),
  question("e", "principal", "must know", 20), question("f", "junior", "must know"),
  question("xa", "junior", "must know"),
];

test("up to the level, plus the must-know core above it; what is due, then by importance", () => {
  const due = new Date(2026, 11, 1).toISOString();
  const progress = value({ "t/a": { state: "review", due }, "t/f": { state: "done", due: null } });
  const plan = planOf(QUESTIONS, 2, "senior", ["t"], progress, "2026-12-02");
  const order = plan.days.flat().map((q) => q.id);
  // a is due; c and d are must know (d, principal, is its topic's core: asked 80% of the time);
  // e (principal, asked 20%) is not; f is done; xa is another topic.
  assert.deepEqual(order, ["t/a", "t/c", "t/d", "t/b"]);
  assert.equal(plan.total, 4);
  assert.equal(plan.perDay, 2);
  assert.deepEqual(plan.days.map((d) => d.length), [2, 2]);
});

test("more days than questions leave the later days empty, never fewer than one a day", () => {
  const plan = planOf(QUESTIONS, 10, "junior", ["t", "x"], value({}), "2026-12-02");
  assert.equal(plan.perDay, 1);
  assert.equal(plan.days.length, 10);
  assert.deepEqual(plan.days.slice(0, 4).map((d) => d.map((q) => q.id)), [["t/d"], ["t/f"], ["t/xa"], ["t/a"]]);
  assert.deepEqual(plan.days.slice(4), [[], [], [], [], [], []]);
  assert.equal(minutes(plan.days.flat()), 12);
});

test("the interview date comes from the URL's date or its number of days", () => {
  /** @param {string} query */
  const asked = (query) => interviewFromUrl(new URLSearchParams(query), "2026-12-30");
  assert.equal(asked("interview=2027-01-15"), "2027-01-15");
  assert.equal(asked("interview=2027-02-30&days=3"), "2027-01-02", "not a real date: the days");
  assert.equal(asked("days=0"), null);
  assert.equal(asked("days=366"), null);
  assert.equal(asked(""), null);
  assert.equal(planLength("2026-12-30", "2027-01-02"), 3);
  assert.equal(planLength("2026-12-30", "2026-12-01"), 1, "a past interview: one day");
  assert.equal(planLength("2026-01-01", "2028-01-01"), 365);
});

test("a question in review is on the plan's day it is due, not before (issue 39, 3)", () => {
  // t/b is in review, due on the third day: on that day, first, and on no day before it.
  const due = new Date(2026, 11, 4, 10).toISOString();
  const progress = value({ "t/b": { state: "review", due } });
  const plan = planOf(QUESTIONS, 4, "senior", ["t"], progress, "2026-12-02");
  const days = plan.days.map((d) => d.map((q) => q.id));
  assert.deepEqual(days[2][0], "t/b", JSON.stringify(days));
  assert.ok(days.every((d, i) => i === 2 || d.indexOf("t/b") < 0), JSON.stringify(days));
  // Due after the last day: not in the plan at all.
  const later = value({ "t/b": { state: "review", due: new Date(2026, 11, 20).toISOString() } });
  assert.ok(planOf(QUESTIONS, 4, "senior", ["t"], later, "2026-12-02").days.flat().every((q) => q.id !== "t/b"));
});

test("each role is a choice of the site's topics and a level (issue 39, 3)", () => {
  const topics = fs.readFileSync(new URL("../../docs/topics.yml", import.meta.url), "utf8")
    .split("\n").filter((line) => line.startsWith("- id: ")).map((line) => line.slice(6).trim());
  assert.deepEqual(Object.keys(ROLES), ["training-infrastructure", "inference-and-deployment", "compiler",
                                        "research-engineer"]);
  for (const role of Object.values(ROLES)) {
    assert.ok(role.topics.length >= 2 && role.topics.every((t) => topics.indexOf(t) >= 0 || t === "drills"), role.title);
    assert.ok(["junior", "middle", "senior", "principal"].indexOf(role.level) >= 0, role.title);
  }
  assert.ok(ROLES["training-infrastructure"].topics.indexOf("distributed") >= 0);
  assert.ok(ROLES["compiler"].topics.indexOf("compile") >= 0);
});

test("Next on a plan: what is due, then the plan's own order, never a new one outside it (issue 39, 3)", () => {
  const progress = value({ "t/c": { state: "review", due: new Date(2026, 11, 1).toISOString() } });
  const settings = { level: "junior", topics: ["x"] };
  // A due question comes first, in the plan or not: it is on the reader's schedule.
  assert.equal(nextInPlan(QUESTIONS, settings, progress, "2026-12-02")?.question.id, "t/c");
  // Then only topic x up to junior: xa, not the site-wide next new question (t/a).
  assert.equal(nextInPlan(QUESTIONS, settings, progress, "2026-12-02", "t/c")?.question.id, "t/xa");
  const both = { level: "senior", topics: ["t", "x"] };
  assert.deepEqual(nextInPlan(QUESTIONS, both, progress, "2026-12-02"), { question: QUESTIONS[2], due: true });
  // After the due one, the plan's order (must know first), not learning order (t/a first).
  assert.equal(nextInPlan(QUESTIONS, both, progress, "2026-12-02", "t/c")?.question.id, "t/d");
});

test("the first read of a plan's questions is counted apart from speaking (issue 39, 3)", () => {
  assert.equal(readingMinutes([{ ...QUESTIONS[0], read_minutes: 4 }, { ...QUESTIONS[1], read_minutes: 6 }]), 10);
  assert.equal(readingMinutes([QUESTIONS[0]]), 0, "a list from an older build: none");
});
