"""The list of questions the progress tools embed (expand.question_list): the drills join it after
every question, in a group of their own, so their ratings count in the summary, what is due and
the plan; the mock interview's list leaves them out, as its rounds are spoken."""

from __future__ import annotations

import json
import re

from helpers import ROOT
from question_pages.format.loading import load_pages
from question_pages.format.topics import load_topics
from question_pages.render.expand import DRILLS_TOPIC, ListedDrill, progress_tool, question_list

DRILLS = [ListedDrill("drills/rope", "Write RoPE", "senior", 30),
          ListedDrill("drills/rms-norm", "Write RMSNorm", "middle", 20)]


def _href(page_id: str) -> str:
    return "../" + page_id + "/"


def _embedded(tool_html: str) -> list[dict]:
    found = re.search(r'<script type="application/json" class="question-list">(.*?)</script>',
                      tool_html, re.S)
    assert found, tool_html[:200]
    return json.loads(found.group(1))


def test_drills_follow_every_question_in_their_own_group() -> None:
    pages, errors = load_pages(ROOT)
    assert not errors
    topics = load_topics(ROOT / "docs")
    items = json.loads(question_list(pages, topics, _href, DRILLS))
    questions, drills = items[:len(pages)], items[len(pages):]
    assert [q["id"] for q in questions] and not any("kind" in q for q in questions)
    assert [d["id"] for d in drills] == ["drills/rope", "drills/rms-norm"]
    rope = drills[0]
    assert rope == {"id": "drills/rope", "question": "Write RoPE", "url": "../drills/rope/",
                    "topic": DRILLS_TOPIC[0], "topic_title": DRILLS_TOPIC[1],
                    "topic_rank": len(topics), "level": "senior", "importance": "should know",
                    "frequency": 0, "minutes": 30, "kind": "drill"}
    assert all(q["topic_rank"] < len(topics) for q in questions)


def test_the_mock_interview_lists_no_drill_and_the_other_tools_do() -> None:
    pages, _ = load_pages(ROOT)
    topics = load_topics(ROOT / "docs")
    mock = _embedded(progress_tool("mock", pages, topics, _href, DRILLS))
    summary = _embedded(progress_tool("summary", pages, topics, _href, DRILLS))
    assert len(mock) == len(pages) and not [q for q in mock if q.get("kind") == "drill"]
    assert len(summary) == len(pages) + len(DRILLS)
