// Filters and sorts the question index table (rules: index-filter.js), and shows the reader's
// progress in it: its progress column, its progress filter and the "due today" line. Ours, no
// dependencies. The filters and the sort live in the page's URL, so a guide can link to a view.
// The page serves the first rows in learning order (catalog.py), so a first visit weighs the same
// however many questions there are; the rest (the table's data-rest file) are fetched once, when
// the reader filters, sorts, asks for every question, or has progress to show.
import { onPage } from "./dom.js";
import { today } from "./days.js";
import { clicked, compare, FILTERS, FIRST, LEARNING, matches, progressAllows, sortOf, writeSort } from "./index-filter.js";
import { standing, withProgress } from "./progress-format.js";

/**
 * @typedef {import("./index-filter.js").Row} Row
 * @typedef {typeof import("./storage.js")} Storage
 */

/** @param {HTMLTableRowElement} row @returns {Row} */
function rowOf(row) {
  return Object.assign({}, row.dataset, { title: row.cells[0].textContent || "" });
}

/** @param {URLSearchParams} params */
function replaceQuery(params) {
  const query = params.toString();
  window.history.replaceState(window.history.state, "",
    window.location.pathname + (query ? "?" + query : "") + window.location.hash);
}

/** @param {Document} root */
function setUp(root) {
  const found = root.querySelector(".question-table");
  if (!(found instanceof HTMLTableElement) || found.dataset.ready) return;
  const table = found;
  table.dataset.ready = "1";
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  /** @type {(HTMLInputElement | HTMLSelectElement)[]} */
  const filters = Array.from(root.querySelectorAll("[data-filter]")).filter(
    (el) => el instanceof HTMLInputElement || el instanceof HTMLSelectElement);
  const sortBy = root.querySelector("[data-sort-by]");
  const progressFilter = root.querySelector("[data-progress-filter]");
  const progressSelect = progressFilter instanceof HTMLSelectElement ? progressFilter : null;
  const counter = root.querySelector(".question-count");
  const empty = root.querySelector(".question-empty");
  const line = root.querySelector(".progress-index-line");
  let sort = LEARNING;
  const more = root.querySelector(".question-more");
  /** @type {Promise<void> | null} */
  let loading = null;
  /** @type {Storage | null} storage.js, once the reader has progress */
  let P = null;

  // Every row in the table: the served ones, and the rest fetched once and appended in
  // learning order, then sorted as the reader asked. Says so beside the table if it fails.
  /** @returns {Promise<void>} */
  function whole() {
    const rest = table.dataset.rest;
    if (!rest) return Promise.resolve();
    if (!loading) {
      loading = fetch(new URL(rest, window.location.href).href).then((response) => {
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        return response.text();
      }).then((text) => {
        const template = document.createElement("template");
        template.innerHTML = text;
        template.content.querySelectorAll("tr").forEach((row) => {
          body.appendChild(row);
          rows.push(row);
        });
        delete table.dataset.rest;
        if (more instanceof HTMLElement) more.hidden = true;
        if (sort.key !== LEARNING.key || sort.order !== LEARNING.order) applySort();
        markProgress();  // the later rows' progress, the line and every filter, over every row now
      }).catch((error) => {
        loading = null;
        if (more) {
          more.textContent = "The other questions could not be loaded (" + error.message +
            "): reload the page, or open each topic's page from the navigation.";
        }
        throw error;
      });
    }
    return loading;
  }
  /** The same, for a reader who did not ask: a failure is said beside the table. */
  function wholeQuietly() { whole().catch(() => { /* said beside the table */ }); }

  /** @param {number} shown */
  function count(shown) {
    if (!counter) return;
    counter.textContent = table.dataset.rest
      ? "The first " + rows.length + " of " + table.dataset.total + " questions"
      : shown + " of " + rows.length + " questions";
  }

  /** @param {string} name */
  function byName(name) {
    return filters.find((el) => el.dataset.filter === name) || null;
  }

  function writeUrl() {
    const params = new URLSearchParams(window.location.search);
    filters.forEach((el) => {
      const name = el.dataset.filter === "text" ? "q" : el.dataset.filter || "";
      if (el.value.trim()) params.set(name, el.value.trim()); else params.delete(name);
    });
    writeSort(params, sort);
    replaceQuery(params);
  }

  function readUrl() {
    const params = new URLSearchParams(window.location.search);
    FILTERS.forEach((name) => {
      const el = byName(name), value = (params.get(name) || "").toLowerCase();
      if (el instanceof HTMLSelectElement && Array.from(el.options).some((o) => o.value === value)) {
        el.value = value;
      }
    });
    const text = byName("text");
    const q = params.get("q");
    if (text && q) text.value = q;
    sort = sortOf(params);
    const wanted = params.get("progress");
    if (progressSelect && wanted && Array.from(progressSelect.options).some((o) => o.value === wanted)) {
      progressSelect.value = wanted;
    }
  }

  function apply() {
    /** @type {Record<string, string>} */
    const wanted = {};
    filters.forEach((el) => { wanted[el.dataset.filter || ""] = el.value.trim().toLowerCase(); });
    let shown = 0;
    rows.forEach((row) => {
      const ok = matches(rowOf(row), wanted);
      row.hidden = !ok;
      if (ok) shown += 1;
    });
    count(shown);
    if (empty instanceof HTMLElement) empty.hidden = shown !== 0;
    table.hidden = shown === 0;
    filterProgress();
  }

  // The progress filter works with the index's own filters: a row shows when both allow it.
  function filterProgress() {
    if (!progressSelect) return;
    const wanted = progressSelect.value;
    if (!wanted && !table.querySelector(".progress-filtered")) return;  // nothing to change
    let shown = 0;
    rows.forEach((row) => {
      row.classList.toggle("progress-filtered", !progressAllows(row.dataset.progress, wanted));
      if (!row.hidden && !row.classList.contains("progress-filtered")) shown += 1;
    });
    if (counter) counter.textContent = shown + " of " + rows.length + " questions";
    if (empty instanceof HTMLElement) empty.hidden = shown !== 0;
    table.hidden = shown === 0;
  }

  // The progress column, filter and "due today" line are in the page's HTML (catalog.py), as a
  // reader who has rated nothing sees them; this rewrites them from the reader's progress.
  function markProgress() {
    if (!(line instanceof HTMLElement)) return;
    const storage = P;
    if (!storage) {
      rows.forEach((row) => { row.dataset.progress = "not-started"; });
      apply();
      return;
    }
    const value = storage.load(), on = today();
    const stored = Object.keys(value.questions).length > 0;
    // Due questions and the next one may be in the rows the page did not serve: fetch them first
    // (whole() then calls this again).
    if (stored && table.dataset.rest) wholeQuietly();
    if (stored || line.dataset.filled) {
      const ranked = rows.slice().sort((a, b) => Number(a.dataset.learningRank) - Number(b.dataset.learningRank));
      const dueCount = ranked.filter((row) => standing(value.questions[row.dataset.id || ""], on) === "due").length;
      const pick = storage.nextQuestion(ranked.map((row) => ({ id: row.dataset.id || "" })));
      const nextRow = pick ? ranked.filter((row) => row.dataset.id === pick.question.id)[0] : null;
      line.textContent = "Due for review today: " + dueCount + ". ";
      const source = nextRow && nextRow.querySelector("a");
      if (source) {
        line.appendChild(document.createTextNode("Next question: "));
        const next = document.createElement("a");
        next.href = source.getAttribute("href") + (pick && pick.due ? "#practice" : "");
        next.className = "progress-next";
        next.textContent = source.textContent;
        line.appendChild(next);
      } else {
        line.appendChild(document.createTextNode("Nothing is due and every question is started."));
      }
      line.dataset.filled = "1";
      rows.forEach((row) => {
        const id = row.dataset.id || "";
        row.dataset.progress = standing(value.questions[id], on);
        const cell = row.querySelector(".progress-cell");
        const text = storage.label(id, on);
        if (cell && cell.textContent !== text) cell.textContent = text;
      });
    } else {
      rows.forEach((row) => { row.dataset.progress = "not-started"; });
    }
    apply();
  }

  function applySort() {
    table.querySelectorAll("th").forEach((th) => {
      const button = th.querySelector("[data-sort]");
      th.setAttribute("aria-sort", button instanceof HTMLElement && button.dataset.sort === sort.key ? sort.order : "none");
    });
    if (sortBy instanceof HTMLSelectElement) sortBy.value = sort.key;
    const keyed = new Map(rows.map((row) => [row, rowOf(row)]));
    /** @param {HTMLTableRowElement} row @returns {Row} */
    const data = (row) => keyed.get(row) || rowOf(row);
    rows.sort((a, b) => compare(data(a), data(b), sort));
    rows.forEach((row) => { body.appendChild(row); });
  }

  table.querySelectorAll("[data-sort]").forEach((button) => {
    button.addEventListener("click", () => {
      sort = clicked(sort, button instanceof HTMLElement ? button.dataset.sort || "" : "");
      applySort();
      writeUrl();
      wholeQuietly();
    });
  });
  if (sortBy instanceof HTMLSelectElement) {
    sortBy.addEventListener("change", () => {
      sort = { key: sortBy.value, order: FIRST[sortBy.value] || "ascending" };
      applySort();
      writeUrl();
      wholeQuietly();
    });
  }
  filters.forEach((el) => {
    el.addEventListener("input", () => {
      apply();
      writeUrl();
      wholeQuietly();
    });
  });
  if (progressSelect) {
    progressSelect.addEventListener("input", () => {
      const params = new URLSearchParams(window.location.search);
      if (progressSelect.value) params.set("progress", progressSelect.value); else params.delete("progress");
      replaceQuery(params);
      filterProgress();
      wholeQuietly();
    });
  }
  const clear = root.querySelector("[data-clear-filters]");
  if (clear) {
    clear.addEventListener("click", () => {
      filters.forEach((el) => { el.value = ""; });
      if (progressSelect) {
        progressSelect.value = "";
        const params = new URLSearchParams(window.location.search);
        params.delete("progress");
        replaceQuery(params);
      }
      apply();
      writeUrl();
      wholeQuietly();
      const first = filters[0];
      if (first) first.focus();
    });
  }
  const showAll = root.querySelector("[data-show-all]");
  if (showAll) {
    showAll.addEventListener("click", () => {
      whole().then(() => {
        count(rows.length);
        // The first row the reader had not seen, so the keyboard goes on from there.
        const next = rows[Number(table.dataset.first || 0)];
        const link = next && next.querySelector("a");
        if (link) link.focus();
      }, () => { /* said beside the table */ });
    });
  }
  table.dataset.first = String(rows.length);
  readUrl();
  // The table is served in learning order: re-order it only for another sort.
  const sorted = sort.key !== LEARNING.key || sort.order !== LEARNING.order;
  if (sorted) applySort();
  const filtered = filters.some((el) => el.value.trim());
  if (filtered) apply();
  else count(rows.length);
  // A linked view (a filter, a sort or a progress filter in the URL) covers every question.
  if (filtered || sorted || new URLSearchParams(window.location.search).get("progress")) wholeQuietly();
  markProgress();
  // The reader's progress, once storage.js and its rules are here, and whenever it changes.
  withProgress(false, (storage) => {
    P = storage;
    markProgress();
  });
}

onPage(() => setUp(document));
