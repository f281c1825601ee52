// Unit tests of the syntax colours' decoding (docs/assets/javascripts/code-colours.js): the runs a
// `data-tokens` value describes, and where each lands among a block's text nodes.
// Run by scripts/dev.sh test as `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import * as colours from "../../docs/assets/javascripts/code-colours.js";

test("entries give each run's group and offsets, each gap counted from the previous run's end", () => {
  assert.deepEqual(colours.decode("k0.6 f1.4 p0.1 c3.12"), [
    { group: "keyword", start: 0, end: 6 },
    { group: "function", start: 7, end: 11 },
    { group: "punctuation", start: 11, end: 12 },
    { group: "comment", start: 15, end: 27 }
  ]);
  assert.deepEqual(colours.decode(""), []);
});

test("an entry that cannot be read is refused by name", () => {
  for (const bad of ["q0.3", "k0", "k.3", "k0.0", "k-1.2", "k1.x", "k1.2.3"]) {
    assert.throws(() => colours.decode(bad), new RegExp("cannot read the entry \"" + bad.replace(".", "\\.")), bad);
  }
});

test("runs are found across text nodes, a boundary at a node's end staying in that node", () => {
  // "import torch" split as "import" | " torch" (a kept element between them).
  const runs = colours.decode("k0.6 f1.5");
  assert.deepEqual(colours.locate([6, 6], runs), [[0, 0, 0, 6], [1, 1, 1, 6]]);
  // One run over three nodes.
  assert.deepEqual(colours.locate([2, 3, 4], colours.decode("s1.7")), [[0, 1, 2, 3]]);
  // A run that starts where a node ends starts there, and its end steps over an empty node.
  assert.deepEqual(colours.locate([3, 0, 3], colours.decode("k0.3 p0.3")),
    [[0, 0, 0, 3], [0, 3, 2, 3]]);
});

test("a run past the end of the text is an error, not a wrong colour", () => {
  assert.throws(() => colours.locate([5], colours.decode("k3.3")), /ends at 6, past the text's 5 characters/);
  assert.throws(() => colours.locate([], colours.decode("k0.1")), /past the text's 0 characters/);
});
