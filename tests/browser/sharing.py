"""What a link to the site shows when pasted into a guide, a chat or a search engine, read from a
page in the browser (as a crawler that runs scripts sees it): its title and description, and a
question's Open Graph tags and schema.org QAPage data, compared with what its source says.

Shared by test_sharing.py (the fixture site, one page after the other) and the page tours
(test_pages.py), which load every page of the real site anyway and read each one's head as they go
instead of loading them all a second time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from question_pages.format.loading import load_pages
from question_pages.format.model import Page as QuestionPage
from question_pages.render.sharing import description, structured_data

# Read on a loaded page with page.evaluate: everything `problems` compares.
READ_HEAD = r"""() => {
  const meta = key => document.querySelector(`meta[name="${key}"], meta[property="${key}"]`)?.content;
  const data = document.querySelector('script[type="application/ld+json"]');
  const h1 = document.querySelector('article h1')?.cloneNode(true);
  h1?.querySelectorAll('.headerlink').forEach(link => link.remove());  // the permalink's ¶
  const section = id => {  // the text a reader sees under a heading, without the speaking time
    const parts = [];
    for (let el = document.getElementById(id)?.nextElementSibling; el && el.tagName !== 'H2';
         el = el.nextElementSibling) {
      if (!el.classList.contains('speaking-time')) parts.push(el.textContent);
    }
    return parts.join(' ').split(/\s+/).join(' ').trim();
  };
  return {
    basics: section('basics'),
    solid: section('solid-answer'),
    title: document.title,
    h1: h1?.textContent.trim(),
    canonical: document.querySelector('link[rel="canonical"]')?.href,
    description: meta('description'),
    og: Object.fromEntries(['og:type', 'og:title', 'og:description', 'og:url', 'og:site_name',
                            'twitter:card', 'twitter:title', 'twitter:description']
                           .map(key => [key, meta(key)])),
    jsonLd: data ? data.textContent : null,
  };
}"""


def site_url(root: Path) -> str:
    match = re.search(r"^site_url:\s*(\S+)", (root / "mkdocs.yml").read_text(), re.M)
    assert match, f"{root}/mkdocs.yml has no site_url"
    return match.group(1)


def questions_by_url(root: Path) -> dict[str, QuestionPage]:
    """The site's question pages by their URL relative to the site (export/slug/)."""
    return {page.page_id + "/": page for page in load_pages(root)[0]}


def problems(rel: str, head: dict, question: QuestionPage | None, base_url: str) -> list[str]:
    """What is wrong with what page `rel` shows when shared: any page needs a title and a
    description; a question page, its tags, description, heading, canonical URL and QAPage."""
    found = []
    if not head["title"].strip() or not (head["description"] or "").strip():
        found.append(f"{rel or '/'}: no title or no meta description")
    if question is None:
        return found
    canonical = base_url + rel
    want = {"og:type": "article", "og:title": question.question,
            "og:description": description(question), "og:url": canonical,
            "og:site_name": head["og"]["og:site_name"] or "(missing)",
            "twitter:card": "summary", "twitter:title": question.question,
            "twitter:description": description(question)}
    if head["og"] != want:
        found.append(f"{rel}: sharing tags {head['og']} are not {want}")
    if head["description"] != description(question):
        found.append(f"{rel}: description {head['description']!r} is not the page's Basics")
    if not head["basics"].startswith(head["description"].removesuffix("…")):
        found.append(f"{rel}: description {head['description']!r} is not how the page's "
                        f"Basics begins: {head['basics'][:200]!r}")
    if head["h1"] != question.question:
        found.append(f"{rel}: heading {head['h1']!r} is not the question")
    if head["canonical"] != canonical:
        found.append(f"{rel}: canonical URL {head['canonical']}, not {canonical}")
    data = json.loads(head["jsonLd"] or "null")
    if data != json.loads(structured_data(question, canonical)):
        found.append(f"{rel}: structured data {data} is not the page's QAPage")
    elif data["mainEntity"]["acceptedAnswer"]["text"] != head["solid"]:
        found.append(f"{rel}: the accepted answer is not the Solid answer a reader sees: "
                        f"{data['mainEntity']['acceptedAnswer']['text'][:200]!r} vs "
                        f"{head['solid'][:200]!r}")
    return found
