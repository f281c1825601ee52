// The reader's progress on every page (kept by storage.js): marks the navigation's questions as
// done, due or in review, and imports the self-test (practice.js) on question pages and the
// progress tools (study.js) on the pages that hold one, only there. The question index marks its
// own rows (questions.js), the mock interview is its page's own module (mock.js).
import { today } from "./days.js";
import { isDue } from "./progress-format.js";
import * as P from "./storage.js";

function markNav() {
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

const practice = document.querySelector(".practice-slot");
const tools = document.querySelector("[data-progress-tool]:not([data-progress-tool=mock])");
P.ready(!!tools).then(() => {
  markNav();
  P.onChange(markNav);
  if (practice) {
    // The scheduler only where a question is rated: when the reader reaches for the self-test.
    const scheduler = () => { P.loadScheduler().catch(() => { /* reported on rating */ }); };
    ["pointerdown", "focusin", "keydown"].forEach((type) => {
      practice.addEventListener(type, scheduler, { once: true });
    });
    if (window.location.hash === "#practice") scheduler();
    import("./practice.js").catch(() => { /* the page reads as it does without JavaScript */ });
  }
  if (tools) import("./study.js").catch(() => { /* the tools' fallback text stays */ });
});
