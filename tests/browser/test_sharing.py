"""What a link to the site shows when pasted into a guide, a chat or a search engine: each page's
title and description, each question's Open Graph tags and schema.org QAPage data (read in the
browser, as a crawler that runs scripts sees them; sharing.py), and a sitemap that lists every
page. The real site's pages are read as the page tour loads them (test_pages.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from playwright.sync_api import Browser

from .gates import DESKTOP
from .sharing import READ_HEAD, problems, questions_by_url, site_url
from .sites import Site


def test_every_question_of_the_fixture_site_says_what_it_is_when_shared(fixture_site: Site,
                                                                         browser: Browser) -> None:
    """The real site's pages are read by the page tour (test_pages.py), which loads every one."""
    site = fixture_site
    pages = questions_by_url(site.root)
    assert sorted(pages) == sorted(site.questions)
    found: list[str] = []
    context = browser.new_context(viewport=DESKTOP)
    # Only the document and its scripts matter here; styles and images are the other tests' job.
    context.route(lambda url: url.endswith((".css", ".png", ".svg")), lambda route: route.abort())
    tab = context.new_page()
    try:
        for rel in site.pages:
            tab.goto(site.url(rel), wait_until="domcontentloaded")
            found += problems(rel, tab.evaluate(READ_HEAD), pages.get(rel), site_url(site.root))
    finally:
        context.close()
    assert not found, "\n".join(found)


def test_sitemap_lists_every_page(site: Site) -> None:
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    listed = {loc.text.removeprefix(site_url(site.root))
              for loc in ET.parse(site.dir / "sitemap.xml").getroot().iterfind("s:url/s:loc", namespace)}
    pages = {rel for rel in site.pages if rel != "404.html"}  # an error page is not for search
    assert listed == pages, (f"missing from the sitemap: {sorted(pages - listed)}; "
                             f"listed but not a page: {sorted(listed - pages)}")
