// The reader's progress on every page (kept by storage.js): marks the navigation's questions as
// done, due or in review, and imports the self-test (practice.js) on question pages and the
// progress tools (study.js) on the pages that hold one, only there. A first visit, with nothing
// stored, imports neither storage.js nor the self-test until the reader reaches for it. The
// question index marks its own rows (questions.js), the mock interview is its page's own module.
import { today } from "./days.js";
import { runModule } from "./dom.js";
import { isDue, withProgress } from "./progress-format.js";

/** @param {typeof import("./storage.js")} P */
function markNav(P) {
  const value = P.load(), on = today();
  // A reader with no progress has nothing to mark: skip reading every link of the navigation.
  if (!Object.keys(value.questions).length && !document.querySelector(".progress-mark")) return;
  document.querySelectorAll(".md-nav__link[href]").forEach((link) => {
    const id = P.idOf(link.getAttribute("href") || "");
    const old = link.querySelector(".progress-mark");
    if (old) old.remove();
    const e = id && value.questions[id];
    if (!e) return;
    const mark = document.createElement("span");
    const due = isDue(e, on);
    mark.className = "progress-mark progress-" + (due ? "due" : e.state);
    mark.textContent = e.state === "done" ? "done" : due ? "due" : "review";
    link.appendChild(mark);
  });
}

const tools = document.querySelector("[data-progress-tool]:not([data-progress-tool=mock])");
withProgress(!!tools, markNav);
if (tools) runModule(new URL("./study.js", import.meta.url)).catch(() => { /* the tools' fallback text stays */ });
// A drill's page: its progress line, timer and rating (drill-practice.js), only there.
if (document.querySelector(".drill-practice")) {
  runModule(new URL("./drill-practice.js", import.meta.url)).catch(() => { /* the slots stay hidden */ });
}

// The self-test, run where a question is, as the page's scripts are (its panel opens at the click
// that asks for it); it imports storage.js itself only for a reader with progress or a rating, and
// the scheduler (ts-fsrs) when the reader reaches for it (a pointer, the focus or a key in its slot).
const slot = document.querySelector(".practice-slot");
if (slot) {
  /** @type {Promise<typeof import("./practice.js")> | null} */
  let practice = null;
  let loaded = false;
  const url = new URL("./practice.js", import.meta.url);
  const load = () => {
    practice = practice || runModule(url).then(() => import("./practice.js")).then((module) => {
      loaded = true;
      return module;
    });
    return practice;
  };
  const rating = () => {
    load().then((module) => module.loadScheduler(), () => {
      // The page reads as it does without JavaScript: the answers kept undrawn while arriving
      // at #practice (main.html) are drawn.
      delete document.documentElement.dataset.practiceArriving;
    });
  };
  ["pointerdown", "focusin", "keydown"].forEach((type) => slot.addEventListener(type, rating, { once: true }));
  // A click on the start button before the self-test has loaded starts it once it has; the
  // button goes at once, as it does once the self-test is here.
  const start = slot.querySelector(".practice-start");
  if (start instanceof HTMLElement) {
    start.addEventListener("click", () => {
      if (!loaded) start.hidden = true;
      load().then((module) => { if (!module.started()) module.begin(); }, () => { start.hidden = false; });
    }, { once: true });
  }
  if (window.location.hash === "#practice") rating();
  else load().catch(() => { /* said above */ });
}
