// A box that scrolls sideways must be reachable by keyboard (WCAG 2.1.1; axe-core:
// scrollable-region-focusable): code blocks, wide tables, notebook cells. Material makes a code
// block focusable only on devices that can hover, removes the tabindex on phones and tablets, and
// leaves tables alone; this makes each such box focusable on every device. Ours, no requests.
(function () {
  "use strict";
  var SELECTOR = ".md-typeset pre > code, .md-typeset__scrollwrap, .jupyter-wrapper .highlight-ipynb";

  function focusable(el) {
    if (el.scrollWidth > el.clientWidth && el.getAttribute("tabindex") !== "0") {
      el.setAttribute("tabindex", "0");
    }
  }

  var resized = new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { focusable(entry.target); });
  });
  var changed = new MutationObserver(function (records) {
    records.forEach(function (record) { focusable(record.target); });
  });

  function setUp(root) {
    root.querySelectorAll(SELECTOR).forEach(function (el) {
      focusable(el);
      resized.observe(el);
      changed.observe(el, { attributes: true, attributeFilter: ["tabindex"] });
    });
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(function () { setUp(document); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  }
})();
