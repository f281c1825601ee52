"""A coding drill's page as a reader meets it, on the real site, at a desktop and a phone width:
the task and the starter are on screen, and nothing of the solution is until the reader asks (the
reference, its explanation, the mistakes, the follow-ups' answers, the red flags, and each hint
before the one that opens it); then the download, judged with plain `python` on the file the
reader edited, as the page says to.

"On screen" is what the browser renders: a text must be in the page's `innerText` (which leaves
out what is not displayed) to count as seen. Each hidden text is first shown to be found once its
fold is open, so the test cannot pass by looking for text that is not there at all.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from question_pages.drills.bank import load_drill
from question_pages.drills.render import download_name

from .page_sample import sample_from_env
from .sites import Site
from .test_practice import KEY
from .test_practice_hiding import WIDTHS

MIN_CHARS = 30
# Each fold's body texts (paragraphs, code, list items), its summary left out; `selector` picks
# the folds, `nth` one of them (or all with -1).
FOLD_TEXTS = """([selector, minChars]) => [...document.querySelectorAll(selector)].map((fold) =>
  [...fold.querySelectorAll(':scope > p, :scope > div > pre, :scope pre, :scope li, :scope > ul li')]
    .filter((b) => !b.closest('summary') && b.closest('details') === fold)
    .map((b) => b.textContent.replace(/\\s+/g, ' ').trim()).filter((t) => t.length >= minChars))"""
SEEN = "() => document.body.innerText.replace(/\\s+/g, ' ')"
HIDDEN_FOLDS = ["details.drill-solution", "details.drill-mistake", "details.drill-follow-up",
                "details.drill-red-flags"]


def drill_pages(site: Site) -> list[str]:
    return sorted(f"drills/{p.stem}/" for p in (site.root / "docs" / "drills").glob("*.md")
                  if p.name != "index.md")


def _norm(text: str) -> str:
    return " ".join(text.split())


def _seen(page: Page) -> str:
    return page.evaluate(SEEN)


def _open(page: Page, summary: str) -> None:
    page.locator("summary", has_text=summary).first.click()


@pytest.fixture(scope="module")
def drills(real_site: Site) -> list[str]:
    found = drill_pages(real_site)
    assert found, "the real site has no drill page"
    return found


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_nothing_of_the_solution_is_seen_until_asked(real_site: Site, browser: Browser,
                                                     drills: list[str], width: str) -> None:
    context = browser.new_context(viewport=WIDTHS[width])
    page = context.new_page()
    try:
        for rel in drills:
            page.goto(real_site.url(rel))
            seen = _seen(page)
            starter = (real_site.root / "snippets" / "drills" / rel.split("/")[1] / "_starter.py")
            signature = next(line for line in starter.read_text().splitlines()
                             if line.startswith(("def ", "class ")))
            assert _norm(signature) in seen, f"{rel} ({width}): the starter is not on screen"
            for selector in HIDDEN_FOLDS:
                for fold in page.evaluate(FOLD_TEXTS, [selector, MIN_CHARS]):
                    shown = [t for t in fold if t in seen]
                    assert not shown, f"{rel} ({width}): {selector} shows before it is opened: {shown[:2]}"
            # The hints: each unseen until the one before it is open, then seen.
            hints = page.evaluate(FOLD_TEXTS, ["details.drill-hint", 10])
            assert len(hints) >= 1, rel
            for number, texts in enumerate(hints, start=1):
                assert texts and not any(t in _seen(page) for t in texts), \
                    f"{rel} ({width}): hint {number} is seen before it is opened"
                _open(page, f"Hint {number} of {len(hints)}")
                assert all(t in _seen(page) for t in texts), f"{rel} ({width}): hint {number} opened, unseen"
            # Asked: the solution is seen, so what was looked for above is really the page's text.
            solution = page.evaluate(FOLD_TEXTS, ["details.drill-solution", MIN_CHARS])[0]
            assert solution, rel
            _open(page, "Show the solution")
            after = _seen(page)
            assert all(t in after for t in solution), f"{rel} ({width}): the opened solution is unseen"
    finally:
        context.close()


def test_the_download_judges_the_file_the_reader_edited(real_site: Site, browser: Browser,
                                                       drills: list[str], tmp_path: Path) -> None:
    """From the page: download the drill, run it as it is (the starter fails), write the solution
    the page reveals into its top part, run it again (every test passes), and judge a separate
    file with `python drill_<id>.py mine.py`. Three judge runs a drill cost seconds each, so this
    takes the drills of the run's page sample (page_sample.py: it changes with the commit;
    SITE_SAMPLE=all takes every drill); test_bundle.py compiles every drill's download."""
    chosen = sample_from_env({"drill": drills}).by_template["drill"]
    context = browser.new_context(viewport=WIDTHS["desktop"], accept_downloads=True)
    page = context.new_page()
    try:
        for rel in chosen:
            drill_id = rel.split("/")[1]
            page.goto(real_site.url(rel))
            with page.expect_download() as started:
                page.locator("a.drill-download").click()
            download = started.value
            assert download.suggested_filename == download_name(drill_id)
            path = tmp_path / download.suggested_filename
            download.save_as(path)

            def judge(*args: str, path: Path = path) -> subprocess.CompletedProcess[str]:
                return subprocess.run([sys.executable, path.name, *args], cwd=path.parent,
                                      capture_output=True, text=True, timeout=300, check=False)

            first = judge()
            # The starter as it comes fails, with the verdict the build recorded for it (a stub
            # passes none; debug-small-gpt's buggy GPT already has the right state_dict).
            recorded = (real_site.root / "snippets" / "drills" / drill_id /
                        "judge_starter.cpu.txt").read_text()
            verdict = re.search(r"^verdict: not yet \(\d+ of \d+ tests pass\)$", recorded, re.M)
            assert verdict, recorded
            assert first.returncode == 1 and verdict.group(0) in first.stdout, first.stdout[-2000:]
            _open(page, "Show the solution")
            reference = page.locator("details.drill-solution pre").first.inner_text()
            drill = load_drill(real_site.root / "snippets" / "drills" / drill_id, real_site.root)
            assert _norm(reference) == _norm(drill.reference.read_text()), \
                "the page's solution is not the file"
            text = path.read_text()
            top, cut, judge_part = text.partition("\n# " + "-" * 30 + " the judge")
            assert cut, "the download has no judge part"
            comments = "".join(line + "\n" for line in top.splitlines() if line.startswith("#"))
            path.write_text(comments + "\n" + reference + "\n\n" + cut + judge_part)
            edited = judge()
            assert edited.returncode == 0 and "verdict: every test passes" in edited.stdout, \
                edited.stdout[-3000:] + edited.stderr[-2000:]
            mistake = drill.mistakes[0]
            (tmp_path / "mine.py").write_text(mistake.path.read_text())
            wrong = judge("mine.py")
            assert wrong.returncode == 1 and f"FAIL  {mistake.fails}:" in wrong.stdout, wrong.stdout[-3000:]
    finally:
        context.close()


def _rating_seen(page: Page) -> bool:
    return "How did the drill go?" in _seen(page)


def test_a_drill_is_rated_after_the_solution_and_the_rating_is_there_after_a_reload(
        real_site: Site, browser: Browser) -> None:
    """The drill's rating is offered only once the solution is open (it is not on screen before),
    saves into the reader's progress and schedule under the drill's id, is shown again after a
    reload, and counts on the progress page, in a group of its own."""
    context = browser.new_context(viewport=WIDTHS["phone"])
    page = context.new_page()
    try:
        page.goto(real_site.url("drills/rope/"), wait_until="load")
        status = page.locator(".drill-practice .practice-status")
        expect(status).to_have_text("Your progress: Not started")
        expect(page.locator(".drill-timer").get_by_role("button")).to_have_text(
            re.compile(r"Start the \d+-minute timer"))
        assert not _rating_seen(page), "the rating is on screen before the solution is open"
        assert page.get_by_role("button", name="Got it", exact=True).count() == 0 or \
            not page.get_by_role("button", name="Got it", exact=True).first.is_visible()
        _open(page, "Show the solution")
        expect(page.locator(".drill-practice .practice-rate")).to_be_visible()
        assert _rating_seen(page)
        page.locator(".drill-practice").get_by_role("button", name="Review", exact=True).click()
        expect(page.locator(".drill-practice .practice-result")).to_contain_text(
            "Saved: review. It comes back on")
        raw = page.evaluate(f"localStorage.getItem({json.dumps(KEY)})")
        entry = json.loads(raw)["questions"]["drills/rope"]
        assert entry["state"] == "review" and entry["rating"] == "review" and entry["due"] > entry["rated"]
        page.reload(wait_until="load")
        expect(status).to_contain_text("Your progress: Review on")
        expect(status).to_contain_text("(rated review on")
        # The progress page counts it, under the drills' own group, beside the questions.
        page.goto(real_site.url("progress/"), wait_until="load")
        table = page.locator(".progress-table").first
        expect(table).to_contain_text("Coding drills")
        expect(page.locator(".progress-tool").first).to_contain_text("Done: 0 of")
        # The mock interview draws spoken rounds: no drill in its list.
        page.goto(real_site.url("mock-interview/"), wait_until="load")
        listed = json.loads(page.locator("[data-progress-tool=mock] script.question-list")
                            .text_content() or "[]")
        assert listed and not [q for q in listed if q.get("kind") == "drill"]
    finally:
        context.close()


def test_the_mock_interview_coding_round_shows_the_solution_only_when_asked(
        real_site: Site, browser: Browser) -> None:
    """The mock interview's coding round: a drill's task and starter with a timer, nothing of
    its solution on screen until the reader is done; then the reference (the drill's own file),
    the mistakes, the rubric, and a rating saved to the drill."""
    context = browser.new_context(viewport=WIDTHS["desktop"])
    page = context.new_page()
    try:
        page.goto(real_site.url("mock-interview/"), wait_until="load")
        page.get_by_role("button", name="Start a coding round").click()
        title = page.locator("h2.mock-question")
        expect(title).to_contain_text("Coding round: ")
        # A reader with no progress gets the first drill not started: the list's first.
        drawn = page.evaluate("JSON.parse(document.querySelector('script.drill-list').textContent)[0]")
        drill_id = drawn["id"].split("/")[1]
        drill = load_drill(real_site.root / "snippets" / "drills" / drill_id, real_site.root)
        expect(title).to_have_text("Coding round: " + drawn["question"])
        starter = page.locator("pre.mock-starter")
        assert _norm(starter.inner_text()) == _norm(drill.starter.read_text())
        expect(page.locator(".mock-clock")).to_be_visible()
        body = [line.strip() for line in drill.reference.read_text().splitlines()
                if line.strip() and line.strip() not in drill.starter.read_text()]
        assert body, "the reference has lines of its own"
        seen = _seen(page)
        assert not [line for line in body if line in seen], "the solution is on screen before it is asked for"
        page.get_by_role("button", name="I am done: show the solution").click()
        expect(page.locator("pre.mock-reference")).to_be_visible()
        assert _norm(page.locator("pre.mock-reference").inner_text()) == _norm(drill.reference.read_text())
        mistakes = page.locator("ul.mock-mistakes li")
        expect(mistakes).to_have_count(len(drill.mistakes))
        expect(page.locator(".mock-rubric label")).to_have_count(5)
        page.locator(".mock-rate").get_by_role("button", name="Review", exact=True).click()
        expect(page.locator(".mock-saved")).to_have_text("Saved to the drill: review.")
        raw = page.evaluate(f"localStorage.getItem({json.dumps(KEY)})")
        assert json.loads(raw)["questions"][drawn["id"]]["rating"] == "review"
        page.get_by_role("button", name="Back to the mock interview").click()
        expect(page.get_by_role("button", name="Start a coding round")).to_be_visible()
    finally:
        context.close()
