"""Lighthouse (npm `lighthouse`, pinned in package-lock.json) against Debian's Chromium.

Lighthouse is what a site's readers and search engines are judged by; running it in the test
suite keeps its four scores on the record for every change. Its default settings are kept: a
mid-range phone on a slow 4G connection, with network and CPU throttling simulated.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .gates import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def lighthouse() -> Path:
    """The pinned Lighthouse, installed by `npm ci` (scripts/dev.sh test does that)."""
    path = ROOT / "node_modules" / ".bin" / "lighthouse"
    if not path.exists():
        raise FileNotFoundError("Lighthouse is missing: run `npm ci` in the repository root "
                                "(scripts/dev.sh test does)")
    return path


@dataclass(frozen=True)
class Scores:
    url: str
    runs: list[dict[str, int]]  # each run's four scores, 0 to 100
    reports: list[str]          # the full JSON report of each run

    def median(self) -> dict[str, int]:
        """Lighthouse's own advice on variance: judge the median of several runs, not one run."""
        return {c: round(statistics.median(run[c] for run in self.runs)) for c in CATEGORIES}


def decided(runs: list[dict[str, int]], thresholds: dict[str, int], of: int = 3) -> bool:
    """Whether the median of `of` runs is already known for every category: with three runs, two
    that meet a threshold (or two that miss it) settle that category's median."""
    majority = of // 2 + 1
    return all(sum(run[c] >= low for run in runs) >= majority
               or sum(run[c] < low for run in runs) >= majority for c, low in thresholds.items())


def run_lighthouse(url: str, out_dir: Path, name: str, runs: int = 3,
                   thresholds: dict[str, int] | None = None) -> Scores:
    """Run Lighthouse up to `runs` times on `url`, keeping each JSON report in `out_dir`; with
    `thresholds`, stop as soon as the verdict on the median is settled (a run is 15 to 25 s)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob(f"lighthouse-{name}-*.json"):  # a previous session's runs
        old.unlink()
    # Lighthouse splits --chrome-flags like a shell: a value with spaces goes in quotes.
    flags = " ".join(arg.replace("=", '="', 1) + '"' if " " in arg else arg
                     for arg in ["--headless=new", *CHROMIUM_ARGS])
    results, reports = [], []
    for number in range(1, runs + 1):
        report = out_dir / f"lighthouse-{name}-{number}.json"
        done = subprocess.run(
            [str(lighthouse()), url, "--output=json", f"--output-path={report}", "--quiet",
             f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={flags}"],
            env=dict(os.environ, CHROME_PATH=CHROMIUM), capture_output=True, text=True,
            timeout=240, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"lighthouse failed on {url} ({done.returncode}): {done.stderr[-2000:]}")
        data = json.loads(report.read_text())
        if data.get("runtimeError"):
            raise RuntimeError(f"lighthouse could not load {url}: {data['runtimeError']}")
        results.append({c: round(100 * (data["categories"][c]["score"] or 0)) for c in CATEGORIES})
        reports.append(str(report))
        if thresholds and decided(results, thresholds, of=runs):
            break
    return Scores(url, results, reports)


def failing_audits(report: Path, category: str) -> list[str]:
    """The audits that cost `category` points in one report, to say why a score is what it is."""
    data = json.loads(report.read_text())
    lost = []
    for ref in data["categories"][category]["auditRefs"]:
        audit = data["audits"][ref["id"]]
        if ref.get("weight", 0) > 0 and audit.get("score") is not None and audit["score"] < 1:
            lost.append(f"{ref['id']} {audit['score']:.2f} {audit.get('displayValue', '')}".strip())
    return lost
