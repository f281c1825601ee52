"""A contributor's path to a brand-new topic, through the documented commands only, and the one
clear message for each mistake on the way (each told once, with its file and line)."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_cli
from question_pages.render.drift_reports import cpu_snippets
from site_fixture import FIXTURES, build

GOOD = (FIXTURES / "good-page.md").read_text()


def script(root: Path, name: str, *args: str) -> subprocess.CompletedProcess:
    """A command of the copy itself, as a contributor runs it (its ROOT is the copy)."""
    return subprocess.run([sys.executable, str(root / "scripts" / name), *args], cwd=root,
                          capture_output=True, text=True, check=False, timeout=300)


@pytest.fixture
def copy(site_source: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "repo"
    shutil.copytree(site_source, dest, ignore=shutil.ignore_patterns("site", ".cache"))
    return dest


def _nav_titles(html: str) -> list[str]:
    nav = html[html.index("md-nav--primary"):]
    return [t.strip() for t in re.findall(r'class="md-nav__link[^"]*"[^>]*>\s*(?:<span[^>]*>)?\s*'
                                          r"([^<\n]+)", nav)]


def test_a_page_under_a_new_topic_lands_through_the_documented_commands(copy: Path) -> None:
    done = script(copy, "new_topic.py", "quantize", "--title", "Quantization",
                  "--intro", "How models get smaller and faster.")
    assert done.returncode == 0, done.stderr
    # Every file it changed is named, the ledger included.
    assert "docs/quantize/index.md" in done.stdout and "docs/topics.yml" in done.stdout
    assert "docs/published-urls.txt (+ quantize/index.md)" in done.stdout
    assert "docs/published-urls.txt (+ notebooks/quantize.ipynb)" in done.stdout

    done = script(copy, "new_question.py", "quantize", "fixture-question",
                  "--question", "What does a new topic's first page print?", "--level", "junior")
    assert done.returncode == 0, done.stderr
    assert "docs/published-urls.txt (+ quantize/fixture-question.md)" in done.stdout
    assert "snippets/quantize/fixture_question.py" in done.stdout
    unfinished = script(copy, "check_pages.py")
    assert unfinished.returncode == 1 and "unfinished placeholder (TODO)" in unfinished.stdout

    # The contributor writes the page and the snippet, records it, and every check passes.
    page = GOOD.replace("topic: export", "topic: quantize").replace(
        'snippet("export/fixture_tensor.py")', 'snippet("quantize/fixture_question.py")').replace(
        'snippet("export/fixture_error.py")\n', "").replace("[export/other-page]", "[]").replace(
        "What does the fixture snippet print, and why does it matter?",
        "What does a new topic's first page print?").replace(
        "[[out export/fixture_tensor.py:", "[[out quantize/fixture_question.py:")
    (copy / "docs/quantize/fixture-question.md").write_text(page)
    # It prints what the page's ties quote (a tensor, an escaped tag).
    (copy / "snippets/quantize/fixture_question.py").write_text(
        "import torch\ntorch.manual_seed(0)\nprint(torch.randn(3))\nprint('<script>alert(1)</script>')\n")
    assert run_cli("run", root=copy).returncode == 0
    done = script(copy, "check_pages.py")
    assert done.returncode == 0, done.stdout
    declared = (copy / "docs/topics.yml").read_text().count("- id: ")
    assert f"3 question page(s) in {declared} topic(s)" in done.stdout
    built = build(copy)
    assert built.returncode == 0, built.stderr[-3000:]

    site = copy / "site"
    home = (site / "index.html").read_text()
    # The navigation lists the topics under one "Topics" entry, opened on a topic's own pages, in
    # the learning order of docs/topics.yml: export, compile, then the new topic at the end.
    titles = _nav_titles((site / "quantize" / "index.html").read_text())
    assert titles.index("Topics") < titles.index("torch.export") < titles.index("torch.compile") \
        < titles.index("Quantization")
    assert "torch.export" not in _nav_titles(home), "the home page lists every topic in its navigation"
    assert 'href="quantize/">Quantization</a>' in home and 'href="notebooks/quantize/"' in home
    index = (site / "quantize" / "index.html").read_text()
    assert "What does a new topic&rsquo;s first page print?" in index or \
           "What does a new topic's first page print?" in index
    # The notebook note is its own paragraph, not swallowed into the last list item.
    assert re.search(r"</ol>\s*<p>The snippets of every page are also in a notebook", index)
    assert (site / "notebooks" / "quantize" / "quantize.ipynb").exists()

    # Moving the topic's entry moves it in the navigation: the list is the one place.
    topics = copy / "docs/topics.yml"
    text = topics.read_text()
    entry = "- id: quantize\n  title: Quantization\n"
    topics.write_text(text.replace(entry, "").replace("- id: export", entry + "- id: export"))
    assert build(copy).returncode == 0
    titles = _nav_titles((site / "quantize" / "index.html").read_text())
    assert titles.index("Quantization") < titles.index("torch.export")


def test_new_question_under_an_undeclared_topic_says_how_to_start_it(copy: Path) -> None:
    done = script(copy, "new_question.py", "serving", "a-page", "--question", "Why?",
                  "--level", "junior")
    assert done.returncode == 2
    assert "there is no topic 'serving' yet" in done.stderr
    assert 'python scripts/new_topic.py serving --title "<what readers see>"' in done.stderr
    assert not (copy / "docs/serving").exists()
    again = script(copy, "new_topic.py", "export", "--title", "Again")
    assert again.returncode == 2 and "already declared" in again.stderr


def _problems(root: Path) -> list[str]:
    done = script(root, "check_pages.py")
    assert done.returncode == 1, done.stdout
    return [line for line in done.stdout.splitlines() if re.match(r"^\S+:\d+: ", line)]


def test_a_page_in_an_undeclared_folder_is_one_message(copy: Path) -> None:
    (copy / "docs/serving").mkdir()
    page = GOOD.replace("topic: export", "topic: serving").replace("[export/other-page]", "[]")
    (copy / "docs/serving/first.md").write_text(page)
    (copy / "docs/serving/second.md").write_text(page)
    with (copy / "docs/published-urls.txt").open("a") as ledger:
        ledger.write("serving/first.md\nserving/second.md\n"
                     "notebooks/serving/first.ipynb\nnotebooks/serving/second.ipynb\n")
    assert _problems(copy) == [
        "docs/serving/first.md:1: the topic 'serving' is not declared in docs/topics.yml. Start it "
        'with: python scripts/new_topic.py serving --title "<what readers see>" (it writes the '
        "topic's index page, its published URLs and its place in the list)"]
    # The build says the same, and only that.
    built = build(copy)
    assert built.returncode != 0
    assert "the topic 'serving' is not declared" in built.stderr
    assert "published-urls" not in built.stderr


def test_a_declared_topic_without_its_index_page(copy: Path) -> None:
    (copy / "docs/compile/index.md").unlink()
    problems = _problems(copy)
    assert len(problems) == 1, problems
    line = (copy / "docs/topics.yml").read_text().splitlines().index("- id: compile") + 1
    assert problems[0].startswith(f"docs/topics.yml:{line}: topic 'compile' has no index page "
                                  "(docs/compile/index.md). Create it with a line "
                                  '{{ learning_path("compile") }}')


def test_a_topic_index_with_a_placeholder_or_no_learning_path(copy: Path) -> None:
    index = copy / "docs/compile/index.md"
    index.write_text("# torch.compile\n\nTODO: say what it covers.\n")
    assert sorted(_problems(copy)) == [
        "docs/compile/index.md:1: the index page of topic 'compile' has no learning path. Add a "
        'line {{ learning_path("compile") }}',
        "docs/compile/index.md:3: unfinished placeholder (TODO). Replace it with the real text"]


def test_a_broken_page_is_the_only_problem_reported(copy: Path) -> None:
    """A page error used to stop the notebooks being written, and the build then also said the
    topic's notebook 'was published but is no longer a page': advice that would be wrong."""
    page = copy / "docs/export/good-page.md"
    page.write_text(page.read_text().replace("level: middle", "level: expert"))
    expected = ["docs/export/good-page.md:3: unknown level 'expert'. Use one of: junior, middle, "
                "senior, principal"]
    assert _problems(copy) == expected
    built = build(copy)
    assert built.returncode != 0 and "unknown level 'expert'" in built.stderr
    assert "no longer a page" not in built.stderr and "ipynb" not in built.stderr
    # A page whose front matter does not even parse: still one problem.
    page.write_text("no front matter at all\n")
    problems = _problems(copy)
    assert len(problems) == 1 and problems[0].startswith("docs/export/good-page.md:1: the page has "
                                                         "no YAML front matter")


def test_a_malformed_topics_file_is_one_message(copy: Path) -> None:
    (copy / "docs/topics.yml").write_text("- id: export\n  title: torch.export\n- id: Compile!\n"
                                          "  title: torch.compile\n")
    assert _problems(copy) == [
        "docs/topics.yml:3: topic id 'Compile!' is not lowercase words joined by '-'. Use the "
        "folder name, e.g. 'export'"]


def _report(changed: str, same: str) -> dict:
    diff = (f"--- {changed} (pinned torch)\n+++ {changed} (compared torch)\n@@ -1 +1 @@\n"
            "-tensor([ 1.5410, -0.2934, -2.1788])\n+tensor([ 0.1000,  0.2000,  0.3000])\n")
    return {
        "schema": 1, "generated": "2026-12-01T08:00:00Z", "engine": "5",
        "pinned": {"torch": "2.13.0+cpu", "python": "3.11.7", "hardware": "a CPU", "engine": "5"},
        "compared": {"torch": "9.9.0+cu130", "python": "3.11.7", "hardware": "a CPU"},
        "counts": {"unchanged": 1, "output changed": 1, "now fails": 0, "now runs": 0,
                   "outcome changed": 0},
        "snippets": [
            {"snippet": changed, "class": "output changed", "pages": ["export/good-page.md"],
             "committed": "ok", "now": "ok", "message": "", "diff": diff},
            {"snippet": same, "class": "unchanged", "pages": ["export/other-page.md"],
             "committed": "ok", "now": "ok", "message": "", "diff": ""},
        ],
    }


def test_a_drift_report_on_the_upgrading_page_and_under_each_snippet(copy: Path) -> None:
    reports = copy / "reports" / "drift"
    reports.mkdir(parents=True)
    (reports / "torch-9.9.0.json").write_text(json.dumps(_report(
        "snippets/export/fixture_tensor.py", "snippets/export/fixture_plain.py")))
    built = build(copy)
    assert built.returncode == 0, built.stderr[-3000:]
    site = copy / "site"
    upgrading = (site / "upgrading-torch" / "index.html").read_text()
    anchor = "drift-9-9-0-snippets-export-fixture-tensor-py"
    assert 'id="drift-9-9-0"' in upgrading and f'id="{anchor}"' in upgrading
    assert "compared with its committed record from the pinned torch 2.13.0+cpu" in upgrading
    assert "Every CPU snippet the site had on 2026-12-01 (2) ran on torch 9.9.0+cu130" in upgrading
    # The fixture's other snippets came after the report: counted, not claimed as compared.
    text = html.unescape(re.sub(r"<[^>]+>", "", upgrading))
    later = re.search(r"(\d+) snippets? added since (?:have|has) not been compared with "
                      r"torch 9\.9\.0 yet", text)
    assert later and int(later.group(1)) == len(cpu_snippets(copy)) - 2 > 0, text[:2000]
    assert "+tensor([ 0.1000,  0.2000,  0.3000])" in html.unescape(re.sub(r"<[^>]+>", "", upgrading))
    assert "What does the fixture snippet print" in upgrading  # grouped under its page
    good = (site / "export" / "good-page" / "index.html").read_text()
    assert "On torch 9.9.0: output changed" in good
    assert f'href="../../upgrading-torch/#{anchor}"' in good
    other = (site / "export" / "other-page" / "index.html").read_text()
    assert "Same output on torch 9.9.0." in other and "On torch 9.9.0:" not in other


def test_an_unreadable_drift_report_is_one_message(copy: Path) -> None:
    reports = copy / "reports" / "drift"
    reports.mkdir(parents=True)
    (reports / "torch-9.9.0.json").write_text('{"schema": 7}')
    problems = _problems(copy)
    assert problems == [
        "reports/drift/torch-9.9.0.json:1: not a drift report this site can read ('schema 7, "
        "expected 1'). Re-create it: python scripts/snippets.py drift --torch VERSION"]


def test_a_link_to_an_anchor_another_page_lacks(copy: Path) -> None:
    """MkDocs checks anchors of links between pages; check_pages must say so first."""
    page = copy / "docs/export/good-page.md"
    text = page.read_text()
    page.write_text(text.replace("[Back to basics](#basics)",
                                 "[Back to basics](other-page.md#is-this-a-follow-up)"))
    line = text.split("\n").index(next(x for x in text.split("\n") if "[Back to basics]" in x)) + 1
    (problem,) = _problems(copy)
    assert problem.startswith(f"docs/export/good-page.md:{line}: link to "
                              "'other-page.md#is-this-a-follow-up', an anchor that page does not "
                              "have. Link a section or explainer heading of it: basics, ")
