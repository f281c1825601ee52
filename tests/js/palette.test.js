// Unit tests of the light/dark switch's choices (docs/assets/javascripts/palette.js): which option
// a page shows, from the reader's stored choice or the system's preference.
// Run by scripts/dev.sh test as `node --test tests/js/`.
// palette.js is a classic script (it runs inline in the header, before the page is parsed), which
// gives node its functions through module.exports: required, not imported.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

/** @type {{choose: Function, next: Function}} */
const palette = createRequire(import.meta.url)("../../docs/assets/javascripts/palette.js");

const LIGHT = { media: "(prefers-color-scheme: light)", scheme: "default", primary: "indigo", accent: "indigo" };
const DARK = { media: "(prefers-color-scheme: dark)", scheme: "slate", primary: "indigo", accent: "indigo" };
const prefers = (/** @type {string} */ scheme) => (/** @type {string} */ media) =>
  media === "(prefers-color-scheme: " + scheme + ")";

test("with nothing stored, the option whose media query matches is shown", () => {
  assert.equal(palette.choose([LIGHT, DARK], null, prefers("light")), 0);
  assert.equal(palette.choose([LIGHT, DARK], null, prefers("dark")), 1);
  assert.equal(palette.choose([LIGHT, DARK], undefined, () => false), 0, "no match: the first");
});

test("a stored choice outranks the system's preference, matched by its colours", () => {
  assert.equal(palette.choose([LIGHT, DARK], { index: 1, color: DARK }, prefers("light")), 1);
  // Options reordered since the choice was stored: the colours decide, not the old index.
  assert.equal(palette.choose([DARK, LIGHT], { index: 1, color: DARK }, prefers("light")), 0);
  // Colours no longer offered (the site changed its palette): the stored index, if it exists.
  const gone = { media: "", scheme: "slate", primary: "teal", accent: "teal" };
  assert.equal(palette.choose([LIGHT, DARK], { index: 1, color: gone }, prefers("light")), 1);
  assert.equal(palette.choose([LIGHT, DARK], { index: 7, color: gone }, prefers("dark")), 1);
  assert.equal(palette.choose([LIGHT, DARK], /** @type {any} */ ({ index: 0 }), prefers("dark")), 1,
    "a stored value without colours is not a choice");
});

test("each switch leads to the next option, the last back to the first", () => {
  assert.deepEqual([0, 1, 2].map((i) => palette.next(i, 3)), [1, 2, 0]);
  assert.equal(palette.next(0, 1), 0);
});
