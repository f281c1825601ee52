"""The site's topics, declared once in `docs/topics.yml`, in the order a reader learns them.

That one list orders the navigation, the home page, the learning paths and the index filter, and
says which folders under docs/ hold question pages. Each declared topic has an index page
(`docs/<topic>/index.md`, with its learning path) and a notebook of its snippets; both are
published URLs, so they are listed in `docs/published-urls.txt`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from snippet_engine.errors import ProjectError

TOPICS_FILE = "topics.yml"  # under docs/
TOPIC_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
HEADER = ("# The site's topics, in the order a reader learns them. This list orders the navigation,\n"
          "# the home page and the question index. Start a topic with scripts/new_topic.py.\n")


class TopicsError(ProjectError, ValueError):
    """`docs/topics.yml` cannot be read; `line` is where the problem is."""

    def __init__(self, line: int, what: str, fix: str) -> None:
        super().__init__(f"{what}. {fix}")
        self.line, self.what, self.fix = line, what, fix


@dataclass(frozen=True)
class Topic:
    id: str  # the folder under docs/ and snippets/, e.g. "export"
    title: str  # what a reader sees, e.g. "torch.export"
    line: int  # where it is declared, for errors

    @property
    def index_uri(self) -> str:
        return f"{self.id}/index.md"

    @property
    def notebook_uri(self) -> str:
        return f"notebooks/{self.id}.ipynb"


def topics_path(docs_dir: Path) -> Path:
    return docs_dir / TOPICS_FILE


def load_topics(docs_dir: Path) -> list[Topic]:
    """The declared topics in order. Raises TopicsError (with a line) when the file is wrong."""
    path = topics_path(docs_dir)
    if not path.exists():
        raise TopicsError(1, f"{path.name} is missing",
                          "Create it with a list of '- id: ...' and 'title: ...' entries")
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise TopicsError(mark.line + 1 if mark else 1, f"not valid YAML ({exc})",
                          "Write one '- id: name' entry per topic, with 'title:' below it") from None
    starts = [number for number, line in enumerate(text.splitlines(), start=1)
              if line.lstrip().startswith("- ")]
    if not isinstance(data, list) or not data:
        raise TopicsError(1, "no topics are declared",
                          "Write one '- id: name' entry per topic, with 'title:' below it")
    topics: list[Topic] = []
    seen: dict[str, int] = {}
    for index, entry in enumerate(data):
        line = starts[index] if index < len(starts) else 1
        if not isinstance(entry, dict) or set(entry) != {"id", "title"}:
            raise TopicsError(line, f"entry {index + 1} is not an 'id' and a 'title'",
                              "Write it as '- id: compile' with '  title: torch.compile' below")
        topic_id, title = str(entry["id"]), str(entry["title"]).strip()
        if not TOPIC_ID.fullmatch(topic_id):
            raise TopicsError(line, f"topic id '{topic_id}' is not lowercase words joined by '-'",
                              "Use the folder name, e.g. 'export'")
        if topic_id in seen:
            raise TopicsError(line, f"topic '{topic_id}' is declared twice (first on line "
                                    f"{seen[topic_id]})", "Keep one")
        if not title:
            raise TopicsError(line, f"topic '{topic_id}' has an empty title",
                              "Give the title a reader sees, e.g. 'torch.compile'")
        seen[topic_id] = line
        topics.append(Topic(topic_id, title, line))
    return topics


def add_topic(docs_dir: Path, topic_id: str, title: str) -> None:
    """Declare a topic at the end of the list (a later topic is learned after the earlier ones)."""
    path = topics_path(docs_dir)
    existing = path.read_text(encoding="utf-8") if path.exists() else HEADER
    if not existing.endswith("\n"):
        existing += "\n"
    entry = yaml.safe_dump([{"id": topic_id, "title": title}], sort_keys=False,
                           allow_unicode=True)
    path.write_text(existing + entry, encoding="utf-8")
