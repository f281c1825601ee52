// Syntax colours with no element per token: the build leaves code as plain text and lists its
// coloured runs in `data-tokens` (scripts/question_pages/code_colours.py says why and how); this
// paints them as CSS Custom Highlights, coloured by site.css. Tested by `node --test tests/js`.
import { onPage } from "./dom.js";


/** @type {Readonly<Record<string, string>>} */
export const GROUPS = {
  k: "keyword", s: "string", x: "special", m: "number", c: "comment", b: "constant",
  f: "function", v: "variable", g: "generic", o: "operator", p: "punctuation"
};

/**
 * The runs a `data-tokens` value describes, as offsets into the block's text.
 * @param {string} value
 * @returns {{group: string, start: number, end: number}[]}
 */
export function decode(value) {
  /** @type {{group: string, start: number, end: number}[]} */
  const runs = [];
  let end = 0;
  value.split(" ").forEach(function (entry) {
    if (!entry) return;
    const group = GROUPS[entry.charAt(0)];
    const dot = entry.indexOf(".");
    const gap = dot > 1 ? Number(entry.slice(1, dot)) : NaN;
    const length = dot > 1 ? Number(entry.slice(dot + 1)) : NaN;
    if (!group || !Number.isInteger(gap) || gap < 0 || !Number.isInteger(length) || length < 1) {
      throw new Error("data-tokens: cannot read the entry \"" + entry + "\"");
    }
    const start = end + gap;
    end = start + length;
    runs.push({ group: group, start: start, end: end });
  });
  return runs;
}

/**
 * Each run's [startNode, startOffset, endNode, endOffset] among text nodes of these lengths.
 * @param {number[]} lengths
 * @param {{start: number, end: number}[]} runs in order, not overlapping (as decode gives them)
 * @returns {number[][]}
 */
export function locate(lengths, runs) {
  const total = lengths.reduce(function (sum, n) { return sum + n; }, 0);
  let node = 0;
  let before = 0; // characters in the nodes before `node`
  /** @param {number} position */
  function at(position) {
    if (position > total) {
      throw new Error("data-tokens: a run ends at " + position + ", past the text's " + total + " characters");
    }
    while (node < lengths.length - 1 && position > before + lengths[node]) {
      before += lengths[node];
      node += 1;
    }
    return [node, position - before];
  }
  return runs.map(function (run) { return at(run.start).concat(at(run.end)); });
}

/**
 * Paint every `code[data-tokens]`. StaticRange: a live Range collapses when practice moves a node.
 * @param {Document} doc
 */
export function paint(doc) {
  if (typeof Highlight !== "function" || !CSS.highlights) return;
  /** @type {Record<string, Highlight>} */
  const found = {};
  doc.querySelectorAll("code[data-tokens]").forEach(function (code) {
    /** @type {Text[]} */
    const nodes = [];
    const walker = doc.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) nodes.push(/** @type {Text} */ (walker.currentNode));
    let runs, spots;
    try {
      runs = decode(code.getAttribute("data-tokens") || "");
      spots = locate(nodes.map((n) => n.length), runs);
    } catch (error) {
      console.error(error, code);
      return;
    }
    runs.forEach(function (run, i) {
      const spot = spots[i];
      const range = new StaticRange({
        startContainer: nodes[spot[0]], startOffset: spot[1],
        endContainer: nodes[spot[2]], endOffset: spot[3]
      });
      (found[run.group] = found[run.group] || new Highlight()).add(range);
    });
  });
  Object.keys(GROUPS).forEach(function (letter) { CSS.highlights.delete("code-" + GROUPS[letter]); });
  Object.keys(found).forEach(function (group) {
    CSS.highlights.set("code-" + group, found[group]);
  });
}

// In a task of its own, not in the one where Material's bundle sets up the page: a phone's
// blocking time counts each long task's time beyond 50 ms, so work added to that task counts
// in full, and the colours are not needed before the first paint. (Not in node's tests.)
if (typeof document !== "undefined") onPage(() => { setTimeout(() => paint(document), 0); });
