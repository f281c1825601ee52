// The mock interview page (docs/mock-interview.md): questions drawn for the reader, one at a time,
// each with a timer against the spoken targets and, where the browser has a microphone, a
// recording of the answer; then the reveal (the short answer as a checklist, the red flags as
// "did you say any of these?", the recording beside the model answers), a self-grade that feeds
// the review schedule (InterviewProgress.rate: FSRS, kept before the reader's interview date),
// one follow-up, and a summary at the end. A grade that could not be saved says "Not saved" where
// the reader is looking, as the self-test does, and the interview goes on only when asked.
// The answers are read from the question pages themselves (same site, fetched when drawn). A
// recording is kept only in this browser, in IndexedDB, and can be deleted; nothing is sent. A
// recording the storage refuses ends with a message, never a "Recording…" that hangs.
// Each interview is kept in this browser (mock-sessions.js: its date, questions, grades and the
// keys of its recordings) and listed under the settings with a player and a delete for each
// recording; "Delete every recording" asks first. Once an interview starts, the page's
// introduction folds away, so that the question is on screen on a phone.
import { button, clock, el, sectionNodes, textsOf } from "./dom.js";
import { codingRound, pickDrill } from "./mock-coding.js";
import { draw, quoted, settingsOf } from "./mock-draw.js";
import * as S from "./mock-sessions.js";
import { RATINGS, RATING_LABELS } from "./progress-format.js";
import { capital, LEVELS, questionsOf, topicsOf } from "./question-list.js";
import * as P from "./storage.js";

/**
 * @typedef {import("./mock-draw.js").Drawn} Drawn
 * @typedef {import("./mock-draw.js").Settings} Settings
 * @typedef {import("./progress-format.js").RatingName} RatingName
 * @typedef {{question: string, answer: string[]}} FollowUpAnswer
 * @typedef {{short: string[], basics: string[], solid: string[], redFlags: string[],
 *            followUps: FollowUpAnswer[]}} Answers
 * @typedef {{question: Drawn, seconds: number, covered: number, points: number, flags: string[],
 *            rating: RatingName | null, saved: boolean, followUp: string | null,
 *            followUpRating: RatingName | null, followUpSaved: boolean, recording: string | null}} Result
 */

const DB_NAME = "pytorch-interview-questions.recordings", STORE = "recordings";

// -- recordings, in IndexedDB only ---------------------------------------------------------
/** @returns {Promise<IDBDatabase>} */
function db() {
  return new Promise((resolve, reject) => {
    const request = window.indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => { request.result.createObjectStore(STORE); };
    request.onsuccess = () => { resolve(request.result); };
    request.onerror = () => { reject(request.error); };
    request.onblocked = () => { reject(new DOMException("Another tab holds the recordings open.", "InvalidStateError")); };
  });
}

/**
 * One request in its own transaction: settled by whichever comes first of the transaction's
 * `complete`, `error` and `abort` (a write the storage refuses when it commits, a full disk or a
 * quota, fires `abort` alone), or by the request throwing.
 * @template T
 * @param {IDBTransactionMode} mode @param {(store: IDBObjectStore) => IDBRequest<T>} work
 * @returns {Promise<T>}
 */
function store(mode, work) {
  return db().then((database) => new Promise((resolve, reject) => {
    let settled = false;
    /** @param {unknown} error */
    function fail(error) {
      if (settled) return;
      settled = true;
      database.close();
      reject(error || new DOMException("The storage refused the write.", "AbortError"));
    }
    /** @type {IDBTransaction} */
    let tx;
    /** @type {IDBRequest<T>} */
    let request;
    try {
      tx = database.transaction(STORE, mode);
      request = work(tx.objectStore(STORE));
    } catch (error) {
      fail(error);
      return;
    }
    tx.oncomplete = () => {
      if (settled) return;
      settled = true;
      database.close();
      resolve(request.result);
    };
    tx.onerror = () => { fail(tx.error || request.error); };
    tx.onabort = () => { fail(tx.error); };
  }));
}

const recordings = {
  /** @param {string} key @param {Blob} blob */
  put: (key, blob) => store("readwrite", (s) => s.put(blob, key)),
  /** @param {string} key @returns {Promise<Blob | undefined>} */
  get: (key) => store("readonly", (s) => s.get(key)),
  /** @param {string} key */
  remove: (key) => store("readwrite", (s) => s.delete(key)),
  /** @returns {Promise<string[]>} */
  keys: () => store("readonly", (s) => s.getAllKeys()).then((keys) => keys.map(String)),
};

/** @param {unknown} error @returns {string} */
function nameOf(error) {
  return error instanceof DOMException || error instanceof Error ? error.name : String(error);
}

/** Why the storage did not keep something, in the reader's words. @param {unknown} error @returns {string} */
function refusal(error) {
  const name = nameOf(error);
  return name === "QuotaExceededError" ? "this browser's storage for this site is full"
    : "this browser's storage refused it (" + name + ")";
}

// -- the interviews kept, in localStorage (mock-sessions.js) ----------------------------------
/** @returns {S.Session[]} */
function readKept() {
  try { return S.readSessions(window.localStorage.getItem(S.SESSIONS)); } catch (error) { return []; }
}

/** @param {S.Session[]} list @returns {string | null} why it was not kept, or null */
function writeKept(list) {
  try {
    window.localStorage.setItem(S.SESSIONS, JSON.stringify(list));
    return null;
  } catch (error) {
    return refusal(error);
  }
}

/** @returns {boolean} */
function canRecord() {
  return !!(navigator.mediaDevices && "getUserMedia" in navigator.mediaDevices && "MediaRecorder" in window &&
            window.indexedDB);
}

// -- a question page's answers, read from its HTML -------------------------------------------
const texts = textsOf;

/** @param {string} html a question page @returns {Answers} */
function answersOf(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const followUps = sectionNodes(doc, "follow-ups").filter((node) => node.tagName === "DETAILS").map((details) => {
    const summary = details.querySelector("summary");
    const body = Array.from(details.children).filter((child) => child !== summary);
    return { question: ((summary && summary.textContent) || "").trim(), answer: texts(body, "p, li") };
  });
  return {
    short: texts(sectionNodes(doc, "short-answer"), "li"),
    basics: texts(sectionNodes(doc, "basics"), "p"),
    solid: texts(sectionNodes(doc, "solid-answer"), "p"),
    // Without the closing "See the run." of each: its link leads into the page.
    redFlags: texts(sectionNodes(doc, "red-flags"), "li").map((flag) => flag.replace(/\s*See [^.]*\.$/, "")),
    followUps: followUps
  };
}

// -- the page --------------------------------------------------------------------------------
/** @param {HTMLElement} tool */
function setUp(tool) {
  tool.dataset.mockReady = "1";
  // The progress rules and the scheduler (progress-core.js, ts-fsrs): the draw reads the
  // reader's progress through them and every grade is scheduled by them. Loaded now, while the
  // reader chooses; a draw waits for them, and a grade without them says it was not saved.
  const ready = P.loadScheduler().catch(() => { /* a grade then says "Not saved" and why */ });
  const fallback = tool.querySelector(".progress-fallback");
  if (fallback) fallback.remove();
  const questions = questionsOf(tool);
  // The drills, for the coding round (mock-coding.js): embedded apart, as the spoken rounds
  // never draw one.
  const drillList = tool.querySelector("script.drill-list");
  /** @type {import("./question-list.js").ListedQuestion[]} */
  const drills = JSON.parse((drillList && drillList.textContent) || "[]");
  const stage = tool.appendChild(el("div", { "class": "mock-stage" }));
  const targets = [Number(tool.dataset.basicsSeconds) || 20, Number(tool.dataset.solidSeconds) || 50];

  /** @param {Node[]} nodes @param {HTMLElement | null} [focus] */
  function show(nodes, focus) {
    stage.innerHTML = "";
    nodes.forEach(function (node) { stage.appendChild(node); });
    if (focus) focus.focus();
  }

  // The page's introduction (what comes between its title and this tool): folded into a
  // <details> once an interview starts, open again with the settings.
  /** @param {boolean} open */
  function introduction(open) {
    const before = tool.previousElementSibling;
    if (before instanceof HTMLDetailsElement && before.classList.contains("mock-intro")) {
      before.open = open;
      return;
    }
    if (open) return;
    /** @type {Element[]} */
    const nodes = [];
    for (let node = tool.previousElementSibling; node && !/^H[12]$/.test(node.tagName) &&
         !node.classList.contains("progress-problem"); node = node.previousElementSibling) {
      nodes.unshift(node);
    }
    if (!nodes.length) return;
    const fold = el("details", { "class": "mock-intro" });
    fold.appendChild(el("summary", {}, "About the mock interview"));
    tool.before(fold);
    nodes.forEach((node) => { fold.appendChild(node); });
  }

  /** @param {string} id @returns {S.Listed | null} */
  function listed(id) {
    const found = questions.filter((q) => q.id === id)[0];
    return found ? { question: found.question, url: found.url } : null;
  }

  // The interviews kept in this browser, newest first, each question with its grade and, where
  // this browser still holds it, its recording with a player and a delete; then "Delete every
  // recording", which asks first.
  /** @returns {HTMLElement} */
  function earlierInterviews() {
    const box = el("section", { "class": "mock-sessions", "aria-labelledby": "mock-sessions-title", hidden: "" });
    const kept = readKept();
    const held = window.indexedDB ? recordings.keys().catch(() => /** @type {string[]} */ ([])) : Promise.resolve([]);
    held.then(function (keys) {
      const list = S.sessionsToShow(kept, keys, listed);
      if (!list.length) return;
      box.appendChild(el("h2", { id: "mock-sessions-title" }, "Your earlier mock interviews"));
      list.forEach(function (session) { box.appendChild(sessionBlock(session)); });
      if (S.recordingCount(list)) box.appendChild(deleteEvery(box));
      box.hidden = false;
    });
    return box;
  }

  /** @param {string} at @returns {string} */
  function when(at) {
    return new Date(at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }

  /** @param {S.Session} session @returns {HTMLElement} */
  function sessionBlock(session) {
    const block = el("section", { "class": "mock-session" });
    const title = block.appendChild(el("h3"));
    if (session.at) title.appendChild(el("time", { datetime: session.at }, when(session.at)));
    else title.appendChild(document.createTextNode("An earlier interview"));
    const n = session.questions.length;
    title.appendChild(document.createTextNode(" \u00b7 " + n + " question" + (n === 1 ? "" : "s")));
    const list = block.appendChild(el("ul", { "class": "mock-session-questions" }));
    session.questions.forEach(function (q) {
      const item = list.appendChild(el("li", { "class": "mock-session-question" }));
      if (q.url) item.appendChild(el("a", { href: q.url }, q.question));
      else item.appendChild(document.createTextNode(q.question));
      /** @type {string[]} */
      const said = [q.rating ? RATING_LABELS[q.rating] + (q.saved ? "" : " (not saved)")
        : (q.seconds || !q.recording ? "not graded" : "recorded")];
      if (q.seconds) said.push("answered for " + clock(q.seconds));
      if (q.rating && q.points) said.push(q.covered + " of " + q.points + " points of the short answer");
      if (q.rating && q.flags) said.push(q.flags + " red flag" + (q.flags === 1 ? "" : "s") + " said");
      if (q.followUpRating) said.push("follow-up " + RATING_LABELS[q.followUpRating].toLowerCase());
      item.appendChild(document.createTextNode(": " + said.join(", ") + "."));
      if (q.recording) item.appendChild(player(q.recording));
    });
    return block;
  }

  /** A kept recording's player, with its delete. @param {string} key @returns {HTMLElement} */
  function player(key) {
    const holder = el("div", { "class": "mock-session-recording" });
    const audio = holder.appendChild(el("audio", { controls: "", "class": "mock-audio", "aria-label": "Your recorded answer" }));
    recordings.get(key).then(function (blob) {
      if (blob) audio.src = URL.createObjectURL(blob);
    }, function () { /* the delete still works; the player stays silent */ });
    holder.appendChild(button("Delete this recording", function () {
      recordings.remove(key).then(function () {
        writeKept(S.withoutRecording(readKept(), key));
        if (audio.src) URL.revokeObjectURL(audio.src);
        holder.innerHTML = "";
        holder.appendChild(el("p", { role: "status" }, "Recording deleted."));
      }, function (error) {
        holder.appendChild(el("p", { role: "alert" }, "The recording could not be deleted (" + nameOf(error) + ")."));
      });
    }));
    return holder;
  }

  /** "Delete every recording", with the question it asks first. @param {HTMLElement} box @returns {HTMLElement} */
  function deleteEvery(box) {
    const every = el("div", { "class": "mock-delete-every" });
    const ask = every.appendChild(button("Delete every recording", function () {
      if (every.querySelector(".mock-confirm")) return;
      recordings.keys().then(function (keys) {
        const n = keys.length;
        const confirm = el("div", { "class": "mock-confirm", role: "group", "aria-label": "Delete every recording?" });
        confirm.appendChild(el("p", {}, n ? "Delete the " + (n === 1 ? "recording" : n + " recordings") +
          " kept in this browser? This cannot be undone." : "No recording is kept in this browser."));
        if (n) {
          confirm.appendChild(button("Yes, delete every recording", function () {
            Promise.all(keys.map((key) => recordings.remove(key))).then(function () {
              let list = readKept();
              keys.forEach(function (key) { list = S.withoutRecording(list, key); });
              writeKept(list);
              box.querySelectorAll(".mock-session-recording").forEach((node) => { node.remove(); });
              every.innerHTML = "";
              every.appendChild(el("p", { role: "status", tabindex: "-1" }, "Every recording is deleted."));
              /** @type {HTMLElement} */ (every.firstElementChild).focus();
            }, function (error) {
              confirm.appendChild(el("p", { role: "alert" }, "The recordings could not all be deleted (" +
                                      nameOf(error) + "). Reload the page to see which are left."));
            });
          }));
        }
        const cancel = confirm.appendChild(button(n ? "Cancel" : "Close", function () {
          confirm.remove();
          ask.focus();
        }));
        every.appendChild(confirm);
        cancel.focus();
      }, function (error) {
        every.appendChild(el("p", { role: "alert" }, "The recordings could not be read (" + nameOf(error) + ")."));
      });
    }));
    return every;
  }

  // The settings form.
  function settingsForm() {
    const form = el("form", { "class": "mock-form" });
    const topics = form.appendChild(el("fieldset", { "class": "mock-topics" }));
    topics.appendChild(el("legend", {}, "Topics"));
    topicsOf(questions).forEach((topic) => {
      const label = topics.appendChild(el("label"));
      const box = label.appendChild(el("input", { type: "checkbox", name: "topic", value: topic.id, checked: "" }));
      box.checked = true;
      label.appendChild(document.createTextNode(" " + topic.title));
    });
    const levelLabel = form.appendChild(el("label", {}, "Level "));
    const level = levelLabel.appendChild(el("select", { name: "level" }));
    LEVELS.forEach(function (name) {
      level.appendChild(el("option", { value: name }, capital(name)));
    });
    level.value = "senior";
    const lengthLabel = form.appendChild(el("label", {}, "Length "));
    const length = lengthLabel.appendChild(el("select", { name: "length" }));
    [["q3", "3 questions"], ["q5", "5 questions"], ["q8", "8 questions"],
     ["m15", "15 minutes"], ["m30", "30 minutes"]].forEach(function (option) {
      length.appendChild(el("option", { value: option[0] }, option[1]));
    });
    length.value = "q5";
    const doneLabel = form.appendChild(el("label", { "class": "mock-done" }));
    const includeDone = doneLabel.appendChild(el("input", { type: "checkbox", name: "include-done" }));
    doneLabel.appendChild(document.createTextNode(" Include questions I marked done"));
    const message = el("p", { "class": "mock-message", role: "status" });
    form.appendChild(el("button", { type: "submit", "class": "md-button md-button--primary" },
                        "Start the mock interview"));
    form.appendChild(message);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const chosen = Array.from(topics.querySelectorAll("input")).filter((box) => box.checked).map((box) => box.value);
      const settings = settingsOf(length.value, chosen, level.value, includeDone.checked);
      if (!chosen.length) { message.textContent = "Choose at least one topic."; return; }
      ready.then(function () {
        const drawn = draw(questions, settings, (id) => P.standingOf(id));
        if (!drawn.length) {
          message.textContent = "No question is left to ask with these settings: every one is done. " +
            "Tick \u201cInclude questions I marked done\u201d, or choose another topic or level.";
          return;
        }
        interview(drawn, settings);
      });
    });
    /** @type {HTMLElement[]} */
    const nodes = [form];
    introduction(true);
    if (drills.length) {
      const coding = el("section", { "class": "mock-coding", "aria-label": "Coding round" });
      coding.appendChild(el("p", {}, "Or a coding round: one of the " + drills.length + " drills, due or new first, " +
                             "with its starter and 30 to 45 minutes, then the solution and a rubric."));
      coding.appendChild(button("Start a coding round", function () {
        ready.then(function () {
          const drill = pickDrill(drills, P);
          if (!drill) return;
          introduction(false);
          codingRound(stage, drill, P, settingsForm);
        });
      }));
      nodes.push(coding);
    }
    nodes.push(earlierInterviews());
    show(nodes);
  }

  // One interview: the drawn questions in turn, then the summary.
  /** @param {Drawn[]} drawn @param {Settings} settings */
  function interview(drawn, settings) {
    const session = new Date().toISOString();
    /** @type {Result[]} */
    const results = [];
    const began = Date.now();
    let microphone = canRecord() ? "unknown" : "none";
    introduction(false);

    /** This interview as it is kept (mock-sessions.js). @returns {S.Session} */
    function keptOf() {
      return { id: session, at: session, questions: results.map((r) => ({
        id: r.question.id, question: r.question.question, url: r.question.url, rating: r.rating, saved: r.saved,
        seconds: r.seconds, covered: r.covered, points: r.points, flags: r.flags.length, followUp: r.followUp,
        followUpRating: r.followUpRating, recording: r.recording })) };
    }

    /** Keep this interview as it stands now. @returns {string | null} why it was not kept, or null */
    function keep() { return writeKept(S.withSession(readKept(), keptOf())); }

    function timeUp() {
      return !!settings.minutes && (Date.now() - began) / 60000 >= settings.minutes;
    }

    /** @param {number} index */
    function ask(index) {
      const q = drawn[index];
      /** @type {Result} */
      const result = { question: q, seconds: 0, covered: 0, points: 0, flags: [], rating: null, saved: true,
                     followUp: null, followUpRating: null, followUpSaved: true, recording: null };
      results.push(result);
      const answers = fetch(q.url).then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      }).then(answersOf);
      const header = el("p", { "class": "mock-progress" },
        "Question " + (index + 1) + " of " + drawn.length +
        (settings.minutes ? " \u00b7 " + clock(Math.floor((Date.now() - began) / 1000)) + " of " +
         settings.minutes + ":00 used" : ""));
      const title = el("h2", { "class": "mock-question", tabindex: "-1" }, q.question);
      // The timer runs from the moment the question is shown, as in an interview.
      const start = Date.now();
      const face = el("span", { "class": "practice-clock mock-clock", role: "timer", "aria-live": "off" }, "0:00");
      const said = el("p", { "class": "mock-said", "aria-live": "polite" },
        "Answer aloud: the basics in about " + targets[0] + " s, the solid answer in about " + targets[1] + " s.");
      const ticking = window.setInterval(function () {
        const s = Math.floor((Date.now() - start) / 1000);
        face.textContent = clock(s);
        if (s === targets[0]) said.textContent = "About " + targets[0] + " s: the basics should be said.";
        if (s === targets[1]) said.textContent = "About " + targets[1] + " s: the solid answer should be said.";
      }, 250);
      const timer = el("div", { "class": "mock-timer" });
      timer.appendChild(face);
      timer.appendChild(said);

      // The recording, offered only where the browser can record.
      /** @type {MediaRecorder | null} */
      let recorder = null;
      /** @type {Blob[]} */
      let chunks = [];
      /** @type {Promise<string | null>} */
      let saving = Promise.resolve(null);
      const recordBox = el("div", { "class": "mock-record" });
      const recordState = el("p", { "class": "mock-record-state", role: "status" });
      /** @type {string | null} why the recorder failed, once it did */
      let failed = null;
      const without = " Answer aloud without it: the interview goes on.";
      // Stopped by the reader (or by the reveal): the recording is kept, or the reader is told
      // why not; whatever happens "Recording…" ends, within 10 s at most.
      function stopRecording() {
        if (!recorder || recorder.state === "inactive") return saving;
        /** @type {MediaRecorder} */
        const running = recorder;
        recordState.textContent = "Keeping the recording\u2026";
        saving = new Promise(function (resolve) {
          let over = false;
          /** @param {string | null} key @param {string} text */
          function end(key, text) {
            if (over) return;
            over = true;
            window.clearTimeout(late);
            running.stream.getTracks().forEach((track) => { track.stop(); });
            recordState.textContent = text;
            resolve(key);
          }
          const late = window.setTimeout(function () {
            end(null, "The recording could not be kept: this browser did not finish it in time." + without);
          }, 10000);
          running.addEventListener("stop", function () {
            if (failed) {
              end(null, "The recording could not be kept: the recorder failed (" + failed + ")." + without);
              return;
            }
            const blob = new Blob(chunks, { type: running.mimeType || "audio/webm" });
            const key = S.recordingKey(session, q.id);
            recordings.put(key, blob).then(function () {
              result.recording = key;
              keep();
              end(key, "Recorded " + clock(Math.round((Date.now() - recordStart) / 1000)) +
                  ", kept in this browser only.");
            }, function (error) {
              end(null, "The recording could not be kept: " + refusal(error) + "." + without);
            });
          });
          try {
            running.stop();
          } catch (error) {
            end(null, "The recording could not be kept (" + nameOf(error) + ")." + without);
          }
        });
        return saving;
      }
      let recordStart = 0;
      if (microphone !== "none") {
        let stopping = false;
        const record = button("Record my answer", function () {
          if (recorder && recorder.state === "recording") {
            stopping = true;
            stopRecording();
            record.remove();
            return;
          }
          record.disabled = true;
          navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
            microphone = "yes";
            chunks = [];
            record.disabled = false;
            try {
              const made = new MediaRecorder(stream);
              made.addEventListener("dataavailable", (event) => {
                if (event.data && event.data.size) chunks.push(event.data);
              });
              // A recorder that fails while recording stops by itself: say so, and offer no stop.
              made.addEventListener("error", function (event) {
                failed = nameOf(/** @type {{error?: unknown}} */ (event).error || "error");
                if (!stopping) {
                  made.stream.getTracks().forEach((track) => { track.stop(); });
                  record.remove();
                  recordState.textContent = "The recording stopped: the recorder failed (" + failed + ")." + without;
                }
              });
              made.start();
              recorder = made;
            } catch (error) {
              stream.getTracks().forEach((track) => { track.stop(); });
              record.remove();
              recordState.textContent = "This browser could not record (" + nameOf(error) + ")." + without;
              return;
            }
            recordStart = Date.now();
            record.textContent = "Stop recording";
            recordState.textContent = "Recording\u2026";
          }, function () {
            microphone = "none";
            record.remove();
            recordState.textContent = "No microphone could be used: answer aloud without a recording.";
          });
        });
        recordBox.appendChild(record);
        recordBox.appendChild(recordState);
        recordBox.appendChild(el("p", { "class": "mock-note" },
          "Optional. A recording stays in this browser (IndexedDB), is never sent anywhere, and can be deleted."));
      }

      const reveal = button("I have answered: reveal", function () {
        window.clearInterval(ticking);
        result.seconds = Math.floor((Date.now() - start) / 1000);
        reveal.disabled = true;
        stopRecording().then(function () {
          return answers;
        }).then(function (parts) {
          revealAnswers(index, result, parts);
        }, function (error) {
          show([el("p", { role: "alert" }, "The answers of this question could not be read (" + (error instanceof Error ? error.message : String(error)) +
            "). Open it: "), el("a", { href: q.url }, q.question)]);
        });
      }, true);
      show([header, title, timer, recordBox, reveal], title);
    }

    /** @param {string} legend @param {string[]} items @param {string} name @returns {HTMLFieldSetElement} */
    function checklist(legend, items, name) {
      const box = el("fieldset", { "class": "mock-checklist mock-" + name });
      box.appendChild(el("legend", {}, legend));
      items.forEach(function (text, number) {
        const label = box.appendChild(el("label"));
        label.appendChild(el("input", { type: "checkbox", name: name + "-" + number, value: String(number) }));
        label.appendChild(document.createTextNode(" " + text));
      });
      return box;
    }

    /** @param {string} label @param {(rating: RatingName) => void} onRate @returns {HTMLElement} */
    function ratingButtons(label, onRate) {
      const group = el("div", { "class": "practice-rate mock-rate", role: "group", "aria-label": label });
      group.appendChild(el("p", {}, label));
      RATINGS.forEach(function (rating) {
        group.appendChild(button(RATING_LABELS[rating], function () { onRate(rating); }));
      });
      return group;
    }

    // A grade the browser did not keep: "Not saved" and why, under `after`, where the reader is
    // looking; the grade buttons stay to try again, and the interview goes on only when asked.
    /** @param {HTMLElement} after @param {() => void} goOn */
    function notSaved(after, goOn) {
      const box = el("div", { "class": "mock-not-saved" });
      box.appendChild(el("p", { role: "alert" }, "Not saved. " + (P.problemText() || "")));
      box.appendChild(button("Go on without saving", function () { box.remove(); goOn(); }));
      after.after(box);
    }

    /** @param {ParentNode} scope */
    function dropNotSaved(scope) {
      const old = scope.querySelector(".mock-not-saved");
      if (old) old.remove();
    }

    /** @param {number} index @param {Result} result @param {Answers} parts */
    function revealAnswers(index, result, parts) {
      const q = result.question;
      /** @type {HTMLElement[]} */
      const nodes = [el("p", { "class": "mock-progress" }, "Question " + (index + 1) + " of " + drawn.length),
                   el("h2", { "class": "mock-question" }, q.question),
                   el("p", { "class": "mock-spoke" }, "You answered for " + clock(result.seconds) +
                      " (targets: about " + targets[0] + " s for the basics, " + targets[1] + " s for the solid answer).")];
      const points = checklist("The short answer: tick what you said", parts.short, "covered");
      const flags = checklist("Red flags: did you say any of these?", parts.redFlags, "flag");
      nodes.push(points, flags);
      const compare = el("div", { "class": "mock-compare" });
      if (result.recording) {
        const mine = compare.appendChild(el("section", { "class": "mock-mine", "aria-label": "Your recording" }));
        mine.appendChild(el("h3", {}, "Your answer"));
        const audio = mine.appendChild(el("audio", { controls: "", "class": "mock-audio" }));
        const key = result.recording;
        recordings.get(key).then(function (blob) {
          if (blob) audio.src = URL.createObjectURL(blob);
        });
        mine.appendChild(button("Delete this recording", function () {
          recordings.remove(key).then(function () {
            result.recording = null;
            keep();
            mine.innerHTML = "";
            mine.appendChild(el("p", { role: "status" }, "Recording deleted."));
          });
        }));
      }
      const model = compare.appendChild(el("section", { "class": "mock-model", "aria-label": "Model answers" }));
      model.appendChild(el("h3", {}, "Basics (about " + targets[0] + " s)"));
      parts.basics.forEach(function (text) { model.appendChild(el("p", {}, text)); });
      model.appendChild(el("h3", {}, "Solid answer (about " + targets[1] + " s)"));
      parts.solid.forEach(function (text) { model.appendChild(el("p", {}, text)); });
      nodes.push(compare);
      const whole = el("p", { "class": "mock-whole" });
      whole.appendChild(el("a", { href: q.url + "#short-answer" }, "The whole page of this question"));
      nodes.push(whole);
      const saved = el("p", { "class": "mock-saved", role: "status" });
      const grade = ratingButtons("How did it go?", function (rating) {
        result.points = parts.short.length;
        result.covered = points.querySelectorAll("input:checked").length;
        result.flags = Array.from(flags.querySelectorAll("input")).filter((box) => box.checked)
          .map((box) => parts.redFlags[Number(box.value)]);
        result.rating = rating;
        dropNotSaved(stage);
        const e = P.rate(q.id, rating);
        result.saved = !!e;
        keep();
        if (!e) {
          saved.textContent = "";
          notSaved(saved, function () {
            grade.remove();
            followUp(index, result, parts, saved);
          });
          return;
        }
        saved.textContent = "Saved: " + P.label(q.id) + ".";
        grade.remove();
        followUp(index, result, parts, saved);
      });
      nodes.push(grade, saved);
      show(nodes, points.querySelector("input") || grade.querySelector("button"));
    }

    /** @param {number} index @param {Result} result @param {Answers} parts @param {HTMLElement} saved */
    function followUp(index, result, parts, saved) {
      const entry = P.entry(result.question.id);
      const asked = (entry && entry.followups) || {};
      const pick = parts.followUps.filter(function (f) { return !asked[f.question] || asked[f.question].rating !== "got-it"; })[0] ||
                 parts.followUps[0];
      const next = button(index + 1 < drawn.length && !timeUp() ? "Next question" : "See the summary", function () {
        if (index + 1 < drawn.length && !timeUp()) ask(index + 1);
        else summary();
      }, true);
      if (!pick) {
        saved.parentElement?.appendChild(next);
        next.focus();
        return;
      }
      result.followUp = pick.question;
      const box = el("section", { "class": "mock-followup", "aria-label": "Follow-up" });
      const heading = box.appendChild(el("h3", { tabindex: "-1" }, "Follow-up: " + pick.question));
      box.appendChild(el("p", {}, "Answer it aloud, then reveal its answer."));
      const open = box.appendChild(button("Reveal its answer", function () {
        open.remove();
        pick.answer.forEach(function (text) { box.appendChild(el("p", { "class": "mock-followup-answer" }, text)); });
        /** @param {RatingName} rating @param {boolean} kept */
        function rated(rating, kept) {
          rate.remove();
          box.appendChild(el("p", { role: "status" }, "Follow-up rated " + RATING_LABELS[rating].toLowerCase() +
                             (kept ? "." : ", not saved.")));
          box.appendChild(next);
          next.focus();
        }
        const rate = box.appendChild(ratingButtons("How did you answer it?", function (rating) {
          result.followUpRating = rating;
          dropNotSaved(box);
          result.followUpSaved = !!P.rateFollowUp(result.question.id, pick.question, rating);
          keep();
          if (result.followUpSaved) rated(rating, true);
          else notSaved(rate, function () { rated(rating, false); });
        }));
        rate.querySelector("button")?.focus();
      }));
      saved.parentElement?.appendChild(box);
      heading.focus();
    }

    function summary() {
      /** @type {HTMLElement[]} */
      const nodes = [el("h2", { "class": "mock-summary-title", tabindex: "-1" }, "How the mock interview went")];
      const minutes = Math.round((Date.now() - began) / 60000);
      nodes.push(el("p", {}, results.length + " question" + (results.length === 1 ? "" : "s") + " in about " +
                    minutes + " minute" + (minutes === 1 ? "" : "s") + "."));
      const table = el("table", { "class": "mock-summary progress-table" });
      const head = table.appendChild(el("thead")).appendChild(el("tr"));
      ["Question", "Grade", "Time", "Short answer", "Red flags said", "Follow-up"].forEach(function (name) {
        head.appendChild(el("th", { scope: "col" }, name));
      });
      const body = table.appendChild(el("tbody"));
      results.forEach(function (r) {
        const row = body.appendChild(el("tr"));
        row.appendChild(el("th", { scope: "row" })).appendChild(el("a", { href: r.question.url }, r.question.question));
        row.appendChild(el("td", {}, r.rating ? RATING_LABELS[r.rating] + (r.saved ? "" : " (not saved)") : "not graded"));
        row.appendChild(el("td", {}, clock(r.seconds)));
        row.appendChild(el("td", {}, r.rating ? r.covered + " of " + r.points : "\u2013"));
        row.appendChild(el("td", {}, r.rating ? String(r.flags.length) : "\u2013"));
        row.appendChild(el("td", {}, r.followUpRating ?
          RATING_LABELS[r.followUpRating] + (r.followUpSaved ? "" : " (not saved)") : "\u2013"));
      });
      const wrap = el("div", { "class": "progress-table-wrap" });
      wrap.appendChild(table);
      nodes.push(wrap);
      const review = results.filter(function (r) {
        return r.rating !== "got-it" || r.flags.length || (r.followUpRating && r.followUpRating !== "got-it");
      });
      if (review.length) {
        nodes.push(el("h3", {}, "What to review"));
        const list = el("ul", { "class": "mock-review" });
        review.forEach(function (r) {
          const item = list.appendChild(el("li"));
          item.appendChild(el("a", { href: r.question.url }, r.question.question));
          const why = [];
          if (r.rating && r.rating !== "got-it") why.push("graded " + RATING_LABELS[r.rating].toLowerCase());
          if (!r.rating) why.push("not graded");
          if (r.flags.length) why.push("said " + r.flags.map(quoted).join("; "));
          if (r.followUpRating && r.followUpRating !== "got-it") why.push("follow-up graded " + RATING_LABELS[r.followUpRating].toLowerCase());
          item.appendChild(document.createTextNode(": " + why.join(", ") + "."));
        });
        nodes.push(list);
      } else {
        nodes.push(el("p", {}, "Nothing to review from this interview: every answer was graded got it, with no red flag."));
      }
      const kept = results.filter(function (r) { return r.recording; });
      if (kept.length) {
        const note = el("p", { "class": "mock-recordings", role: "status" },
          kept.length + " recording" + (kept.length === 1 ? " is" : "s are") + " kept in this browser. ");
        note.appendChild(button("Delete the recordings of this interview", function () {
          Promise.all(kept.map((r) => recordings.remove(r.recording || ""))).then(function () {
            kept.forEach(function (r) { r.recording = null; });
            keep();
            note.textContent = "The recordings of this interview are deleted.";
          });
        }));
        nodes.push(note);
      }
      const notKept = keep();
      if (notKept) {
        nodes.push(el("p", { "class": "mock-not-kept", role: "status" }, "This interview could not be kept in the " +
                      "list of your earlier interviews: " + notKept + "."));
      }
      nodes.push(button("Start another mock interview", settingsForm, true));
      show(nodes, nodes[0]);
    }

    ask(0);
  }

  settingsForm();
}

const tool = document.querySelector('[data-progress-tool="mock"]');
if (tool instanceof HTMLElement && !tool.dataset.mockReady) setUp(tool);
