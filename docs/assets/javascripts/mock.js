// The mock interview page (docs/mock-interview.md): questions drawn for the reader, one at a time,
// each with a timer against the spoken targets and, where the browser has a microphone, a
// recording of the answer; then the reveal (the short answer as a checklist, the red flags as
// "did you say any of these?", the recording beside the model answers), a self-grade that feeds
// the review schedule (InterviewProgress.rate), one follow-up, and a summary at the end.
// The answers are read from the question pages themselves (same site, fetched when drawn). A
// recording is kept only in this browser, in IndexedDB, and can be deleted; nothing is sent.
(function () {
  "use strict";

  var LEVELS = ["junior", "middle", "senior", "principal"];
  var IMPORTANCE = { "must know": 3, "should know": 2, "nice to know": 1 };
  var RATING_LABELS = { "got-it": "Got it", "review": "Review", "not-yet": "Not yet" };
  var MINUTES_PER_QUESTION = 4;  // answer, reveal, grade and one follow-up
  var DB_NAME = "pytorch-interview-questions.recordings", STORE = "recordings";

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, onClick, primary) {
    var b = el("button", { type: "button", "class": "md-button" + (primary ? " md-button--primary" : "") }, text);
    b.addEventListener("click", onClick);
    return b;
  }

  // A red flag as the reader would have said it: its quoted words, without the explanation.
  function quoted(flag) {
    var match = /^[\u201c"](.+?)[\u201d"]/.exec(flag);
    return "\u201c" + (match ? match[1] : flag.slice(0, 80)) + "\u201d";
  }

  function clock(seconds) {
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  // -- recordings, in IndexedDB only ---------------------------------------------------------
  function db() {
    return new Promise(function (resolve, reject) {
      var request = window.indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function store(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var tx = database.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { database.close(); resolve(request && request.result); };
        tx.onerror = function () { database.close(); reject(tx.error); };
      });
    });
  }

  var recordings = {
    put: function (key, blob) { return store("readwrite", function (s) { return s.put(blob, key); }); },
    get: function (key) { return store("readonly", function (s) { return s.get(key); }); },
    remove: function (key) { return store("readwrite", function (s) { return s.delete(key); }); },
    keys: function () { return store("readonly", function (s) { return s.getAllKeys(); }); }
  };

  function canRecord() {
    return !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia && window.MediaRecorder &&
              window.indexedDB);
  }

  // -- a question page's answers, read from its HTML -------------------------------------------
  function sectionNodes(doc, anchor) {
    var heading = doc.getElementById(anchor);
    var nodes = [];
    if (!heading) return nodes;
    for (var node = heading.nextElementSibling; node && node.tagName !== "H2"; node = node.nextElementSibling) {
      nodes.push(node);
    }
    return nodes;
  }

  function texts(nodes, selector) {
    var out = [];
    nodes.forEach(function (node) {
      var found = node.matches(selector) ? [node] : Array.prototype.slice.call(node.querySelectorAll(selector));
      found.forEach(function (item) {
        if (item.closest(".speaking-time") || item.classList.contains("speaking-time")) return;
        if (item.closest(".admonition-title")) return;
        var text = item.textContent.replace(/\s+/g, " ").trim();
        if (text) out.push(text);
      });
    });
    return out;
  }

  function answersOf(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var followUps = sectionNodes(doc, "follow-ups").filter(function (node) {
      return node.tagName === "DETAILS";
    }).map(function (details) {
      var summary = details.querySelector("summary");
      var body = Array.prototype.slice.call(details.children).filter(function (child) { return child !== summary; });
      return { question: summary.textContent.trim(), answer: texts(body, "p, li") };
    });
    return {
      short: texts(sectionNodes(doc, "short-answer"), "li"),
      basics: texts(sectionNodes(doc, "basics"), "p"),
      solid: texts(sectionNodes(doc, "solid-answer"), "p"),
      // Without the closing "See the run." of each: its link leads into the page.
      redFlags: texts(sectionNodes(doc, "red-flags"), "li").map(function (flag) {
        return flag.replace(/\s*See [^.]*\.$/, "");
      }),
      followUps: followUps
    };
  }

  // -- drawing the questions -------------------------------------------------------------------
  // Weighted by importance, by how often the question comes up, and by what is due; a question
  // marked done (and not due) is left out unless the reader asks for it.
  function weight(q, state) {
    var w = IMPORTANCE[q.importance] * (0.5 + q.frequency / 100);
    if (state === "due") w *= 3;
    else if (state === "not-started") w *= 1.5;
    return w;
  }

  function draw(questions, settings, P) {
    var top = LEVELS.indexOf(settings.level), on = P.today(), value = P.load();
    var pool = questions.filter(function (q) {
      if (settings.topics.indexOf(q.topic) < 0 || LEVELS.indexOf(q.level) > top) return false;
      var e = value.questions[q.id];
      q.state = !e ? "not-started" : (P.isDue(e, on) ? "due" : e.state);
      return settings.includeDone || q.state !== "done";
    });
    var drawn = [];
    while (drawn.length < settings.count && pool.length) {
      var total = pool.reduce(function (sum, q) { return sum + weight(q, q.state); }, 0);
      var pick = Math.random() * total, index = 0;
      for (; index < pool.length - 1; index++) {
        pick -= weight(pool[index], pool[index].state);
        if (pick < 0) break;
      }
      drawn.push(pool.splice(index, 1)[0]);
    }
    return drawn;
  }

  // -- the page --------------------------------------------------------------------------------
  function setUp() {
    var P = window.InterviewProgress;
    var tool = document.querySelector('[data-progress-tool="mock"]');
    if (!P || !tool || tool.dataset.mockReady) return;
    tool.dataset.mockReady = "1";
    var fallback = tool.querySelector(".progress-fallback");
    if (fallback) fallback.remove();
    var questions = JSON.parse(tool.querySelector("script.question-list").textContent);
    var stage = tool.appendChild(el("div", { "class": "mock-stage" }));
    var targets = [Number(tool.dataset.basicsSeconds) || 20, Number(tool.dataset.solidSeconds) || 50];

    function show(nodes, focus) {
      stage.innerHTML = "";
      nodes.forEach(function (node) { stage.appendChild(node); });
      if (focus) focus.focus();
    }

    // The settings form.
    function settingsForm() {
      var form = el("form", { "class": "mock-form" });
      var topics = form.appendChild(el("fieldset", { "class": "mock-topics" }));
      topics.appendChild(el("legend", {}, "Topics"));
      var seen = [];
      questions.forEach(function (q) {
        if (seen.indexOf(q.topic) >= 0) return;
        seen.push(q.topic);
        var label = topics.appendChild(el("label"));
        var box = label.appendChild(el("input", { type: "checkbox", name: "topic", value: q.topic, checked: "" }));
        box.checked = true;
        label.appendChild(document.createTextNode(" " + q.topic_title));
      });
      var levelLabel = form.appendChild(el("label", {}, "Level "));
      var level = levelLabel.appendChild(el("select", { name: "level" }));
      LEVELS.forEach(function (name) {
        level.appendChild(el("option", { value: name }, name.charAt(0).toUpperCase() + name.slice(1)));
      });
      level.value = "senior";
      var lengthLabel = form.appendChild(el("label", {}, "Length "));
      var length = lengthLabel.appendChild(el("select", { name: "length" }));
      [["q3", "3 questions"], ["q5", "5 questions"], ["q8", "8 questions"],
       ["m15", "15 minutes"], ["m30", "30 minutes"]].forEach(function (option) {
        length.appendChild(el("option", { value: option[0] }, option[1]));
      });
      length.value = "q5";
      var doneLabel = form.appendChild(el("label", { "class": "mock-done" }));
      var includeDone = doneLabel.appendChild(el("input", { type: "checkbox", name: "include-done" }));
      doneLabel.appendChild(document.createTextNode(" Include questions I marked done"));
      var message = el("p", { "class": "mock-message", role: "status" });
      form.appendChild(el("button", { type: "submit", "class": "md-button md-button--primary" },
                          "Start the mock interview"));
      form.appendChild(message);
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var chosen = Array.prototype.slice.call(topics.querySelectorAll("input:checked"))
          .map(function (box) { return box.value; });
        var minutes = length.value.charAt(0) === "m" ? Number(length.value.slice(1)) : 0;
        var settings = {
          topics: chosen, level: level.value, includeDone: includeDone.checked, minutes: minutes,
          count: minutes ? Math.max(1, Math.floor(minutes / MINUTES_PER_QUESTION)) : Number(length.value.slice(1))
        };
        if (!chosen.length) { message.textContent = "Choose at least one topic."; return; }
        var drawn = draw(questions, settings, P);
        if (!drawn.length) {
          message.textContent = "No question is left to ask with these settings: every one is done. " +
            "Tick \u201cInclude questions I marked done\u201d, or choose another topic or level.";
          return;
        }
        interview(drawn, settings);
      });
      show([form]);
    }

    // One interview: the drawn questions in turn, then the summary.
    function interview(drawn, settings) {
      var session = new Date().toISOString();
      var results = [];
      var began = Date.now();
      var microphone = canRecord() ? "unknown" : "none";

      function timeUp() {
        return settings.minutes && (Date.now() - began) / 60000 >= settings.minutes;
      }

      function ask(index) {
        var q = drawn[index];
        var result = { question: q, seconds: 0, covered: 0, points: 0, flags: [], rating: null,
                       followUp: null, followUpRating: null, recording: null };
        results.push(result);
        var answers = fetch(q.url).then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        }).then(answersOf);
        var header = el("p", { "class": "mock-progress" },
          "Question " + (index + 1) + " of " + drawn.length +
          (settings.minutes ? " \u00b7 " + clock(Math.floor((Date.now() - began) / 1000)) + " of " +
           settings.minutes + ":00 used" : ""));
        var title = el("h2", { "class": "mock-question", tabindex: "-1" }, q.question);
        // The timer runs from the moment the question is shown, as in an interview.
        var start = Date.now(), ticking = null;
        var face = el("span", { "class": "practice-clock mock-clock", role: "timer", "aria-live": "off" }, "0:00");
        var said = el("p", { "class": "mock-said", "aria-live": "polite" },
          "Answer aloud: the basics in about " + targets[0] + " s, the solid answer in about " + targets[1] + " s.");
        ticking = window.setInterval(function () {
          var s = Math.floor((Date.now() - start) / 1000);
          face.textContent = clock(s);
          if (s === targets[0]) said.textContent = "About " + targets[0] + " s: the basics should be said.";
          if (s === targets[1]) said.textContent = "About " + targets[1] + " s: the solid answer should be said.";
        }, 250);
        var timer = el("div", { "class": "mock-timer" });
        timer.appendChild(face);
        timer.appendChild(said);

        // The recording, offered only where the browser can record.
        var recorder = null, chunks = [], saving = Promise.resolve(null);
        var recordBox = el("div", { "class": "mock-record" });
        var recordState = el("p", { "class": "mock-record-state", role: "status" });
        function stopRecording() {
          if (!recorder || recorder.state === "inactive") return saving;
          saving = new Promise(function (resolve) {
            recorder.addEventListener("stop", function () {
              recorder.stream.getTracks().forEach(function (track) { track.stop(); });
              var blob = new Blob(chunks, { type: recorder.mimeType || "audio/webm" });
              var key = "mock/" + session + "/" + q.id;
              recordings.put(key, blob).then(function () {
                result.recording = key;
                recordState.textContent = "Recorded " + clock(Math.round((Date.now() - recordStart) / 1000)) +
                  ", kept in this browser only.";
                resolve(key);
              }, function () {
                recordState.textContent = "The recording could not be kept (this browser's storage refused it).";
                resolve(null);
              });
            });
            recorder.stop();
          });
          return saving;
        }
        var recordStart = 0;
        if (microphone !== "none") {
          var record = button("Record my answer", function () {
            if (recorder && recorder.state === "recording") {
              stopRecording();
              record.remove();
              return;
            }
            navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
              microphone = "yes";
              chunks = [];
              recorder = new MediaRecorder(stream);
              recorder.addEventListener("dataavailable", function (event) {
                if (event.data && event.data.size) chunks.push(event.data);
              });
              recorder.start();
              recordStart = Date.now();
              record.textContent = "Stop recording";
              recordState.textContent = "Recording\u2026";
            }, function () {
              microphone = "none";
              record.remove();
              recordState.textContent = "No microphone could be used: answer aloud without a recording.";
            });
          });
          recordBox.appendChild(record);
          recordBox.appendChild(recordState);
          recordBox.appendChild(el("p", { "class": "mock-note" },
            "Optional. A recording stays in this browser (IndexedDB), is never sent anywhere, and can be deleted."));
        }

        var reveal = button("I have answered: reveal", function () {
          window.clearInterval(ticking);
          result.seconds = Math.floor((Date.now() - start) / 1000);
          reveal.disabled = true;
          stopRecording().then(function () {
            return answers;
          }).then(function (parts) {
            revealAnswers(index, result, parts);
          }, function (error) {
            show([el("p", { role: "alert" }, "The answers of this question could not be read (" + error.message +
              "). Open it: "), el("a", { href: q.url }, q.question)]);
          });
        }, true);
        show([header, title, timer, recordBox, reveal], title);
      }

      function checklist(legend, items, name) {
        var box = el("fieldset", { "class": "mock-checklist mock-" + name });
        box.appendChild(el("legend", {}, legend));
        items.forEach(function (text, number) {
          var label = box.appendChild(el("label"));
          label.appendChild(el("input", { type: "checkbox", name: name + "-" + number, value: String(number) }));
          label.appendChild(document.createTextNode(" " + text));
        });
        return box;
      }

      function ratingButtons(label, onRate) {
        var group = el("div", { "class": "practice-rate mock-rate", role: "group", "aria-label": label });
        group.appendChild(el("p", {}, label));
        ["got-it", "review", "not-yet"].forEach(function (rating) {
          group.appendChild(button(RATING_LABELS[rating], function () { onRate(rating); }));
        });
        return group;
      }

      function revealAnswers(index, result, parts) {
        var q = result.question;
        var nodes = [el("p", { "class": "mock-progress" }, "Question " + (index + 1) + " of " + drawn.length),
                     el("h2", { "class": "mock-question" }, q.question),
                     el("p", { "class": "mock-spoke" }, "You answered for " + clock(result.seconds) +
                        " (targets: about " + targets[0] + " s for the basics, " + targets[1] + " s for the solid answer).")];
        var points = checklist("The short answer: tick what you said", parts.short, "covered");
        var flags = checklist("Red flags: did you say any of these?", parts.redFlags, "flag");
        nodes.push(points, flags);
        var compare = el("div", { "class": "mock-compare" });
        if (result.recording) {
          var mine = compare.appendChild(el("section", { "class": "mock-mine", "aria-label": "Your recording" }));
          mine.appendChild(el("h3", {}, "Your answer"));
          var audio = mine.appendChild(el("audio", { controls: "", "class": "mock-audio" }));
          recordings.get(result.recording).then(function (blob) {
            if (blob) audio.src = URL.createObjectURL(blob);
          });
          mine.appendChild(button("Delete this recording", function () {
            recordings.remove(result.recording).then(function () {
              result.recording = null;
              mine.innerHTML = "";
              mine.appendChild(el("p", { role: "status" }, "Recording deleted."));
            });
          }));
        }
        var model = compare.appendChild(el("section", { "class": "mock-model", "aria-label": "Model answers" }));
        model.appendChild(el("h3", {}, "Basics (about " + targets[0] + " s)"));
        parts.basics.forEach(function (text) { model.appendChild(el("p", {}, text)); });
        model.appendChild(el("h3", {}, "Solid answer (about " + targets[1] + " s)"));
        parts.solid.forEach(function (text) { model.appendChild(el("p", {}, text)); });
        nodes.push(compare);
        var whole = el("p", { "class": "mock-whole" });
        whole.appendChild(el("a", { href: q.url + "#short-answer" }, "The whole page of this question"));
        nodes.push(whole);
        var saved = el("p", { "class": "mock-saved", role: "status" });
        var grade = ratingButtons("How did it go?", function (rating) {
          result.points = parts.short.length;
          result.covered = points.querySelectorAll("input:checked").length;
          result.flags = Array.prototype.map.call(flags.querySelectorAll("input:checked"), function (box) {
            return parts.redFlags[Number(box.value)];
          });
          result.rating = rating;
          var e = P.rate(q.id, rating);
          saved.textContent = e ? "Saved: " + P.label(q.id) + "." : "";
          grade.remove();
          followUp(index, result, parts, saved);
        });
        nodes.push(grade, saved);
        show(nodes, points.querySelector("input") || grade.querySelector("button"));
      }

      function followUp(index, result, parts, saved) {
        var entry = P.entry(result.question.id) || {};
        var asked = entry.followups || {};
        var pick = parts.followUps.filter(function (f) { return !asked[f.question] || asked[f.question].rating !== "got-it"; })[0] ||
                   parts.followUps[0];
        var next = button(index + 1 < drawn.length && !timeUp() ? "Next question" : "See the summary", function () {
          if (index + 1 < drawn.length && !timeUp()) ask(index + 1);
          else summary();
        }, true);
        if (!pick) {
          saved.parentNode.appendChild(next);
          next.focus();
          return;
        }
        result.followUp = pick.question;
        var box = el("section", { "class": "mock-followup", "aria-label": "Follow-up" });
        var heading = box.appendChild(el("h3", { tabindex: "-1" }, "Follow-up: " + pick.question));
        box.appendChild(el("p", {}, "Answer it aloud, then reveal its answer."));
        var open = box.appendChild(button("Reveal its answer", function () {
          open.remove();
          pick.answer.forEach(function (text) { box.appendChild(el("p", { "class": "mock-followup-answer" }, text)); });
          var rate = box.appendChild(ratingButtons("How did you answer it?", function (rating) {
            P.rateFollowUp(result.question.id, pick.question, rating);
            result.followUpRating = rating;
            rate.remove();
            box.appendChild(el("p", { role: "status" }, "Follow-up rated " + RATING_LABELS[rating].toLowerCase() + "."));
            box.appendChild(next);
            next.focus();
          }));
          rate.querySelector("button").focus();
        }));
        saved.parentNode.appendChild(box);
        heading.focus();
      }

      function summary() {
        var nodes = [el("h2", { "class": "mock-summary-title", tabindex: "-1" }, "How the mock interview went")];
        var minutes = Math.round((Date.now() - began) / 60000);
        nodes.push(el("p", {}, results.length + " question" + (results.length === 1 ? "" : "s") + " in about " +
                      minutes + " minute" + (minutes === 1 ? "" : "s") + "."));
        var table = el("table", { "class": "mock-summary progress-table" });
        var head = table.appendChild(el("thead")).appendChild(el("tr"));
        ["Question", "Grade", "Time", "Short answer", "Red flags said", "Follow-up"].forEach(function (name) {
          head.appendChild(el("th", { scope: "col" }, name));
        });
        var body = table.appendChild(el("tbody"));
        results.forEach(function (r) {
          var row = body.appendChild(el("tr"));
          row.appendChild(el("th", { scope: "row" })).appendChild(el("a", { href: r.question.url }, r.question.question));
          row.appendChild(el("td", {}, r.rating ? RATING_LABELS[r.rating] : "not graded"));
          row.appendChild(el("td", {}, clock(r.seconds)));
          row.appendChild(el("td", {}, r.rating ? r.covered + " of " + r.points : "\u2013"));
          row.appendChild(el("td", {}, r.rating ? String(r.flags.length) : "\u2013"));
          row.appendChild(el("td", {}, r.followUpRating ? RATING_LABELS[r.followUpRating] : "\u2013"));
        });
        var wrap = el("div", { "class": "progress-table-wrap" });
        wrap.appendChild(table);
        nodes.push(wrap);
        var review = results.filter(function (r) {
          return r.rating !== "got-it" || r.flags.length || (r.followUpRating && r.followUpRating !== "got-it");
        });
        if (review.length) {
          nodes.push(el("h3", {}, "What to review"));
          var list = el("ul", { "class": "mock-review" });
          review.forEach(function (r) {
            var item = list.appendChild(el("li"));
            item.appendChild(el("a", { href: r.question.url }, r.question.question));
            var why = [];
            if (r.rating && r.rating !== "got-it") why.push("graded " + RATING_LABELS[r.rating].toLowerCase());
            if (!r.rating) why.push("not graded");
            if (r.flags.length) why.push("said " + r.flags.map(quoted).join("; "));
            if (r.followUpRating && r.followUpRating !== "got-it") why.push("follow-up graded " + RATING_LABELS[r.followUpRating].toLowerCase());
            item.appendChild(document.createTextNode(": " + why.join(", ") + "."));
          });
          nodes.push(list);
        } else {
          nodes.push(el("p", {}, "Nothing to review from this interview: every answer was graded got it, with no red flag."));
        }
        var kept = results.filter(function (r) { return r.recording; });
        if (kept.length) {
          var note = el("p", { "class": "mock-recordings", role: "status" },
            kept.length + " recording" + (kept.length === 1 ? " is" : "s are") + " kept in this browser. ");
          note.appendChild(button("Delete the recordings of this interview", function () {
            Promise.all(kept.map(function (r) { return recordings.remove(r.recording); })).then(function () {
              kept.forEach(function (r) { r.recording = null; });
              note.textContent = "The recordings of this interview are deleted.";
            });
          }));
          nodes.push(note);
        }
        nodes.push(button("Start another mock interview", settingsForm, true));
        show(nodes, nodes[0]);
      }

      ask(0);
    }

    settingsForm();

    // Recordings left from earlier interviews: how many, and a way to delete them all.
    if (window.indexedDB) {
      recordings.keys().then(function (keys) {
        if (!keys || !keys.length) return;
        var line = el("p", { "class": "mock-old-recordings" },
          keys.length + " recording" + (keys.length === 1 ? "" : "s") + " from earlier mock interviews " +
          (keys.length === 1 ? "is" : "are") + " kept in this browser. ");
        line.appendChild(button("Delete every recording", function () {
          Promise.all(keys.map(function (key) { return recordings.remove(key); })).then(function () {
            line.textContent = "Every recording is deleted.";
          });
        }));
        tool.insertBefore(line, stage);
      }, function () { /* no IndexedDB here: nothing was ever recorded */ });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
