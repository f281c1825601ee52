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
      var table = el("table", { "class": "progress-table" });
      var caption = el("caption", {}, "Done and due, per topic and level (done / due / questions)");
      table.appendChild(caption);
      var head = el("tr");
      head.appendChild(el("th", { scope: "col" }, "Topic"));
      LEVELS.forEach(function (level) { head.appendChild(el("th", { scope: "col" }, capital(level))); });
      table.appendChild(el("thead")).appendChild(head);
      var body = table.appendChild(el("tbody"));
      var topics = [];
      questions.forEach(function (q) { if (topics.indexOf(q.topic) < 0) topics.push(q.topic); });
      // In the order of docs/topics.yml, as the navigation shows them.
      topics.sort(function (a, b) {
        var rank = function (t) { return questions.filter(function (q) { return q.topic === t; })[0].topic_rank; };
        return rank(a) - rank(b);
      });
      topics.forEach(function (topic) {
        var row = el("tr");
        var title = questions.filter(function (q) { return q.topic === topic; })[0].topic_title;
        row.appendChild(el("th", { scope: "row" }, title));
        LEVELS.forEach(function (level) {
          var here = questions.filter(function (q) { return q.topic === topic && q.level === level; });
          var done = here.filter(function (q) { return stateOf(q, value, on) === "done"; }).length;
          var due = here.filter(function (q) { return stateOf(q, value, on) === "due"; }).length;
          var cell = el("td", { "data-topic": topic, "data-level": level },
                        here.length ? done + " / " + due + " / " + here.length : "none");
          row.appendChild(cell);
        });
        body.appendChild(row);
      });
      box.appendChild(table);
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

  var TOOLS = { summary: summary, plan: plan, transfer: transfer };
  document.querySelectorAll("[data-progress-tool]").forEach(function (tool) {
    if (tool.dataset.ready) return;
    tool.dataset.ready = "1";
    var fallback = tool.querySelector(".progress-fallback");
    if (fallback) fallback.remove();
    TOOLS[tool.dataset.progressTool](tool);
  });
  window.InterviewStudy = { planOf: planOf };
})();
