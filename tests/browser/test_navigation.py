"""The left navigation of a question page, as a reader sees it on a desktop: however many questions
its topic has, it lists a bounded window of them, the page's neighbours in learning order with
the page among them, and a link to the topic's page, which lists them all.
(tests/browser/test_weight.py shows the same with 100 more questions in the real topics.)"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from mkdocs_site.navigation import NEIGHBOURS

from .gates import DESKTOP, recorded_context, visit
from .sites import Site


def _largest_topic(site: Site) -> tuple[str, list[str]]:
    """The topic with the most questions, and their page paths in the built site."""
    by_topic: dict[str, list[str]] = {}
    for rel in site.questions:
        by_topic.setdefault(rel.split("/")[0], []).append(rel)
    topic = max(by_topic, key=lambda t: len(by_topic[t]))
    return topic, by_topic[topic]


def test_a_question_page_lists_its_neighbours_and_a_link_to_all(real_site: Site, browser: Browser) -> None:
    topic, questions = _largest_topic(real_site)
    assert len(questions) > NEIGHBOURS, f"no topic is larger than the window ({NEIGHBOURS})"
    with recorded_context(browser, real_site.base, viewport=DESKTOP) as (context, visits):
        for rel in (questions[0], questions[len(questions) // 2], questions[-1]):
            page = visit(context, visits, real_site.url(rel))[0]
            nav = page.locator(".md-sidebar--primary .md-nav--primary")
            links = [link for link in nav.locator("a.md-nav__link").all() if link.is_visible()]
            # Where each visible link goes, without the page's own table of contents (anchors).
            targets = [(link, link.evaluate("a => a.href.split('#')[0]")) for link in links
                       if not (link.get_attribute("href") or "").startswith("#")]
            topic_url = real_site.url(f"{topic}/")
            shown = {url for _, url in targets if url.startswith(topic_url) and url != topic_url}
            assert real_site.url(rel) in shown, f"{rel}: the page itself is not listed: {shown}"
            assert len(shown) <= NEIGHBOURS, f"{rel}: {len(shown)} of its topic's questions listed"
            all_link = nav.get_by_role("link", name=f"All {len(questions)} questions")
            expect(all_link).to_be_visible()
            all_link.click()
            page.wait_for_url(re.compile(rf"/{topic}/$"))
            body = page.locator("article")
            for other in questions:
                expect(body.locator(f'a[href$="{other.split("/")[1]}/"]').first).to_be_visible()
            page.close()
    problems = [p for record in visits for p in record.problems()]
    assert not problems, "\n".join(problems)
