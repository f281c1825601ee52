"""Scaffold a new topic (its index page, its place in docs/topics.yml, its published URLs), and a
new question page with its first snippet, in the format, with TODO placeholders.

The placeholders fail `check_pages.py` and the build ('unfinished placeholder'), so a half-written
page cannot be published by accident. Every file changed is returned, for the command to print.
"""

from __future__ import annotations

from pathlib import Path

from question_pages.format.ids import NAME_RE
from question_pages.format.model import IMPORTANCE, LEVELS, WORD_RANGES
from question_pages.format.published import LEDGER, append
from question_pages.format.topics import add_topic, load_topics, topics_path
from question_pages.sitewide.downloads import deck_uris, question_notebook_uri
from snippet_engine.errors import ProjectError
from snippet_engine.records.pins import pinned_minor

PAGE = """---
question: "{question}"
level: {level}
importance: {importance}
frequency: {frequency}  # editor's estimate, 0-100: how often (%) it comes up in a {topic} interview
topic: {topic}
tags: [TODO]
related: []
---

## Short answer

- TODO: a few words
- TODO: at most five bullets

## Basics

TODO: the minimum correct answer, {basics[0]} to {basics[1]} words (about 20 s spoken).

## Solid answer

TODO: what a strong candidate says unprompted, {solid[0]} to {solid[1]} words (about 50 s spoken).

## Code

{{{{ snippet("{topic}/{snippet}.py") }}}}

TODO: one or two sentences on what the output shows.

## Go deeper

### Junior

TODO

### Middle

TODO

### Senior

TODO

### Principal

TODO

## Explainer

### TODO: first heading

TODO: the long form, in sections.

## Follow-ups

### TODO: the question an interviewer asks next?

TODO: its short answer.

## Red flags

- "TODO: a misconception, stated plainly." TODO: why it is wrong, [linked](#explainer).

## Sources

- [TODO: torch {minor} documentation](https://docs.pytorch.org/docs/{minor}/)
"""

SNIPPET = '''import torch

# TODO: the smallest complete program whose real output makes the page's point.
print(torch.__version__)
'''


class ScaffoldError(ProjectError, ValueError):
    """A command-line argument that cannot make a page or topic; the message says which and how."""



TOPIC_INDEX = """# {title}

{intro}

{{{{ learning_path("{topic}") }}}}
"""

_NAME = NAME_RE  # the question id rule (ids.py)


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def scaffold_topic(root: Path, topic: str, title: str, intro: str | None = None) -> list[str]:
    """Start a topic: its index page (with the learning path), its place at the end of
    docs/topics.yml, and its published URLs (index, notebook and decks). Returns the files changed."""
    docs_dir = root / "docs"
    if not _NAME.fullmatch(topic):
        raise ScaffoldError(f"topic '{topic}' must be lowercase words joined by '-', e.g. compile")
    if not title.strip():
        raise ScaffoldError("--title must say what readers see, e.g. 'torch.compile'")
    declared = {t.id for t in load_topics(docs_dir)} if topics_path(docs_dir).exists() else set()
    if topic in declared:
        raise FileExistsError(f"topic '{topic}' is already declared in docs/topics.yml")
    index = docs_dir / topic / "index.md"
    if index.exists():
        raise FileExistsError(f"{_rel(index, root)} already exists; declare the topic in "
                              "docs/topics.yml by hand or remove the file")
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(TOPIC_INDEX.format(
        title=title.strip(), topic=topic,
        intro=(intro or "TODO: two or three sentences: what the topic covers, and why interviews "
                        "ask about it.").strip()), encoding="utf-8")
    add_topic(docs_dir, topic, title.strip())
    changed = [_rel(index, root), _rel(topics_path(docs_dir), root)]
    for uri in (f"{topic}/index.md", f"notebooks/{topic}.ipynb", *deck_uris([topic])):
        if append(root, uri):
            changed.append(f"{LEDGER} (+ {uri})")
    return changed


def scaffold(root: Path, topic: str, slug: str, question: str, level: str,
             importance: str = "should know", frequency: int = 30) -> list[str]:
    """Write a page with every section as a placeholder and its first snippet, and list the page
    and its notebook in the ledger. Returns the files changed."""
    if not _NAME.fullmatch(slug):
        raise ScaffoldError(f"slug '{slug}' must be lowercase words joined by '-', e.g. graph-signature")
    if not _NAME.fullmatch(topic):
        raise ScaffoldError(f"topic '{topic}' must be lowercase words joined by '-', e.g. export")
    if level not in LEVELS:
        raise ScaffoldError(f"level '{level}' must be one of: {', '.join(LEVELS)}")
    if importance not in IMPORTANCE:
        raise ScaffoldError(f"importance '{importance}' must be one of: {', '.join(IMPORTANCE)}")
    if not question.strip().endswith("?"):
        raise ScaffoldError("the question must end with '?'")
    declared = [t.id for t in load_topics(root / "docs")]
    if topic not in declared:
        raise ScaffoldError(f"there is no topic '{topic}' yet (topics: {', '.join(declared)}). Start "
                         f"it first: python scripts/new_topic.py {topic} --title \"<what readers "
                         "see>\"")
    page = root / "docs" / topic / f"{slug}.md"
    snippet = root / "snippets" / topic / f"{slug.replace('-', '_')}.py"
    for path in (page, snippet):
        if path.exists():
            raise FileExistsError(f"{_rel(path, root)} already exists; choose another slug")
    page.parent.mkdir(parents=True, exist_ok=True)
    snippet.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(PAGE.format(question=question.replace('"', "'"), level=level,
                                importance=importance, frequency=frequency, topic=topic,
                                snippet=snippet.stem, basics=WORD_RANGES["Basics"],
                                solid=WORD_RANGES["Solid answer"],
                                minor=pinned_minor(root)),
                    encoding="utf-8")
    snippet.write_text(SNIPPET, encoding="utf-8")
    changed = [_rel(page, root), _rel(snippet, root)]
    for uri in (f"{topic}/{slug}.md", question_notebook_uri(f"{topic}/{slug}")):
        if append(root, uri):
            changed.append(f"{LEDGER} (+ {uri})")
    return changed
