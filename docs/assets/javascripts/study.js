// The reader's progress tools, loaded by progress.js on the pages that hold one
// (`{{ progress("...") }}` markers): a summary per topic and level with what is due, the next
// question and a "Practise what is due" run; a study plan aimed at an interview date, topics and a
// level, with minutes per question and per day; export, import (shown before it is written) and
// clearing of progress, and the copies of progress set aside as unreadable. Each reads the list of
// questions its marker embedded: no request.
(function () {
  "use strict";

  var P = window.InterviewProgress;
  var C = window.InterviewProgressCore;
  if (!P) return;
  var LEVELS = ["junior", "middle", "senior", "principal"];
  var IMPORTANCE = ["must know", "should know", "nice to know"];

  // -- what only the tools change: the interview date, imports, the set-aside copies ----------
  /** @param {string | null} day @returns {boolean} */
  function setInterview(day) {
    var value = P.load();
    if (day !== null && !C.calendarDay(day)) return false;
    if (value.interview === day) return true;
    value.interview = day;
    return P.save(value);
  }

  /** What an import file would change (nothing is written). @param {string} text @returns {any} */
  function planImport(text) {
    var read = C.readImport(text, new Date());
    if ("error" in read) return read;
    var result = C.planImport(P.load(), read.value);
    result.rejected = read.rejected;
    return result;
  }

  /** Drop one set-aside copy (the reader asked to). @param {string} id */
  function dropAside(id) {
    var list = P.setAside().filter(function (item) { return item.id !== id; });
    try {
      if (list.length) window.localStorage.setItem(P.ASIDE, JSON.stringify(list));
      else window.localStorage.removeItem(P.ASIDE);
    } catch (error) {
      P.report("The set-aside copy could not be dropped (" + /** @type {Error} */ (error).name + ").");
    }
    P.refresh();
  }

  /** Mark every set-aside copy seen: pages stop warning about them once they are listed here. */
  function sawAside() {
    var list = P.setAside();
    if (!list.some(function (item) { return !item.seen; })) return;
    list.forEach(function (item) { item.seen = true; });
    try { window.localStorage.setItem(P.ASIDE, JSON.stringify(list)); } catch (error) { /* warned again */ }
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  /** @param {Element} tool @returns {any[]} */
  function questionsOf(tool) {
    return JSON.parse(tool.querySelector("script.question-list").textContent || "[]");
  }

  function stateOf(question, value, on) {
    var e = value.questions[question.id];
    if (!e) return "not-started";
    return P.isDue(e, on) ? "due" : e.state;
  }

  // The next question: the longest overdue first, then the first not started in learning order.
  function next(questions) {
    var pick = P.nextQuestion(questions);
    return pick ? pick.question : null;
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
      var first = next(questions);
      if (first) {
        line.appendChild(document.createTextNode("Next question: "));
        var a = link(first);
        a.className = "progress-next";
        line.appendChild(a);
      } else {
        line.appendChild(document.createTextNode("Nothing is due and every question is started."));
      }
      box.appendChild(line);
      if (counts.due) {
        // A run through what is due: the longest overdue first, its self-test open; after each
        // rating the self-test links the next due question the same way.
        var run = el("a", { "class": "md-button md-button--primary progress-run" },
                     "Practise what is due (" + counts.due + ")");
        run.setAttribute("href", first.url + "#practice");
        box.appendChild(el("p")).appendChild(run);
      }
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

  // Ratings are kept as instants (progress-core.js); the reader sees the day in their time zone.
  /** @param {string} rating @param {string | undefined} rated an ISO timestamp */
  function ratingText(rating, rated) {
    return "Rated " + (RATING_LABELS[rating] || String(rating)) + (rated ? " on " + P.dayOf(rated) : "") + ".";
  }

  // A follow-up rated before its question makes an entry with no review of its own
  // (progress-core's rateFollowUp): the question is due, not rated.
  /** @param {any} e */
  function questionRating(e) {
    return e.card && e.card.last_review === null ? "Not rated itself yet." : ratingText(e.rating, e.rated);
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
          " " + questionRating(e) + " Now: " + P.label(q.id, on) + "."));
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
  // The questions of the chosen topics up to the target level, and the must-know questions above
  // it that are a topic's core (must know and asked often: frequency 50% or more); what is due
  // first, then must know, should know, nice to know, each in learning order; done questions are
  // left out unless due again. Minutes per question come from the page (markers.question_list).
  var CORE_FREQUENCY = 50;

  /** @param {any[]} questions @param {number} days @param {string} level @param {string[]} topics
   * @param {any} value @param {string} on */
  function planOf(questions, days, level, topics, value, on) {
    var top = LEVELS.indexOf(level);
    var wanted = questions.filter(function (q) {
      if (topics.indexOf(q.topic) < 0 || stateOf(q, value, on) === "done") return false;
      return LEVELS.indexOf(q.level) <= top || (q.importance === "must know" && q.frequency >= CORE_FREQUENCY);
    });
    var ordered = wanted.filter(function (q) { return stateOf(q, value, on) === "due"; });
    IMPORTANCE.forEach(function (importance) {
      wanted.forEach(function (q) {
        if (q.importance === importance && ordered.indexOf(q) < 0) ordered.push(q);
      });
    });
    var perDay = Math.max(1, Math.ceil(ordered.length / days));
    var plan = [];
    for (var day = 0; day < days; day++) plan.push(ordered.slice(day * perDay, (day + 1) * perDay));
    return { perDay: perDay, days: plan, total: ordered.length };
  }

  /** @param {any[]} list */
  function minutes(list) {
    return list.reduce(function (sum, q) { return sum + (q.minutes || 0); }, 0);
  }

  /** Whole days from `from` to `to` ("YYYY-MM-DD"). @param {string} from @param {string} to */
  function daysBetween(from, to) {
    return Math.round((C.calendarDay(to).getTime() - C.calendarDay(from).getTime()) / 86400000);
  }

  function plan(tool) {
    var questions = questionsOf(tool);
    var params = new URLSearchParams(window.location.search);
    var on = P.today();
    var topicIds = [], titles = {};
    questions.forEach(function (q) {
      if (topicIds.indexOf(q.topic) < 0) { topicIds.push(q.topic); titles[q.topic] = q.topic_title; }
    });
    // The interview date: from the URL (?interview=YYYY-MM-DD or ?days=N) it is kept with the
    // progress; otherwise the one kept; otherwise three days from today, until the reader says.
    var fromUrl = null;
    var wantedDays = Math.floor(Number(params.get("days")));
    if (params.get("interview") && C.calendarDay(params.get("interview"))) fromUrl = params.get("interview");
    else if (wantedDays >= 1 && wantedDays <= 365) fromUrl = P.addDays(on, wantedDays);
    if (fromUrl) setInterview(fromUrl);
    var form = el("form", { "class": "plan-form" });
    var dateLabel = el("label", {}, "Interview date ");
    var date = el("input", { type: "date", name: "interview", required: "", min: on });
    date.value = fromUrl || P.load().interview || P.addDays(on, 3);
    dateLabel.appendChild(date);
    var levelLabel = el("label", {}, "Target level ");
    var level = el("select", { name: "level" });
    LEVELS.forEach(function (name) { level.appendChild(el("option", { value: name }, capital(name))); });
    level.value = LEVELS.indexOf(params.get("level")) >= 0 ? params.get("level") : "senior";
    levelLabel.appendChild(level);
    var topicBox = el("fieldset", { "class": "plan-topics" });
    topicBox.appendChild(el("legend", {}, "Topics"));
    var chosen = (params.get("topics") || "").split(",").filter(function (t) { return topicIds.indexOf(t) >= 0; });
    topicIds.forEach(function (topic) {
      var label = el("label", {});
      var box = el("input", { type: "checkbox", name: "topic", value: topic });
      box.checked = !chosen.length || chosen.indexOf(topic) >= 0;
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + titles[topic]));
      topicBox.appendChild(label);
    });
    var make = el("button", { type: "submit", "class": "md-button md-button--primary" }, "Make the plan");
    var print = el("button", { type: "button", "class": "md-button" }, "Print it");
    print.addEventListener("click", function () { window.print(); });
    form.appendChild(dateLabel);
    form.appendChild(levelLabel);
    form.appendChild(topicBox);
    form.appendChild(make);
    form.appendChild(print);
    tool.appendChild(form);
    var out = tool.appendChild(el("div", { "class": "plan-output", "aria-live": "polite" }));

    function topics() {
      return Array.prototype.filter.call(topicBox.querySelectorAll("input"), function (box) { return box.checked; })
        .map(function (box) { return box.value; });
    }

    function draw() {
      var today = P.today();
      var interview = C.calendarDay(date.value) ? date.value : P.addDays(today, 3);
      var count = Math.min(365, Math.max(1, daysBetween(today, interview)));
      var value = P.load();
      var result = planOf(questions, count, level.value, topics(), value, today);
      out.innerHTML = "";
      var total = minutes(Array.prototype.concat.apply([], result.days));
      out.appendChild(el("p", { "class": "plan-line" }, result.total + " questions of the chosen topics up to " +
        level.value + " level (and the must-know questions at the core of each topic) that are not done, in " +
        count + " day" + (count > 1 ? "s" : "") + " before the interview on " + interview + ": about " +
        result.perDay + " a day, about " + Math.ceil(total / count) + " minutes a day (" + total +
        " minutes in all), what is due and what matters most first."));
      out.appendChild(el("p", { "class": "plan-note" }, "Minutes per question: its spoken answers and " +
        "follow-ups at 150 words a minute, plus half a minute to check and rate."));
      result.days.forEach(function (list, index) {
        if (!list.length) return;
        var day = P.addDays(today, index);
        out.appendChild(el("h3", { "class": "plan-day" }, "Day " + (index + 1) + " (" + day + "): about " +
          minutes(list) + " minutes"));
        var ol = out.appendChild(el("ol", { "class": "plan-list" }));
        list.forEach(function (q) {
          var li = ol.appendChild(el("li"));
          li.appendChild(link(q));
          var state = stateOf(q, value, today);
          li.appendChild(el("span", { "class": "plan-meta" }, " " + q.importance + ", " + q.level + ", " +
            q.minutes + " min" + (LEVELS.indexOf(q.level) > LEVELS.indexOf(level.value) ? ", core of its topic" : "") +
            (state === "due" ? ", due for review" : state === "review" ? ", in review" : "")));
        });
      });
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var saved = setInterview(date.value);
      var url = new URLSearchParams(window.location.search);
      url.delete("days");
      url.set("interview", date.value);
      url.set("level", level.value);
      url.set("topics", topics().join(","));
      window.history.replaceState(window.history.state, "", window.location.pathname + "?" + url.toString());
      draw();
      if (!saved) out.insertBefore(el("p", { "class": "plan-problem", role: "alert" }, "The interview date was not kept: " + P.problem()), out.firstChild);
    });
    draw();
    P.onChange(draw);
  }

  // -- export, import, clear, set aside ------------------------------------------------------
  var APP = "pytorch-interview-questions";

  /** @param {string} text @param {string} name */
  function download(text, name) {
    var blob = new Blob([text], { type: "application/json" });
    var a = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  /** @param {number} n @param {string} one @param {string} many */
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  function transfer(tool) {
    var message = el("p", { "class": "transfer-message", role: "status" });
    var preview = el("div", { "class": "transfer-preview" });
    var exportButton = el("button", { type: "button", "class": "md-button" }, "Export progress to a file");
    exportButton.addEventListener("click", function () {
      var value = P.load();
      var file = { app: APP, kind: "progress", exported: new Date().toISOString(),
                   version: value.version, interview: value.interview, questions: value.questions };
      download(JSON.stringify(file, null, 1) + "\n", "pytorch-interview-progress-" + P.today() + ".json");
      message.textContent = "Exported " + plural(Object.keys(value.questions).length, "question", "questions") + ".";
    });
    var importLabel = el("label", { "class": "md-button" }, "Import progress from a file");
    var input = el("input", { type: "file", accept: "application/json,.json", "class": "transfer-file" });
    importLabel.appendChild(input);

    // What the file would change, shown before anything is written; "Import it" writes it.
    function showPlan(name, plan) {
      preview.innerHTML = "";
      var changes = plan.added.length + plan.newer.length + plan.followups.length;
      var summary = el("p", { "class": "transfer-summary", tabindex: "-1" }, name + ": " +
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
        var ul = preview.appendChild(el("ul", { "class": "transfer-list" }));
        lines.slice(0, 50).forEach(function (line) { ul.appendChild(el("li", {}, line)); });
        if (lines.length > 50) ul.appendChild(el("li", {}, "and " + (lines.length - 50) + " more"));
      }
      list("Would replace this browser's rating:", plan.newer.map(function (id) {
        var mine = P.entry(id), theirs = plan.merged.questions[id];
        return id + ": " + mine.rating + " on " + P.dayOf(mine.rated) + " becomes " + theirs.rating + " on " + P.dayOf(theirs.rated);
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
      var go = el("button", { type: "button", "class": "md-button" }, "Import it");
      var cancel = el("button", { type: "button", "class": "md-button" }, "Cancel");
      go.addEventListener("click", function () {
        // The plan is made again against what is stored now (another tab may have rated since).
        var fresh = planImport(plan.text);
        if ("error" in fresh || !P.save(fresh.merged)) {
          message.textContent = "Not imported: " + ("error" in fresh ? fresh.error : P.problem());
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
      var file = input.files && input.files[0];
      if (!file) return;
      preview.innerHTML = "";
      if (file.size > C.LIMITS.fileBytes) {
        message.textContent = file.name + " cannot be imported: it is " + (file.size / 1048576).toFixed(1) +
          " MB, larger than any progress file of this site. Nothing was changed.";
        input.value = "";
        return;
      }
      file.text().then(function (text) {
        var plan = planImport(text);
        if ("error" in plan) {
          message.textContent = file.name + " cannot be imported: " + plan.error + ". Nothing was changed.";
          return;
        }
        plan.text = text;
        showPlan(file.name, plan);
      }).catch(function () {
        message.textContent = file.name + " could not be read. Nothing was changed.";
      }).finally(function () { input.value = ""; });
    });
    var clearButton = el("button", { type: "button", "class": "md-button" }, "Clear all progress");
    clearButton.addEventListener("click", function () {
      if (!window.confirm("Clear the progress kept in this browser? Export it first to keep a copy.")) return;
      message.textContent = P.clear() ? "Progress cleared." : "Not cleared: " + P.problem();
    });
    var aside = el("div", { "class": "set-aside" });
    function drawAside() {
      aside.innerHTML = "";
      var items = P.setAside();
      if (!items.length) return;
      sawAside();
      aside.appendChild(el("h3", {}, "Set aside as unreadable"));
      aside.appendChild(el("p", {}, "These copies of your progress could not be read, so they were kept apart " +
        "from it, never deleted. Download one to look at it, or drop it."));
      var ul = aside.appendChild(el("ul", { "class": "set-aside-list" }));
      items.forEach(function (item) {
        var li = ul.appendChild(el("li"));
        li.appendChild(el("span", {}, (item.at ? P.dayOf(item.at) + ": " : "") +
          (item.question || "the whole value") + ": " + item.reason + " "));
        var get = el("button", { type: "button", "class": "md-button" }, "Download");
        get.addEventListener("click", function () {
          download(String(item.raw), "pytorch-interview-set-aside-" + String(item.at || "copy").slice(0, 10) + ".json");
        });
        var drop = el("button", { type: "button", "class": "md-button" }, "Drop");
        drop.addEventListener("click", function () {
          if (!window.confirm("Drop this set-aside copy for good?")) return;
          dropAside(item.id);
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

  var TOOLS = { summary: summary, ratings: ratings, plan: plan, transfer: transfer };
  document.querySelectorAll("[data-progress-tool]").forEach(function (tool) {
    var box = /** @type {HTMLElement} */ (tool);
    // The mock interview has its own script (mock.js), loaded by its page.
    if (box.dataset.ready || !TOOLS[box.dataset.progressTool]) return;
    box.dataset.ready = "1";
    var fallback = tool.querySelector(".progress-fallback");
    if (fallback) fallback.remove();
    TOOLS[box.dataset.progressTool](box);
  });
})();
