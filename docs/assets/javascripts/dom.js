// The DOM helpers every module of the site uses: making elements and buttons, reading a page's
// sections by their headings' anchors, the site's root URL, and running once Material has set a
// page up. Nothing here runs on import, so node can import the modules that use it.

/**
 * A new element with its attributes and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [attrs]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A Material button (a real <button>, so it works from the keyboard).
 * @param {string} text
 * @param {(event: MouseEvent) => void} onClick
 * @param {boolean} [primary]
 * @returns {HTMLButtonElement}
 */
export function button(text, onClick, primary) {
  const b = el("button", { type: "button", "class": "md-button" + (primary ? " md-button--primary" : "") }, text);
  b.addEventListener("click", onClick);
  return b;
}

/**
 * The elements of a page's section: those after the heading with this id, up to the next <h2>
 * (and the heading itself first, when asked).
 * @param {Document} doc
 * @param {string} anchor
 * @param {boolean} [withHeading]
 * @returns {HTMLElement[]}
 */
export function sectionNodes(doc, anchor, withHeading) {
  const heading = doc.getElementById(anchor);
  /** @type {HTMLElement[]} */
  const nodes = [];
  if (!heading) return nodes;
  if (withHeading) nodes.push(heading);
  for (let node = heading.nextElementSibling; node && node.tagName !== "H2"; node = node.nextElementSibling) {
    nodes.push(/** @type {HTMLElement} */ (node));
  }
  return nodes;
}

/**
 * The texts of the elements matching `selector` in these nodes (themselves included), spaces
 * folded, without a page's speaking-time notes and admonition titles: a section's paragraphs as
 * the mock interview and the self-test show them beside what the reader said.
 * @param {Element[]} nodes
 * @param {string} selector
 * @returns {string[]}
 */
export function textsOf(nodes, selector) {
  /** @type {string[]} */
  const out = [];
  nodes.forEach((node) => {
    const found = node.matches(selector) ? [node] : Array.from(node.querySelectorAll(selector));
    found.forEach((item) => {
      if (item.closest(".speaking-time") || item.classList.contains("speaking-time")) return;
      if (item.closest(".admonition-title")) return;
      const text = (item.textContent || "").replace(/\s+/g, " ").trim();
      if (text) out.push(text);
    });
  });
  return out;
}

/** Minutes and seconds, "1:05". @param {number} seconds @returns {string} */
export function clock(seconds) {
  return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
}

/** @type {URL | null} */
let rootUrl = null;

/** The site's root URL, from Material's own config, so that any page can build site URLs.
 * @returns {URL} */
export function siteRoot() {
  if (!rootUrl) {
    const config = document.getElementById("__config");
    /** @type {{base?: string}} */
    const parsed = config ? JSON.parse(config.textContent || "{}") : {};
    rootUrl = new URL((parsed.base || ".").replace(/\/?$/, "/"), window.location.href);
  }
  return rootUrl;
}

/** Run `setUp` once Material has set the page up (its document$), or now without Material.
 * @param {() => void} setUp */
export function onPage(setUp) {
  if (typeof document$ !== "undefined") document$.subscribe(setUp);
  else setUp();
}

/** Run a module as the page's own scripts are, by a script element (once per URL), so that the
 * page's load event waits for it as it does for them; `import()` does not. Resolves once it ran.
 * @param {URL} url @returns {Promise<void>} */
export function runModule(url) {
  const old = document.querySelector('script[src="' + url.href + '"]');
  if (old) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.type = "module";
    script.src = url.href;
    script.addEventListener("load", () => resolve());
    script.addEventListener("error", () => reject(new Error(url.pathname + " did not load")));
    document.head.appendChild(script);
  });
}
