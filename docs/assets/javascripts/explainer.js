// The explainer's sections after the first are folded in the HTML (<details class="explainer-fold">
// under each heading, see scripts/question_pages/render.py), so this only adds what a script can:
// a link to a folded heading, or to anything inside a folded section, opens it; printing opens
// every section; and the button above them opens them all. Without JavaScript the folds still
// open by click, and the button is not shown.
(function () {
  "use strict";

  function folds() {
    return Array.prototype.slice.call(document.querySelectorAll("details.explainer-fold"));
  }

  // The fold a target belongs to: the one it is in, or the one right under its heading.
  function foldOf(target) {
    var inside = target.closest("details.explainer-fold");
    if (inside) return inside;
    var next = target.nextElementSibling;
    return next && next.matches("details.explainer-fold") ? next : null;
  }

  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    var fold = target && foldOf(target);
    if (!fold || fold.open) return;
    fold.open = true;
    target.scrollIntoView();
  }

  function setUp() {
    var all = folds();
    if (!all.length) return;
    // The button is in the HTML (render.explainer_block): nothing on the page changes at load.
    var button = document.querySelector(".explainer-all");
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

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
