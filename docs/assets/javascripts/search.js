// The search box in the header (docs/overrides/partials/search.html), searching with Pagefind.
// Nothing of the search is downloaded until the reader focuses or types in the box, or presses
// `/` or `s`: then Pagefind's code (pagefind/pagefind.js, written by scripts/site_search.py from
// the pinned package) is imported, and it fetches only the chunks of the index that the query's
// words need. Results: the question, the section that matched and its passage, linking to that
// section. Keys: `/` or `s` open the box, arrows move through the results, Esc closes.
import { siteRoot } from "./dom.js";

const LIMIT = 10;
// A question page's `search_aliases` (its subject's acronyms and other names: DDP, OOM) are the
// `aliases` metadata field (scripts/question_pages/render/page.py): weighed above a title, so the
// page whose subject is DDP ranks above the pages whose title only mentions it.
const RANKING = { metaWeights: { aliases: 10 } };
/**
 * What Pagefind's data() gives for one result (the fields used here).
 * @typedef {{url: string, title: string, excerpt: string, locations?: number[]}} SubResult
 * @typedef {{url: string, excerpt: string, meta: {title?: string}, sub_results?: SubResult[]}} ResultData
 * @typedef {{results: {data: () => Promise<ResultData>}[]}} Found
 * @typedef {{options: (o: object) => Promise<void>, init: () => void,
 *            debouncedSearch: (query: string, options: object, ms: number) => Promise<Found | null>}} Pagefind
 */
/** @param {Element} box @param {HTMLInputElement} toggle */
function setUp(box, toggle) {
  const input = /** @type {HTMLInputElement} */ (box.querySelector(".md-search__input"));
  const meta = /** @type {HTMLElement} */ (box.querySelector(".md-search-result__meta"));
  const list = /** @type {HTMLElement} */ (box.querySelector(".md-search-result__list"));
  const base = siteRoot();
  /** @type {Promise<Pagefind> | null} */
  let pagefind = null;
  let latest = 0;

  function load() {
    if (!pagefind) {
      pagefind = import(new URL("pagefind/pagefind.js", base).href).then(function (api) {
        const options = { baseUrl: base.pathname, excerptLength: 24, ranking: RANKING };
        return api.options(options).then(function () {
          api.init();
          return api;
        });
      });
      pagefind.catch(function () {
        pagefind = null;
        meta.textContent = "Search could not be loaded. Reload the page to try again.";
      });
    }
    return pagefind;
  }

  function open() {
    if (!toggle.checked) toggle.checked = true;
    load();
  }

  function close() {
    toggle.checked = false;
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    if (active && box.contains(active)) active.blur();
  }

  /** @param {number} count */
  function plural(count) {
    return count === 0 ? "No matching questions or pages"
      : count === 1 ? "1 matching page" : count + " matching pages";
  }

  // The part of a page that matched best: the section with the most hits, else the page's
  // start (its short answer, on a question page).
  /**
   * @param {ResultData} data
   * @returns {{url: string, section: string, excerpt: string}}
   */
  function bestPart(data) {
    /** @type {SubResult | null} */
    let best = null;
    for (const sub of data.sub_results || []) {
      const hits = (sub.locations || []).length;
      if (hits && (!best || hits > (best.locations || []).length)) best = sub;
    }
    if (best && best.url !== data.url && best.title !== data.meta.title) {
      return { url: best.url, section: best.title, excerpt: best.excerpt };
    }
    return { url: best ? best.url : data.url, section: "", excerpt: best ? best.excerpt : data.excerpt };
  }

  /** Whether a result is the question page the reader is practising (practice.js marks it):
   * its passages are its hidden answers. @param {ResultData} data @returns {boolean} */
  function practised(data) {
    return !!document.documentElement.dataset.practising &&
      new URL(data.url, window.location.href).pathname === window.location.pathname;
  }

  /** @param {ResultData[]} results */
  function render(results) {
    list.textContent = "";
    results.forEach(function (data) {
      // The page being practised keeps its title and link; its section and passage would show
      // the answers the self-test hides.
      const hidden = practised(data);
      const part = hidden ? { url: data.url, section: "", excerpt: "" } : bestPart(data);
      const item = document.createElement("li");
      item.className = "md-search-result__item";
      const link = document.createElement("a");
      link.className = "md-search-result__link";
      link.href = part.url;
      const article = document.createElement("article");
      article.className = "md-search-result__article md-typeset";
      const title = document.createElement("h1");
      title.textContent = data.meta.title || data.url;
      article.appendChild(title);
      if (part.section) {
        const section = document.createElement("p");
        section.className = "site-search__section";
        section.textContent = part.section;
        article.appendChild(section);
      }
      const passage = document.createElement("p");
      if (hidden) passage.textContent = "The page you are practising: its passages are hidden while you practise.";
      else passage.innerHTML = part.excerpt; // Pagefind's excerpt: escaped text with <mark> around hits
      article.appendChild(passage);
      link.appendChild(article);
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  function search() {
    const query = input.value.trim();
    const ticket = ++latest;
    if (!query) {
      list.textContent = "";
      delete list.dataset.query;
      meta.textContent = "Type to start searching";
      return;
    }
    load().then(function (api) {
      return api.debouncedSearch(query, {}, 150);
    }).then(function (found) {
      if (!found || ticket !== latest) return null; // a later keystroke superseded this query
      return Promise.all(found.results.slice(0, LIMIT).map(function (r) { return r.data(); }))
        .then(function (results) {
          if (ticket !== latest) return;
          meta.textContent = plural(found.results.length);
          render(results);
          list.dataset.query = query;  // what the list now shows results for (tests wait for it)
        });
    }).catch(function () { /* reported by load() */ });
  }

  /** @returns {HTMLAnchorElement[]} */
  function links() {
    return Array.prototype.slice.call(list.querySelectorAll(".md-search-result__link"));
  }

  input.addEventListener("focus", open);
  // Tabbing on past the box closes it: left open, its overlay would cover the page the keyboard
  // has moved on to. A click on the box's own text leaves the focus on the body: that keeps it.
  box.addEventListener("focusout", function () {
    window.setTimeout(function () {
      const now = document.activeElement;
      if (now && now !== document.body && !box.contains(now)) toggle.checked = false;
    }, 0);
  });
  input.addEventListener("input", search);
  const form = /** @type {HTMLFormElement} */ (box.querySelector("form"));
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    const first = links()[0];
    if (first) first.click();
  });
  form.addEventListener("reset", function () {
    window.setTimeout(function () { search(); input.focus(); }, 0);
  });
  toggle.addEventListener("change", function () {
    if (toggle.checked) { input.focus(); } else { input.blur(); }
  });

  box.addEventListener("keydown", function (event) {
    if (!(event instanceof KeyboardEvent)) return;
    if (event.key === "Escape") {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const all = links();
    if (!all.length) return;
    event.preventDefault();
    const at = all.indexOf(/** @type {HTMLAnchorElement} */ (document.activeElement));
    const next = event.key === "ArrowDown" ? at + 1 : at - 1;
    if (next < 0) { input.focus(); } else { all[Math.min(next, all.length - 1)].focus(); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" && event.key !== "s") return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    event.preventDefault();
    open();
    input.focus();
    input.select();
  });
}

const box = document.querySelector("[data-site-search]");
const toggle = document.getElementById("__search");
if (box && toggle instanceof HTMLInputElement) setUp(box, toggle);
