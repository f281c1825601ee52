"""One line per finished snippet on a terminal; nothing per snippet in CI logs."""

from __future__ import annotations

import os
import sys
from typing import TextIO


class Progress:
    def __init__(self, total: int, stream: TextIO = sys.stderr, enabled: bool | None = None) -> None:
        if enabled is None:
            enabled = stream.isatty() and not os.environ.get("CI")
        self.enabled = enabled
        self.total = total
        self.done = 0
        self.stream = stream

    def finished(self, rel: str, device: str, status: str, seconds: float) -> None:
        self.done += 1
        if self.enabled:
            width = len(str(self.total))
            self.stream.write(f"[{self.done:>{width}}/{self.total}] {status:<14} {seconds:6.1f}s  "
                              f"{rel} ({device})\n")
            self.stream.flush()
