"""Which template each page of a built site comes from, so that a check which costs seconds a
page (axe) can run on every template without running on every page.

Pages from one template are built alike: every question page is the same question layout filled
with other text, every topic page the same learning path. What can differ in a way the expensive
checks see (contrast, landmarks, names) is the template, not the text, so a sample that takes
every template covers them.

The templates are derived from the site, not listed by hand:
- `question`: the source's question pages (question_pages.format.loading, as the build renders them);
- `topic`: the topics' own pages (docs/topics.yml: `<topic>/`);
- `drill`: a coding drill's page (docs/drills/<id>.md, question_pages.drills.pages), every one the
  same layout around another drill's files;
- `notebook`: a page mkdocs-jupyter rendered from a notebook (its `jp-Notebook` in the HTML);
- `static:<name>`: a page the theme writes from a template of its own (404.html), known by a URL
  that is a file, not a folder;
- `page:<source>`: any other page with a Markdown source in docs/ (the home page, the index, the
  tools): each is a layout of its own, so each is its own template, and a new one is sampled
  from the first build that has it.
A page that fits none of these raises `UnknownTemplate`: a new kind of page must be given its
template here, not left out of the checks without anyone knowing.
"""

from __future__ import annotations

from pathlib import Path

from .sites import Site

QUESTION, TOPIC, NOTEBOOK, DRILL = "question", "topic", "notebook", "drill"
NOTEBOOK_MARK = 'class="jp-Notebook'  # mkdocs-jupyter's notebook container


class UnknownTemplate(ValueError):
    """A built page that no rule of this module classifies."""


def markdown_source(docs: Path, rel: str) -> Path | None:
    """The docs/ file a directory URL was built from (`x/` from `x.md` or `x/index.md`)."""
    if not rel:
        candidates = [docs / "index.md"]
    else:
        stem = rel.removesuffix("/")
        candidates = [docs / stem / "index.md", docs / f"{stem}.md"]
    return next((path for path in candidates if path.is_file()), None)


def template_of(site: Site, rel: str, questions: set[str], topics: set[str]) -> str:
    """The template of one page of `site` (its URL relative to the base)."""
    if rel in questions:
        return QUESTION
    if rel in topics:
        return TOPIC
    html = site.dir / (rel if rel.endswith(".html") else rel + "index.html")
    if NOTEBOOK_MARK in html.read_text(encoding="utf-8"):
        return NOTEBOOK
    if rel.endswith(".html"):
        return f"static:{rel}"
    docs = site.root / "docs"
    source = markdown_source(docs, rel)
    if source is not None:
        within = source.relative_to(docs)
        if within.parts[0] == "drills" and len(within.parts) == 2 and within.name != "index.md":
            return DRILL
        return f"page:{within.as_posix()}"
    raise UnknownTemplate(
        f"{site.name}: no template for the page {rel!r}: it is not a question, a topic, a notebook, "
        "a theme page or a Markdown page of docs/. Give its kind a rule in "
        "tests/browser/page_templates.py, so the page tours know what to check on it.")


def templates(site: Site) -> dict[str, list[str]]:
    """Every page of the site under its template, templates and pages sorted."""
    questions = set(site.questions)
    topics = {topic + "/" for topic in site.topics}
    found: dict[str, list[str]] = {}
    for rel in site.pages:
        found.setdefault(template_of(site, rel, questions, topics), []).append(rel)
    missing = questions - set(site.pages)
    if missing:
        raise UnknownTemplate(f"{site.name}: question pages not in the build: {sorted(missing)}")
    return {name: sorted(found[name]) for name in sorted(found)}
