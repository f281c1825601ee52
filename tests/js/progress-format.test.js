// Unit tests of what every page reads of the stored progress (progress-format.js): when a question
// is due, where it stands, and which links are questions of this site.
// Run by scripts/dev.sh test as `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import { idOf, isDue, isRating, standing } from "../../docs/assets/javascripts/progress-format.js";

const card = { state: 2, stability: 3, difficulty: 5, reps: 1, lapses: 0, scheduled_days: 2,
               learning_steps: 0, elapsed_days: 0, last_review: null };
/** @param {"review" | "done"} state @param {string | null} due */
const entry = (state, due) => ({ state, rating: state === "done" ? /** @type {const} */ ("got-it") : /** @type {const} */ ("review"),
                                 rated: "2026-12-01T10:00:00.000Z", due, card, followups: {} });

test("a question is due from its due date's day on, never when done", () => {
  const due = new Date(2026, 11, 3, 18).toISOString();
  assert.equal(isDue(entry("review", due), "2026-12-02"), false);
  assert.equal(isDue(entry("review", due), "2026-12-03"), true);
  assert.equal(isDue(entry("review", due), "2027-01-01"), true);
  assert.equal(isDue(entry("done", null), "2027-01-01"), false);
  assert.equal(isDue(null, "2027-01-01"), false);
});

test("a question stands not started, due, in review or done", () => {
  const due = new Date(2026, 11, 3).toISOString();
  assert.equal(standing(undefined, "2026-12-02"), "not-started");
  assert.equal(standing(entry("review", due), "2026-12-02"), "review");
  assert.equal(standing(entry("review", due), "2026-12-03"), "due");
  assert.equal(standing(entry("done", null), "2026-12-03"), "done");
});

test("only links to this site's question pages have a question id", () => {
  const root = new URL("https://example.org/site/");
  const page = "https://example.org/site/export/what-export-returns/";
  assert.equal(idOf("../../compile/graph-breaks/", root, page), "compile/graph-breaks");
  assert.equal(idOf("https://example.org/site/core/autograd/index.html", root), "core/autograd");
  assert.equal(idOf("https://other.org/site/core/autograd/", root), null, "another host");
  assert.equal(idOf("https://example.org/elsewhere/core/autograd/", root), null, "outside the site");
  assert.equal(idOf("https://example.org/site/questions/", root), null, "not topic/slug");
  assert.equal(idOf("https://example.org/site/export/torch.export/", root), null, "not an id");
});

test("ratings are the three the site gives", () => {
  assert.deepEqual(["got-it", "review", "not-yet", "done", ""].map(isRating), [true, true, true, false, false]);
});
