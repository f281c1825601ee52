// The reader's progress tools, loaded by progress.js on the pages that hold one
// (`{{ progress("...") }}` markers): a summary per topic and level with what is due and the next
// question, a study plan for the days before an interview, and export, import and clearing of
// progress. Each reads the list of questions its marker embedded: no request.
(function () {
  "use strict";

  var P = window.InterviewProgress;
  if (!P) return;
  var LEVELS = ["junior", "middle", "senior", "principal"];
  var IMPORTANCE = ["must know", "should know", "nice to know"];

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  function questionsOf(tool) {
    return JSON.parse(tool.querySelector("script.question-list").textContent);
  }

  function stateOf(question, value, on) {
    var e = value.questions[question.id];
    if (!e) return "not-started";
    return P.isDue(e, on) ? "due" : e.state;
  }

  // The first question, in learning order, that is due or not started.
  function next(questions, value, on) {
    return questions.filter(function (q) {
      var state = stateOf(q, value, on);
      return state === "due" || state === "not-started";
    })[0] || null;
  }

  function link(question) {
    return el("a", { href: question.url }, question.question);
  }

  // -- summary --------------------------------------------------------------------------------
  // Done and due per topic and level: a group of rows per topic (its title heads the group), a row
  // per level that has questions, and a column each for the questions, done and due, so no cell
  // holds three numbers. Narrow enough for a phone; site.css gives it borders and spacing.
  function countsTable(questions, value, on) {
    var wrap = el("div", { "class": "progress-table-wrap" });
    var table = wrap.appendChild(el("table", { "class": "progress-table" }));
    table.appendChild(el("caption", {}, "Done and due, per topic and level"));
    var head = table.appendChild(el("thead")).appendChild(el("tr"));
    ["Level", "Questions", "Done", "Due for review"].forEach(function (name) {
      head.appendChild(el("th", { scope: "col" }, name));
    });
    var topics = [];
    questions.forEach(function (q) { if (topics.indexOf(q.topic) < 0) topics.push(q.topic); });
    // In the order of docs/topics.yml, as the navigation shows them.
    topics.sort(function (a, b) {
      var rank = function (t) { return questions.filter(function (q) { return q.topic === t; })[0].topic_rank; };
      return rank(a) - rank(b);
    });
    topics.forEach(function (topic) {
      var body = table.appendChild(el("tbody"));
      var ofTopic = questions.filter(function (q) { return q.topic === topic; });
      body.appendChild(el("tr", { "class": "progress-topic" }))
        .appendChild(el("th", { scope: "rowgroup", colspan: "4" }, ofTopic[0].topic_title));
      LEVELS.forEach(function (level) {
        var here = ofTopic.filter(function (q) { return q.level === level; });
        if (!here.length) return;
        var count = function (state) {
          return here.filter(function (q) { return stateOf(q, value, on) === state; }).length;
        };
        var row = body.appendChild(el("tr", { "data-topic": topic, "data-level": level }));
        row.appendChild(el("th", { scope: "row" }, capital(level)));
        [here.length, count("done"), count("due")].forEach(function (n) {
          row.appendChild(el("td", {}, String(n)));
        });
      });
    });
    return wrap;
  }

  function summary(tool) {
    var questions = questionsOf(tool);
    function draw() {
      var value = P.load(), on = P.today();
      var box = tool.querySelector(".progress-output") || tool.appendChild(el("div", { "class": "progress-output" }));
      box.innerHTML = "";
      var counts = { done: 0, due: 0 };
      questions.forEach(function (q) {
        var state = stateOf(q, value, on);
        if (state === "done") counts.done += 1;
        if (state === "due") counts.due += 1;
      });
      var line = el("p", { "class": "progress-line" },
        "Done: " + counts.done + " of " + questions.length + ". Due for review today: " + counts.due + ". ");
      var first = next(questions, value, on);
      if (first) {
        line.appendChild(document.createTextNode("Next question: "));
        var a = link(first);
        a.className = "progress-next";
        line.appendChild(a);
      } else {
        line.appendChild(document.createTextNode("Nothing is due and every question is started."));
      }
      box.appendChild(line);
      box.appendChild(countsTable(questions, value, on));
      var due = questions.filter(function (q) { return stateOf(q, value, on) === "due"; });
      if (due.length) {
        box.appendChild(el("p", {}, "Due for review today:"));
        var list = box.appendChild(el("ul", { "class": "progress-due" }));
        due.forEach(function (q) { list.appendChild(el("li")).appendChild(link(q)); });
      }
    }
    draw();
    P.onChange(draw);
  }

  // -- ratings --------------------------------------------------------------------------------
  // Every question the reader has rated, in learning order, with where it stands and, under it,
  // each of its follow-ups with its own rating (practice.js rates them one at a time).
  var RATING_LABELS = { "got-it": "Got it", "review": "Review", "not-yet": "Not yet" };

  function ratingText(rating, rated) {
    return "Rated " + (RATING_LABELS[rating] || String(rating)) + (rated ? " on " + rated : "") + ".";
  }

  function ratings(tool) {
    var questions = questionsOf(tool);
    function draw() {
      var value = P.load(), on = P.today();
      var box = tool.querySelector(".progress-output") || tool.appendChild(el("div", { "class": "progress-output" }));
      box.innerHTML = "";
      var rated = questions.filter(function (q) { return value.questions[q.id]; });
      if (!rated.length) {
        box.appendChild(el("p", {}, "You have not rated a question yet."));
        return;
      }
      var list = box.appendChild(el("ul", { "class": "progress-ratings" }));
      rated.forEach(function (q) {
        var e = value.questions[q.id];
        var item = list.appendChild(el("li"));
        item.appendChild(link(q));
        item.appendChild(el("span", { "class": "progress-rating" },
          " " + ratingText(e.rating, e.rated) + " Now: " + P.label(q.id, on) + "."));
        var titles = Object.keys(e.followups || {});
        if (!titles.length) return;
        var sub = item.appendChild(el("ul", { "class": "progress-followup-ratings", "aria-label": "Follow-ups" }));
        titles.forEach(function (title) {
          var f = e.followups[title] || {};
          var line = sub.appendChild(el("li"));
          line.appendChild(el("span", { "class": "progress-followup-question" }, title));
          line.appendChild(el("span", { "class": "progress-rating" }, " " + ratingText(f.rating, f.rated)));
        });
      });
    }
    draw();
    P.onChange(draw);
  }

  // -- study plan -----------------------------------------------------------------------------
  // Questions up to the target level, what matters most first (must know, then should know, then
  // nice to know), each group in learning order; done questions are left out unless due again.
  function planOf(questions, days, level, value, on) {
    var top = LEVELS.indexOf(level);
    var wanted = questions.filter(function (q) {
      return LEVELS.indexOf(q.level) <= top && stateOf(q, value, on) !== "done";
    });
    var ordered = [];
    IMPORTANCE.forEach(function (importance) {
      wanted.forEach(function (q) { if (q.importance === importance) ordered.push(q); });
    });
    var perDay = Math.max(1, Math.ceil(ordered.length / days));
    var plan = [];
    for (var day = 0; day < days; day++) plan.push(ordered.slice(day * perDay, (day + 1) * perDay));
    return { perDay: perDay, days: plan, total: ordered.length };
  }

  function plan(tool) {
    var questions = questionsOf(tool);
    var params = new URLSearchParams(window.location.search);
    var form = el("form", { "class": "plan-form" });
    var daysLabel = el("label", {}, "Days until the interview ");
    var days = el("input", { type: "number", min: "1", max: "90", name: "days", required: "" });
    days.value = params.get("days") || "3";
    daysLabel.appendChild(days);
    var levelLabel = el("label", {}, "Target level ");
    var level = el("select", { name: "level" });
    LEVELS.forEach(function (name) { level.appendChild(el("option", { value: name }, capital(name))); });
    level.value = LEVELS.indexOf(params.get("level")) >= 0 ? params.get("level") : "senior";
    levelLabel.appendChild(level);
    var make = el("button", { type: "submit", "class": "md-button md-button--primary" }, "Make the plan");
    var print = el("button", { type: "button", "class": "md-button" }, "Print it");
    print.addEventListener("click", function () { window.print(); });
    form.appendChild(daysLabel);
    form.appendChild(levelLabel);
    form.appendChild(make);
    form.appendChild(print);
    tool.appendChild(form);
    var out = tool.appendChild(el("div", { "class": "plan-output", "aria-live": "polite" }));

    function draw() {
      var count = Math.min(90, Math.max(1, Math.floor(Number(days.value) || 1)));
      var value = P.load(), on = P.today();
      var result = planOf(questions, count, level.value, value, on);
      out.innerHTML = "";
      out.appendChild(el("p", { "class": "plan-line" }, result.total + " questions up to " + level.value +
        " level that are not done, in " + count + " day" + (count > 1 ? "s" : "") + ": about " +
        result.perDay + " a day, what matters most first."));
      result.days.forEach(function (list, index) {
        if (!list.length) return;
        var date = P.addDays(on, index);
        out.appendChild(el("h3", { "class": "plan-day" }, "Day " + (index + 1) + " (" + date + ")"));
        var ol = out.appendChild(el("ol", { "class": "plan-list" }));
        list.forEach(function (q) {
          var li = ol.appendChild(el("li"));
          li.appendChild(link(q));
          var state = stateOf(q, value, on);
          li.appendChild(el("span", { "class": "plan-meta" }, " " + q.importance + ", " + q.level +
            (state === "due" ? ", due for review" : state === "review" ? ", in review" : "")));
        });
      });
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var url = new URLSearchParams(window.location.search);
      url.set("days", days.value);
      url.set("level", level.value);
      window.history.replaceState(window.history.state, "", window.location.pathname + "?" + url.toString());
      draw();
    });
    draw();
    P.onChange(draw);
  }

  // -- export, import, clear ------------------------------------------------------------------
  var APP = "pytorch-interview-questions";

  function transfer(tool) {
    var message = el("p", { "class": "transfer-message", role: "status" });
    var exportButton = el("button", { type: "button", "class": "md-button" }, "Export progress to a file");
    exportButton.addEventListener("click", function () {
      var value = P.load();
      var file = { app: APP, kind: "progress", exported: new Date().toISOString(),
                   version: value.version, questions: value.questions };
      var blob = new Blob([JSON.stringify(file, null, 1) + "\n"], { type: "application/json" });
      var a = el("a", { href: URL.createObjectURL(blob), download: "pytorch-interview-progress-" + P.today() + ".json" });
      document.body.appendChild(a);
      a.click();
      a.remove();
      message.textContent = "Exported " + Object.keys(value.questions).length + " questions.";
    });
    var importLabel = el("label", { "class": "md-button" }, "Import progress from a file");
    var input = el("input", { type: "file", accept: "application/json,.json", "class": "transfer-file" });
    importLabel.appendChild(input);
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file) return;
      file.text().then(function (text) {
        var data;
        try {
          data = JSON.parse(text);
        } catch (error) {
          message.textContent = file.name + " is not a progress file of this site (it is not JSON). Nothing was changed.";
          return;
        }
        if (!data || data.app !== APP || data.kind !== "progress") {
          message.textContent = file.name + " is not a progress file of this site (it was not exported " +
            "by this site's Export button). Nothing was changed.";
          return;
        }
        var done = P.merge({ version: data.version, questions: data.questions });
        if (done.error) {
          message.textContent = file.name + " cannot be imported: " + done.error + ". Nothing was changed.";
          return;
        }
        message.textContent = "Imported " + file.name + ": " + done.added + " new and " + done.newer +
          " newer of its " + done.total + " questions; for the others this browser's rating was as recent.";
      }).finally(function () { input.value = ""; });
    });
    var clearButton = el("button", { type: "button", "class": "md-button" }, "Clear all progress");
    clearButton.addEventListener("click", function () {
      if (!window.confirm("Clear the progress kept in this browser? Export it first to keep a copy.")) return;
      P.clear();
      message.textContent = "Progress cleared.";
    });
    tool.appendChild(exportButton);
    tool.appendChild(importLabel);
    tool.appendChild(clearButton);
    tool.appendChild(message);
  }

  var TOOLS = { summary: summary, ratings: ratings, plan: plan, transfer: transfer };
  document.querySelectorAll("[data-progress-tool]").forEach(function (tool) {
    // The mock interview has its own script (mock.js), loaded by its page.
    if (tool.dataset.ready || !TOOLS[tool.dataset.progressTool]) return;
    tool.dataset.ready = "1";
    var fallback = tool.querySelector(".progress-fallback");
    if (fallback) fallback.remove();
    TOOLS[tool.dataset.progressTool](tool);
  });
  window.InterviewStudy = { planOf: planOf };
})();
