#!/usr/bin/env python3
"""Scaffold a question page and its first snippet: see CONTRIBUTING.md.

    python scripts/new_question.py export my-slug --question "How does X work?" --level middle
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from question_pages.format.model import IMPORTANCE, LEVELS  # noqa: E402
from question_pages.scaffold import scaffold  # noqa: E402
from snippet_engine.errors import ProjectError  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("topic", help="folder under docs/ and snippets/, e.g. export")
    parser.add_argument("slug", help="the page's URL name, e.g. graph-signature")
    parser.add_argument("--question", required=True)
    parser.add_argument("--level", required=True, choices=LEVELS)
    parser.add_argument("--importance", default="should know", choices=IMPORTANCE)
    parser.add_argument("--frequency", type=int, default=30)
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    try:
        changed = scaffold(args.root, args.topic, args.slug, args.question, args.level,
                           args.importance, args.frequency)
    except (ProjectError, FileExistsError) as exc:
        print(f"new_question.py: {exc}", file=sys.stderr)
        return 2
    snippet = changed[1]
    print("changed: " + "\n         ".join(changed))
    print(f"next: write the snippet, then python scripts/snippets.py run {snippet}\n"
          "      fill every TODO, then python scripts/check_pages.py\n"
          "      commit every file above together with the snippet's record")
    return 0


if __name__ == "__main__":
    sys.exit(main())
