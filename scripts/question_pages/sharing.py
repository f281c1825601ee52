"""What a link to a question shows when pasted into a guide, a chat or a search result.

The description comes from the page's Basics (plain text, trimmed at a word), and the structured
data is a schema.org QAPage whose Question has the Solid answer as its accepted answer.
"""

from __future__ import annotations

import json
import re

from .model import Page

_MARKUP = re.compile(r"`|\*\*?|__?")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def plain(markdown: str) -> str:
    text = _LINK.sub(r"\1", markdown)
    text = _MARKUP.sub("", text)
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
