// The kept mock interviews (docs/assets/javascripts/mock-sessions.js): read back with every bad
// part left out, one copy each, newest first, and listed with the recordings this browser holds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_SESSIONS, parseKey, readSessions, recordingCount, recordingKey, sessionsToShow, withoutRecording,
         withSession } from "../../docs/assets/javascripts/mock-sessions.js";

/** @typedef {import("../../docs/assets/javascripts/mock-sessions.js").Session} Session */

/** @param {string} id @param {string | null} recording @returns {import("../../docs/assets/javascripts/mock-sessions.js").KeptQuestion} */
const kept = (id, recording) => ({ id: id, question: id + "?", url: "../" + id + "/", rating: "review", saved: true,
  seconds: 40, covered: 2, points: 4, flags: 1, followUp: null, followUpRating: null, recording: recording });

/** @param {string} at @param {string[]} ids @param {boolean} [recorded] @returns {Session} */
const session = (at, ids, recorded) => ({ id: at, at: at,
  questions: ids.map((id) => kept(id, recorded ? recordingKey(at, id) : null)) });

test("a recording's key names its interview and its question, whose id has a slash", () => {
  const key = recordingKey("2026-12-07T01:00:00.000Z", "export/graph-signature");
  assert.equal(key, "mock/2026-12-07T01:00:00.000Z/export/graph-signature");
  assert.deepEqual(parseKey(key), { session: "2026-12-07T01:00:00.000Z", id: "export/graph-signature" });
  assert.equal(parseKey("session/x"), null);
  assert.equal(parseKey("mock/only"), null);
  assert.equal(parseKey("mock/x/"), null);
});

test("kept interviews are read back newest first, whatever cannot be read left out", () => {
  const a = session("2026-12-01T10:00:00.000Z", ["t/a"], true), b = session("2026-12-03T10:00:00.000Z", ["t/b", "t/c"]);
  assert.deepEqual(readSessions(JSON.stringify([a, b])), [b, a]);
  assert.deepEqual(readSessions(null), []);
  assert.deepEqual(readSessions("not json"), []);
  assert.deepEqual(readSessions('{"id": 1}'), []);
  const bad = [null, 3, { id: "x" }, { id: "y", at: "not a date" }, a, Object.assign({}, a),
               { id: "z", at: "2026-12-02T00:00:00.000Z", questions: [null, { id: "" },
                 { id: "t/d", rating: "excellent", seconds: -4, recording: "elsewhere" }] }];
  const read = readSessions(JSON.stringify(bad));
  assert.deepEqual(read.map((s) => s.id), ["z", a.id]);
  assert.deepEqual(read[0].questions, [{ id: "t/d", question: "t/d", url: "", rating: null, saved: true, seconds: 0,
    covered: 0, points: 0, flags: 0, followUp: null, followUpRating: null, recording: null }]);
});

test("an interview kept again replaces its older copy, and the list keeps the newest", () => {
  const first = session("2026-12-01T10:00:00.000Z", ["t/a"]);
  const again = session("2026-12-01T10:00:00.000Z", ["t/a", "t/b"]);
  let list = withSession(withSession([], first), again);
  assert.deepEqual(list, [again]);
  for (let day = 1; day <= MAX_SESSIONS + 5; day++) {
    list = withSession(list, session(new Date(Date.UTC(2027, 0, day)).toISOString(), ["t/a"]));
  }
  assert.equal(list.length, MAX_SESSIONS);
  assert.equal(list[0].at, new Date(Date.UTC(2027, 0, MAX_SESSIONS + 5)).toISOString());
});

test("deleting a recording takes it off its question alone", () => {
  const s = session("2026-12-01T10:00:00.000Z", ["t/a", "t/b"], true);
  const after = withoutRecording([s], recordingKey(s.id, "t/a"));
  assert.deepEqual(after[0].questions.map((q) => q.recording), [null, recordingKey(s.id, "t/b")]);
  assert.equal(s.questions[0].recording, recordingKey(s.id, "t/a"), "the list given is not changed");
});

test("the list shown: recordings this browser holds, and earlier versions' recordings by their keys", () => {
  const s = session("2026-12-05T10:00:00.000Z", ["t/a", "t/b"], true);
  const old = "2026-01-02T10:00:00.000Z";
  const keys = [recordingKey(s.id, "t/b"), recordingKey(old, "t/c"), recordingKey(old, "t/gone"), "other"];
  /** @param {string} id */
  const listed = (id) => id === "t/c" ? { question: "What is c?", url: "../t/c/" } : null;
  const shown = sessionsToShow([s], keys, listed);
  assert.deepEqual(shown.map((x) => x.id), [s.id, old]);
  assert.deepEqual(shown[0].questions.map((q) => q.recording), [null, recordingKey(s.id, "t/b")]);
  assert.deepEqual(shown[1].questions.map((q) => [q.id, q.question, q.url, q.rating, q.recording]),
    [["t/c", "What is c?", "../t/c/", null, recordingKey(old, "t/c")],
     ["t/gone", "t/gone", "", null, recordingKey(old, "t/gone")]]);
  assert.equal(recordingCount(shown), 3);
  assert.deepEqual(sessionsToShow([], [], listed), []);
});
