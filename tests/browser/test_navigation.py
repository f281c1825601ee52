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
            # The links a reader sees under the topic: its questions, less the page's own
            # table of contents (links to anchors of the page).
            topic_nav = nav.locator(".md-nav__item--active > nav > ul")
            links = [link for link in topic_nav.locator(":scope > li > a").all() if link.is_visible()]
            hrefs = [link.get_attribute("href") or "" for link in links]
            titles = [link.inner_text().strip() for link in links]
            questions_shown = [h for h in hrefs[1:-1] if not h.startswith("#")]
            assert 0 < len(questions_shown) <= NEIGHBOURS + 1, (rel, titles)
            all_link = links[-1]
            expect(all_link).to_have_text(re.compile(rf"All {len(questions)} questions"))
            assert any(h in ("./", "") for h in hrefs), f"{rel}: the page itself is not listed: {hrefs}"
            all_link.click()
            page.wait_for_url(re.compile(rf"/{topic}/$"))
            body = page.locator("article")
            for other in questions:
                expect(body.locator(f'a[href$="{other.split("/")[1]}/"]').first).to_be_visible()
            page.close()
    problems = [p for record in visits for p in record.problems()]
    assert not problems, "\n".join(problems)
