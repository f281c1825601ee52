"""The pages the expensive browser checks run on: every template, a fixed number of pages each,
chosen by a seed that changes with the commit.

axe-core takes one to two seconds a question page, in each of the two page tours, so running it
on every page made the test command grow by about four seconds for every question written. The
pages of a template are built alike (page_templates.py), so axe on a few of each finds what it
would find on all; which few changes with every commit, so over a project's history every page
is checked. The cheap checks (status, console, requests, sideways scroll) still see every page.

- The seed is `SITE_SAMPLE_SEED` when set, else the commit (git HEAD) of the checkout, so a
  failure is reproduced by running again with the seed it printed.
- `SITE_SAMPLE=all` puts every page in the sample: the full tour, for a nightly run or before a
  change to the theme.
- The sample's size depends on the number of templates, not on the number of pages: 300 more
  questions sample as many pages as today's bank.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from helpers import ROOT

from .page_templates import QUESTION

# Pages sampled per template (a notebook page costs axe half a minute). Question pages are
# most of the site and the ones a change to the question layout touches, so more of them.
PER_TEMPLATE = 1
# Not a page: the drills whose blind solutions are judged in a run (tests/question_pages/drills/
# test_blind.py), four of them (about 20 judge runs, 80 s of CPU where all 22 took 430 s).
BLIND_DRILLS = "blind solutions of a drill"
PER_TEMPLATE_SIZES = {QUESTION: 6, BLIND_DRILLS: 4}
SEED_VARIABLE, ALL_VARIABLE = "SITE_SAMPLE_SEED", "SITE_SAMPLE"


def commit_seed(root: Path = ROOT) -> str:
    """The checkout's commit, or a fixed word where there is no git (a source archive)."""
    try:
        done = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=30, check=False)
    except OSError:
        return "no-commit"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "no-commit"


def chosen_seed(env: Mapping[str, str] = os.environ, root: Path = ROOT) -> str:
    return env.get(SEED_VARIABLE, "").strip() or commit_seed(root)


def _rank(seed: str, template: str, rel: str) -> str:
    """A page's place in its template's draw: a hash, so the order is the same on every machine
    and Python, and a page added to the site does not reshuffle the others."""
    return hashlib.sha256(f"{seed}\0{template}\0{rel}".encode()).hexdigest()


def size_for(template: str) -> int:
    return PER_TEMPLATE_SIZES.get(template, PER_TEMPLATE)


@dataclass(frozen=True)
class PageSample:
    """The sampled pages of a site, by template, and how they were chosen."""

    seed: str
    every_page: bool
    by_template: dict[str, list[str]]
    total: int  # pages in the site

    @property
    def pages(self) -> set[str]:
        return {rel for pages in self.by_template.values() for rel in pages}

    def __contains__(self, rel: object) -> bool:
        return rel in self.pages

    def describe(self) -> str:
        """What a failure message starts with: enough to run the same sample again."""
        how = (f"every page ({ALL_VARIABLE}=all)" if self.every_page else
               f"{len(self.pages)} of {self.total} pages, seed {self.seed} "
               f"(again: {SEED_VARIABLE}={self.seed}; every page: {ALL_VARIABLE}=all)")
        lines = [f"expensive checks on {how}:"]
        lines += [f"  {template}: {', '.join(rel or '/' for rel in pages)}"
                  for template, pages in self.by_template.items()]
        return "\n".join(lines)


def sample(templates: Mapping[str, list[str]], seed: str, every_page: bool = False) -> PageSample:
    """Each template's first `size_for(template)` pages in the seed's order (all of them with
    `every_page`)."""
    chosen = {}
    for template, pages in sorted(templates.items()):
        if not pages:
            raise ValueError(f"the template {template} has no page")
        ranked = sorted(pages, key=lambda rel, t=template: _rank(seed, t, rel))
        chosen[template] = sorted(ranked if every_page else ranked[:size_for(template)])
    return PageSample(seed, every_page, chosen, sum(len(p) for p in templates.values()))


def sample_from_env(templates: Mapping[str, list[str]], env: Mapping[str, str] = os.environ,
                    root: Path = ROOT) -> PageSample:
    """The sample a test run uses: the seed and `SITE_SAMPLE` from the environment."""
    every = env.get(ALL_VARIABLE, "").strip().lower()
    if every not in ("", "all"):
        raise ValueError(f"{ALL_VARIABLE}={every!r}: the only value is 'all' (unset: a sample)")
    return sample(templates, chosen_seed(env, root), every_page=every == "all")
