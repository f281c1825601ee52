"""What a link to the site shows when pasted into a guide, a chat or a search engine: each page's
title and description, each question's Open Graph tags and schema.org QAPage data (read in the
browser, as a crawler that runs scripts sees them), and a sitemap that lists every page."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from playwright.sync_api import Browser

from question_pages.format.loading import load_pages
from question_pages.render.sharing import description, structured_data

from .gates import DESKTOP
from .sites import Site

_HEAD = r"""() => {
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


def site_url(site: Site) -> str:
    return re.search(r"^site_url:\s*(\S+)", (site.root / "mkdocs.yml").read_text(), re.M).group(1)


def test_every_question_says_what_it_is_when_shared(site: Site, browser: Browser) -> None:
    pages = {page.page_id + "/": page for page in load_pages(site.root)[0]}
    assert sorted(pages) == sorted(site.questions)
    problems: list[str] = []
    context = browser.new_context(viewport=DESKTOP)
    # Only the document and its scripts matter here; styles and images are the other tests' job.
    context.route(lambda url: url.endswith((".css", ".png", ".svg")), lambda route: route.abort())
    tab = context.new_page()
    try:
        for rel in site.pages:
            tab.goto(site.url(rel), wait_until="domcontentloaded")
            head = tab.evaluate(_HEAD)
            if not head["title"].strip() or not (head["description"] or "").strip():
                problems.append(f"{rel or '/'}: no title or no meta description")
            question = pages.get(rel)
            if question is None:
                continue
            canonical = site_url(site) + rel
            want = {"og:type": "article", "og:title": question.question,
                    "og:description": description(question), "og:url": canonical,
                    "og:site_name": head["og"]["og:site_name"] or "(missing)",
                    "twitter:card": "summary", "twitter:title": question.question,
                    "twitter:description": description(question)}
            if head["og"] != want:
                problems.append(f"{rel}: sharing tags {head['og']} are not {want}")
            if head["description"] != description(question):
                problems.append(f"{rel}: description {head['description']!r} is not the page's Basics")
            if not head["basics"].startswith(head["description"].removesuffix("…")):
                problems.append(f"{rel}: description {head['description']!r} is not how the page's "
                                f"Basics begins: {head['basics'][:200]!r}")
            if head["h1"] != question.question:
                problems.append(f"{rel}: heading {head['h1']!r} is not the question")
            if head["canonical"] != canonical:
                problems.append(f"{rel}: canonical URL {head['canonical']}, not {canonical}")
            data = json.loads(head["jsonLd"] or "null")
            if data != json.loads(structured_data(question, canonical)):
                problems.append(f"{rel}: structured data {data} is not the page's QAPage")
            elif data["mainEntity"]["acceptedAnswer"]["text"] != head["solid"]:
                problems.append(f"{rel}: the accepted answer is not the Solid answer a reader sees: "
                                f"{data['mainEntity']['acceptedAnswer']['text'][:200]!r} vs "
                                f"{head['solid'][:200]!r}")
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def test_sitemap_lists_every_page(site: Site) -> None:
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    listed = {loc.text.removeprefix(site_url(site))
              for loc in ET.parse(site.dir / "sitemap.xml").getroot().iterfind("s:url/s:loc", namespace)}
    pages = {rel for rel in site.pages if rel != "404.html"}  # an error page is not for search
    assert listed == pages, (f"missing from the sitemap: {sorted(pages - listed)}; "
                             f"listed but not a page: {sorted(listed - pages)}")
