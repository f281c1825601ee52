// Unit tests of the interview date's effect on reviews already scheduled (issue 39, 2):
// scheduling.js's fitInterview moves every review due after the last moment before the
// interview (interviewLimit) back to it, and leaves the rest alone. `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import * as scheduling from "../../docs/assets/javascripts/scheduling.js";

const card = { state: 2, stability: 3, difficulty: 5, reps: 1, lapses: 0, scheduled_days: 2,
               learning_steps: 0, elapsed_days: 0, last_review: "2026-12-01T09:00:00.000Z" };
/** @param {"review" | "done"} state @param {Date | null} due
 * @returns {import("../../docs/assets/javascripts/progress-format.js").Entry} */
function entry(state, due) {
  return { state, rating: state === "done" ? "got-it" : "review", rated: "2026-12-01T09:00:00.000Z",
           due: due && due.toISOString(), card, followups: {} };
}

test("setting an interview date brings every review due after the day before it back by then", () => {
  const now = new Date(2026, 11, 1, 10);
  const questions = {
    "t/late": entry("review", new Date(2026, 11, 9, 10)),     // after the interview
    "t/eve": entry("review", new Date(2026, 11, 4, 8)),       // the day before it, 08:00: past the limit
    "t/early": entry("review", new Date(2026, 11, 2, 10)),    // before: left alone
    "t/done": entry("done", null),
  };
  const fitted = scheduling.fitInterview(questions, "2026-12-05", now);
  const limit = new Date(2026, 11, 4).toISOString();  // the start of the day before the interview
  assert.deepEqual(fitted.moved.sort(), ["t/eve", "t/late"]);
  assert.equal(fitted.questions["t/late"].due, limit);
  assert.equal(fitted.questions["t/eve"].due, limit);
  assert.equal(fitted.questions["t/early"].due, questions["t/early"].due);
  assert.equal(fitted.questions["t/done"].due, null);
  assert.equal(questions["t/late"].due, new Date(2026, 11, 9, 10).toISOString(), "the input is not changed");
  // On the eve, what is due later comes back on the morning of the interview, never today.
  const eve = scheduling.fitInterview(questions, "2026-12-02", new Date(2026, 11, 1, 20));
  assert.equal(eve.questions["t/late"].due, new Date(2026, 11, 2).toISOString());
  assert.equal(eve.questions["t/early"].due, new Date(2026, 11, 2).toISOString());
  // No date, or a past one: nothing moves.
  assert.deepEqual(scheduling.fitInterview(questions, null, now).moved, []);
  assert.deepEqual(scheduling.fitInterview(questions, "2026-11-30", now).moved, []);
});
