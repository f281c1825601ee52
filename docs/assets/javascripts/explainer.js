// The explainer's sections after the first are folded in the HTML (<details class="explainer-fold">
// under each heading, see scripts/question_pages/render.py), so this only adds what a script can:
// a link to a folded heading, or to anything inside a folded section, opens it; printing opens
// every section; and the button above them opens them all. Without JavaScript the folds still
// open by click, and the button is not shown.

/** @returns {HTMLDetailsElement[]} */
function folds() {
  return Array.from(document.querySelectorAll("details.explainer-fold")).filter(
    /** @returns {d is HTMLDetailsElement} */ (d) => d instanceof HTMLDetailsElement);
}

// The fold a target belongs to: the one it is in, or the one right under its heading.
/** @param {Element} target @returns {HTMLDetailsElement | null} */
function foldOf(target) {
  const inside = target.closest("details.explainer-fold");
  if (inside instanceof HTMLDetailsElement) return inside;
  const next = target.nextElementSibling;
  return next instanceof HTMLDetailsElement && next.matches("details.explainer-fold") ? next : null;
}

// Every closed <details> a target is inside: an explainer fold, a follow-up, the full output of a
// folded record (a tie's mark can point at a line in any of them).
/** @param {Element} target @returns {HTMLDetailsElement[]} */
function closedAround(target) {
  const closed = [];
  for (let node = target.parentElement; node; node = node.parentElement) {
    if (node instanceof HTMLDetailsElement && !node.open) closed.push(node);
  }
  return closed;
}

/** The element a URL's hash names, or null. A hash is whatever the address bar holds: a bad
 * escape ("#%", "#%E0%A4%A") is not decoded (decodeURIComponent would throw) but read as written.
 * @param {string} hash @returns {HTMLElement | null} */
function targetOf(hash) {
  const raw = hash.slice(1);
  if (!raw) return null;
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch (error) {
    /* a malformed escape: the id as written */
  }
  return document.getElementById(id) || (id === raw ? null : document.getElementById(raw));
}

function reveal() {
  const target = targetOf(window.location.hash);
  if (!target) return;
  const fold = foldOf(target);
  const closed = closedAround(target);
  if (fold && !fold.open && !closed.includes(fold)) closed.push(fold);
  if (!closed.length) return;
  closed.forEach(function (details) { details.open = true; });
  target.scrollIntoView();
}

function setUp() {
  const all = folds();
  if (!all.length) return;
  // The button is in the HTML (render.explainer_block): nothing on the page changes at load.
  const button = document.querySelector(".explainer-all");
  if (button) {
    button.addEventListener("click", function () {
      all.forEach(function (fold) { fold.open = true; });
      button.remove();
    });
  }
  window.addEventListener("hashchange", reveal);
  window.addEventListener("beforeprint", function () { all.forEach(function (fold) { fold.open = true; }); });
  reveal();
}

setUp();  // a module runs once the page is parsed
