#!/usr/bin/env python3
"""Start a topic: its index page, its place in docs/topics.yml and its published URLs.

    python scripts/new_topic.py compile --title "torch.compile" [--intro "What it covers."]

A topic is a folder of question pages (docs/<topic>/) and of snippets (snippets/<topic>/). It is
added at the end of docs/topics.yml, the one list that orders the navigation, the home page and the
question index (move its entry to change where it stands). See CONTRIBUTING.md.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from question_pages.scaffold import scaffold_topic  # noqa: E402
from snippet_engine.errors import ProjectError  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("topic", help="folder name under docs/ and snippets/, e.g. compile")
    parser.add_argument("--title", required=True, help="what readers see, e.g. torch.compile")
    parser.add_argument("--intro", help="the index page's first paragraph (else a TODO to fill)")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    try:
        changed = scaffold_topic(args.root, args.topic, args.title, args.intro)
    except (ProjectError, FileExistsError) as exc:
        print(f"new_topic.py: {exc}", file=sys.stderr)
        return 2
    print("changed: " + "\n         ".join(changed))
    print(f"next: python scripts/new_question.py {args.topic} <slug> --question \"...?\" --level junior\n"
          "      commit every file above with the first page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
