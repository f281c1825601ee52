#!/usr/bin/env python3
"""Check every question page against the format, without building the site.

    python scripts/check_pages.py          # exit 1 and one line per problem: file:line: what. fix.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from question_pages.validate import load_pages  # noqa: E402


def main() -> int:
    pages, errors = load_pages(ROOT)
    for error in errors:
        print(error)
    if errors:
        print(f"\n{len(errors)} problem(s) in {len({e.rel for e in errors})} page(s)")
        return 1
    print(f"{len(pages)} question page(s) follow the format")
    return 0


if __name__ == "__main__":
    sys.exit(main())
