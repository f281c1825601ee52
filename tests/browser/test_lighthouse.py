"""Lighthouse's four scores for a question page (the heaviest) and the question index, kept in
build/site-report/ (each run's full JSON report, and the scores in summary.json)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .lighthouse import failing_audits, run_lighthouse
from .sites import REPORT_DIR, Site

# Lighthouse's defaults (a mid-range phone, slow 4G, a 4x slower CPU, all simulated), judged on the
# median of three runs, as Lighthouse advises against its own run-to-run variance (the third run is
# skipped when the first two already settle the median).
# Measured on the real site (2026-11-30, 17 questions; the heaviest question page, the index):
#   accessibility, best practices and SEO: 100 on every run of both pages.
#   performance: question page 75 to 97 a run (medians in seven sessions: 88 to 96); index 96 to
#   100 (medians 98 and 99). The question page loses main-thread time (style and layout of ~1,500
#   elements, then Material's bundle: 160 to 250 ms of blocking) and has a 1.6 to 2.9 s largest
#   paint; both swing with the load other jobs put on this 2-core machine, because the simulated
#   CPU time is the host's, slowed down 4x.
# So the goal of 95 is met by the index, and by the question page only on the quieter runs (a full
# CI run on a busy machine gave a median of 81).
# Measured on 2026-12-01 with 84 questions, quiet machine, 5 runs each (before -> after syntax
# colours became highlight ranges, question_pages/render/code_colours.py): core/mixed-precision/ (now the
# heaviest) 82 -> 91 and 93, deployment/onnx-export-failures/ 84 -> 96, the index 98 -> 99, the home
# page 99 -> 99. What the question pages still lose is Material's own start-up (its bundle's style
# recalculations and layout, 150 to 300 ms of blocking time at Lighthouse's 4x slower CPU).
# Measured on 2026-12-02, quiet machine, 5 runs each, after the light/dark switch became ours
# (docs/assets/javascripts/palette.js: Material's palette component restyled the whole page three
# times as its bundle started) and the syntax colours moved out of the bundle's start-up task:
# core/mixed-precision/ 86 (at this session's start) -> 98 (97 to 98; blocking time 115 to 133 ms),
# deployment/onnx-export-failures/ 98, the index 99, the home page 99. The same builds back to back
# an hour later, the host busier with nothing of ours running: 86 -> 92 (the index and home 99).
# Performance is a timing, and timings belong in a
# report, not in a test that fails when the machine is busy: it is measured, kept and printed
# beside its goal, never asserted. Accessibility, best practices and SEO do not depend on timing:
# they are held to the goal of 95.
THRESHOLDS = {"accessibility": 95, "best-practices": 95, "seo": 95}
PERFORMANCE_GOAL = 95
LIGHTHOUSE_RUNS = 3


@pytest.mark.parametrize("which", ["question", "index"])
def test_lighthouse_scores(real_site: Site, which: str, report: dict[str, object]) -> None:
    rel = real_site.heaviest_question() if which == "question" else "questions/"
    scores = run_lighthouse(real_site.url(rel), REPORT_DIR, which, runs=LIGHTHOUSE_RUNS,
                            thresholds=THRESHOLDS)
    median = scores.median()
    report[f"lighthouse {which} page {rel} (median of {len(scores.runs)} runs)"] = {
        "median": median, "runs": scores.runs, "reports": scores.reports,
        "performance goal": PERFORMANCE_GOAL,
        "performance meets goal": median["performance"] >= PERFORMANCE_GOAL}
    low = {c: median[c] for c in THRESHOLDS if median[c] < THRESHOLDS[c]}
    why = {c: failing_audits(Path(scores.reports[0]), c) for c in low}
    assert not low, f"{rel}: Lighthouse scores under {THRESHOLDS}: {low}; audits losing points: {why}"
