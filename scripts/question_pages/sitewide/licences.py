"""The terms on which the bank may be reused, in one place: what questions.json and the downloads
say. The full texts are LICENSE (the code, MIT) and LICENSE-content (the pages' content, CC BY 4.0)
at the repository's root; README.md and the site's footer (`copyright` in mkdocs.yml) say the
same, and tests/question_pages/sitewide/test_licences.py keeps all of them in step.

Code is MIT, so a reader can paste a snippet into their own project without a credit line in it;
the pages' content is CC BY 4.0, so a guide author can reuse an answer with a credit and a link.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Licence:
    spdx: str  # the SPDX identifier
    short: str  # as a footer or a credit line names it
    name: str
    url: str  # the licence's canonical text
    file: str  # its full text in the repository
    covers: str


CODE = Licence(
    "MIT", "MIT", "MIT License", "https://opensource.org/license/mit", "LICENSE",
    "The code: the snippets (snippets/) and every code block on the pages and in the notebooks, "
    "the scripts, the tests, and the site's own JavaScript, styles and templates.")
CONTENT = Licence(
    "CC-BY-4.0", "CC BY 4.0", "Creative Commons Attribution 4.0 International",
    "https://creativecommons.org/licenses/by/4.0/", "LICENSE-content",
    "The pages' content: the questions, every answer tier, the explainers, follow-ups and red "
    "flags (so every answer in questions.json), the recorded outputs as the pages show them, and "
    "the Anki decks and TSV made from them.")


def attribution(site_name: str, page_url: str) -> str:
    """The credit CC BY 4.0 asks for, for reuse of one page (or of the site, given its URL)."""
    return f'"{site_name}" ({page_url}), {CONTENT.short}'


def licence_entry(site_name: str, site_url: str) -> dict:
    """questions.json's `license`."""
    return {
        "content": _entry(CONTENT),
        "code": _entry(CODE),
        "attribution": attribution(site_name, site_url),
    }


def _entry(licence: Licence) -> dict:
    return {"spdx": licence.spdx, "name": licence.name, "url": licence.url,
            "covers": licence.covers}
