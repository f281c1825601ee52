// The reader's progress, kept in this browser only: one localStorage key holding a versioned
// value (format and rules: progress-core.js) and an FSRS review schedule
// (scheduling.js, ts-fsrs). Every module that reads or writes progress goes through this one.
// Nothing is lost without the reader's consent: a refused entry is set aside alone, into a list
// that only grows (ASIDE, listed on Your progress), and the value is rewritten only once that copy
// is kept; version 1 is moved to version 2; a newer version's value (or one written by newer rules
// of this version: REVISION) is left alone (the page asks for a reload); a failed write is said
// where the reader looks, every time, and no "Saved" is shown for it. Every write reads the stored
// value again first (write): what another tab wrote is kept, and what this tab wrote goes back
// into a value another tab wrote over it a moment later (the storage event: putBack).
//
// This module and the rules it imports (progress-core.js) are loaded only when they are needed
// (progress-format.js's withProgress): when this browser holds progress, when the reader reaches
// for the self-test, and with the progress tools. A first visit, with nothing stored, does
// without them (and without the scheduler, imported only when a rating is near).
import { calendarDay, dayOf, today } from "./days.js";
import { ASIDE, CHANGED, empty, idOf as idIn, isDue, KEY, LEGACY_ASIDE, MOCK_SESSIONS, RECORDINGS, REVISION, standing } from "./progress-format.js";
import { siteRoot } from "./dom.js";
import * as core from "./progress-core.js";
import { fitInterview } from "./scheduling.js";
import { readPlanSettings } from "./plan.js";

/**
 * @typedef {import("./progress-format.js").Entry} Entry
 * @typedef {import("./progress-format.js").Value} Value
 * @typedef {import("./progress-format.js").RatingName} RatingName
 * @typedef {import("./progress-format.js").SetAsideCopy} SetAsideCopy
 * @typedef {import("./progress-format.js").Standing} Standing
 * @typedef {typeof import("./scheduling.js")} Scheduling
 * @typedef {import("./scheduling.js").Fsrs} Fsrs
 * @typedef {import("./progress-core.js").OwnChanges} OwnChanges
 * @typedef {import("./progress-core.js").ReadResult} ReadResult
 */

/** @type {{rules: Scheduling, lib: Fsrs} | null} */
let scheduler = null;
/** @type {string | null} */
let problem = null;
/** @type {string | null} a newer version's name ("version 3"), when one is stored */
let newer = null;
let repaired = false;
/** The raw texts this page has set aside already (a later write does not copy them again). */
const kept = new Set();
/** This page's own writes of the last moments (what each changed), to put back into a value that
 * another tab wrote over them (putBack); forgotten after OWN_MS, or when another tab clears.
 * @type {{at: number, own: OwnChanges}[]} */
let recent = [];
const OWN_MS = 10000;

/** @param {unknown} error @returns {string} */
function nameOf(error) { return error instanceof Error ? error.name : String(error); }

/** Say a problem at the top of the page (and keep it for problem()). @param {string} text */
export function report(text) {
  problem = text;
  showProblem();
}

/** The last problem with the reader's progress, or null. @returns {string | null} */
export function problemText() { return problem; }

/** Every copy set aside so far, oldest first (never overwritten, only appended to).
 * @returns {SetAsideCopy[]} */
export function setAside() {
  let raw;
  try { raw = window.localStorage.getItem(ASIDE); } catch (error) { return []; }
  if (raw === null) return [];
  try {
    /** @type {unknown} */
    const list = JSON.parse(raw);
    if (Array.isArray(list)) return list.filter((x) => x && typeof x === "object");
  } catch (error) { /* kept as it is, below */ }
  return [{ id: "unreadable-list", at: "", reason: "the list of set-aside copies could not be read",
            question: null, raw: raw }];
}

/** Append copies to the set-aside list; false when they could not be written (then nothing
 * else may change). @param {import("./progress-format.js").Rejected[]} items @returns {boolean} */
function keepAside(items) {
  const list = setAside(), at = new Date().toISOString();
  items.forEach((item, index) => {
    list.push({ id: at + "-" + index + "-" + Math.random().toString(36).slice(2, 8), at: at,
                reason: item.reason, question: item.question, raw: item.raw });
  });
  try {
    window.localStorage.setItem(ASIDE, JSON.stringify(list));
    return true;
  } catch (error) {
    return false;
  }
}

/** The stored value, read through the rules (a bad entry set aside alone); an empty value
 * while the rules are not loaded yet (they are then loaded, and the page redrawn).
 * @returns {Value} */
export function load() {
  let raw;
  try {
    raw = window.localStorage.getItem(KEY);
  } catch (error) {
    problem = problem || "This browser does not let the site keep your progress (" + nameOf(error) + ").";
    return empty();
  }
  if (raw === null) {
    migrateLegacyAside();
    return empty();
  }
  const read = readRaw(raw);
  if (read.kind === "newer") {
    const name = core.versionName(read), first = newer !== name;
    newer = name;
    problem = "Your progress was saved by a newer version of this site (" + name +
      "). Reload the page to see and change it; this page changed nothing.";
    // Found on a redraw (another tab of the newer site wrote it): said now, once.
    if (first && started) showProblem();
    return empty();
  }
  if (read.kind === "ok" && !read.rejected.length && !read.migrated) return read.value;
  if (repaired) {
    // Tried once on this page already (and failed to write): use what could be read.
    return read.kind === "ok" ? read.value : empty();
  }
  repaired = true;
  migrateLegacyAside();
  const items = needingCopies(read, raw);
  if (items.length && !keepAside(items)) {
    problem = "Some of your saved progress could not be read, and the browser would not keep a copy " +
      "of it, so nothing was changed. Free some storage for this site, then reload.";
    return read.kind === "ok" ? read.value : empty();
  }
  items.forEach((item) => { kept.add(item.raw); });
  const value = read.kind === "ok" ? read.value : empty();
  if (!write(value)) return value;
  if (items.length) {
    problem = (read.kind === "ok"
      ? items.length + " saved entr" + (items.length > 1 ? "ies" : "y") + " could not be read (" +
        items.map((i) => (i.question || "") + ": " + i.reason).slice(0, 3).join("; ") +
        (items.length > 3 ? "; …" : "") + ") and " + (items.length > 1 ? "were" : "was") + " set aside; the rest of your progress is kept."
      : "Your saved progress could not be read (" + items[0].reason + "), so it was set aside and a new one started.") +
      " Your progress page lists what was set aside, to download or drop.";
  }
  return value;
}

/** A stored text, read through the rules. @param {string} raw @returns {ReadResult} */
function readRaw(raw) {
  try {
    return core.readValue(JSON.parse(raw), new Date());
  } catch (error) {
    return { kind: "unreadable", reason: "it is not JSON" };
  }
}

/** What of a stored value must be set aside before it is rewritten: its refused entries, or the
 * whole of it when it cannot be read. @param {ReadResult} read @param {string} raw
 * @returns {import("./progress-format.js").Rejected[]} */
function needingCopies(read, raw) {
  if (read.kind === "ok") return read.rejected;
  if (read.kind === "newer") return [];
  return [{ reason: read.kind === "unreadable" ? read.reason : "it is empty", question: null, raw: raw }];
}

// Version 1 kept one backup, under LEGACY_ASIDE: it goes into the list, once.
function migrateLegacyAside() {
  try {
    const old = window.localStorage.getItem(LEGACY_ASIDE);
    if (old === null) return;
    if (keepAside([{ reason: "set aside by an earlier version of this site", question: null, raw: old }])) {
      window.localStorage.removeItem(LEGACY_ASIDE);
    }
  } catch (error) { /* left where it is */ }
}

/**
 * Write a value over the stored one, read again just before: a newer version's value is left
 * alone; what cannot be read in it is set aside first, or nothing is written (a full storage must
 * not turn an unreadable entry into a lost one); what another tab added since is kept (a later
 * rating wins, this write's own otherwise). What this write changed is remembered for putBack.
 * @param {Value} value @returns {boolean}
 */
function write(value) {
  /** @type {string | null} */
  let raw = null;
  try { raw = window.localStorage.getItem(KEY); } catch (error) { /* the write below says why */ }
  let base = empty();
  if (raw !== null) {
    const read = readRaw(raw);
    if (read.kind === "newer") newer = core.versionName(read);
    if (newer === null) {
      const items = needingCopies(read, raw).filter((item) => !kept.has(item.raw));
      if (items.length && !keepAside(items)) {
        report("Some of your saved progress could not be read, and the browser would not keep a copy of it " +
               "(its storage for this site is full?), so nothing was saved: saving would have lost it. " +
               "Free some storage for this site, then reload. Nothing was saved at " + new Date().toLocaleTimeString() + ".");
        return false;
      }
      items.forEach((item) => { kept.add(item.raw); });
      if (read.kind === "ok") base = read.value;
    }
  }
  if (newer !== null) {
    report("Your progress was saved by a newer version of this site (" + newer +
           "). Reload the page before rating: this page did not save anything.");
    return false;
  }
  // This write's questions and date, over what is stored now: what another tab added stays.
  /** @type {Value} */
  const merged = { version: value.version, interview: value.interview,
                   questions: Object.assign({}, base.questions, value.questions) };
  try {
    window.localStorage.setItem(KEY, JSON.stringify(Object.assign({ version: merged.version, revision: REVISION },
                                                                  merged)));
    const own = core.ownChanges(base, merged);
    recent.push({ at: Date.now(), own: own });
    tell(own);
    return true;
  } catch (error) {
    const name = nameOf(error);
    report("Your progress could not be saved in this browser (" +
           (name === "QuotaExceededError" ? "its storage for this site is full" : name) +
           "). Nothing was saved at " + new Date().toLocaleTimeString() + ".");
    return false;
  }
}

/** Save a whole value; false (and the reason reported) when the write failed.
 * @param {Value} value @returns {boolean} */
export function save(value) {
  const ok = write(value);
  if (ok) refresh();
  return ok;
}

/** @param {string} id @returns {Entry | null} */
export function entry(id) { return load().questions[id] || null; }

/** Where a question stands today. @param {string} id @param {string} [on] @returns {Standing} */
export function standingOf(id, on) { return standing(entry(id), on || today()); }

/** The rating's entry, saved; null when it could not be saved (the reason is in problemText()).
 * Needs the scheduler (loadScheduler), which the self-test and the tools load when a rating is near.
 * @param {string} id @param {RatingName} rating @returns {Entry | null} */
export function rate(id, rating) {
  if (!scheduler) {
    report("The review scheduler has not loaded yet, so nothing was saved. Rate again in a moment.");
    loadScheduler().catch(() => { /* said above */ });
    return null;
  }
  const value = load(), now = new Date();
  const e = scheduler.rules.schedule(value.questions[id] || null, rating, now, value.interview, scheduler.lib);
  return keep(value, id, e, now);
}

/** @param {string} id @param {string} title @param {RatingName} rating @returns {Entry | null} */
export function rateFollowUp(id, title, rating) {
  if (!scheduler) {
    report("The review scheduler has not loaded yet, so nothing was saved. Rate again in a moment.");
    loadScheduler().catch(() => { /* said above */ });
    return null;
  }
  const value = load(), now = new Date();
  const e = scheduler.rules.rateFollowUp(value.questions[id] || null, title, rating, now);
  return keep(value, id, e, now);
}

/** Save a rating's entry, once the rules would read it back (never "Saved" for an entry the next
 * page sets aside); null, with the reason reported, when it is not kept.
 * @param {Value} value @param {string} id @param {Entry} e @param {Date} now @returns {Entry | null} */
function keep(value, id, e, now) {
  const why = core.checkEntry(id, JSON.parse(JSON.stringify(e)), now.getTime());
  if (typeof why === "string") {
    report("This rating could not be kept (" + why + "), so nothing was saved.");
    return null;
  }
  value.questions[id] = e;
  return save(value) ? e : null;
}

/** The scheduler, then the rating: what the self-test calls, since a reader may rate before the
 * scheduler it asked for has arrived. Null when it could not be saved (the reason in problemText()).
 * @param {() => Entry | null} rating @returns {Promise<Entry | null>} */
function once(rating) {
  return loadScheduler().then(rating, () => {
    report("The review scheduler could not be loaded, so nothing was saved. Reload the page and rate again.");
    return null;
  });
}

/** rate(), once the scheduler is here. @param {string} id @param {RatingName} rating */
export function rateSoon(id, rating) { return once(() => rate(id, rating)); }

/** rateFollowUp(), once the scheduler is here.
 * @param {string} id @param {string} title @param {RatingName} rating */
export function rateFollowUpSoon(id, title, rating) { return once(() => rateFollowUp(id, title, rating)); }

/** Keep the reader's interview date (a real day, or null for none), only when the reader gives
 * it (the self-test's question, "Make the plan"); the reviews already scheduled are fitted to it
 * (scheduling.js's fitInterview: none comes back after the day before it). False when not kept.
 * @param {string | null} day @returns {boolean} */
export function setInterview(day) {
  if (day !== null && !calendarDay(day)) return false;
  const value = load();
  const fitted = fitInterview(value.questions, day, new Date());
  if (value.interview === day && !fitted.moved.length) return true;
  value.interview = day;
  value.questions = fitted.questions;
  return save(value);
}

/** The key of the reader's plan: its topics, level and role, kept when they make it. */
export const PLAN_KEY = KEY + ".plan";

/** The plan the reader last made (its topics, level and role), or null.
 * @returns {import("./plan.js").PlanSettings | null} */
export function planSettings() {
  try { return readPlanSettings(window.localStorage.getItem(PLAN_KEY)); } catch (error) { return null; }
}

/** Keep the plan the reader made; false when the browser would not keep it.
 * @param {import("./plan.js").PlanSettings} settings @returns {boolean} */
export function keepPlan(settings) {
  try {
    window.localStorage.setItem(PLAN_KEY, JSON.stringify(settings));
    return true;
  } catch (error) {
    return false;
  }
}

/** Forget every rating, every copy set aside, every mock interview and its recordings, and the
 * plan (the reader asked to). Resolves once the recordings are really gone, so that "cleared" is
 * never said while a reload could still keep them (a deleteDatabase not yet done when the page
 * goes away was seen to leave the recording in place); false when something could not be
 * cleared (the reason in problemText()).
 * @param {(text: string) => void} [waiting] told when another tab holds the recordings open
 * (the deletion then waits for that tab to close them)
 * @returns {Promise<boolean>} */
export function clear(waiting) {
  recent = [];
  try {
    window.localStorage.removeItem(KEY);
    window.localStorage.removeItem(ASIDE);
    window.localStorage.removeItem(LEGACY_ASIDE);
    window.localStorage.removeItem(MOCK_SESSIONS);
    window.localStorage.removeItem(PLAN_KEY);
  } catch (error) {
    report("Your progress could not be cleared (" + nameOf(error) + ").");
    return Promise.resolve(false);
  }
  refresh();
  return deleteRecordings(waiting);
}

/** Delete the database of mock interview recordings (mock.js keeps them there and closes it after
 * each use). @param {(text: string) => void} [waiting] @returns {Promise<boolean>} */
function deleteRecordings(waiting) {
  return new Promise(function (resolve) {
    /** @type {IDBOpenDBRequest} */
    let request;
    try {
      if (!window.indexedDB) { resolve(true); return; }
      request = window.indexedDB.deleteDatabase(RECORDINGS);
    } catch (error) {
      resolve(true);  // no IndexedDB in this browser (or none allowed here): nothing was recorded
      return;
    }
    request.onsuccess = function () { resolve(true); };
    request.onerror = function () {
      report("The mock interview recordings could not be deleted (" + nameOf(request.error) + ").");
      resolve(false);
    };
    request.onblocked = function () {
      if (waiting) waiting("Another tab of this site holds the mock interview recordings open; they are " +
                           "deleted as soon as it closes them (close that tab to finish).");
    };
  });
}

/** Drop one set-aside copy (the reader asked to). @param {string} id */
export function dropAside(id) {
  const list = setAside().filter((item) => item.id !== id);
  try {
    if (list.length) window.localStorage.setItem(ASIDE, JSON.stringify(list));
    else window.localStorage.removeItem(ASIDE);
  } catch (error) {
    report("The set-aside copy could not be dropped (" + nameOf(error) + ").");
  }
  refresh();
}

/** Mark every set-aside copy seen: pages stop warning about them once they are listed. */
export function sawAside() {
  const list = setAside();
  if (!list.some((item) => !item.seen)) return;
  list.forEach((item) => { item.seen = true; });
  try { window.localStorage.setItem(ASIDE, JSON.stringify(list)); } catch (error) { /* warned again */ }
}

/** What the reader sees of a question: "Not started", "Done", "Due for review", "Review on ...".
 * @param {string} id @param {string} [on] @returns {string} */
export function label(id, on) {
  const e = entry(id);
  if (!e) return "Not started";
  if (e.state === "done") return "Done";
  return isDue(e, on || today()) ? "Due for review" : "Review on " + dayOf(e.due || e.rated);
}

/**
 * The next question to practise today: what is due first (the longest overdue day first, then the
 * one rated longest ago: progress-core's nextQuestion), then what is not started, in the order
 * given (learning order). Done and waiting questions are left out.
 * @template {{id: string}} Q
 * @param {Q[]} questions
 * @param {string} [skip] an id to leave out
 * @returns {{question: Q, due: boolean} | null}
 */
export function nextQuestion(questions, skip) {
  return core.nextQuestion(questions, load(), today(), skip);
}

/** The question id a link of this site leads to, or null. @param {string} href @returns {string | null} */
export function idOf(href) { return idIn(href, siteRoot(), window.location.href); }

// Until the reader has seen the set-aside copies on Your progress, every page says they exist.
function asideNotice() {
  const unseen = setAside().filter((item) => !item.seen).length;
  if (!unseen || problem) return;
  problem = unseen + " cop" + (unseen > 1 ? "ies" : "y") + " of your progress " + (unseen > 1 ? "were" : "was") +
    " set aside as unreadable. Your progress page lists " + (unseen > 1 ? "them" : "it") + ", to download or drop.";
}

// The problem at the top of the page, on every page, each time it happens again (a new alert
// element, so that a screen reader announces it again).
function showProblem() {
  if (!problem) return;
  const content = document.querySelector(".md-content__inner");
  if (!content) return;
  const old = content.querySelector(".progress-problem");
  if (old) old.remove();
  const box = document.createElement("p");
  box.className = "progress-problem admonition warning";
  box.setAttribute("role", "alert");
  box.textContent = problem;
  content.insertBefore(box, content.firstChild);
}

/** The progress rules (imported with this module). @returns {Promise<typeof core>} */
export function loadCore() { return Promise.resolve(core); }

/** @type {Promise<Fsrs> | null} */
let scheduling = null;
/** The scheduler (ts-fsrs, 13 kB gzipped, shipped from its pinned npm package into
 * assets/vendor/ by the build), with the rules: imported only when a rating is near (the
 * reader reaches for the self-test), not on a first visit. @returns {Promise<Fsrs>} */
export function loadScheduler() {
  if (!scheduling) {
    const vendor = new URL("../vendor/ts-fsrs/index.mjs", import.meta.url).href;
    scheduling = Promise.all([import("./scheduling.js"),
                              /** @type {Promise<Fsrs>} */ (import(vendor))]).then(([module, lib]) => {
      scheduler = { rules: module, lib: lib };
      return lib;
    }, (error) => {
      scheduling = null;
      throw error;
    });
  }
  return scheduling;
}

/** @type {Array<() => void>} */
const listeners = [];
/** Call `listener` whenever the progress changes (here or in another tab). @param {() => void} listener */
export function onChange(listener) { listeners.push(listener); }

/** Redraw everything that shows progress, and tell the page's modules that have not drawn
 * any yet (progress-format.js's withProgress). */
export function refresh() {
  listeners.forEach((listener) => listener());
  document.dispatchEvent(new CustomEvent(CHANGED));
}

/** Another tab wrote `written` (the storage event's new value): put back what this tab wrote a
 * moment ago if that write was written over (two tabs rating within a few milliseconds each read
 * the value before the other's write reached it; this page's own copy may still be its own write,
 * so the event's value is read, and merged with this page's copy, later ratings winning). Only a
 * value this page reads whole is merged into; a cleared one forgets this tab's writes (the reader
 * cleared them). @param {string | null} written */
function putBack(written) {
  const now = Date.now();
  recent = recent.filter((r) => now - r.at >= 0 && now - r.at < OWN_MS);
  if (!recent.length) return;
  if (written === null) {
    recent = [];
    return;
  }
  const read = readRaw(written);
  if (read.kind !== "ok" || read.rejected.length || read.migrated) return;
  let value = read.value, changed = false;
  recent.forEach((r) => {
    const back = core.reapply(value, r.own);
    value = back.value;
    changed = changed || back.changed;
  });
  if (!changed) return;
  let raw;
  try { raw = window.localStorage.getItem(KEY); } catch (error) { return; }
  const here = raw === null ? null : readRaw(raw);
  if (here && here.kind === "ok" && !here.rejected.length) {
    const interview = value.interview;
    value = core.planImport(here.value, value).merged;
    value.interview = interview;
  }
  write(value);
}

/** @type {BroadcastChannel | null} */
let channel = null;
/** Tell the other tabs what this write changed: a tab whose copy of the value missed it (two
 * writes within a few milliseconds: Chromium keeps a tab's own write in its copy and may not show
 * it the other's) puts it into the value it holds and writes the two together.
 * @param {OwnChanges} own */
function tell(own) {
  if (!Object.keys(own.questions).length && !own.interview) return;
  try {
    if (!channel && typeof BroadcastChannel === "function") listen(new BroadcastChannel(KEY));
    if (channel) channel.postMessage(own);
  } catch (error) { /* the storage event still puts it back where it can */ }
}

/** @param {BroadcastChannel} opened */
function listen(opened) {
  channel = opened;
  opened.addEventListener("message", (event) => {
    /** @type {unknown} */
    const own = event.data;
    if (!own || typeof own !== "object" || !("questions" in own)) return;
    let raw;
    try { raw = window.localStorage.getItem(KEY); } catch (error) { return; }
    if (raw === null) return;  // cleared since: not brought back
    const read = readRaw(raw);
    if (read.kind !== "ok" || read.rejected.length || read.migrated) return;
    const back = core.reapply(read.value, /** @type {OwnChanges} */ (own));
    if (back.changed && write(back.value)) refresh();
  });
}

let started = false;
/** The first read of the page, with any problem said at its top, and the watch on other tabs.
 * Once; progress-start.js calls it as soon as this module is loaded. */
export function start() {
  if (started) return;
  started = true;
  try {
    if (!channel && typeof BroadcastChannel === "function") listen(new BroadcastChannel(KEY));
  } catch (error) { /* without it, the storage event */ }
  load();
  asideNotice();
  showProblem();
  // Another tab saved: redraw from the stored value.
  window.addEventListener("storage", (event) => {
    if (event.key === KEY || event.key === null) putBack(event.newValue);
    if (event.key === KEY || event.key === ASIDE || event.key === null) refresh();
  });
}

/** start(), for a module that waits on it. @returns {Promise<void>} */
export function ready() {
  start();
  return Promise.resolve();
}
