"""The one rule for a question's id, `<topic>/<slug>`: lower-case words joined by hyphens.

The id is a page's file path (docs/<topic>/<slug>.md without .md), its URL and the key of the
reader's progress in the browser. The browser side (docs/assets/javascripts/progress-core.js)
refuses any other id, so check_pages refuses a page whose path breaks the rule, and the scaffold
will not make one; a test keeps the two copies of the pattern identical.
"""

from __future__ import annotations

import re

NAME = r"[a-z0-9]+(?:-[a-z0-9]+)*"
QUESTION_ID = re.compile(rf"^{NAME}/{NAME}$")
NAME_RE = re.compile(NAME)


def is_name(text: str) -> bool:
    """A topic or slug: lower-case letters and digits, words joined by single hyphens."""
    return NAME_RE.fullmatch(text) is not None


def id_problem(page_id: str) -> str | None:
    """Why `page_id` cannot be a question id, or None."""
    if QUESTION_ID.match(page_id):
        return None
    topic, _, slug = page_id.partition("/")
    bad = slug if is_name(topic) else topic
    return (f"'{bad}' in the page's path is not lower-case words joined by hyphens, so it cannot be "
            f"a question id (the key readers' progress is kept under)")


def suggested_name(text: str) -> str:
    """`text` made into a name: 'torch.draft_export' -> 'torch-draft-export'."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower())) or "question"
