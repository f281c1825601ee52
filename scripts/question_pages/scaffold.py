"""Scaffold a new question page and its first snippet, in the format, with TODO placeholders.

The placeholders fail `check_pages.py` and the build ('unfinished placeholder'), so a half-written
page cannot be published by accident.
"""

from __future__ import annotations

import re
from pathlib import Path

from .model import IMPORTANCE, LEVELS
from .published import append

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

TODO: the minimum correct answer, 35 to 70 words (about 20 s spoken).

## Solid answer

TODO: what a strong candidate says unprompted, 95 to 170 words (about 50 s spoken).

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

- [TODO: torch 2.13 documentation](https://docs.pytorch.org/docs/2.13/)
"""

SNIPPET = '''import torch

# TODO: the smallest complete program whose real output makes the page's point.
print(torch.__version__)
'''


def scaffold(root: Path, topic: str, slug: str, question: str, level: str,
             importance: str = "should know", frequency: int = 30) -> tuple[Path, Path]:
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug):
        raise ValueError(f"slug '{slug}' must be lowercase words joined by '-', e.g. graph-signature")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", topic):
        raise ValueError(f"topic '{topic}' must be lowercase words joined by '-', e.g. export")
    if level not in LEVELS:
        raise ValueError(f"level '{level}' must be one of: {', '.join(LEVELS)}")
    if importance not in IMPORTANCE:
        raise ValueError(f"importance '{importance}' must be one of: {', '.join(IMPORTANCE)}")
    if not question.strip().endswith("?"):
        raise ValueError("the question must end with '?'")
    page = root / "docs" / topic / f"{slug}.md"
    snippet = root / "snippets" / topic / f"{slug.replace('-', '_')}.py"
    for path in (page, snippet):
        if path.exists():
            raise FileExistsError(f"{path.relative_to(root)} already exists; choose another slug")
    page.parent.mkdir(parents=True, exist_ok=True)
    snippet.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(PAGE.format(question=question.replace('"', "'"), level=level,
                                importance=importance, frequency=frequency, topic=topic,
                                snippet=snippet.stem), encoding="utf-8")
    snippet.write_text(SNIPPET, encoding="utf-8")
    append(root, f"{topic}/{slug}.md")
    return page, snippet
