// A box that scrolls sideways must be reachable by keyboard (WCAG 2.1.1; axe-core:
// scrollable-region-focusable): code blocks, wide tables, notebook cells. Material makes a code
// block focusable only on devices that can hover, removes the tabindex on phones and tablets, and
// leaves tables alone; this makes each such box focusable on every device. Ours, no requests.
import { onPage } from "./dom.js";

const SELECTOR = ".md-typeset pre > code, .md-typeset__scrollwrap, .jupyter-wrapper .highlight-ipynb";

/** @param {Element} el */
function focusable(el) {
  if (el.scrollWidth > el.clientWidth && el.getAttribute("tabindex") !== "0") {
    el.setAttribute("tabindex", "0");
  }
}

const resized = new ResizeObserver(function (entries) {
  entries.forEach(function (entry) { focusable(entry.target); });
});
const changed = new MutationObserver(function (records) {
  records.forEach(function (record) { if (record.target instanceof Element) focusable(record.target); });
});

/** @param {ParentNode} root */
function setUp(root) {
  root.querySelectorAll(SELECTOR).forEach(function (el) {
    focusable(el);
    resized.observe(el);
    changed.observe(el, { attributes: true, attributeFilter: ["tabindex"] });
  });
}

onPage(() => setUp(document));
