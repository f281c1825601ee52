"""`mkdocs serve` of a site source, for the live-preview test and benchmark: started on a free
loopback port in its own process group, stopped with everything it started."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from helpers import mkdocs_env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return ""


def wait_for(url: str, predicate: Callable[[str], bool], timeout: float) -> tuple[float, str]:
    """Poll `url` until its body satisfies `predicate`; (seconds it took, the body)."""
    started = time.monotonic()
    body = ""
    while time.monotonic() - started < timeout:
        body = fetch(url)
        if predicate(body):
            return time.monotonic() - started, body
        time.sleep(0.1)
    raise AssertionError(f"{url} did not change as expected within {timeout:.0f} s; last body "
                         f"ended: {body[-500:]!r}")


@contextmanager
def serving(root: Path, log: Path, dirty: bool = True, stop: int = signal.SIGINT,
            tmpdir: Path | None = None) -> Iterator[tuple[str, int]]:
    """Serve `root` with `mkdocs serve --dirty` as scripts/dev.sh serve does (or without
    --dirty); yields the base URL and the server's pid, which is also its session id. On the way
    out, stop the server with Ctrl-C (its on_shutdown stops the preview's workers; `stop`: another
    signal), then kill whatever of its process group is left. `tmpdir`: the server's TMPDIR."""
    port = free_port()
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", *(["--dirty"] if dirty else []),
             "-a", f"127.0.0.1:{port}", "-f",
             str(root / "mkdocs.yml")], cwd=root,
            env={**mkdocs_env(), **({"TMPDIR": str(tmpdir)} if tmpdir else {})}, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}/"
    try:
        wait_for(base, lambda body: "<html" in body, timeout=180)
        yield base, proc.pid
    finally:
        proc.send_signal(stop)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
