// The light/dark switch in the header, in place of Material's palette component. Material's
// component re-applies the palette when its bundle starts: it writes the body's colour attributes
// (and a transition guard) and reads the header's computed style in between, which makes Chromium
// restyle the whole page three times. On a long question page that was 250 ms of a phone's main
// thread at load, most of what Lighthouse counted as blocking time. This script is written inline
// right after the switch (docs/overrides/partials/javascripts/palette.html), so the palette is
// chosen while only the header exists, and it then does nothing until the reader switches.
//
// It keeps Material's conventions: the options are the `input.md-option` radios of
// partials/palette.html (each with its data-md-color-* attributes and a label that switches to
// the next one), the body carries the chosen option's data-md-color-* attributes, and a choice is
// stored under Material's "__palette" key as {index, color}. Unlike Material it stores only what
// the reader chose: until then the site follows the system's light or dark preference, also when
// it changes. Tested by `node --test tests/js` and tests/browser/test_palette.py.
(function (root, factory) {
  const api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
    return;
  }
  const win = /** @type {Window} */ (/** @type {unknown} */ (root));
  const form = win.document.querySelector("form[data-palette]");
  if (form) api.start(win.document, /** @type {HTMLFormElement} */ (form), win);
})(this, function () {
  "use strict";

  const KEY = "__palette";
  const FIELDS = ["media", "scheme", "primary", "accent"];

  /**
   * @typedef {{media: string, scheme: string, primary: string, accent: string}} Colour
   * @typedef {{index: number, color: Colour}} Stored
   */

  /**
   * The option to show: the reader's stored choice if it is still one of the options (matched by
   * its colours, then by its index), else the first whose media query matches, else the first.
   * @param {Colour[]} options
   * @param {Stored | null | undefined} stored
   * @param {(media: string) => boolean} matches
   * @returns {number}
   */
  function choose(options, stored, matches) {
    if (stored && stored.color) {
      const colour = stored.color;
      for (let i = 0; i < options.length; i++) {
        if (options[i].scheme === colour.scheme && options[i].primary === colour.primary &&
            options[i].accent === colour.accent) return i;
      }
      if (Number.isInteger(stored.index) && stored.index >= 0 && stored.index < options.length) {
        return stored.index;
      }
    }
    for (let j = 0; j < options.length; j++) {
      if (options[j].media && matches(options[j].media)) return j;
    }
    return 0;
  }

  /**
   * The option a switch's label leads to: the next one, as Material's labels do.
   * @param {number} index
   * @param {number} count
   * @returns {number}
   */
  function next(index, count) {
    return (index + 1) % count;
  }

  /**
   * @param {Element} input
   * @returns {Colour}
   */
  function colourOf(input) {
    return /** @type {Colour} */ (Object.fromEntries(FIELDS.map((f) => [f, input.getAttribute("data-md-color-" + f) || ""])));
  }

  /**
   * Material's storage helpers (partials/javascripts/base.html), which never throw on read.
   * @param {Window} win
   * @returns {Stored | null}
   */
  function stored(win) {
    try {
      return typeof win.__md_get === "function" ? /** @type {Stored | null} */ (win.__md_get(KEY)) : null;
    } catch (e) {
      return null;  // storage blocked or not JSON: the system's preference decides
    }
  }

  /**
   * Show option `index`: the body's colour attributes (only those that differ, so an unchanged
   * palette restyles nothing), the label that switches away from it, the theme-color and
   * color-scheme meta tags Material keeps for the browser's own chrome.
   * @param {Document} doc
   * @param {HTMLInputElement[]} inputs
   * @param {number} index
   * @param {Window} win
   */
  function show(doc, inputs, index, win) {
    const colour = colourOf(inputs[index]);
    FIELDS.forEach(function (field) {
      const name = "data-md-color-" + field;
      const value = colour[/** @type {keyof Colour} */ (field)];
      if (doc.body.getAttribute(name) !== value) doc.body.setAttribute(name, value);
    });
    inputs.forEach(function (input, i) {
      input.checked = i === index;
      const label = input.nextElementSibling;
      if (label instanceof HTMLLabelElement) label.hidden = i !== index;
    });
    const header = doc.querySelector("header");
    if (!header) return;
    const style = win.getComputedStyle(header);
    meta(doc, "color-scheme", style.colorScheme);
    const channels = String(style.backgroundColor).match(/\d+/g) || [];
    meta(doc, "theme-color", "#" + channels.slice(0, 3).map(function (c) {
      return (+c).toString(16).padStart(2, "0");
    }).join(""));
  }

  /**
   * @param {Document} doc
   * @param {string} name
   * @param {string} content
   */
  function meta(doc, name, content) {
    let tag = /** @type {HTMLMetaElement | null} */ (doc.head.querySelector('meta[name="' + name + '"]'));
    if (!tag) {
      tag = doc.createElement("meta");
      tag.name = name;
      doc.head.appendChild(tag);
    }
    if (tag.content !== content) tag.content = content;
  }

  /**
   * Choose and show the palette now, then follow the reader's switches (a click or Space on a
   * label's radio, the arrow keys between them, Enter as in Material) and, until the reader has
   * chosen, the system's preference.
   * @param {Document} doc
   * @param {HTMLFormElement} form
   * @param {Window} win
   */
  function start(doc, form, win) {
    const inputs = /** @type {HTMLInputElement[]} */ (Array.from(form.querySelectorAll("input.md-option")));
    if (!inputs.length) return;
    const options = inputs.map(colourOf);
    /** @param {string} media */
    function matches(media) { return win.matchMedia(media).matches; }
    let current = choose(options, stored(win), matches);
    show(doc, inputs, current, win);

    /** @param {number} index */
    function pick(index) {
      current = index;
      // Material's guard against every colour transition running at once while switching.
      doc.body.setAttribute("data-md-color-switching", "");
      show(doc, inputs, index, win);
      if (typeof win.__md_set === "function") win.__md_set(KEY, { index: index, color: options[index] });
      win.requestAnimationFrame(function () { doc.body.removeAttribute("data-md-color-switching"); });
    }

    form.addEventListener("change", function (event) {
      const index = inputs.indexOf(/** @type {HTMLInputElement} */ (event.target));
      if (index >= 0 && index !== current) pick(index);
    });
    form.addEventListener("keydown", function (event) {
      if (/** @type {KeyboardEvent} */ (event).key !== "Enter") return;
      event.preventDefault();
      const index = next(current, inputs.length);
      pick(index);
      inputs[index].focus();
    });
    options.forEach(function (option) {
      if (!option.media || typeof win.matchMedia !== "function") return;
      const query = win.matchMedia(option.media);
      if (typeof query.addEventListener !== "function") return;
      query.addEventListener("change", function () {
        if (stored(win)) return;  // the reader's own choice stands
        const index = choose(options, null, matches);
        if (index !== current) {
          current = index;
          show(doc, inputs, index, win);
        }
      });
    });
  }

  return { choose: choose, next: next, start: start };
});
