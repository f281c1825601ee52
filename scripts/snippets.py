#!/usr/bin/env python3
"""Run every snippet on the pinned torch and record its real output: see CONTRIBUTING.md."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from snippet_engine.commands.cli import main

if __name__ == "__main__":
    sys.exit(main())
