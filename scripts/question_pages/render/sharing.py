"""What a link to a question shows when pasted into a guide, a chat or a search result.

The description comes from the page's Basics (plain text, trimmed at a word), and the structured
data is a schema.org QAPage whose Question has the Solid answer as its accepted answer.
"""

from __future__ import annotations

import json
import re

from question_pages.format.model import Page

_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# Emphasis markers only: `*` anywhere, `_` only where it cannot be inside a word, so that names
# such as aoti_compile_and_package or torch._dynamo keep their underscores.
_EMPHASIS = re.compile(r"\*\*?|(?<![\w.])__?(?=\S)|(?<=\S)__?(?!\w)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def plain(markdown: str) -> str:
    """The text a reader sees: links become their text, emphasis markers go, code spans keep
    their content exactly."""
    text = _LINK.sub(r"\1", markdown)
    parts = _CODE.split(text)  # [prose, ticks, code, prose, ticks, code, ..., prose]
    text = "".join(_EMPHASIS.sub("", part) if i % 3 == 0 else part if i % 3 == 2 else ""
                   for i, part in enumerate(parts))
    return " ".join(text.split())


def description(page: Page, limit: int = 200) -> str:
    section = page.section("Basics")
    text = plain(section.text if section else page.question)
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def structured_data(page: Page, url: str | None) -> str:
    solid = page.section("Solid answer")
    data = {
        "@context": "https://schema.org",
        "@type": "QAPage",
        "mainEntity": {
            "@type": "Question",
            "name": page.question,
            "text": page.question,
            "answerCount": 1,
            "acceptedAnswer": {
                "@type": "Answer",
                "text": plain(solid.text) if solid else description(page),
                **({"url": url + "#solid-answer"} if url else {}),
            },
        },
    }
    # Safe inside <script>: no "</" can close the tag early.
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
