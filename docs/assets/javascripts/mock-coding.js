// The mock interview's coding round (mock.js starts it): a drill drawn for the reader, its task
// and starter with a timer of 30 to 45 minutes, then, when the reader says they are done, the
// reference solution, the mistakes the judge catches and a rubric to grade themselves by, and a
// rating saved to the drill as its page saves one. The drill's texts are read from its own page
// (same site, fetched when drawn), so they are the page's, never a copy.
import { button, clock, el, sectionNodes } from "./dom.js";
import { RATINGS, RATING_LABELS } from "./progress-format.js";

/**
 * @typedef {import("./question-list.js").ListedQuestion} ListedQuestion
 * @typedef {typeof import("./storage.js")} Storage
 * @typedef {{task: string[], starter: string, reference: string, mistakes: string[]}} DrillTexts
 */

/** What an interviewer looks for in a coding round; the reader ticks what their solution did. */
export const RUBRIC = [
  "I restated the task and its shapes before writing code",
  "My solution passes the judge's tests (download the drill from its page and run it)",
  "I handled the edge cases the task names",
  "I said what it costs in time and memory",
  "I tested as I went, on a small input I could check by hand",
];

/** The round's length: the drill's minutes, kept within 30 to 45. @param {number} minutes @returns {number} */
export function roundMinutes(minutes) {
  return Math.min(45, Math.max(30, Math.round(minutes) || 30));
}

/** The drill to draw: what is due first, then what is new (storage's nextQuestion), else any.
 * @param {ListedQuestion[]} drills @param {Storage} P @param {() => number} [random]
 * @returns {ListedQuestion | null} */
export function pickDrill(drills, P, random) {
  if (!drills.length) return null;
  const pick = P.nextQuestion(drills);
  if (pick) return pick.question;
  return drills[Math.floor((random || Math.random)() * drills.length) % drills.length];
}

/** The task, starter, reference and mistakes of a drill page's HTML. @param {string} html @returns {DrillTexts} */
export function drillTexts(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const task = sectionNodes(doc, "task");
  const paragraphs = task.filter((node) => node.tagName === "P" && !node.closest(".needs-js"))
    .map((node) => (node.textContent || "").replace(/\s+/g, " ").trim()).filter(Boolean);
  const code = (/** @type {Element | null} */ node) => ((node && node.textContent) || "").replace(/\s+$/, "");
  const starter = task.map((node) => node.querySelector("pre")).find((pre) => pre) || null;
  return {
    task: paragraphs,
    starter: code(starter),
    reference: code(doc.querySelector("details.drill-solution pre")),
    mistakes: Array.from(doc.querySelectorAll("details.drill-mistake > summary"))
      .map((summary) => (summary.textContent || "").trim()),
  };
}

/**
 * Run a coding round in `stage`.
 * @param {HTMLElement} stage where the mock interview draws
 * @param {ListedQuestion} drill the drawn drill
 * @param {Storage} P the reader's progress
 * @param {() => void} back back to the mock interview's settings
 */
export function codingRound(stage, drill, P, back) {
  const minutes = roundMinutes(drill.minutes);
  /** @param {Node[]} nodes @param {HTMLElement} [focus] */
  const show = (nodes, focus) => {
    stage.innerHTML = "";
    nodes.forEach((node) => stage.appendChild(node));
    if (focus) focus.focus();
  };
  const loading = el("p", { "class": "mock-message", role: "status", tabindex: "-1" }, "Drawing a drill...");
  show([loading], loading);
  fetch(drill.url).then((response) => {
    if (!response.ok) throw new Error("HTTP " + response.status);
    return response.text();
  }).then(drillTexts).then((texts) => {
    const title = el("h2", { "class": "mock-question", tabindex: "-1" }, "Coding round: " + drill.question);
    /** @type {HTMLElement[]} */
    const nodes = [title];
    texts.task.forEach((text) => nodes.push(el("p", { "class": "mock-task" }, text)));
    const starter = el("pre", { "class": "mock-starter" });
    starter.appendChild(el("code", {}, texts.starter));
    nodes.push(starter);
    const face = el("span", { "class": "practice-clock mock-clock", role: "timer", "aria-live": "off" }, "0:00");
    const said = el("p", { "class": "mock-said", "aria-live": "polite" },
                    "You have " + minutes + " minutes. Write it in your editor, saying what you do.");
    const began = Date.now();
    const ticking = window.setInterval(() => {
      const seconds = Math.floor((Date.now() - began) / 1000);
      face.textContent = clock(seconds);
      if (seconds === minutes * 60) said.textContent = minutes + " minutes: time is up. Show the solution.";
    }, 250);
    const timer = el("div", { "class": "mock-timer" });
    timer.appendChild(face);
    const page = el("p", {});
    page.appendChild(el("a", { href: drill.url }, "The drill's page, with its download and judge"));
    nodes.push(timer, said, button("I am done: show the solution", () => {
      window.clearInterval(ticking);
      reveal(Math.floor((Date.now() - began) / 1000));
    }, true), page);
    show(nodes, title);

    /** @param {number} seconds */
    function reveal(seconds) {
      const heading = el("h2", { "class": "mock-question", tabindex: "-1" }, "Coding round: " + drill.question);
      /** @type {HTMLElement[]} */
      const parts = [heading, el("p", { "class": "mock-spoke" }, "You took " + clock(seconds) + " of " + minutes + " minutes.")];
      parts.push(el("h3", {}, "The reference solution"));
      const pre = el("pre", { "class": "mock-reference" });
      pre.appendChild(el("code", {}, texts.reference));
      parts.push(pre);
      if (texts.mistakes.length) {
        parts.push(el("h3", {}, "Mistakes the judge catches"));
        const list = el("ul", { "class": "mock-mistakes" });
        texts.mistakes.forEach((text) => list.appendChild(el("li", {}, text)));
        parts.push(list);
      }
      const rubric = el("fieldset", { "class": "mock-checklist mock-rubric" });
      rubric.appendChild(el("legend", {}, "Grade yourself: tick what you did"));
      RUBRIC.forEach((text, number) => {
        const label = rubric.appendChild(el("label"));
        label.appendChild(el("input", { type: "checkbox", name: "rubric-" + number }));
        label.appendChild(document.createTextNode(" " + text));
      });
      parts.push(rubric);
      const result = el("p", { "class": "mock-saved", role: "status" });
      const group = el("div", { "class": "practice-rate mock-rate", role: "group", "aria-label": "How did the coding round go?" });
      group.appendChild(el("p", {}, "How did the coding round go?"));
      RATINGS.forEach((name) => {
        group.appendChild(button(RATING_LABELS[name], () => {
          P.rateSoon(drill.id, name).then((e) => {
            result.textContent = e ? "Saved to the drill: " + RATING_LABELS[name].toLowerCase() + "."
              : "Not saved. " + (P.problemText() || "");
          });
        }));
      });
      parts.push(group, result, button("Back to the mock interview", back));
      show(parts, heading);
    }
  }).catch((error) => {
    const failed = el("p", { "class": "mock-message", role: "alert", tabindex: "-1" },
                      "The drill could not be loaded (" + String(error && error.message) + "). ");
    failed.appendChild(button("Back to the mock interview", back));
    show([failed], failed);
  });
}
