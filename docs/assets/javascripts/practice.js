// Self-test on a question page: hide the answers, time the spoken answer against the page's
// targets, reveal the short answer as a checklist beside the basics and the solid answer, rate it, and practise the follow-ups one at a
// time. Imported by progress.js only on question pages, when the reader reaches for it or has
// progress; everything is a real button, so it works
// from the keyboard, and with JavaScript off the page reads as it always does.
import { clock, el, sectionNodes, siteRoot, textsOf } from "./dom.js";
import { dayOf, today } from "./days.js";
import { isDue, RATINGS, RATING_LABELS } from "./progress-format.js";
import { withProgress } from "./progress-format.js";

/** @typedef {typeof import("./storage.js")} Storage */
/** storage.js: imported when the reader has progress or rates (a first visit does without it).
 * @returns {Promise<Storage>} */
const storage = () => import("./storage.js");

/**
 * @typedef {{id: string, path: string, question: string, topic: string, level: string,
 *            importance: string, frequency: number}} OrderedQuestion assets/learning-order.json's
 * @typedef {import("./progress-format.js").Entry} Entry
 * @typedef {import("./progress-format.js").RatingName} RatingName
 */

// Everything that answers the question is hidden while practising, the follow-ups too: their
// answers are answers, and their questions are put one at a time in the panel after the rating.
const HIDDEN = ["short-answer", "basics", "solid-answer", "code", "go-deeper", "explainer",
                "follow-ups", "red-flags", "sources", "related-questions"];

// `hidden` alone is not enough: Material's CSS gives tabs, admonitions and <details> a display
// of their own, which beats the attribute's. The data attribute is what site.css hides with
// `display: none !important`, and `inert` keeps anything inside out of the Tab order and of
// find-in-page, whatever a stylesheet does.
/** @param {HTMLElement} node */
function conceal(node) {
  node.dataset.practiceHidden = "1";
  node.hidden = true;
  node.inert = true;
}

/** @param {HTMLElement} node */
function unconceal(node) {
  delete node.dataset.practiceHidden;
  node.hidden = false;
  node.inert = false;
}

/** @param {string} anchor @param {boolean} hidden */
function setHidden(anchor, hidden) {
  sectionNodes(document, anchor, true).forEach((node) => {
    if (hidden) conceal(node);
    else if (node.dataset.practiceHidden) unconceal(node);
  });
}

/** @returns {HTMLDetailsElement[]} */
function followUps() {
  return sectionNodes(document, "follow-ups", true).filter(
    /** @returns {node is HTMLDetailsElement} */ (node) => node instanceof HTMLDetailsElement);
}

/** @returns {string[]} */
function shortAnswerItems() {
  /** @type {string[]} */
  const items = [];
  sectionNodes(document, "short-answer", true).forEach((node) => {
    node.querySelectorAll("li").forEach((li) => { items.push((li.textContent || "").trim()); });
  });
  return items;
}

/** The page's basics and solid answer as the mock interview shows them, to compare with what the
 * reader said: made only once the reader asks to see how it went (before, nothing of them is on
 * the page but in the hidden sections). @param {number[]} targets @returns {HTMLElement} */
function modelAnswers(targets) {
  const box = el("section", { "class": "practice-model", "aria-label": "Model answers" });
  [["basics", "Basics (about " + targets[0] + " s)"],
   ["solid-answer", "Solid answer (about " + targets[1] + " s)"]].forEach(([anchor, title]) => {
    const texts = textsOf(sectionNodes(document, anchor), "p");
    if (!texts.length) return;
    box.appendChild(el("h3", {}, title));
    texts.forEach((text) => { box.appendChild(el("p", {}, text)); });
  });
  return box;
}

/** The self-test of the question whose slot this is.
 * @param {HTMLElement} slot @returns {{begin: () => void, started: () => boolean}} */
function practise(slot) {
  const id = slot.dataset.question || "";
  const targets = [Number(slot.dataset.basicsSeconds), Number(slot.dataset.solidSeconds)];
  // -- the status line, shown whether or not the reader practises ------------------------------
  // The status line and the start button are in the page's HTML (render.practice_slot).
  const status = /** @type {HTMLElement} */ (slot.querySelector(".practice-status"));
  const start = /** @type {HTMLButtonElement} */ (slot.querySelector(".practice-start"));

  /** @param {Storage} P */
  function showStatus(P) {
    const e = P.entry(id);
    let text = "Your progress: " + P.label(id);
    if (e) text += " (rated " + RATING_LABELS[e.rating].toLowerCase() + " on " + dayOf(e.rated) + ")";
    const state = e ? (isDue(e, today()) ? "due" : e.state) : "not-started";
    // Unchanged for a reader who has not rated it: leave the page's HTML alone.
    if (status.textContent !== text) status.textContent = text;
    if (status.dataset.state !== state) status.dataset.state = state;
  }
  withProgress(false, showStatus);

  // -- the self-test panel ----------------------------------------------------------------------
  /** @type {HTMLElement | null} */
  let panel = null;
  /** @type {number | null} */
  let timer = null;
  let began = 0;

  function stopTimer() {
    if (timer) window.clearInterval(timer);
    timer = null;
  }

  // A follow-up being practised sits in the panel; it goes back to its place, closed and hidden
  // with the rest until the page is shown, after its rating or when the reader stops.
  /** @type {{details: HTMLDetailsElement, home: Comment} | null} */
  let away = null;

  function putBack() {
    if (!away) return;
    away.details.open = false;
    conceal(away.details);
    away.home.before(away.details);
    away.home.remove();
    away = null;
  }

  function exit() {
    stopTimer();
    putBack();
    HIDDEN.forEach((anchor) => { setHidden(anchor, false); });
    if (panel) panel.remove();
    panel = null;
    delete document.documentElement.dataset.practising;
    delete document.documentElement.dataset.practiceArriving;
    start.hidden = false;
    start.focus();
    // Leave #practice (without a new history entry), so that a link to it starts it again.
    if (window.location.hash === "#practice") {
      window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    }
  }

  function timerBlock() {
    const box = el("div", { "class": "practice-timer" });
    const face = el("span", { "class": "practice-clock", role: "timer", "aria-live": "off" }, "0:00");
    const said = el("p", { "class": "practice-said", "aria-live": "polite" });
    const toggle = el("button", { type: "button", "class": "md-button" }, "Start the timer");
    box.appendChild(el("p", {}, "Say your answer aloud: about " + targets[0] + " s for the basics, about " +
      targets[1] + " s for the solid answer."));
    box.appendChild(face);
    box.appendChild(toggle);
    box.appendChild(said);
    toggle.addEventListener("click", function () {
      if (timer) {
        stopTimer();
        toggle.textContent = "Start the timer again";
        return;
      }
      began = Date.now();
      face.textContent = "0:00";
      said.textContent = "";
      toggle.textContent = "Stop the timer";
      timer = window.setInterval(function () {
        const seconds = Math.floor((Date.now() - began) / 1000);
        face.textContent = clock(seconds);
        if (seconds === targets[0]) said.textContent = "About " + targets[0] + " s: the basics should be said.";
        if (seconds === targets[1]) said.textContent = "About " + targets[1] + " s: the solid answer should be said.";
      }, 250);
    });
    return box;
  }

  /** @param {string} label @param {(rating: RatingName) => void} onRate @returns {HTMLElement} */
  function ratingGroup(label, onRate) {
    const group = el("div", { "class": "practice-rate", role: "group", "aria-label": label });
    group.appendChild(el("p", {}, label));
    RATINGS.forEach((rating) => {
      const button = el("button", { type: "button", "class": "md-button", "data-rating": rating },
                      RATING_LABELS[rating]);
      button.addEventListener("click", function () { onRate(rating); });
      group.appendChild(button);
    });
    return group;
  }

  /** @param {Entry} e @returns {string} */
  function describe(e) {
    if (e.state === "done" || e.due === null) return "Saved: done. It will not come back unless you rate it again.";
    return "Saved: review. It comes back on " + dayOf(e.due) + ".";
  }

  // While no interview date is kept, a rating that schedules a review asks for it: reviews are
  // kept before it, and
  // those already made are brought back by the day before it (storage.js's setInterview).
  /** @param {Storage} P @param {HTMLElement} result the rating's outcome, said again once fitted
   * @returns {HTMLElement | null} */
  function askInterview(P, result) {
    if (P.load().interview) return null;
    const box = el("div", { "class": "practice-interview", role: "group", "aria-label": "Your interview date" });
    box.appendChild(el("p", {}, "When is your interview? Give its date and no review comes back after " +
      "the day before it, those you have already rated included. It is kept with your progress."));
    const label = el("label", {}, "Interview date ");
    const input = el("input", { type: "date", name: "practice-interview", min: today() });
    label.appendChild(input);
    box.appendChild(label);
    const keep = el("button", { type: "button", "class": "md-button" }, "Keep this date");
    box.appendChild(keep);
    const said = el("p", { role: "status" });
    box.appendChild(said);
    keep.addEventListener("click", function () {
      if (!input.value || input.value < today()) {
        said.textContent = "Give a date from today on.";
        return;
      }
      if (!P.setInterview(input.value)) {
        said.textContent = "Not kept. " + (P.problemText() || "");
        return;
      }
      const e = P.entry(id);
      if (e) result.firstChild?.replaceWith(document.createTextNode(describe(e)));
      label.remove();
      keep.remove();
      said.textContent = "Interview date kept: " + input.value + ". Your reviews come back before it; " +
        "the study plan can change it.";
    });
    return box;
  }

  /** @param {HTMLElement} where */
  function nextLink(where) {
    // The next question in learning order that is due or not started, from the build's short
    // learning-order list (ids, paths, titles), not questions.json with every answer.
    fetch(new URL("assets/learning-order.json", siteRoot()).href).then((response) => {
      return response.ok ? response.json() : null;
    }).then((/** @type {{questions: OrderedQuestion[]} | null} */ index) => {
      if (!index) return;
      // What is due first, then what is new (P.nextQuestion); a due one opens its self-test. On a
      // plan (one made on the study plan, its interview not past), the plan's questions only, in
      // its order (plan.js's nextInPlan).
      return storage().then((P) => {
        const settings = P.planSettings(), interview = P.load().interview;
        if (!settings || !interview || interview < today()) {
          return { pick: P.nextQuestion(index.questions, id), onPlan: false };
        }
        return import("./plan.js").then((plan) => ({
          pick: plan.nextInPlan(index.questions, settings, P.load(), today(), id), onPlan: true }));
      });
    }).then((found) => {
      if (found === undefined) return;
      const pick = found.pick, next = pick && pick.question;
      if (!next) {
        where.appendChild(el("span", {}, found.onPlan ? " Nothing else is due or new on your plan: well done."
          : " Nothing else is due or new: well done."));
        return;
      }
      where.appendChild(document.createTextNode(found.onPlan ? " Next on your plan: " : " Next: "));
      where.appendChild(el("a", { href: new URL(next.path, siteRoot()).href + (pick.due ? "#practice" : ""),
                                  "class": "practice-next" }, next.question));
    }).catch(function () { /* the link is a convenience; the rating is saved */ });
  }

  /** @param {HTMLDetailsElement[]} list @param {number} index */
  function practiseFollowUps(list, index) {
    const box = panel && panel.querySelector(".practice-followups");
    if (!box) return;
    box.innerHTML = "";
    if (index >= list.length) {
      box.appendChild(el("p", { role: "status" }, "All " + list.length + " follow-ups practised."));
      const whole = el("button", { type: "button", "class": "md-button" }, "Show the whole page");
      whole.addEventListener("click", exit);
      box.appendChild(whole);
      whole.focus();
      return;
    }
    const details = list[index];
    const question = (details.querySelector("summary")?.textContent || "").trim();
    const heading = el("p", { "class": "practice-followup", tabindex: "-1" },
                     "Follow-up " + (index + 1) + " of " + list.length + ": " + question);
    box.appendChild(heading);
    const reveal = el("button", { type: "button", "class": "md-button" }, "Reveal its answer");
    box.appendChild(reveal);
    reveal.addEventListener("click", function () {
      // The follow-up itself moves into the panel while it is practised (no copy: its ids stay
      // unique), and goes back to its place after the rating.
      const home = document.createComment("follow-up " + (index + 1));
      details.before(home);
      box.insertBefore(details, reveal);
      unconceal(details);
      details.open = true;
      away = { details: details, home: home };
      reveal.remove();
      const rate = ratingGroup("How did you answer it?", function (rating) {
        storage().then((P) => P.rateFollowUpSoon(id, question, rating).then((e) => {
          if (!e) {
            // Not saved: say so here, and let the reader try again.
            box.appendChild(el("p", { "class": "practice-result", role: "alert" }, P.problemText() || ""));
            return;
          }
          putBack();
          practiseFollowUps(list, index + 1);
        }));
      });
      box.appendChild(rate);
      rate.querySelector("button")?.focus();
    });
    heading.focus();
  }

  function begin() {
    // One panel, however the self-test is started (the button, a link to #practice, twice).
    if (panel) {
      /** @type {HTMLElement | null} */ (panel.querySelector(".practice-intro"))?.focus();
      return;
    }
    start.hidden = true;
    // The table of contents is hidden too: the explainer's headings hint at its answer.
    document.documentElement.dataset.practising = "1";
    HIDDEN.forEach(function (anchor) { setHidden(anchor, true); });
    followUps().forEach(function (details) { details.open = false; });
    // Hidden now: the mark that kept the answers undrawn while arriving at #practice can go.
    delete document.documentElement.dataset.practiceArriving;
    const section = el("section", { "class": "practice-panel", "aria-label": "Self-test" });
    panel = section;
    const intro = el("p", { "class": "practice-intro", tabindex: "-1" },
                   "The answers are hidden. Answer the question above aloud, then reveal the short answer.");
    section.appendChild(intro);
    section.appendChild(timerBlock());
    const reveal = el("button", { type: "button", "class": "md-button md-button--primary practice-reveal" },
                    "Reveal the short answer");
    section.appendChild(reveal);
    const checklist = el("fieldset", { "class": "practice-checklist", hidden: "" });
    checklist.appendChild(el("legend", {}, "Tick what your answer covered"));
    shortAnswerItems().forEach(function (text, number) {
      const label = el("label", {});
      const box = el("input", { type: "checkbox", name: "covered-" + number });
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + text));
      checklist.appendChild(label);
    });
    section.appendChild(checklist);
    const result = el("p", { "class": "practice-result", role: "status" });
    const rate = ratingGroup("How did it go?", function (rating) {
      stopTimer();
      storage().then((P) => P.rateSoon(id, rating).then((e) => {
        if (!e) {
          // The write failed: say so here, where the reader is looking, and keep the buttons.
          result.textContent = "";
          result.appendChild(el("span", { role: "alert" }, "Not saved. " + P.problemText()));
          return;
        }
        result.textContent = describe(e);
        nextLink(result);
        const ask = e.due === null ? null : askInterview(P, result);
        if (ask) result.after(ask);
        rate.hidden = true;
        after.hidden = false;
        after.querySelector("button")?.focus();
      }));
    });
    rate.hidden = true;
    section.appendChild(rate);
    section.appendChild(result);
    const after = el("div", { "class": "practice-after", hidden: "" });
    const list = followUps();
    if (list.length) {
      const fu = el("button", { type: "button", "class": "md-button" }, "Practise the " + list.length + " follow-ups");
      fu.addEventListener("click", function () {
        fu.remove();
        // Each follow-up is a question of its own: the model answers, which could answer it,
        // are put away while they are practised (the checklist of what was said stays).
        const model = panel && panel.querySelector(".practice-model");
        if (model instanceof HTMLElement) model.hidden = true;
        practiseFollowUps(list, 0);
      });
      after.appendChild(fu);
    }
    after.appendChild(el("div", { "class": "practice-followups" }));
    section.appendChild(after);
    const stop = el("button", { type: "button", "class": "md-button practice-exit" }, "Stop practising and show the page");
    stop.addEventListener("click", exit);
    section.appendChild(stop);
    reveal.addEventListener("click", function () {
      reveal.remove();
      checklist.hidden = false;
      checklist.after(modelAnswers(targets));
      rate.hidden = false;
      const first = checklist.querySelector("input");
      (first || rate.querySelector("button"))?.focus();
    });
    slot.appendChild(section);
    intro.focus();
  }

  start.addEventListener("click", begin);
  // #practice starts it, on load and whenever the hash becomes #practice later (a link on the
  // page, the address bar, back and forward).
  if (window.location.hash === "#practice") begin();
  window.addEventListener("hashchange", function () {
    if (window.location.hash === "#practice") begin();
  });
  return { begin: begin, started: () => panel !== null };
}

/** @type {{begin: () => void, started: () => boolean} | null} */
let handle = null;
const found = document.querySelector(".practice-slot");
if (found instanceof HTMLElement && !found.dataset.ready) {
  found.dataset.ready = "1";
  handle = practise(found);
}

/** Start the self-test (progress.js: the reader clicked its button before this module loaded). */
export function begin() { if (handle) handle.begin(); }

/** Whether the self-test's panel is open. @returns {boolean} */
export function started() { return !!handle && handle.started(); }

/** Import the scheduler now: a rating is near. */
export function loadScheduler() { storage().then((P) => P.loadScheduler()).catch(() => { /* said on rating */ }); }
