"""A scratch copy of the repository with more question pages, to show what a bigger bank costs a
reader on a first visit.

The extra pages are copies of the real ones under new slugs, in new topics (a bank grows by topics:
the core and distributed banks were new topics) and in each real topic (a topic grows too), so a
real page's first visit meets a bigger topic as well as what every page carries: the navigation,
the search, the scripts. Each copy keeps its snippets (the real ones, with their records), its
related questions and its links (to the real pages), so the copies are real pages the build checks
and renders in full.

Two shapes (`Growth`): BENCH, 200 questions in ten new topics of 20 and 20 more in each real topic
(300 when there were five topics, 340 with today's seven), which tests/browser/bench_tour.py builds
to print what they cost a first visit and the test command; and TEST, the smallest bank that still
shows each way a page could grow with the bank (test_weight.py): new topics, and a real topic grown
by more questions than its navigation may show. A build costs about a tenth of a second a page
(bench_tour.py), so TEST's build is shorter than BENCH's (issue 42: the test command's time must not
grow with the bank).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from helpers import ROOT
from site_vendor import SHIPPED


@dataclass(frozen=True)
class Growth:
    """How many copies a grown bank adds: `extra_topics` new topics of `per_topic` questions, and
    `per_real_topic` more questions in each real topic."""

    extra_topics: int
    per_topic: int
    per_real_topic: int

    def added(self, real_topics: int) -> int:
        return self.extra_topics * self.per_topic + real_topics * self.per_real_topic


BENCH = Growth(extra_topics=10, per_topic=20, per_real_topic=20)
# Each real topic gains more questions than a question page's navigation shows of its topic
# (navigation.NEIGHBOURS, 9) and, at 4 elements an entry, more elements than test_weight.py allows
# three new topics (4 each) and the related-question links (2 x BACKLINKS): an unbounded topic list
# fails it. Three new topics show what each new topic adds to the index and every page.
TEST = Growth(extra_topics=3, per_topic=1, per_real_topic=10)
# What a build of the repository reads; the rest (tests, .git, node_modules) is not copied.
_COPIED = ("mkdocs.yml", "CONTRIBUTING.md", "README.md", "requirements.txt", "package.json", "docs",
           "scripts", "snippets", "reports")
_SIBLING_LINK = re.compile(r"\]\((?=[\w-]+\.md)")  # a link to a page of the same topic
_TOPIC = re.compile(r"^topic: .*$", re.M)
_NOTEBOOK_PAGES = 'include: ["notebooks/*.ipynb"]'
_QUESTION = re.compile(r'^question: "(.*)"$', re.M)


def make_grown_source(dest: Path, growth: Growth = BENCH) -> Path:
    """Copy the repository to `dest` and add `growth.extra_topics` x `growth.per_topic` question
    pages in new topics and `growth.per_real_topic` to each real topic."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in _COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, dest / name)
    # The npm packages the build ships (site_vendor), as `npm ci` installed them.
    for package in SHIPPED:
        shutil.copytree(ROOT / "node_modules" / package, dest / "node_modules" / package)
    # mkdocs-jupyter's cache of the real notebooks: the build converts only the new topics' ones.
    cache = ROOT / ".cache" / "mkdocs-jupyter"
    if cache.is_dir():
        shutil.copytree(cache, dest / ".cache" / "mkdocs-jupyter")
    docs = dest / "docs"
    originals = sorted(p for p in docs.glob("*/*.md") if p.name != "index.md"
                       and _QUESTION.search(p.read_text(encoding="utf-8")))
    ledger, topics = [], []
    for number in range(1, growth.extra_topics + 1):
        topic = f"extra{number}"
        topics.append(f"- id: {topic}\n  title: Extra topic {number}\n")
        (docs / topic).mkdir()
        (docs / topic / "index.md").write_text(
            f"# Extra topic {number}\n\nCopies of real questions, to weigh a bigger bank.\n\n"
            f'{{{{ learning_path("{topic}") }}}}\n', encoding="utf-8")
        ledger += [f"{topic}/index.md", f"notebooks/{topic}.ipynb", f"decks/{topic}.apkg",
                   f"decks/{topic}.tsv"]
        for index in range(growth.per_topic):
            original = originals[(number * growth.per_topic + index) % len(originals)]
            ledger += _copy(original, docs / topic, number, index)
    for real in sorted({p.parent for p in originals}):
        own = [p for p in originals if p.parent == real]
        for index in range(growth.per_real_topic):
            ledger += _copy(own[index % len(own)], real, 0, index)
    # The new topics' notebooks are downloads, not rendered pages: mkdocs-jupyter's conversion of
    # BENCH's 200 pages' snippets would be most of the build's time, and no page weighed shows them.
    config = dest / "mkdocs.yml"
    real_topics = [p.name for p in sorted(docs.iterdir())
                   if p.is_dir() and not p.name.startswith("extra") and (p / "index.md").is_file()]
    text = config.read_text(encoding="utf-8")
    assert _NOTEBOOK_PAGES in text, f"{_NOTEBOOK_PAGES} is no longer in mkdocs.yml: update grown.py"
    config.write_text(text.replace(_NOTEBOOK_PAGES, "include: [" + ", ".join(
        f'"notebooks/{topic}.ipynb"' for topic in real_topics) + "]"), encoding="utf-8")
    with (docs / "topics.yml").open("a", encoding="utf-8") as out:
        out.writelines(topics)
    with (docs / "published-urls.txt").open("a", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in ledger)
    return dest


def _copy(original: Path, folder: Path, number: int, index: int) -> list[str]:
    """A copy of a question page in `folder` (its topic), under a new slug and question; the
    ledger lines it needs."""
    topic = folder.name
    slug = f"{original.stem}-copy-{number}-{index}"
    text = original.read_text(encoding="utf-8")
    text = _TOPIC.sub(f"topic: {topic}", text, count=1)
    if original.parent != folder:
        text = _SIBLING_LINK.sub(f"](../{original.parent.name}/", text)
    text = _QUESTION.sub(lambda m: f'question: "Copy {number}.{index}: {m.group(1)}"', text, count=1)
    (folder / f"{slug}.md").write_text(text, encoding="utf-8")
    return [f"{topic}/{slug}.md", f"notebooks/{topic}/{slug}.ipynb"]
