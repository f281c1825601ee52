#!/usr/bin/env python3
"""Run every snippet on the pinned torch and record its real output: see CONTRIBUTING.md."""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from snippet_engine.commands.cli import main


def _sentences_after_drift(argv: list[str]) -> None:
    """After `drift --torch X`, the pages' tied sentences that break on X (check_pages.py
    --drift-ties), when this checkout has the pages: run as its own program, so the engine
    imports nothing of the page format and still runs alone on a bare runner."""
    if "drift" not in argv[:1] or "--torch" not in argv:
        return
    version = argv[argv.index("--torch") + 1]
    pages = Path(__file__).resolve().parent / "check_pages.py"
    if pages.is_file():
        subprocess.run([sys.executable, str(pages), "--drift-ties", version], check=False)


if __name__ == "__main__":
    code = main()
    if code == 0:
        _sentences_after_drift(sys.argv[1:])
    sys.exit(code)
