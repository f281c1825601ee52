"""Benchmark: what the page tours (test_pages.py) cost a page, and what they will cost the test
command as the bank grows, with axe on every page and with axe on the sample (page_sample.py).

Not a test: it prints figures. It builds the repository's site and the grown site (the repository
plus grown.BENCH's pages: ten new topics of 20 questions and 20 more in each real topic, 340
question pages with today's seven topics), or reuses builds given with --real/--grown, and
serves each as the tests do. For each layout of the tours (desktop light, phone dark) and each
template, it takes a few of the template's pages through a tour three times: the cheap checks
alone (status, console, requests, sideways scroll) one page at a time, then with axe too (the
tours before the sample), then the cheap checks alone with tour.AT_ONCE pages at a time (the tours
now, on every page). It prints
- the seconds a page of each template costs in each of these, and axe's share;
- a tour of each site, projected from those costs and the site's pages per template: every check
  on every page in both layouts (before); now, the desktop layout's cheap checks (with the
  narrowed-width sideways check) on every page and axe on the sample, and the phone layout on the
  sample alone;
- the hidden-answer check (test_practice_hiding.py), which runs on every question page at two
  widths, per page and for each site;
- what a first visit of the heaviest question page and of the index transfers, and how many
  elements it has, on each site (test_weight.py checks the same on a smaller grown bank).
- what the grown bank adds to the test command: the tours as they are now, the hidden-answer
  check, and (when it built both sites) the test command's full builds of the site, as seconds of
  work and as seconds of the command's time on its pytest-xdist workers.

    .venv/bin/python tests/browser/bench_tour.py [--per-template 3] [--real DIR] [--grown DIR]
        [--keep DIR]

With --keep, the builds are left in DIR (real/, grown/site/) to pass to a later run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "scripts")]

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from browser.gates import CHROMIUM, CHROMIUM_ARGS, first_visit_weight  # noqa: E402
from browser.grown import make_grown_source  # noqa: E402
from browser.page_sample import size_for  # noqa: E402
from browser.page_templates import QUESTION, templates  # noqa: E402
from browser.serve import serve  # noqa: E402
from browser.sites import Site, build_site, question_urls  # noqa: E402
from browser.test_practice_hiding import WIDTHS, leaks_on  # noqa: E402
from browser.tour import AT_ONCE, DESKTOP_LIGHT, PHONE_DARK, Layout, Tour  # noqa: E402

LAYOUTS = (DESKTOP_LIGHT, PHONE_DARK)
REPEAT = 2 * AT_ONCE
# The builds of the whole site that the test command makes, each of which grows with the bank as a
# build here does (the fixture and broken sites are small and fixed).
FULL_BUILDS = ("tests/conftest.py real_site (the repository's site, once for all tests)",
               "tests/test_check_generators.py (properdocs' build of the same site)",
               "tests/browser/test_weight.py (the repository plus grown.TEST's pages)")
# pytest-xdist's workers in the test command (pyproject.toml: -n auto --maxprocesses=4).
WORKERS = min(os.cpu_count() or 1, 4)


def spread(pages: list[str], count: int) -> list[str]:
    """`count` pages spread evenly over a sorted list (its first, its last and between)."""
    if len(pages) <= count:
        return pages
    step = (len(pages) - 1) / max(count - 1, 1)
    return [pages[round(i * step)] for i in range(count)]


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


@dataclass(frozen=True)
class Costs:
    """Seconds a page of one template costs in one layout's tour."""

    cheap: float      # the cheap checks, one page at a time (the tours before the sample)
    full: float       # the cheap checks and axe, one page at a time (before: every page)
    cheap_now: float  # the cheap checks, AT_ONCE pages at a time (now: every page)

    @property
    def axe(self) -> float:
        return self.full - self.cheap


def page_costs(browser: Browser, site: Site, layout: Layout, by_template: dict[str, list[str]],
               per_template: int) -> dict[str, Costs]:
    """Per template, the mean seconds of a page in the tours as they were and as they are."""
    measured = {template: spread(pages, per_template) for template, pages in by_template.items()}
    everything = {rel for pages in measured.values() for rel in pages}
    seconds: dict[tuple[str, int, bool], float] = {}
    for at_once, axe in ((1, False), (1, True), (AT_ONCE, False)):
        with ExitStack() as stack:
            pages = Tour(stack, browser, site, layout, at_once)
            pages.run([by_template[QUESTION][0]] * at_once, ())  # each context's cold cache
            for template, chosen in measured.items():
                # With AT_ONCE pages open at once, a template's pages twice over (a page visited
                # again is a page of its template, from the same cache): with fewer pages than
                # AT_ONCE, no page would wait for quiet while the next loads.
                rels = (chosen * REPEAT)[:max(REPEAT, len(chosen))] if at_once > 1 else chosen
                took = timed(lambda r=rels, e=(everything if axe else ()), t=pages: t.run(r, e))
                seconds[template, at_once, axe] = took / len(rels)
    return {template: Costs(seconds[template, 1, False], seconds[template, 1, True],
                            seconds[template, AT_ONCE, False]) for template in measured}


def hiding_cost(browser: Browser, site: Site, pages: list[str]) -> float:
    """Mean seconds of the hidden-answer check on one question page, as the test runs it: loaded
    on a desktop, checked there and narrowed to the phone's width."""
    seconds = 0.0
    context = browser.new_context(viewport=WIDTHS["desktop"])
    tab = context.new_page()
    for rel in pages:
        seconds += timed(lambda r=rel, t=tab: (t.goto(site.url(r), wait_until="load"),
                                               leaks_on(t, ("phone",))))
    context.close()
    return seconds / len(pages)


def weights(browser: Browser, site: Site, heaviest: str) -> None:
    """Print a first visit's bytes and elements for the heaviest question page and the index."""
    for rel in (heaviest, "questions/"):
        weight = first_visit_weight(browser, site.base, site.url(rel))
        print(f"  first visit of {rel}: {weight.transferred_bytes} bytes in {weight.requests} "
              f"requests, {weight.dom_elements} elements", flush=True)


def report(browser: Browser, site: Site, per_template: int) -> dict[str, float]:
    """Print one site's figures; return its projected tour seconds."""
    by_template = templates(site)
    counts = {t: len(p) for t, p in by_template.items()}
    pages = sum(counts.values())
    print(f"\n{site.name}: {pages} pages, {counts[QUESTION]} question pages, {len(counts)} templates",
          flush=True)
    before = after = cheap_all = axe_all = 0.0
    for layout in LAYOUTS:
        costs = page_costs(browser, site, layout, by_template, per_template)
        print(f"  {layout.name}: seconds a page: cheap checks alone, {AT_ONCE} at once, axe; "
              "pages; sampled")
        for template, cost in costs.items():
            sampled = min(counts[template], size_for(template))
            print(f"    {template:26} {cost.cheap:6.2f} {cost.cheap_now:6.2f} {cost.axe:6.2f}"
                  f"   {counts[template]:4} {sampled:4}")
            before += counts[template] * cost.full
            # Now: a layout that takes every page pays its cheap checks on each and axe on the
            # sample; the phone layout takes the sample alone (tour.Layout.every_page).
            toured = counts[template] if layout.every_page else sampled
            after += toured * cost.cheap_now + sampled * cost.axe
            cheap_all += counts[template] * cost.cheap
            axe_all += counts[template] * cost.axe
        print(flush=True, end="")
    print(f"  a page of this site, both tours, by its templates: cheap checks {cheap_all / pages:.2f} s, "
          f"axe {axe_all / pages:.2f} s")
    hiding = hiding_cost(browser, site, spread(by_template[QUESTION], per_template * 2))
    print(f"  hidden answers: {hiding:.2f} s a question page (both widths), "
          f"{hiding * counts[QUESTION]:.0f} s for the site")
    print(f"  page tours, projected: every check on every page {before:.0f} s; "
          f"now {after:.0f} s", flush=True)
    return {"before": before, "after": after, "hiding": hiding * counts[QUESTION], "pages": pages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-template", type=int, default=3,
                        help="pages timed per template and layout (question pages: twice as many "
                             "for the hidden-answer check)")
    parser.add_argument("--real", type=Path, help="a build of the repository's site to reuse")
    parser.add_argument("--grown", type=Path, help="a build of grown.py's site to reuse")
    parser.add_argument("--keep", type=Path, help="build into this folder and leave the builds there")
    args = parser.parse_args()
    with ExitStack() as stack:
        work = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-tour-")))
        real_dir = args.real or work / "real"
        build_seconds: dict[str, float] = {}
        if args.real is None:
            build_seconds["real"] = timed(lambda: build_site(ROOT, real_dir))
            print(f"built the repository's site in {build_seconds['real']:.0f} s")
        grown_root = work / "grown" / "repo"
        if args.grown is None:
            grown_dir = work / "grown" / "site"
            source = make_grown_source(grown_root)
            build_seconds["grown"] = timed(lambda: build_site(source, grown_dir))
            print(f"built the grown site in {build_seconds['grown']:.0f} s")
        else:
            grown_dir = args.grown
            if not (grown_dir.parent / "repo").is_dir():
                parser.error(f"{grown_dir}: --grown takes the site/ of a --keep run (beside its repo/)")
            grown_root = grown_dir.parent / "repo"
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        figures = {}
        heaviest = ""
        for name, root, built in (("real", ROOT, real_dir), ("grown", grown_root, grown_dir)):
            base = stack.enter_context(serve(built))
            site = Site(name, root, built, base, question_urls(root))
            figures[name] = report(browser, site, args.per_template)
            heaviest = heaviest or site.heaviest_question()  # the real site's, weighed on both
            weights(browser, site, heaviest)
    print("\nthe page tours and the hidden-answer check (s):  before      now  hidden answers")
    for name, seconds in figures.items():
        print(f"  {name:46} {seconds['before']:10.0f} {seconds['after']:8.0f} {seconds['hiding']:15.0f}")
    grew = {key: figures["grown"][key] - figures["real"][key] for key in figures["real"]}
    added = f"{grew['pages']:.0f} more pages add"
    print(f"  {added:46} {grew['before']:10.0f} {grew['after']:8.0f} {grew['hiding']:15.0f}")
    work = grew["after"] + grew["hiding"]
    if len(build_seconds) == 2:
        builds = len(FULL_BUILDS) * (build_seconds["grown"] - build_seconds["real"])
        work += builds
        print(f"\nthe test command builds the whole site {len(FULL_BUILDS)} times:")
        for where in FULL_BUILDS:
            print(f"  {where}")
        print(f"  a build took {build_seconds['real']:.0f} s here and {build_seconds['grown']:.0f} s with "
              f"{grew['pages']:.0f} more pages: {builds:.0f} s more for the {len(FULL_BUILDS)}")
    print(f"\nwhat {grew['pages']:.0f} more pages add to the test command: {work:.0f} s of work "
          f"(tours now, hidden answers{', builds' if len(build_seconds) == 2 else ''}), about "
          f"{work / WORKERS:.0f} s of its time on {WORKERS} workers")


if __name__ == "__main__":
    main()
