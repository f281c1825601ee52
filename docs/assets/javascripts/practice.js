// Self-test on a question page: hide the answers, time the spoken answer against the page's
// targets, reveal the short answer as a checklist, rate it, and practise the follow-ups one at a
// time. Loaded by progress.js only on question pages; everything is a real button, so it works
// from the keyboard, and with JavaScript off the page reads as it always does.
(function () {
  "use strict";

  var P = window.InterviewProgress;
  var slot = /** @type {HTMLElement | null} */ (document.querySelector(".practice-slot"));
  if (!P || !slot || slot.dataset.ready) return;
  slot.dataset.ready = "1";

  var id = slot.dataset.question;
  var targets = [Number(slot.dataset.basicsSeconds), Number(slot.dataset.solidSeconds)];
  // Everything that answers the question is hidden while practising, the follow-ups too: their
  // answers are answers, and their questions are put one at a time in the panel after the rating.
  var HIDDEN = ["short-answer", "basics", "solid-answer", "code", "go-deeper", "explainer",
                "follow-ups", "red-flags", "sources", "related-questions"];
  var RATING_LABELS = { "got-it": "Got it", "review": "Review", "not-yet": "Not yet" };

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function sectionNodes(anchor) {
    var heading = document.getElementById(anchor);
    var nodes = [];
    if (!heading) return nodes;
    nodes.push(heading);
    for (var node = heading.nextElementSibling; node && node.tagName !== "H2"; node = node.nextElementSibling) {
      nodes.push(node);
    }
    return nodes;
  }

  // `hidden` alone is not enough: Material's CSS gives tabs, admonitions and <details> a display
  // of their own, which beats the attribute's. The data attribute is what site.css hides with
  // `display: none !important`, and `inert` keeps anything inside out of the Tab order and of
  // find-in-page, whatever a stylesheet does.
  function conceal(node) {
    node.dataset.practiceHidden = "1";
    node.hidden = true;
    node.inert = true;
  }

  function unconceal(node) {
    delete node.dataset.practiceHidden;
    node.hidden = false;
    node.inert = false;
  }

  function setHidden(anchor, hidden) {
    sectionNodes(anchor).forEach(function (node) {
      if (hidden) conceal(node);
      else if (node.dataset.practiceHidden) unconceal(node);
    });
  }

  function followUps() {
    var nodes = sectionNodes("follow-ups");
    return nodes.filter(function (node) { return node.tagName === "DETAILS"; });
  }

  function shortAnswerItems() {
    return sectionNodes("short-answer").reduce(function (items, node) {
      node.querySelectorAll && node.querySelectorAll("li").forEach(function (li) { items.push(li.textContent.trim()); });
      return items;
    }, []);
  }

  // -- the status line, shown whether or not the reader practises ------------------------------
  // The status line and the start button are in the page's HTML (render.practice_slot).
  var status = /** @type {HTMLElement} */ (slot.querySelector(".practice-status"));
  var start = /** @type {HTMLButtonElement} */ (slot.querySelector(".practice-start"));

  function showStatus() {
    var e = P.entry(id);
    var text = "Your progress: " + P.label(id);
    if (e) text += " (rated " + RATING_LABELS[e.rating].toLowerCase() + " on " + P.dayOf(e.rated) + ")";
    var state = e ? (P.isDue(e) ? "due" : e.state) : "not-started";
    // Unchanged for a reader who has not rated it: leave the page's HTML alone.
    if (status.textContent !== text) status.textContent = text;
    if (status.dataset.state !== state) status.dataset.state = state;
  }
  showStatus();
  P.onChange(showStatus);

  // -- the self-test panel ----------------------------------------------------------------------
  var panel = null, timer = null, began = 0;

  function stopTimer() {
    if (timer) window.clearInterval(timer);
    timer = null;
  }

  // A follow-up being practised sits in the panel; it goes back to its place, closed and hidden
  // with the rest until the page is shown, after its rating or when the reader stops.
  var away = null;

  function putBack() {
    if (!away) return;
    away.details.open = false;
    conceal(away.details);
    away.home.parentNode.insertBefore(away.details, away.home);
    away.home.remove();
    away = null;
  }

  function exit() {
    stopTimer();
    putBack();
    HIDDEN.forEach(function (anchor) { setHidden(anchor, false); });
    if (panel) panel.remove();
    panel = null;
    delete document.documentElement.dataset.practising;
    start.hidden = false;
    start.focus();
  }

  function timerBlock() {
    var box = el("div", { "class": "practice-timer" });
    var clock = el("span", { "class": "practice-clock", role: "timer", "aria-live": "off" }, "0:00");
    var said = el("p", { "class": "practice-said", "aria-live": "polite" });
    var toggle = el("button", { type: "button", "class": "md-button" }, "Start the timer");
    box.appendChild(el("p", {}, "Say your answer aloud: about " + targets[0] + " s for the basics, about " +
      targets[1] + " s for the solid answer."));
    box.appendChild(clock);
    box.appendChild(toggle);
    box.appendChild(said);
    toggle.addEventListener("click", function () {
      if (timer) {
        stopTimer();
        toggle.textContent = "Start the timer again";
        return;
      }
      began = Date.now();
      clock.textContent = "0:00";
      said.textContent = "";
      toggle.textContent = "Stop the timer";
      timer = window.setInterval(function () {
        var seconds = Math.floor((Date.now() - began) / 1000);
        clock.textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
        if (seconds === targets[0]) said.textContent = "About " + targets[0] + " s: the basics should be said.";
        if (seconds === targets[1]) said.textContent = "About " + targets[1] + " s: the solid answer should be said.";
      }, 250);
    });
    return box;
  }

  function ratingGroup(label, onRate) {
    var group = el("div", { "class": "practice-rate", role: "group", "aria-label": label });
    group.appendChild(el("p", {}, label));
    ["got-it", "review", "not-yet"].forEach(function (rating) {
      var button = el("button", { type: "button", "class": "md-button", "data-rating": rating },
                      RATING_LABELS[rating]);
      button.addEventListener("click", function () { onRate(rating); });
      group.appendChild(button);
    });
    return group;
  }

  function describe(e) {
    if (e.state === "done") return "Saved: done. It will not come back unless you rate it again.";
    return "Saved: review. It comes back on " + P.dayOf(e.due) + ".";
  }

  function nextLink(where) {
    // The next question in learning order that is due or not started, from the build's short
    // learning-order list (ids, paths, titles), not questions.json with every answer.
    fetch(new URL("assets/learning-order.json", P.root()).href).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (index) {
      if (!index) return;
      // What is due first, then what is new (P.nextQuestion); a due one opens its self-test.
      var pick = P.nextQuestion(index.questions, id);
      var next = pick && pick.question;
      if (!next) {
        where.appendChild(el("span", {}, " Nothing else is due or new: well done."));
        return;
      }
      where.appendChild(document.createTextNode(" Next: "));
      where.appendChild(el("a", { href: new URL(next.path, P.root()).href + (pick.due ? "#practice" : ""),
                                  "class": "practice-next" }, next.question));
    }).catch(function () { /* the link is a convenience; the rating is saved */ });
  }

  function practiseFollowUps(list, index) {
    var box = panel.querySelector(".practice-followups");
    box.innerHTML = "";
    if (index >= list.length) {
      box.appendChild(el("p", { role: "status" }, "All " + list.length + " follow-ups practised."));
      var whole = el("button", { type: "button", "class": "md-button" }, "Show the whole page");
      whole.addEventListener("click", exit);
      box.appendChild(whole);
      whole.focus();
      return;
    }
    var details = list[index];
    var question = details.querySelector("summary").textContent.trim();
    var heading = el("p", { "class": "practice-followup", tabindex: "-1" },
                     "Follow-up " + (index + 1) + " of " + list.length + ": " + question);
    box.appendChild(heading);
    var reveal = el("button", { type: "button", "class": "md-button" }, "Reveal its answer");
    box.appendChild(reveal);
    reveal.addEventListener("click", function () {
      // The follow-up itself moves into the panel while it is practised (no copy: its ids stay
      // unique), and goes back to its place after the rating.
      var home = document.createComment("follow-up " + (index + 1));
      details.parentNode.insertBefore(home, details);
      box.insertBefore(details, reveal);
      unconceal(details);
      details.open = true;
      away = { details: details, home: home };
      reveal.remove();
      var rate = ratingGroup("How did you answer it?", function (rating) {
        if (!P.rateFollowUp(id, question, rating)) {
          // Not saved: say so here, and let the reader try again.
          box.appendChild(el("p", { "class": "practice-result", role: "alert" }, P.problem()));
          return;
        }
        putBack();
        practiseFollowUps(list, index + 1);
      });
      box.appendChild(rate);
      rate.querySelector("button").focus();
    });
    heading.focus();
  }

  function begin() {
    // One panel, however the self-test is started (the button, a link to #practice, twice).
    if (panel) {
      panel.querySelector(".practice-intro").focus();
      return;
    }
    start.hidden = true;
    // The table of contents is hidden too: the explainer's headings hint at its answer.
    document.documentElement.dataset.practising = "1";
    HIDDEN.forEach(function (anchor) { setHidden(anchor, true); });
    followUps().forEach(function (details) { details.open = false; });
    panel = el("section", { "class": "practice-panel", "aria-label": "Self-test" });
    var intro = el("p", { "class": "practice-intro", tabindex: "-1" },
                   "The answers are hidden. Answer the question above aloud, then reveal the short answer.");
    panel.appendChild(intro);
    panel.appendChild(timerBlock());
    var reveal = el("button", { type: "button", "class": "md-button md-button--primary practice-reveal" },
                    "Reveal the short answer");
    panel.appendChild(reveal);
    var checklist = el("fieldset", { "class": "practice-checklist", hidden: "" });
    checklist.appendChild(el("legend", {}, "Tick what your answer covered"));
    shortAnswerItems().forEach(function (text, number) {
      var label = el("label", {});
      var box = el("input", { type: "checkbox", name: "covered-" + number });
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + text));
      checklist.appendChild(label);
    });
    panel.appendChild(checklist);
    var result = el("p", { "class": "practice-result", role: "status" });
    var rate = ratingGroup("How did it go?", function (rating) {
      stopTimer();
      var e = P.rate(id, rating);
      if (!e) {
        // The write failed: say so here, where the reader is looking, and keep the buttons.
        result.textContent = "";
        result.appendChild(el("span", { role: "alert" }, "Not saved. " + P.problem()));
        return;
      }
      result.textContent = describe(e);
      nextLink(result);
      rate.hidden = true;
      after.hidden = false;
      after.querySelector("button").focus();
    });
    rate.hidden = true;
    panel.appendChild(rate);
    panel.appendChild(result);
    var after = el("div", { "class": "practice-after", hidden: "" });
    var list = followUps();
    if (list.length) {
      var fu = el("button", { type: "button", "class": "md-button" }, "Practise the " + list.length + " follow-ups");
      fu.addEventListener("click", function () { fu.remove(); practiseFollowUps(list, 0); });
      after.appendChild(fu);
    }
    after.appendChild(el("div", { "class": "practice-followups" }));
    panel.appendChild(after);
    var stop = el("button", { type: "button", "class": "md-button practice-exit" }, "Stop practising and show the page");
    stop.addEventListener("click", exit);
    panel.appendChild(stop);
    reveal.addEventListener("click", function () {
      reveal.remove();
      checklist.hidden = false;
      rate.hidden = false;
      var first = checklist.querySelector("input");
      (first || rate.querySelector("button")).focus();
    });
    slot.appendChild(panel);
    intro.focus();
  }

  start.addEventListener("click", begin);
  if (window.location.hash === "#practice") begin();
})();
