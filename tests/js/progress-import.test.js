// Issue 39, item 6: no accepted progress file may lose a real rating or make a question impossible
// to rate. The validator keeps exactly what the scheduler (ts-fsrs through scheduling.js) can rate,
// and what the site's own rating writes; an import is checked on the merged result before anything
// is written; a set-aside copy can be imported again. `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import * as fsrs from "ts-fsrs";
import * as rules from "../../docs/assets/javascripts/progress-core.js";
import * as scheduling from "../../docs/assets/javascripts/scheduling.js";
import { hostileFiles } from "./hostile-progress.js";

/** @type {any} the modules' own functions are type-checked in them; here results are read freely */
const core = { ...rules, ...scheduling };

const NOW = new Date("2026-12-01T10:00:00.000Z");
const DAY = 86400000;
const APP = { app: "pytorch-interview-questions", kind: "progress" };
const RATINGS = ["got-it", "review", "not-yet"];

/** @param {string} rating @param {Date} now @param {any} [before] @returns {any} */
function rated(rating, now, before = null) { return core.schedule(before, rating, now, null, fsrs); }

/** @param {Record<string, any>} questions @param {any} [interview] @returns {string} */
function file(questions, interview = null) {
  return JSON.stringify({ ...APP, version: 2, interview, questions });
}

/** The reader's real progress: three ratings, follow-ups and an interview date. @returns {any} */
function realProgress() {
  const a = rated("review", new Date(NOW.getTime() - 3 * DAY));
  const b = core.rateFollowUp(rated("got-it", new Date(NOW.getTime() - DAY)), "Why?", "review", new Date(NOW.getTime() - DAY));
  const c = rated("not-yet", new Date(NOW.getTime() - 2 * 3600000));
  return { version: 2, interview: "2026-12-20",
           questions: { "export/graph-signature": a, "compile/graph-breaks": b, "distributed/ddp-basics": c } };
}

/** Every rating of an accepted entry works and gives an entry the validator accepts again.
 * @param {string} id @param {any} entry @param {Date} now @param {string} [where] */
function assertRateable(id, entry, now, where = "") {
  for (const rating of RATINGS) {
    /** @type {any} */
    let next;
    assert.doesNotThrow(() => { next = rated(rating, now, entry); }, id + where + " can be rated " + rating);
    const again = core.checkEntry(id, JSON.parse(JSON.stringify(next)), now.getTime());
    assert.notEqual(typeof again, "string", id + where + " rated " + rating + " is refused: " + again);
  }
}

test("a stability under the scheduler's minimum (0.001) is refused, and so is a difficulty under 1", () => {
  const good = rated("review", NOW);
  for (const [stability, difficulty] of [[0.0009, 5], [0.0001, 5], [5, 0.5], [2, 0.999], [0, 5], [5, 0]]) {
    const bad = { ...good, card: { ...good.card, stability, difficulty } };
    const why = core.checkEntry("export/x", bad, NOW.getTime());
    assert.equal(typeof why, "string", "stability " + stability + ", difficulty " + difficulty + " accepted");
    assert.throws(() => rated("review", NOW, bad), "the scheduler refuses it too");
  }
  // A card with no memory yet (both 0: a follow-up rated before its question) is schedulable.
  const fresh = core.rateFollowUp(null, "Why?", "review", NOW);
  assert.notEqual(typeof core.checkEntry("export/x", fresh, NOW.getTime()), "string");
  assertRateable("export/x", fresh, NOW);
});

test("an imported rating, last review or follow-up dated ahead of now is refused", () => {
  const mine = realProgress();
  const ahead = rated("review", new Date(NOW.getTime() + 3600000));
  const lastAhead = { ...rated("review", NOW), card: { ...rated("review", NOW).card, last_review: new Date(NOW.getTime() + DAY).toISOString() } };
  const followAhead = { ...mine.questions["compile/graph-breaks"],
                        followups: { "Later?": { rating: "got-it", rated: new Date(NOW.getTime() + 60000).toISOString() } } };
  const plan = core.importPlan(mine, file({ "export/a": ahead, "export/b": lastAhead, "compile/graph-breaks": followAhead }), NOW);
  assert.ok(!("error" in plan), JSON.stringify(plan));
  assert.deepEqual(plan.rejected.map((/** @type {any} */ r) => r.question).sort(), ["compile/graph-breaks", "export/a", "export/b"]);
  assert.deepEqual(plan.merged.questions, mine.questions);
});

test("the site's own long Got it (a 366-day wait) is kept, not set aside", () => {
  let e = null, now = new Date(NOW.getTime() - 4 * 365 * DAY);
  for (let i = 1; i <= 8; i++) {
    e = rated("got-it", now, e);
    const back = core.checkEntry("export/graph-signature", JSON.parse(JSON.stringify(e)), now.getTime());
    assert.notEqual(typeof back, "string", "Got it number " + i + " (" + e.card.scheduled_days + " days) set aside: " + back);
    now = new Date(now.getTime() + Math.max(1, e.card.scheduled_days) * DAY);
  }
});

test("limits are checked on the merged result: a 4,998-id file is refused whole, the real ratings and date kept", () => {
  const mine = realProgress();
  /** @type {Record<string, any>} */
  const questions = {};
  const e = rated("review", new Date(NOW.getTime() - DAY));
  for (let i = 0; i < 4998; i++) questions["hostile/q-" + i] = e;
  const plan = core.importPlan(mine, file(questions), NOW);
  assert.ok("error" in plan, "a merge over 5,000 questions is refused before anything is written");
  assert.match(plan.error, /5000|5,000/);
});

test("follow-ups over the limit once merged are refused for that question, the real one kept", () => {
  const mine = realProgress();
  const id = "compile/graph-breaks";
  /** @type {Record<string, any>} */
  const followups = {};
  for (let i = 0; i < 100; i++) followups["Another " + i + "?"] = { rating: "review", rated: new Date(NOW.getTime() - DAY).toISOString() };
  const plan = core.importPlan(mine, file({ [id]: { ...mine.questions[id], followups } }), NOW);
  assert.ok(!("error" in plan));
  assert.deepEqual(plan.merged.questions[id], mine.questions[id]);
  assert.ok(plan.rejected.some((/** @type {any} */ r) => r.question === id && /follow-ups/.test(r.reason)));
  const read = core.readValue(plan.merged, NOW);
  assert.equal(read.kind, "ok");
  assert.equal(read.rejected.length, 0);
});

test("a set-aside copy downloads as a file that imports again", () => {
  const entry = rated("review", new Date(NOW.getTime() - DAY));
  const item = { id: "x", at: NOW.toISOString(), reason: "its schedule waits longer than 365 days",
                 question: "export/graph-signature", raw: JSON.stringify(entry) };
  const plan = core.importPlan({ version: 2, interview: null, questions: {} }, core.asideFile(item), NOW);
  assert.ok(!("error" in plan), JSON.stringify(plan));
  assert.deepEqual(plan.merged.questions["export/graph-signature"], entry);
  // A whole stored value set aside (with no app and kind) too.
  const whole = { id: "y", at: NOW.toISOString(), reason: "it has no questions", question: null,
                  raw: JSON.stringify({ version: 2, interview: "2026-12-20", questions: { "export/a": entry } }) };
  const back = core.importPlan({ version: 2, interview: null, questions: {} }, core.asideFile(whole), NOW);
  assert.ok(!("error" in back), JSON.stringify(back));
  assert.deepEqual(Object.keys(back.merged.questions), ["export/a"]);
});

test("420 seeded hostile files: none accepted loses a real rating or leaves a question that cannot be rated", () => {
  const seed = 39;
  const mine = realProgress();
  const files = hostileFiles(seed, 420, NOW, mine);
  files.forEach(({ kind, text }, i) => {
    const where = "seed " + seed + ", file " + i + " (" + kind + ")";
    const plan = core.importPlan(mine, text, NOW);
    if ("error" in plan) return;
    const read = core.readValue(JSON.parse(JSON.stringify(plan.merged)), NOW);
    assert.equal(read.kind, "ok", where);
    assert.deepEqual(read.rejected, [], where + ": the merged value sets aside " + JSON.stringify(read.rejected).slice(0, 300));
    assert.equal(read.value.interview, mine.interview, where);
    for (const [id, real] of Object.entries(mine.questions)) {
      const kept = read.value.questions[id];
      assert.ok(kept, where + ": " + id + " lost");
      assert.ok(Date.parse(kept.rated) >= Date.parse(/** @type {any} */ (real).rated), where + ": " + id + " went back");
      assert.ok(Date.parse(kept.rated) <= NOW.getTime(), where + ": " + id + " is rated ahead of now");
    }
    for (const [id, e] of Object.entries(read.value.questions)) {
      if (id.startsWith("hostile/") && id !== "hostile/q-0" && id !== "hostile/q-7") continue;  // one of each is enough
      assertRateable(id, e, NOW, " in " + where);
    }
  });
});

test("every card the rules keep, the scheduler rates, and the rules keep what it writes (seeded)", () => {
  let seed = 3939;
  const rand = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
  const pick = (/** @type {any[]} */ xs) => xs[Math.floor(rand() * xs.length)];
  for (let i = 0; i < 500; i++) {
    const last = NOW.getTime() - Math.floor(rand() * 800 * DAY) - pick([0, 1, 3600000]);
    const rating = pick(RATINGS);
    const zero = rand() < 0.1;
    const card = { state: pick([0, 1, 2, 3]), stability: zero ? 0 : pick([0.001, 0.5, 3, 365, 36500, rand() * 1000]),
                   difficulty: zero ? 0 : pick([1, 5, 10, 1 + rand() * 9]), reps: pick([0, 1, 7]), lapses: pick([0, 2]),
                   scheduled_days: pick([0, 1, 365, 366]), learning_steps: 0, elapsed_days: pick([0, 4]),
                   last_review: pick([null, new Date(last).toISOString()]) };
    const entry = { state: rating === "got-it" ? "done" : "review", rating, rated: new Date(last).toISOString(),
                    due: rating === "got-it" ? null : new Date(last + pick([0, 1, 365]) * DAY).toISOString(),
                    card, followups: {} };
    const kept = core.checkEntry("export/x", entry, NOW.getTime());
    if (typeof kept === "string") continue;
    assertRateable("export/x", kept, NOW, " (seed 3939, card " + i + ": " + JSON.stringify(card) + ")");
  }
});
