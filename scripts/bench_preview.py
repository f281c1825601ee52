"""Benchmark: from saving a snippet to the browser showing its new real output, under
`mkdocs serve` (the live preview), on a copy of this repository's whole site.

Not a test: it prints figures. A copy of the committed site (docs, snippets with their records,
scripts, config, from git HEAD) is served from a temporary folder, so nothing here is touched.
Chromium (Debian's, through Playwright) keeps the page of the edited snippet open; each round
appends a line to the snippet that prints a new marker, and the time is taken from the write
until the page the browser reloaded by itself (MkDocs' livereload) shows it.

    .venv/bin/python scripts/bench_preview.py [--rounds 5] [--snippet snippets/export/X.py] [--ref REV]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from site_vendor import SHIPPED  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
COPY = ("mkdocs.yml", "requirements.txt", "package.json", "CONTRIBUTING.md", "docs", "scripts",
        "snippets")


def copy_site(dest: Path, ref: str = "HEAD") -> Path:
    """The committed site (git HEAD, or `ref`), so that work in progress in the checkout cannot
    break it."""
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, *COPY],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    # The npm packages the build ships (site_vendor) are installed by `npm ci`, not committed.
    for package in SHIPPED:
        source = ROOT / "node_modules" / package
        if not source.is_dir():
            raise SystemExit(f"node_modules/{package} is missing: run `npm ci --omit=dev` first.")
        shutil.copytree(source, dest / "node_modules" / package)
    return dest


def page_of(root: Path, snippet: str) -> str:
    """The URL (relative) of the first question page of the site at `root` that shows the
    snippet."""
    ref = snippet.removeprefix("snippets/")
    for page in sorted((root / "docs").glob("*/*.md")):
        if f'snippet("{ref}")' in page.read_text(encoding="utf-8"):
            return page.relative_to(root / "docs").with_suffix("").as_posix() + "/"
    raise SystemExit(f"no page shows {snippet}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--snippet", default="snippets/export/returns_print_in_forward.py")
    parser.add_argument("--ref", default="HEAD", help="the commit whose site is served (HEAD)")
    parser.add_argument("--no-dirty", action="store_true",
                        help="plain `mkdocs serve`, for commits before scripts/dev.sh served --dirty")
    args = parser.parse_args()
    serve = () if args.no_dirty else ("--dirty",)  # as scripts/dev.sh serve runs it
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = copy_site(Path(tmp) / "site", args.ref)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
        started = time.monotonic()
        log = Path(tmp) / "serve.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "mkdocs", "serve", *serve, "-a", f"127.0.0.1:{port}"], cwd=root,
                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        url = f"http://127.0.0.1:{port}/{page_of(root, args.snippet)}"
        try:
            while True:
                try:
                    urllib.request.urlopen(url, timeout=5)
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() - started > 300:
                        raise SystemExit("mkdocs serve did not come up:\n"
                                         + log.read_text()[-3000:]) from None
                    time.sleep(0.2)
            print(f"site: {len(list((root / 'docs').glob('*/*.md')))} pages; first build and "
                  f"serve: {time.monotonic() - started:.1f} s")
            snippet = root / args.snippet
            original = snippet.read_text(encoding="utf-8")
            times = []
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu",
                                                    "--disable-background-networking"])
                page = browser.new_page()
                page.goto(url)
                for round_ in range(1, args.rounds + 1):
                    # The output ("preview round 3 <ns>") is not in the source line that prints
                    # it, so only the new record can match. textContent, not innerText: the
                    # snippet may be in a folded section (the Explainer's are).
                    stamp = time.time_ns()
                    marker = f"preview round {round_} {stamp}"
                    edit = time.monotonic()
                    snippet.write_text(original + f"\nprint('preview round', {round_}, {stamp})\n",
                                       encoding="utf-8")
                    page.wait_for_function("m => document.body.textContent.includes(m)", arg=marker,
                                           timeout=120_000, polling=50)
                    times.append(time.monotonic() - edit)
                    built = re.findall(r"Documentation built in ([0-9.]+) seconds", log.read_text())
                    print(f"round {round_}: saved -> reloaded page shows the new output in "
                          f"{times[-1]:.1f} s (MkDocs' rebuild: {built[-1] if built else '?'} s)")
                browser.close()
            print(f"median {statistics.median(times):.1f} s, worst {max(times):.1f} s over "
                  f"{len(times)} edits of {args.snippet}")
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=30)
            finally:
                try:
                    os.killpg(server.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


if __name__ == "__main__":
    main()
