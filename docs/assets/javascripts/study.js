// The reader's progress tools, run by progress.js on the pages that hold one
// (`{{ progress("...") }}` markers): a summary per topic and level with what is due, the next
// question and a "Practise what is due" run; a study plan aimed at an interview date, topics and a
// level, with minutes per question and per day; export, import (shown before it is written) and
// clearing of progress, and the copies of progress set aside as unreadable. Each reads the list of
// questions its marker embedded: no request.
import { el } from "./dom.js";
import { addDays, calendarDay, dayOf, today } from "./days.js";
import { interviewFromUrl, isCoreAbove, minutes, planLength, planOf, readingMinutes, ROLES, stateOf } from "./plan.js";
import { RATING_LABELS, isRating } from "./progress-format.js";
import { capital, LEVELS, questionsOf, topicsOf } from "./question-list.js";
import * as C from "./progress-core.js";
import * as P from "./storage.js";

/**
 * @typedef {import("./question-list.js").ListedQuestion} ListedQuestion
 * @typedef {import("./progress-format.js").Value} Value
 * @typedef {import("./progress-format.js").Entry} Entry
 * @typedef {import("./progress-format.js").Rejected} Rejected
 * @typedef {import("./progress-core.js").ImportPlan & {rejected: Rejected[]}} FilePlan
 */


/** What an import file would change (nothing is written).
 * @param {string} text @returns {{error: string} | FilePlan} */
function planImport(text) {
  return C.importPlan(P.load(), text, new Date());
}

// The next question: the longest overdue first, then the first not started in learning order.
/** @param {ListedQuestion[]} questions @returns {ListedQuestion | null} */
function next(questions) {
  const pick = P.nextQuestion(questions);
  return pick ? pick.question : null;
}

/** @param {ListedQuestion} question @returns {HTMLAnchorElement} */
function link(question) {
  return el("a", { href: question.url }, question.question);
}

/** @param {HTMLElement} tool @returns {HTMLElement} */
function output(tool) {
  const box = tool.querySelector(".progress-output");
  return box instanceof HTMLElement ? box : tool.appendChild(el("div", { "class": "progress-output" }));
}

// -- summary --------------------------------------------------------------------------------
// Done and due per topic and level: a group of rows per topic (its title heads the group), a row
// per level that has questions, and a column each for the questions, done and due, so no cell
// holds three numbers. Narrow enough for a phone; site.css gives it borders and spacing.
/** @param {ListedQuestion[]} questions @param {Value} value @param {string} on @returns {HTMLElement} */
function countsTable(questions, value, on) {
  const wrap = el("div", { "class": "progress-table-wrap" });
  const table = wrap.appendChild(el("table", { "class": "progress-table" }));
  table.appendChild(el("caption", {}, "Done and due, per topic and level"));
  const head = table.appendChild(el("thead")).appendChild(el("tr"));
  ["Level", "Questions", "Done", "Due for review"].forEach(function (name) {
    head.appendChild(el("th", { scope: "col" }, name));
  });
  const topics = topicsOf(questions).map((t) => t.id);
  // In the order of docs/topics.yml, as the navigation shows them.
  /** @param {string} t */
  const rank = (t) => questions.filter((q) => q.topic === t)[0].topic_rank;
  topics.sort((a, b) => rank(a) - rank(b));
  topics.forEach(function (topic) {
    const body = table.appendChild(el("tbody"));
    const ofTopic = questions.filter(function (q) { return q.topic === topic; });
    body.appendChild(el("tr", { "class": "progress-topic" }))
      .appendChild(el("th", { scope: "rowgroup", colspan: "4" }, ofTopic[0].topic_title));
    LEVELS.forEach(function (level) {
      const here = ofTopic.filter(function (q) { return q.level === level; });
      if (!here.length) return;
      /** @param {string} state */
      const count = function (state) {
        return here.filter(function (q) { return stateOf(q, value, on) === state; }).length;
      };
      const row = body.appendChild(el("tr", { "data-topic": topic, "data-level": level }));
      row.appendChild(el("th", { scope: "row" }, capital(level)));
      [here.length, count("done"), count("due")].forEach(function (n) {
        row.appendChild(el("td", {}, String(n)));
      });
    });
  });
  return wrap;
}

/** @param {HTMLElement} tool */
function summary(tool) {
  const questions = questionsOf(tool);
  function draw() {
    const value = P.load(), on = today();
    const box = output(tool);
    box.innerHTML = "";
    const counts = { done: 0, due: 0 };
    questions.forEach(function (q) {
      const state = stateOf(q, value, on);
      if (state === "done") counts.done += 1;
      if (state === "due") counts.due += 1;
    });
    const line = el("p", { "class": "progress-line" },
      "Done: " + counts.done + " of " + questions.length + ". Due for review today: " + counts.due + ". ");
    const first = next(questions);
    if (first) {
      line.appendChild(document.createTextNode("Next question: "));
      const a = link(first);
      a.className = "progress-next";
      line.appendChild(a);
    } else {
      line.appendChild(document.createTextNode("Nothing is due and every question is started."));
    }
    box.appendChild(line);
    if (counts.due && first) {
      // A run through what is due: the longest overdue first, its self-test open; after each
      // rating the self-test links the next due question the same way.
      const run = el("a", { "class": "md-button md-button--primary progress-run" },
                   "Practise what is due (" + counts.due + ")");
      run.setAttribute("href", first.url + "#practice");
      box.appendChild(el("p")).appendChild(run);
    }
    box.appendChild(countsTable(questions, value, on));
    const due = questions.filter(function (q) { return stateOf(q, value, on) === "due"; });
    if (due.length) {
      box.appendChild(el("p", {}, "Due for review today:"));
      const list = box.appendChild(el("ul", { "class": "progress-due" }));
      due.forEach(function (q) { list.appendChild(el("li")).appendChild(link(q)); });
    }
  }
  draw();
  P.onChange(draw);
}

// -- ratings --------------------------------------------------------------------------------
// Every question the reader has rated, in learning order, with where it stands and, under it,
// each of its follow-ups with its own rating (practice.js rates them one at a time).

// Ratings are kept as instants (progress-core.js); the reader sees the day in their time zone.
/** @param {unknown} rating @param {string | undefined} rated an ISO timestamp @returns {string} */
function ratingText(rating, rated) {
  return "Rated " + (isRating(rating) ? RATING_LABELS[rating] : String(rating)) + (rated ? " on " + dayOf(rated) : "") + ".";
}

// A follow-up rated before its question makes an entry with no review of its own
// (progress-core's rateFollowUp): the question is due, not rated.
/** @param {Entry} e @returns {string} */
function questionRating(e) {
  return e.card && e.card.last_review === null ? "Not rated itself yet." : ratingText(e.rating, e.rated);
}

/** @param {HTMLElement} tool */
function ratings(tool) {
  const questions = questionsOf(tool);
  function draw() {
    const value = P.load(), on = today();
    const box = output(tool);
    box.innerHTML = "";
    const rated = questions.filter(function (q) { return value.questions[q.id]; });
    if (!rated.length) {
      box.appendChild(el("p", {}, "You have not rated a question yet."));
      return;
    }
    const list = box.appendChild(el("ul", { "class": "progress-ratings" }));
    rated.forEach(function (q) {
      const e = value.questions[q.id];
      const item = list.appendChild(el("li"));
      item.appendChild(link(q));
      item.appendChild(el("span", { "class": "progress-rating" },
        " " + questionRating(e) + " Now: " + P.label(q.id, on) + "."));
      const titles = Object.keys(e.followups || {});
      if (!titles.length) return;
      const sub = item.appendChild(el("ul", { "class": "progress-followup-ratings", "aria-label": "Follow-ups" }));
      titles.forEach(function (title) {
        const f = e.followups[title] || { rating: undefined, rated: undefined };
        const line = sub.appendChild(el("li"));
        line.appendChild(el("span", { "class": "progress-followup-question" }, title));
        line.appendChild(el("span", { "class": "progress-rating" }, " " + ratingText(f.rating, f.rated)));
      });
    });
  }
  draw();
  P.onChange(draw);
}

/** @param {HTMLElement} tool */
function plan(tool) {
  const questions = questionsOf(tool);
  const params = new URLSearchParams(window.location.search);
  const on = today();
  const topicList = topicsOf(questions), topicIds = topicList.map((t) => t.id);
  // The interview date: the URL's (?interview=YYYY-MM-DD or ?days=N) is a proposal, drawn but
  // kept only when the reader makes the plan; otherwise the one kept; otherwise three days from
  // today, until the reader says. A kept date changes only by the reader's action.
  const fromUrl = interviewFromUrl(params, on);
  const form = el("form", { "class": "plan-form" });
  const dateLabel = el("label", {}, "Interview date ");
  const date = el("input", { type: "date", name: "interview", required: "", min: on });
  date.value = fromUrl || P.load().interview || addDays(on, 3);
  dateLabel.appendChild(date);
  // Topics and level: the URL's, else those of the plan the reader last made, else every topic
  // at senior level; a role sets both.
  const kept = P.planSettings();
  const roleLabel = el("label", {}, "Role ");
  const role = el("select", { name: "role" });
  role.appendChild(el("option", { value: "" }, "Choose the topics and level yourself"));
  Object.entries(ROLES).forEach(function ([id, r]) { role.appendChild(el("option", { value: id }, r.title)); });
  const askedRole = params.get("role") || (params.get("level") || params.get("topics") ? "" : (kept && kept.role) || "");
  role.value = askedRole in ROLES ? askedRole : "";
  roleLabel.appendChild(role);
  const levelLabel = el("label", {}, "Target level ");
  const level = el("select", { name: "level" });
  LEVELS.forEach(function (name) { level.appendChild(el("option", { value: name }, capital(name))); });
  const askedLevel = params.get("level") || (kept ? kept.level : "");
  level.value = LEVELS.indexOf(askedLevel) >= 0 ? askedLevel : "senior";
  levelLabel.appendChild(level);
  const topicBox = el("fieldset", { "class": "plan-topics" });
  topicBox.appendChild(el("legend", {}, "Topics"));
  const chosen = (params.get("topics") || (kept && !params.get("level") ? kept.topics.join(",") : ""))
    .split(",").filter(function (t) { return topicIds.indexOf(t) >= 0; });
  topicList.forEach(function (topic) {
    const label = el("label", {});
    const box = el("input", { type: "checkbox", name: "topic", value: topic.id });
    box.checked = !chosen.length || chosen.indexOf(topic.id) >= 0;
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + topic.title));
    topicBox.appendChild(label);
  });
  const make = el("button", { type: "submit", "class": "md-button md-button--primary" }, "Make the plan");
  const print = el("button", { type: "button", "class": "md-button" }, "Print it");
  print.addEventListener("click", function () { window.print(); });
  form.appendChild(dateLabel);
  form.appendChild(roleLabel);
  form.appendChild(levelLabel);
  form.appendChild(topicBox);
  form.appendChild(make);
  form.appendChild(print);
  tool.appendChild(form);
  const proposal = tool.appendChild(el("p", { "class": "plan-proposal", hidden: "" }));
  const out = tool.appendChild(el("div", { "class": "plan-output", "aria-live": "polite" }));

  // A date the link proposes and the reader has not kept: said, until "Make the plan" keeps it.
  function showProposal() {
    const kept = P.load().interview;
    if (!fromUrl || fromUrl === kept || date.value !== fromUrl) {
      proposal.hidden = true;
      proposal.textContent = "";
      return;
    }
    proposal.hidden = false;
    proposal.textContent = "This link proposes an interview on " + fromUrl + (kept ? "; your kept date is " +
      kept + ". \u201cMake the plan\u201d keeps the proposed one." : "; \u201cMake the plan\u201d keeps it " +
      "with your progress, so that your reviews come back before it.");
  }

  // A role chooses its topics and level (the reader can change them after); a change of either
  // leaves the role.
  function applyRole() {
    const r = ROLES[/** @type {keyof typeof ROLES} */ (role.value)];
    if (!r) return;
    level.value = r.level;
    topicBox.querySelectorAll("input").forEach((box) => { box.checked = r.topics.indexOf(box.value) >= 0; });
  }
  // A link with only a role (?role=compiler) gets its topics and level.
  if (params.get("role") && !params.get("level") && !params.get("topics")) applyRole();
  role.addEventListener("change", function () { applyRole(); draw(); });
  [level, topicBox].forEach((field) => { field.addEventListener("change", function () { role.value = ""; }); });

  /** @returns {string[]} */
  function topics() {
    return Array.from(topicBox.querySelectorAll("input")).filter((box) => box.checked).map((box) => box.value);
  }

  function draw() {
    const on = today();
    const interview = calendarDay(date.value) ? date.value : addDays(on, 3);
    const count = planLength(on, interview);
    const value = P.load();
    const result = planOf(questions, count, level.value, topics(), value, on);
    out.innerHTML = "";
    const total = minutes(result.days.flat());
    // The first read of a page is counted apart from speaking, for the questions not started.
    /** @param {ListedQuestion[]} list */
    const firstRead = (list) => readingMinutes(list.filter((q) => stateOf(q, value, on) === "not-started"));
    const reading = firstRead(result.days.flat());
    out.appendChild(el("p", { "class": "plan-line" }, result.total + " questions of the chosen topics up to " +
      level.value + " level (and the must-know questions at the core of each topic) that are not done, in " +
      count + " day" + (count > 1 ? "s" : "") + " before the interview on " + interview + ": about " +
      result.perDay + " a day, about " + Math.ceil(total / count) + " minutes a day (" + total +
      " minutes in all), what is due and what matters most first. Reading the pages you have not " +
      "started adds about " + reading + " minutes in all."));
    out.appendChild(el("p", { "class": "plan-note" }, "Minutes per question: to answer, its spoken " +
      "answers and follow-ups at 150 words a minute, plus half a minute to check and rate; to read, " +
      "a first read of its page at 200 words a minute, counted for the questions not started. A " +
      "question in review is on the day it is due."));
    result.days.forEach(function (list, index) {
      if (!list.length) return;
      const day = addDays(on, index);
      const read = firstRead(list);
      out.appendChild(el("h3", { "class": "plan-day" }, "Day " + (index + 1) + " (" + day + "): about " +
        minutes(list) + " minutes" + (read ? " to answer, and about " + read + " minutes to read" : "")));
      const ol = out.appendChild(el("ol", { "class": "plan-list" }));
      list.forEach(function (q) {
        const li = ol.appendChild(el("li"));
        li.appendChild(link(q));
        const state = stateOf(q, value, on);
        li.appendChild(el("span", { "class": "plan-meta" }, " " + q.importance + ", " + q.level + ", " +
          (state === "not-started" && q.read_minutes ? q.read_minutes + " min to read, " : "") +
          q.minutes + " min to answer" + (isCoreAbove(q, level.value) ? ", core of its topic" : "") +
          (state === "due" ? ", due for review" : state === "review" ? ", in review" : "")));
      });
    });
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    const saved = P.setInterview(date.value);
    P.keepPlan({ level: level.value, topics: topics(), role: role.value });
    const url = new URLSearchParams(window.location.search);
    url.delete("days");
    url.set("interview", date.value);
    url.set("level", level.value);
    url.set("topics", topics().join(","));
    if (role.value) url.set("role", role.value);
    else url.delete("role");
    window.history.replaceState(window.history.state, "", window.location.pathname + "?" + url.toString());
    draw();
    showProposal();
    if (!saved) out.insertBefore(el("p", { "class": "plan-problem", role: "alert" }, "The interview date was not kept: " + P.problemText()), out.firstChild);
  });
  draw();
  showProposal();
  P.onChange(draw);
  P.onChange(showProposal);
}

// -- export, import, clear, set aside ------------------------------------------------------
const APP = "pytorch-interview-questions";

/** @param {string} text @param {string} name */
function download(text, name) {
  const blob = new Blob([text], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** @param {number} n @param {string} one @param {string} many */
function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

/** @param {HTMLElement} tool */
function transfer(tool) {
  const message = el("p", { "class": "transfer-message", role: "status" });
  const preview = el("div", { "class": "transfer-preview" });
  const exportButton = el("button", { type: "button", "class": "md-button" }, "Export progress to a file");
  exportButton.addEventListener("click", function () {
    const value = P.load();
    const file = { app: APP, kind: "progress", exported: new Date().toISOString(),
                 version: value.version, interview: value.interview, questions: value.questions };
    download(JSON.stringify(file, null, 1) + "\n", "pytorch-interview-progress-" + today() + ".json");
    message.textContent = "Exported " + plural(Object.keys(value.questions).length, "question", "questions") + ".";
  });
  const importLabel = el("label", { "class": "md-button" }, "Import progress from a file");
  const input = el("input", { type: "file", accept: "application/json,.json", "class": "transfer-file" });
  importLabel.appendChild(input);

  // What the file would change, shown before anything is written; "Import it" writes it.
  /** @param {string} name @param {FilePlan} plan @param {string} text the file's */
  function showPlan(name, plan, text) {
    preview.innerHTML = "";
    const changes = plan.added.length + plan.newer.length + plan.followups.length;
    const summary = el("p", { "class": "transfer-summary", tabindex: "-1" }, name + ": " +
      plural(plan.added.length, "new question", "new questions") + ", " +
      plural(plan.newer.length, "newer rating", "newer ratings") + " that would replace this browser's, " +
      plural(plan.older.length, "older rating", "older ratings") + " (this browser's is kept), " +
      plural(plan.followups.length, "question", "questions") + " with newer follow-up ratings, " +
      plan.rejected.length + " refused.");
    preview.appendChild(summary);
    /** @param {string} title @param {string[]} lines */
    function list(title, lines) {
      if (!lines.length) return;
      preview.appendChild(el("p", {}, title));
      const ul = preview.appendChild(el("ul", { "class": "transfer-list" }));
      lines.slice(0, 50).forEach(function (line) { ul.appendChild(el("li", {}, line)); });
      if (lines.length > 50) ul.appendChild(el("li", {}, "and " + (lines.length - 50) + " more"));
    }
    list("Would replace this browser's rating:", plan.newer.map(function (id) {
      const mine = P.entry(id), theirs = plan.merged.questions[id];
      return id + ": " + (mine ? mine.rating + " on " + dayOf(mine.rated) : "nothing") + " becomes " +
        theirs.rating + " on " + dayOf(theirs.rated);
    }));
    list("Refused:", plan.rejected.map(function (r) { return (r.question || "the file") + ": " + r.reason; }));
    if (!changes) {
      message.textContent = "Nothing to import from " + name + ": this browser's progress is as recent." +
        (plan.rejected.length ? " Some entries were refused (listed above)." : "");
      return;
    }
    message.textContent = plan.newer.length
      ? "Importing would replace " + plural(plan.newer.length, "rating", "ratings") + " of this browser. Import it?"
      : "Import it?";
    const go = el("button", { type: "button", "class": "md-button" }, "Import it");
    const cancel = el("button", { type: "button", "class": "md-button" }, "Cancel");
    go.addEventListener("click", function () {
      // The plan is made again against what is stored now (another tab may have rated since).
      const fresh = planImport(text);
      if ("error" in fresh || !P.save(fresh.merged)) {
        message.textContent = "Not imported: " + ("error" in fresh ? fresh.error : P.problemText());
        return;
      }
      preview.innerHTML = "";
      message.textContent = "Imported " + name + ": " + fresh.added.length + " new and " + fresh.newer.length +
        " newer of its " + (fresh.added.length + fresh.newer.length + fresh.older.length + fresh.followups.length) +
        " questions" + (fresh.followups.length ? ", newer follow-up ratings for " + fresh.followups.length : "") +
        "; for the others this browser's rating was as recent" +
        (fresh.rejected.length ? "; " + fresh.rejected.length + " refused" : "") + ".";
    });
    cancel.addEventListener("click", function () {
      preview.innerHTML = "";
      message.textContent = "Nothing was imported.";
    });
    preview.appendChild(go);
    preview.appendChild(cancel);
    summary.focus();  // read what would change first; "Import it" is the next Tab stop after it
  }

  input.addEventListener("change", function () {
    const file = input.files && input.files[0];
    if (!file) return;
    preview.innerHTML = "";
    if (file.size > C.LIMITS.fileBytes) {
      message.textContent = file.name + " cannot be imported: it is " + (file.size / 1048576).toFixed(1) +
        " MB, larger than any progress file of this site. Nothing was changed.";
      input.value = "";
      return;
    }
    file.text().then(function (text) {
      const plan = planImport(text);
      if ("error" in plan) {
        message.textContent = file.name + " cannot be imported: " + plan.error + ". Nothing was changed.";
        return;
      }
      showPlan(file.name, plan, text);
    }).catch(function () {
      message.textContent = file.name + " could not be read. Nothing was changed.";
    }).finally(function () { input.value = ""; });
  });
  const clearButton = el("button", { type: "button", "class": "md-button" }, "Clear all progress");
  clearButton.addEventListener("click", function () {
    if (!window.confirm("Clear the progress kept in this browser, with the copies set aside and the mock " +
                        "interview recordings? Export it first to keep a copy.")) return;
    clearButton.disabled = true;
    message.textContent = "Clearing…";
    P.clear(function (text) { message.textContent = text; }).then(function (cleared) {
      message.textContent = cleared ? "Progress cleared." : "Not cleared: " + P.problemText();
    }).finally(function () { clearButton.disabled = false; });
  });
  const aside = el("div", { "class": "set-aside" });
  function drawAside() {
    aside.innerHTML = "";
    const items = P.setAside();
    if (!items.length) return;
    P.sawAside();
    aside.appendChild(el("h3", {}, "Set aside as unreadable"));
    aside.appendChild(el("p", {}, "These copies of your progress could not be read, so they were kept apart " +
      "from it, never deleted. Download one to look at it, or drop it."));
    const ul = aside.appendChild(el("ul", { "class": "set-aside-list" }));
    items.forEach(function (item) {
      const li = ul.appendChild(el("li"));
      li.appendChild(el("span", {}, (item.at ? dayOf(item.at) + ": " : "") +
        (item.question || "the whole value") + ": " + item.reason + " "));
      const get = el("button", { type: "button", "class": "md-button" }, "Download");
      get.addEventListener("click", function () {
        download(C.asideFile(item), "pytorch-interview-set-aside-" + String(item.at || "copy").slice(0, 10) + ".json");
      });
      const drop = el("button", { type: "button", "class": "md-button" }, "Drop");
      drop.addEventListener("click", function () {
        if (!window.confirm("Drop this set-aside copy for good?")) return;
        P.dropAside(item.id);
      });
      li.appendChild(get);
      li.appendChild(drop);
    });
  }
  tool.appendChild(exportButton);
  tool.appendChild(importLabel);
  tool.appendChild(clearButton);
  tool.appendChild(message);
  tool.appendChild(preview);
  tool.appendChild(aside);
  drawAside();
  P.onChange(drawAside);
}

/** @type {Record<string, (tool: HTMLElement) => void>} */
const TOOLS = { summary: summary, ratings: ratings, plan: plan, transfer: transfer };
document.querySelectorAll("[data-progress-tool]").forEach((box) => {
  // The mock interview is its page's own module (mock.js).
  if (!(box instanceof HTMLElement) || box.dataset.ready) return;
  const draw = TOOLS[box.dataset.progressTool || ""];
  if (!draw) return;
  box.dataset.ready = "1";
  const fallback = box.querySelector(".progress-fallback");
  if (fallback) fallback.remove();
  draw(box);
});
