// A drill's place in the reader's progress, on its page (render.py's drill slots): the "Your
// progress" line, a timer of the drill's minutes by the starter, and the rating, offered only once
// the reader has opened the solution (a drill is rated after the reveal, as a question's
// self-test is). The rating goes into the same progress and FSRS schedule as the questions', under
// the drill's id ("drills/<id>"), so the navigation marks it and the progress tools count it.
// Imported by progress.js only on drill pages; with JavaScript off the slots stay hidden
// (`needs-js`) and the page reads as it does.
import { clock, el } from "./dom.js";
import { dayOf, today } from "./days.js";
import { isDue, RATINGS, RATING_LABELS, withProgress } from "./progress-format.js";

/** @typedef {typeof import("./storage.js")} Storage */
/** @typedef {import("./progress-format.js").Entry} Entry */
/** @typedef {import("./progress-format.js").RatingName} RatingName */

/** storage.js, imported when the reader has progress or rates. @returns {Promise<Storage>} */
const storage = () => import("./storage.js");

/** What a saved entry means for the reader. @param {Entry} e @returns {string} */
export function describe(e) {
  if (e.state === "done" || e.due === null) return "Saved: done. It will not come back unless you rate it again.";
  return "Saved: review. It comes back on " + dayOf(e.due) + ".";
}

/** The status line's text and state for an entry (or none). @param {Entry | null} e @param {string} label
 * @param {string} on @returns {{text: string, state: string}} */
export function statusOf(e, label, on) {
  let text = "Your progress: " + label;
  if (e) text += " (rated " + RATING_LABELS[e.rating].toLowerCase() + " on " + dayOf(e.rated) + ")";
  return { text: text, state: e ? (isDue(e, on) ? "due" : e.state) : "not-started" };
}

/** The timer by the starter: counts up, and says when the drill's minutes are over.
 * @param {HTMLElement} slot @param {number} minutes */
function timer(slot, minutes) {
  const face = el("span", { "class": "practice-clock", role: "timer", "aria-live": "off" }, "0:00");
  const said = el("p", { "class": "practice-said", "aria-live": "polite" });
  const toggle = el("button", { type: "button", "class": "md-button" }, "Start the " + minutes + "-minute timer");
  /** @type {number | null} */
  let ticking = null;
  let began = 0;
  toggle.addEventListener("click", () => {
    if (ticking !== null) {
      window.clearInterval(ticking);
      ticking = null;
      toggle.textContent = "Start the timer again";
      return;
    }
    began = Date.now();
    face.textContent = "0:00";
    said.textContent = "";
    toggle.textContent = "Stop the timer";
    ticking = window.setInterval(() => {
      const seconds = Math.floor((Date.now() - began) / 1000);
      face.textContent = clock(seconds);
      if (seconds === minutes * 60) said.textContent = minutes + " minutes: an interviewer would ask you to wrap up.";
    }, 250);
  });
  slot.append(face, toggle, said);
}

/** The rating by the solution, shown once the solution has been opened.
 * @param {HTMLElement} slot @param {string} id @param {() => void} onSaved */
function rating(slot, id, onSaved) {
  const solution = document.querySelector("details.drill-solution");
  const group = el("div", { "class": "practice-rate", role: "group", "aria-label": "How did the drill go?" });
  group.appendChild(el("p", {}, "How did the drill go? Rate it once you have compared your solution:"));
  const result = el("p", { "class": "practice-result", role: "status" });
  RATINGS.forEach((name) => {
    const button = el("button", { type: "button", "class": "md-button", "data-rating": name }, RATING_LABELS[name]);
    button.addEventListener("click", () => {
      storage().then((P) => P.rateSoon(id, /** @type {RatingName} */ (name))).then((e) => {
        if (!e) {
          storage().then((P) => {
            result.textContent = "";
            result.appendChild(el("span", { role: "alert" }, "Not saved. " + (P.problemText() || "")));
          });
          return;
        }
        result.textContent = describe(e);
        onSaved();
      });
    });
    group.appendChild(button);
  });
  const before = el("p", { "class": "drill-rate-wait" }, "Open the solution when you are done; you rate the drill after it.");
  group.hidden = true;
  slot.append(before, group, result);
  const show = () => {
    if (!(solution instanceof HTMLDetailsElement) || !solution.open) return;
    before.remove();
    group.hidden = false;
    // Loaded now: a rating is near.
    storage().then((P) => P.loadScheduler()).catch(() => { /* said when the reader rates */ });
  };
  if (solution instanceof HTMLDetailsElement) solution.addEventListener("toggle", show);
  show();
}

const timerSlot = document.querySelector(".drill-timer");
const rateSlot = document.querySelector(".drill-practice");
if (rateSlot instanceof HTMLElement && !rateSlot.dataset.ready) {
  rateSlot.dataset.ready = "1";
  const id = rateSlot.dataset.question || "";
  const status = /** @type {HTMLElement} */ (rateSlot.querySelector(".practice-status"));
  /** @param {Storage} P */
  const showStatus = (P) => {
    const line = statusOf(P.entry(id), P.label(id), today());
    if (status.textContent !== line.text) status.textContent = line.text;
    if (status.dataset.state !== line.state) status.dataset.state = line.state;
  };
  withProgress(false, showStatus);
  rating(rateSlot, id, () => { storage().then(showStatus); });
  if (timerSlot instanceof HTMLElement) timer(timerSlot, Number(timerSlot.dataset.minutes) || 30);
}
