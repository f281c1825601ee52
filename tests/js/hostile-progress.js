// A seeded generator of hostile progress files (issue 39, item 6): wrong types, FSRS states the
// scheduler refuses, dates ahead of now, huge id counts, duplicate and odd ids, limits reached only
// once merged with the reader's own progress, the site's own long intervals, and set-aside copies
// imported again. Used by the node tests (progress-import.test.js) and, through the command line,
// by the browser test (tests/browser/test_hostile_imports.py), so both attack with the same files:
//   node tests/js/hostile-progress.js SEED COUNT NOW_ISO REAL_JSON  ->  a JSON list of file texts
// REAL_JSON is the reader's real progress value ({"version": 2, "questions": ...}).
import * as fsrs from "ts-fsrs";
import { schedule } from "../../docs/assets/javascripts/scheduling.js";

const DAY = 86400000;
const APP = { app: "pytorch-interview-questions", kind: "progress" };

/** A small seeded generator (the same numbers on every machine). @param {number} seed */
export function random(seed) {
  let s = seed >>> 0 || 1;
  return () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 4294967296; };
}

/** @param {any} x @returns {any} */
const copy = (x) => JSON.parse(JSON.stringify(x));

/**
 * `count` hostile files against the reader's real progress `real` at `now`.
 * @param {number} seed @param {number} count @param {Date} now
 * @param {{version: number, interview: string | null, questions: Record<string, any>}} real
 * @returns {{kind: string, text: string}[]}
 */
export function hostileFiles(seed, count, now, real) {
  const rand = random(seed);
  /** @template T @param {T[]} xs @returns {T} */
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const at = (/** @type {number} */ ms) => new Date(ms).toISOString();
  const t = now.getTime();
  const realIds = Object.keys(real.questions);
  /** A valid entry made by the site's scheduler, rated `ago` ms before now. */
  /** @type {(rating: string, ago: number) => any} */
  const made = (rating, ago) => schedule(null, /** @type {any} */ (rating), new Date(t - ago), null, fsrs);
  /** The site's own Got it, `n` times, each when the last one's wait was over: ends past 365 days. */
  const longGotIt = () => {
    /** @type {any} */
    let e = null, when = t - 4 * 365 * DAY;
    for (let i = 0; i < 8 && when < t; i++) {
      e = schedule(e, "got-it", new Date(when), null, fsrs);
      when += Math.max(1, e.card.scheduled_days) * DAY;
    }
    return e;
  };
  const oddities = [null, true, 0, -1, 2.5, 1e308, "", [], {}, [1, 2], "<img src=x onerror=alert(1)>",
    "2026-13-45", "9999-12-31T00:00:00.000Z", "review", "done", "got-it", 3, 366, 1e6, "__proto__"];
  const fields = ["state", "rating", "rated", "due", "card", "followups"];
  const cardFields = ["state", "stability", "difficulty", "reps", "lapses", "scheduled_days",
                      "learning_steps", "elapsed_days", "last_review"];
  const freshId = (/** @type {number} */ i) => "hostile/q-" + i;

  /** @type {Record<string, () => {questions: Record<string, any>, interview?: any, version?: any, raw?: string}>} */
  const kinds = {
    "wrong types": () => {
      const e = made("review", DAY);
      const f = pick(fields);
      if (f === "card") e.card[pick(cardFields)] = pick(oddities); else e[f] = pick(oddities);
      return { questions: { [pick(realIds.concat([freshId(1)]))]: e } };
    },
    "stability under the scheduler's minimum": () => {
      const e = made(pick(["review", "not-yet"]), DAY);
      e.card.stability = pick([0.0009, 0.0001, 1e-9, 0.000999]);
      return { questions: { [pick(realIds.concat([freshId(2)]))]: e } };
    },
    "difficulty under 1": () => {
      const e = made(pick(["review", "got-it"]), DAY);
      e.card.difficulty = pick([0.5, 0.999, 1e-6]);
      if (rand() < 0.3) e.card.stability = 0;
      return { questions: { [pick(realIds.concat([freshId(3)]))]: e } };
    },
    "a rating dated ahead of now": () => {
      const ahead = pick([60000, 3600000, DAY + 1000, 1.9 * DAY]);
      const e = made(pick(["review", "got-it", "not-yet"]), -ahead);
      return { questions: { [pick(realIds.concat([freshId(4)]))]: e } };
    },
    "a last review ahead of now": () => {
      const e = made("review", DAY);
      e.card.last_review = at(t + pick([60000, DAY, 1.5 * DAY]));
      return { questions: { [pick(realIds.concat([freshId(5)]))]: e } };
    },
    "a follow-up rated ahead of now": () => {
      const id = pick(realIds);
      const e = copy(real.questions[id]);
      e.followups = Object.assign({}, e.followups, { "A follow-up from the future?": { rating: "got-it", rated: at(t + DAY) } });
      return { questions: { [id]: e } };
    },
    "the site's own long Got it": () => ({ questions: { [pick(realIds.concat([freshId(6)]))]: longGotIt() } }),
    "more ids than the limit once merged": () => {
      /** @type {Record<string, any>} */
      const questions = {};
      const n = 5000 - pick([0, 1, 5, 10]) - (rand() < 0.5 ? 0 : realIds.length - 1);
      const e = made("review", 2 * DAY);
      for (let i = 0; i < n; i++) questions[freshId(i)] = e;
      return { questions };
    },
    "more ids than the limit in the file": () => {
      /** @type {Record<string, any>} */
      const questions = {};
      const e = made("review", 2 * DAY);
      for (let i = 0; i < 5001; i++) questions[freshId(i)] = e;
      return { questions };
    },
    "more follow-ups than the limit once merged": () => {
      const id = pick(realIds);
      const e = copy(real.questions[id]);
      const have = Object.keys(e.followups).length;
      const n = 100 - pick([0, have, Math.max(0, have - 1)]);
      e.followups = {};
      for (let i = 0; i < n; i++) e.followups["Another follow-up " + i + "?"] = { rating: "review", rated: at(t - DAY) };
      return { questions: { [id]: e } };
    },
    "duplicate ids": () => {
      const id = pick(realIds);
      const older = made("got-it", 30 * DAY), bad = made("review", DAY);
      bad.card.stability = 0.0001;
      const a = JSON.stringify(older), b = JSON.stringify(bad);
      const raw = '{"app":"pytorch-interview-questions","kind":"progress","version":2,"questions":{' +
        JSON.stringify(id) + ":" + (rand() < 0.5 ? a + "," + JSON.stringify(id) + ":" + b : b + "," + JSON.stringify(id) + ":" + a) + "}}";
      return { questions: {}, raw };
    },
    "odd ids": () => {
      const e = made("review", DAY);
      /** @type {Record<string, any>} */
      const questions = {};
      questions[pick(["Export/Graph", "a/b/c", "export/", "/x", "x".repeat(300) + "/y", "__proto__", "constructor",
                      "export/graph-signature ", "ex port/x", "hasOwnProperty"])] = e;
      return { questions };
    },
    "an older copy of a real rating": () => {
      const id = pick(realIds);
      return { questions: { [id]: made(pick(["got-it", "review", "not-yet"]), 40 * DAY) } };
    },
    "an odd interview date": () => ({ questions: { [freshId(7)]: made("review", DAY) },
                                      interview: pick(["2026-02-30", "tomorrow", 20261231, "2027-01-10", null]) }),
    "a set-aside copy of a real entry": () => {
      // What a download of a set-aside copy holds: the entry as it was stored, under its id.
      const id = pick(realIds);
      const e = copy(real.questions[id]);
      if (rand() < 0.5) e.card.scheduled_days = 366;
      return { questions: { [id]: e } };
    },
  };
  const names = Object.keys(kinds);
  /** @type {{kind: string, text: string}[]} */
  const files = [];
  for (let i = 0; i < count; i++) {
    const kind = names[i % names.length];
    const built = kinds[kind]();
    const text = built.raw !== undefined ? built.raw : JSON.stringify(Object.assign({}, APP, {
      version: built.version === undefined ? 2 : built.version,
      interview: built.interview === undefined ? null : built.interview, questions: built.questions }));
    files.push({ kind, text });
  }
  return files;
}

if (process.argv[1] && import.meta.url === new URL("file://" + process.argv[1]).href) {
  const [seed, count, now, real] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(hostileFiles(Number(seed), Number(count), new Date(now), JSON.parse(real))));
}
