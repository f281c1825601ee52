// The mock interviews a reader has done, with no page: what is kept of each (its date, its
// questions, their grades and the keys of its recordings), read back from storage with every bad
// part left out, and listed with the recordings this browser still holds (recordings kept by an
// earlier version, with no record of their interview, are listed by their keys). mock.js keeps
// them (localStorage, under SESSIONS; the recordings themselves are in IndexedDB) and shows them;
// `node --test tests/js` tests these.
import { isRating, MOCK_SESSIONS } from "./progress-format.js";

/**
 * @typedef {import("./progress-format.js").RatingName} RatingName
 * @typedef {{id: string, question: string, url: string, rating: RatingName | null, saved: boolean,
 *            seconds: number, covered: number, points: number, flags: number,
 *            followUp: string | null, followUpRating: RatingName | null,
 *            recording: string | null}} KeptQuestion
 * @typedef {{id: string, at: string, questions: KeptQuestion[]}} Session
 * @typedef {{question: string, url: string}} Listed what the site's question list says of an id
 */

export const SESSIONS = MOCK_SESSIONS;
export const MAX_SESSIONS = 50;
const PREFIX = "mock/";

/** The key of a question's recording in an interview. @param {string} session @param {string} id
 * @returns {string} */
export function recordingKey(session, id) { return PREFIX + session + "/" + id; }

/** The interview and the question of a recording's key, or null for a key that is no recording.
 * @param {string} key @returns {{session: string, id: string} | null} */
export function parseKey(key) {
  if (key.indexOf(PREFIX) !== 0) return null;
  const rest = key.slice(PREFIX.length), slash = rest.indexOf("/");
  if (slash <= 0 || slash === rest.length - 1) return null;
  return { session: rest.slice(0, slash), id: rest.slice(slash + 1) };
}

/** @param {unknown} value @returns {number} */
function count(value) { return typeof value === "number" && isFinite(value) && value >= 0 ? Math.floor(value) : 0; }

/** @param {unknown} value @returns {string | null} */
function text(value) { return typeof value === "string" && value ? value : null; }

/** @param {unknown} raw @returns {KeptQuestion | null} */
function keptQuestion(raw) {
  if (!raw || typeof raw !== "object") return null;
  const q = /** @type {Record<string, unknown>} */ (raw);
  const id = text(q.id);
  if (!id) return null;
  return { id: id, question: text(q.question) || id, url: text(q.url) || "", rating: isRating(q.rating) ? q.rating : null,
           saved: q.saved !== false, seconds: count(q.seconds), covered: count(q.covered), points: count(q.points),
           flags: count(q.flags), followUp: text(q.followUp),
           followUpRating: isRating(q.followUpRating) ? q.followUpRating : null,
           recording: text(q.recording) && parseKey(String(q.recording)) ? String(q.recording) : null };
}

/** The kept interviews, newest first; whatever cannot be read is left out (never thrown).
 * @param {string | null} raw what localStorage holds under SESSIONS @returns {Session[]} */
export function readSessions(raw) {
  if (raw === null) return [];
  /** @type {unknown} */
  let parsed;
  try { parsed = JSON.parse(raw); } catch (error) { return []; }
  if (!Array.isArray(parsed)) return [];
  /** @type {Session[]} */
  const out = [];
  parsed.forEach((item) => {
    if (!item || typeof item !== "object") return;
    const s = /** @type {Record<string, unknown>} */ (item);
    const id = text(s.id), at = text(s.at);
    if (!id || !at || isNaN(Date.parse(at)) || out.some((o) => o.id === id)) return;
    const questions = Array.isArray(s.questions) ? s.questions.map(keptQuestion) : [];
    out.push({ id: id, at: at, questions: questions.filter(/** @returns {q is KeptQuestion} */ (q) => q !== null) });
  });
  return out.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

/** The list with this interview in it (in place of its older copy), newest first, at most
 * MAX_SESSIONS. @param {Session[]} list @param {Session} session @returns {Session[]} */
export function withSession(list, session) {
  return [session].concat(list.filter((s) => s.id !== session.id))
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at)).slice(0, MAX_SESSIONS);
}

/** The list with a recording's key taken off the question that had it.
 * @param {Session[]} list @param {string} key @returns {Session[]} */
export function withoutRecording(list, key) {
  return list.map((s) => ({ id: s.id, at: s.at, questions: s.questions.map(
    (q) => q.recording === key ? Object.assign({}, q, { recording: null }) : q) }));
}

/**
 * The interviews to show: the kept ones, each question's recording only where this browser still
 * holds it, then recordings no kept interview names (kept by an earlier version), grouped by
 * their interview, newest first.
 * @param {Session[]} list @param {string[]} keys the recordings IndexedDB holds
 * @param {(id: string) => Listed | null} listed
 * @returns {Session[]}
 */
export function sessionsToShow(list, keys, listed) {
  const held = new Set(keys);
  /** @type {Set<string>} */
  const named = new Set();
  const shown = list.map((s) => ({ id: s.id, at: s.at, questions: s.questions.map((q) => {
    if (q.recording) named.add(q.recording);
    return q.recording && !held.has(q.recording) ? Object.assign({}, q, { recording: null }) : q;
  }) }));
  /** @type {Map<string, Session>} */
  const orphans = new Map();
  keys.slice().sort().forEach((key) => {
    const parsed = parseKey(key);
    if (!parsed || named.has(key)) return;
    let session = orphans.get(parsed.session);
    if (!session) {
      session = { id: parsed.session, at: isNaN(Date.parse(parsed.session)) ? "" : parsed.session, questions: [] };
      orphans.set(parsed.session, session);
    }
    const found = listed(parsed.id);
    session.questions.push({ id: parsed.id, question: found ? found.question : parsed.id, url: found ? found.url : "",
                             rating: null, saved: true, seconds: 0, covered: 0, points: 0, flags: 0,
                             followUp: null, followUpRating: null, recording: key });
  });
  return shown.concat(Array.from(orphans.values()))
    .sort((a, b) => (Date.parse(b.at) || 0) - (Date.parse(a.at) || 0));
}

/** How many recordings a list shows. @param {Session[]} list @returns {number} */
export function recordingCount(list) {
  return list.reduce((sum, s) => sum + s.questions.filter((q) => q.recording).length, 0);
}
