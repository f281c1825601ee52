// Folds a question page's explainer below its first section, so the follow-ups and red flags, the
// parts a candidate rehearses, are not thousands of pixels down. Every heading stays where it was,
// with its anchor: a link to one opens it, the browser's find-in-page opens what it finds
// (hidden="until-found"), printing shows everything, and without JavaScript nothing is folded.
(function () {
  "use strict";

  function words(nodes) {
    return nodes.reduce(function (n, node) {
      return n + (node.textContent.match(/\S+/g) || []).length;
    }, 0);
  }

  function setUp() {
    var top = document.getElementById("explainer");
    if (!top || top.dataset.folded) return;
    top.dataset.folded = "1";
    var headings = [];
    for (var node = top.nextElementSibling; node && node.tagName !== "H2"; node = node.nextElementSibling) {
      if (node.tagName === "H3") headings.push(node);
    }
    var bodies = [];
    headings.forEach(function (heading, index) {
      var parts = [];
      for (var next = heading.nextElementSibling; next && next.tagName !== "H3" && next.tagName !== "H2";
           next = next.nextElementSibling) {
        parts.push(next);
      }
      if (index === 0 || !parts.length) return;  // the first section stays open
      var body = document.createElement("div");
      body.className = "explainer-body";
      body.id = (heading.id || "explainer-" + index) + "--body";
      heading.parentNode.insertBefore(body, parts[0]);
      parts.forEach(function (part) { body.appendChild(part); });
      var button = document.createElement("button");
      button.type = "button";
      button.className = "explainer-toggle";
      button.setAttribute("aria-controls", body.id);
      var count = words(parts);
      function show(open) {
        if (open) body.removeAttribute("hidden"); else body.setAttribute("hidden", "until-found");
        button.setAttribute("aria-expanded", String(open));
        button.textContent = open ? "Fold" : "Read this section (" + count + " words)";
      }
      button.addEventListener("click", function () { show(body.hasAttribute("hidden")); });
      body.addEventListener("beforematch", function () { show(true); });
      heading.insertAdjacentElement("afterend", button);
      show(false);
      bodies.push({ heading: heading, body: body, show: show });
    });
    if (!bodies.length) return;
    var all = document.createElement("button");
    all.type = "button";
    all.className = "explainer-toggle explainer-all";
    all.textContent = "Open every section of the explainer";
    all.addEventListener("click", function () {
      bodies.forEach(function (entry) { entry.show(true); });
      all.remove();
    });
    top.insertAdjacentElement("afterend", all);

    // A link to a folded heading, or to something inside a folded section, opens it first.
    function reveal() {
      var id = decodeURIComponent(window.location.hash.slice(1));
      var target = id && document.getElementById(id);
      if (!target) return;
      bodies.forEach(function (entry) {
        if (entry.heading === target || entry.body.contains(target)) {
          entry.show(true);
          target.scrollIntoView();
        }
      });
    }
    window.addEventListener("hashchange", reveal);
    window.addEventListener("beforeprint", function () { bodies.forEach(function (entry) { entry.show(true); }); });
    reveal();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
