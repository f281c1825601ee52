// Unit tests of the progress rules (docs/assets/javascripts/progress-core.js, scheduling.js,
// days.js): the validator, the version-1 migration, the FSRS schedule with the interview date,
// and the import plan. Run by scripts/dev.sh test as `node --test tests/js/` (the clock is fixed
// by each test's `now`).
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import * as fsrs from "ts-fsrs";
import * as rules from "../../docs/assets/javascripts/progress-core.js";
import * as scheduling from "../../docs/assets/javascripts/scheduling.js";
import * as days from "../../docs/assets/javascripts/days.js";
import * as format from "../../docs/assets/javascripts/progress-format.js";

/** @type {any} the modules' own functions are type-checked in them; here results are read freely */
const core = { ...format, ...rules, ...scheduling, ...days };

const NOW = new Date("2026-12-01T10:00:00.000Z");
const V1 = JSON.parse(fs.readFileSync(new URL("fixtures/progress-v1.json", import.meta.url), "utf8"));

/** @param {string} rating @param {Date} now @param {any} [before] @param {string | null} [interview] @returns {any} */
function rated(rating, now, before = null, interview = null) {
  return core.schedule(before, rating, now, interview, fsrs);
}

/** @param {string | Date} from @param {string | Date} to */
function daysApart(from, to) { return Math.round((Date.parse(String(to)) - Date.parse(String(from))) / 86400000); }

test("a real version-1 value moves to version 2 with every rating, date and follow-up", () => {
  const read = core.readValue(V1, NOW);
  assert.equal(read.kind, "ok");
  assert.deepEqual(read.rejected, []);
  assert.equal(read.migrated, true);
  const q = read.value.questions;
  assert.deepEqual(Object.keys(q).sort(), Object.keys(V1.questions).sort());
  for (const [id, old] of Object.entries(V1.questions)) {
    assert.equal(q[id].rating, old.rating, id);
    assert.equal(q[id].state, old.state, id);
    assert.equal(core.dayOf(q[id].rated), old.rated, id);
    assert.equal(q[id].due === null ? null : core.dayOf(q[id].due), old.due, id);
    assert.deepEqual(Object.keys(q[id].followups), Object.keys(old.followups), id);
    for (const [title, f] of Object.entries(old.followups)) {
      assert.equal(q[id].followups[title].rating, f.rating);
      assert.equal(core.dayOf(q[id].followups[title].rated), f.rated);
    }
    // What comes out is a valid version-2 entry, and FSRS can schedule from it.
    assert.deepEqual(core.checkEntry(id, JSON.parse(JSON.stringify(q[id])), NOW.getTime()), q[id]);
    const next = rated("review", NOW, q[id]);
    assert.ok(Date.parse(next.due) > NOW.getTime());
  }
});

test("the cases of issue 22 are refused, each alone, with its reason", () => {
  const good = rated("review", NOW);
  const value = { version: 2, questions: {
    "export/graph-signature": good,
    "export/box": { ...good, card: { ...good.card, reps: 2.5 } },
    "export/month-13": { ...good, due: "2026-13-45T00:00:00.000Z" },
    "export/year-9999": { ...good, rated: "9999-01-01T00:00:00.000Z", due: "9999-01-03T00:00:00.000Z" },
    "export/far-due": { ...good, due: "2031-01-01T00:00:00.000Z" },
    "export/torch.draft-export": good,
    "export/markup": { ...good, rating: "<img src=x onerror=alert(1)>" },
  } };
  const read = core.readValue(value, NOW);
  assert.equal(read.kind, "ok");
  assert.deepEqual(Object.keys(read.value.questions), ["export/graph-signature"]);
  const reasons = Object.fromEntries(read.rejected.map((/** @type {any} */ r) => [r.question, r.reason]));
  assert.match(reasons["export/box"], /bad reps/);
  assert.match(reasons["export/month-13"], /no real due date/);
  assert.match(reasons["export/year-9999"], /rated in the future/);
  assert.match(reasons["export/far-due"], /later than the longest wait/);
  assert.match(reasons["export/torch.draft-export"], /not a question id/);
  assert.match(reasons["export/markup"], /unknown rating/);
  // Version 1 too: a box of 2.5 and a date 2026-13-45.
  const v1 = core.readValue({ version: 1, questions: {
    "export/a": { state: "review", rating: "review", rated: "2026-11-30", box: 2.5, due: "2026-12-03" },
    "export/b": { state: "review", rating: "review", rated: "2026-11-30", box: 2, due: "2026-13-45" },
    "export/c": { state: "review", rating: "review", rated: "2026-11-30", box: 2, due: "2026-12-03" },
  } }, NOW);
  assert.deepEqual(Object.keys(v1.value.questions), ["export/c"]);
  assert.deepEqual(v1.rejected.map((/** @type {any} */ r) => r.question), ["export/a", "export/b"]);
});

test("a newer version is left alone, an unknown one is unreadable", () => {
  assert.deepEqual(core.readValue({ version: 3, questions: {} }, NOW), { kind: "newer", version: 3 });
  assert.equal(core.readValue({ version: 0, questions: {} }, NOW).kind, "unreadable");
  assert.equal(core.readValue({ version: "2", questions: {} }, NOW).kind, "unreadable");
  assert.equal(core.readValue([], NOW).kind, "unreadable");
});

test("real dates only", () => {
  assert.equal(core.timestamp("2026-02-30T10:00:00.000Z"), null);
  assert.equal(core.timestamp("2026-12-01T24:00:00Z"), null);
  assert.equal(core.timestamp("2026-12-01"), null);
  assert.equal(core.timestamp("2026-12-01T10:00:00.5Z"), Date.parse("2026-12-01T10:00:00.500Z"));
  assert.equal(core.calendarDay("2026-13-45"), null);
  assert.equal(core.calendarDay("2026-02-29"), null);
  assert.ok(core.calendarDay("2028-02-29"));
});

test("FSRS: review waits longer each time, not yet comes back the next day, got it is done", () => {
  const first = rated("review", NOW);
  const second = rated("review", new Date(first.due), first);
  assert.ok(daysApart(NOW, first.due) >= 1);
  assert.ok(daysApart(first.due, second.due) > daysApart(NOW, first.due), "the second wait is longer");
  const again = rated("not-yet", new Date(second.due), second);
  assert.ok(daysApart(second.due, again.due) <= 1);
  assert.ok(core.dayOf(again.due) <= core.dayOf(core.startOfDay(new Date(second.due), 1)));
  const done = rated("got-it", new Date(again.due), again);
  assert.equal(done.state, "done");
  assert.equal(done.due, null);
  assert.equal(done.card.reps, 4);
});

test("before the interview, nothing rated Review or Not yet comes back after it", () => {
  // A question reviewed many times waits weeks; with an interview in 2 days it comes back first.
  let entry = rated("review", NOW);
  for (let i = 0; i < 5; i++) entry = rated("got-it", new Date(Date.parse(entry.rated) + 20 * 86400000), entry);
  const later = new Date(Date.parse(entry.rated) + 30 * 86400000);
  const free = rated("review", later, entry);
  assert.ok(daysApart(later, free.due) > 3, "without an interview it waits longer than 3 days");
  const interview = core.dayOf(new Date(later.getTime() + 2 * 86400000));
  const kept = rated("review", later, entry, interview);
  assert.ok(core.dayOf(kept.due) < interview, `${kept.due} is before ${interview}`);
  const notYet = rated("not-yet", later, entry, interview);
  assert.ok(core.dayOf(notYet.due) <= core.dayOf(core.startOfDay(later, 1)));
  // Interview tomorrow: there is no day before it left, so it comes back on the day itself (the
  // morning of the interview), not again today. After the interview, no limit.
  const tomorrow = core.dayOf(core.startOfDay(later, 1));
  assert.equal(core.dayOf(rated("review", later, entry, tomorrow).due), tomorrow);
  const past = core.dayOf(core.startOfDay(later, -1));
  assert.equal(rated("review", later, entry, past).due, free.due);
  // Every rating still passes the validator.
  for (const e of [free, kept, notYet]) assert.deepEqual(core.checkEntry("export/a", e, later.getTime()), e);
});

test("on the eve and on the day of the interview, a question rated again is not due again that day", () => {
  // Issue 39, 1: the limit was "the day before the interview, never before now", so on the eve
  // and on the day itself a question rated Review or Not yet became due "now", due all day.
  const interview = "2026-12-04";
  for (const [day, label] of /** @type {[number, string][]} */ ([[3, "the eve"], [4, "the day"]])) {
    for (const hour of [0, 9, 23]) {
      const now = new Date(2026, 11, day, hour, 30);
      const today = core.dayOf(now);
      let entry = null;
      for (const rating of ["review", "not-yet", "review", "not-yet", "not-yet", "review"]) {
        entry = rated(rating, now, entry, interview);
        assert.ok(core.dayOf(entry.due) > today, `${label} ${hour}:30, ${rating}: due ${entry.due}, not again today`);
        assert.ok(!core.isDue(entry, today), `${label} ${hour}:30, ${rating}: not due today`);
        assert.deepEqual(core.checkEntry("export/a", entry, now.getTime()), entry);
      }
      // On the eve it comes back on the day of the interview, for a last look; no later.
      if (day === 3) assert.equal(core.dayOf(entry.due), interview);
    }
  }
});

test("the last day of a three-day plan: each due question once, then none is due", () => {
  // Six questions due on the eve of the interview, some at a later hour than the reader starts
  // (rated before the interview date was kept); "Practise what is due" offers the next one
  // (nextQuestion, leaving out the one just rated) until none is due. Each is offered once.
  const interview = "2026-12-04";
  const questions = ["a", "b", "c", "d", "e", "f"].map((s) => ({ id: "export/" + s }));
  /** @type {any} */
  const value = { version: 2, interview: interview, questions: {} };
  /** @param {number} d @param {number} h */
  const at = (d, h) => new Date(2026, 11, d, h);
  value.questions["export/a"] = rated("not-yet", at(1, 11), null, interview);                // due Dec 2
  value.questions["export/b"] = rated("review", at(2, 20), rated("not-yet", at(1, 11), null, interview), interview);
  for (const s of ["c", "d", "e", "f"]) value.questions["export/" + s] = rated("review", at(1, 10 + "cdef".indexOf(s)));
  let now = at(3, 9);
  const on = core.dayOf(now);
  const dueToday = () => questions.filter((q) => core.isDue(value.questions[q.id], on)).map((q) => q.id);
  assert.equal(dueToday().length, 6, JSON.stringify(value.questions));
  /** @type {string[]} */
  const offered = [];
  /** @type {string | undefined} */
  let skip;
  for (let step = 0; step < 20; step++) {
    /** @type {any} */
    const pick = core.nextQuestion(questions, value, on, skip);
    if (!pick || !pick.due) break;
    assert.ok(!offered.includes(pick.question.id), `${pick.question.id} offered again after ${offered.join(", ")}`);
    offered.push(pick.question.id);
    now = new Date(now.getTime() + 4 * 60000);
    value.questions[pick.question.id] = rated(step % 2 ? "not-yet" : "review", now, value.questions[pick.question.id], interview);
    skip = pick.question.id;
  }
  assert.deepEqual(offered.slice().sort(), questions.map((q) => q.id));
  assert.deepEqual(dueToday(), []);
  // The day of the interview: what was rated on the eve is back, each once, then none.
  const day = core.dayOf(at(4, 8));
  assert.equal(questions.filter((q) => core.isDue(value.questions[q.id], day)).length, 6);
});

test("what is due comes longest overdue first, then the one rated longest ago: one just rated goes last", () => {
  const questions = ["a", "b", "c", "d"].map((s) => ({ id: "export/" + s }));
  /** @param {number} d @param {number} h */
  const local = (d, h) => new Date(2026, 11, d, h).toISOString();  // the reader's own clock
  /** @param {string} due @param {string} ratedAt */
  const e = (due, ratedAt) => ({ ...rated("review", new Date(ratedAt)), due: due, rated: ratedAt });
  /** @type {any} */
  const value = { version: 2, interview: null, questions: {
    // Rated again this morning by an older version of the site: due "now", still due today.
    "export/a": e(local(3, 9), local(3, 9)),
    "export/b": e(local(3, 15), local(1, 15)),
    "export/c": e(local(2, 18), local(0, 18)),
    "export/d": e(local(3, 0), local(2, 20)) } };
  /** @type {string[]} */
  const order = [];
  const on = core.dayOf(new Date(2026, 11, 3, 12));
  for (let i = 0; i < 4; i++) {
    const pick = core.nextQuestion(questions.filter((q) => !order.includes(q.id)), value, on);
    order.push(pick.question.id);
  }
  assert.deepEqual(order, ["export/c", "export/b", "export/d", "export/a"]);
  assert.equal(core.nextQuestion([], value, on), null);
  // Nothing due: the first not started, in the order given.
  assert.equal(core.nextQuestion([{ id: "export/a" }, { id: "export/z" }], value, core.dayOf(new Date(2026, 10, 1))).question.id, "export/z");
});

test("import: full timestamps decide, follow-ups merge on their own", () => {
  const evening = new Date("2026-12-01T21:00:00.000Z"), morning = new Date("2026-12-01T09:00:00.000Z");
  const phone = { version: 2, interview: null, questions: { "export/a": rated("got-it", evening) } };
  const laptop = { version: 2, interview: null, questions: { "export/a": rated("not-yet", morning) } };
  laptop.questions["export/a"] = core.rateFollowUp(laptop.questions["export/a"], "F1?", "review", new Date("2026-12-01T22:00:00.000Z"));
  phone.questions["export/a"] = core.rateFollowUp(phone.questions["export/a"], "F2?", "got-it", evening);
  const plan = core.planImport(laptop, phone);
  assert.deepEqual(plan.newer, ["export/a"]);
  const merged = plan.merged.questions["export/a"];
  assert.equal(merged.rating, "got-it");
  assert.deepEqual(Object.keys(merged.followups).sort(), ["F1?", "F2?"]);
  // The other way: the laptop's older question rating is kept, its follow-up still comes in.
  const back = core.planImport(phone, laptop);
  assert.deepEqual(back.older, []);
  assert.deepEqual(back.followups, ["export/a"]);
  assert.equal(back.merged.questions["export/a"].rating, "got-it");
  assert.equal(back.merged.questions["export/a"].followups["F1?"].rating, "review");
  // New questions are new.
  const fresh = core.planImport({ version: 2, interview: null, questions: {} }, phone);
  assert.deepEqual(fresh.added, ["export/a"]);
});

test("import files: size, JSON, ours, version", () => {
  assert.match(core.readImport("x".repeat(core.LIMITS.fileBytes + 1), NOW).error, /larger than any progress file/);
  assert.match(core.readImport("{", NOW).error, /not JSON/);
  assert.match(core.readImport('{"questions": {}}', NOW).error, /not a progress file/);
  assert.match(core.readImport(JSON.stringify({ app: "pytorch-interview-questions", kind: "progress", version: 9, questions: {} }), NOW).error,
               /newer version/);
  const ok = core.readImport(JSON.stringify({ app: "pytorch-interview-questions", kind: "progress", ...V1 }), NOW);
  assert.equal(Object.keys(ok.value.questions).length, 4);
});

// A generated set of hostile values: nothing throws, a good entry always survives, and whatever
// is kept passes the validator again unchanged.
test("fuzzed values never throw and never lose the good entry", () => {
  let seed = 12345;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const pick = (/** @type {any[]} */ xs) => xs[Math.floor(rand() * xs.length)];
  const good = rated("review", NOW);
  const oddities = [null, undefined, true, 0, -1, 2.5, 1e308, NaN, "", "x".repeat(10000), [], {}, [1, 2],
    "<script>alert(1)</script>", "2026-13-45", "2026-12-01T10:00:00.000Z", "9999-12-31T00:00:00.000Z",
    { __proto__: { polluted: 1 } }, "__proto__", "review", "done", "got-it", 3, 365, 366, 1e6];
  const fields = ["state", "rating", "rated", "due", "card", "followups"];
  const cardFields = ["state", "stability", "difficulty", "reps", "lapses", "scheduled_days", "learning_steps", "elapsed_days", "last_review"];
  for (let i = 0; i < 400; i++) {
    /** @type {Record<string, any>} */
    const questions = { "export/graph-signature": good };
    for (let j = 0; j < 5; j++) {
      const bad = JSON.parse(JSON.stringify(good));
      const field = pick(fields);
      if (field === "card" && rand() < 0.7) bad.card[pick(cardFields)] = pick(oddities);
      else if (field === "followups" && rand() < 0.7) bad.followups = { [pick(["<b>x</b>", "__proto__", "F?", ""])]: { rating: pick(oddities), rated: pick(oddities) } };
      else bad[field] = pick(oddities);
      questions[pick(["export/x", "<img src=x>", "a/b", "__proto__", "export/y" + j])] = bad;
    }
    const version = pick([1, 2, 2, 2, "2", 3]);
    /** @type {any} */
    let read;
    assert.doesNotThrow(() => { read = core.readValue(JSON.parse(JSON.stringify({ version, questions })), NOW); });
    if (version === 2) {
      assert.deepEqual(read.value.questions["export/graph-signature"], good);
      for (const [id, e] of Object.entries(read.value.questions)) {
        assert.deepEqual(core.checkEntry(id, JSON.parse(JSON.stringify(e)), NOW.getTime()), e);
      }
    }
  }
  assert.equal(/** @type {any} */ ({}).polluted, undefined);
});

test("two tabs: what this tab wrote goes back into what another tab wrote over it, later ratings winning", () => {
  const a = rated("review", new Date("2026-12-01T10:00:00.000Z"));
  const b = rated("not-yet", new Date("2026-12-01T10:00:00.020Z"));
  const base = { version: 2, interview: null, questions: { "export/old": a } };
  // This tab rated export/a and set the date; the other tab, reading the same base a few
  // milliseconds before this tab's write reached it, rated compile/b and wrote over it.
  const mine = { version: 2, interview: "2026-12-05", questions: { ...base.questions, "export/a": a } };
  const own = core.ownChanges(base, mine);
  assert.deepEqual(Object.keys(own.questions), ["export/a"]);
  assert.deepEqual(own.interview, { from: null, to: "2026-12-05" });
  const theirs = { version: 2, interview: null, questions: { ...base.questions, "compile/b": b } };
  const back = core.reapply(theirs, own);
  assert.equal(back.changed, true);
  assert.deepEqual(Object.keys(back.value.questions).sort(), ["compile/b", "export/a", "export/old"]);
  assert.equal(back.value.interview, "2026-12-05");
  // Once it is there, nothing more to do (no endless rewriting between two tabs).
  assert.equal(core.reapply(back.value, own).changed, false);
  // A later rating of the same question in the other tab wins; an equal one is left as stored.
  const later = rated("got-it", new Date("2026-12-01T11:00:00.000Z"));
  assert.equal(core.reapply({ ...back.value, questions: { "export/a": later } }, own).changed, false);
  // Follow-ups go back one by one, by their own dates.
  const withF = core.rateFollowUp(a, "F1?", "review", new Date("2026-12-01T10:01:00.000Z"));
  const ownF = core.ownChanges(mine, { ...mine, questions: { ...mine.questions, "export/a": withF } });
  const overF = core.reapply({ ...theirs, questions: { "export/a": core.rateFollowUp(later, "F2?", "got-it", NOW) } }, ownF);
  assert.equal(overF.changed, true);
  assert.equal(overF.value.questions["export/a"].rating, "got-it");
  assert.deepEqual(Object.keys(overF.value.questions["export/a"].followups).sort(), ["F1?", "F2?"]);
  // Another tab that chose another date keeps it: only a stale copy of the old date is replaced.
  assert.equal(core.reapply({ ...back.value, interview: "2026-12-09" }, own).value.interview, "2026-12-09");
});

test("a value written by newer rules (a later revision of version 2) is left alone like a newer version", () => {
  assert.equal(typeof format.REVISION, "number");
  const later = core.readValue({ version: 2, revision: format.REVISION + 1, questions: { "export/a": { due: "in 366 days" } } }, NOW);
  assert.deepEqual(later, { kind: "newer", version: 2, revision: format.REVISION + 1 });
  assert.equal(core.readValue({ version: 2, revision: format.REVISION, questions: {} }, NOW).kind, "ok");
  assert.equal(core.readValue({ version: 2, questions: {} }, NOW).kind, "ok");
  // And an import from it is refused with a reason, not read with the older rules.
  const text = JSON.stringify({ app: "pytorch-interview-questions", kind: "progress", version: 2,
                                revision: format.REVISION + 1, questions: {} });
  assert.match(core.readImport(text, NOW).error, /newer version of this site/);
});
