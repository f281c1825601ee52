"""The built HTML of a real MkDocs build: code, each device's output, provenance, escaping,
anchors, speaking times, the index, the learning path, the notebook and sharing metadata."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from site_search import indexed
from snippet_engine.records.record_file import read_record


@pytest.fixture(scope="module")
def page(built_site: Path) -> str:
    return (built_site / "export" / "good-page" / "index.html").read_text()


@pytest.fixture(scope="module")
def other(built_site: Path) -> str:
    return (built_site / "export" / "other-page" / "index.html").read_text()


def _tab_blocks(text: str) -> list[str]:
    return re.findall(r'<div class="tabbed-block">(.*?)</div>\s*(?=<div class="tabbed-block">|</div>)',
                      text, re.DOTALL)


def _plain(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_source_and_both_devices_outputs(page: str, site_source: Path) -> None:
    assert "snippets/export/fixture_tensor.py" in page
    assert '<label for="__tabbed_1_1">CPU</label><label for="__tabbed_1_2">CUDA</label>' in page
    cpu = read_record(site_source / "snippets/export/fixture_tensor.cpu.txt")
    cuda = read_record(site_source / "snippets/export/fixture_tensor.cuda.txt")
    blocks = _tab_blocks(page)
    assert cpu.output.strip() in _plain(blocks[0])
    assert cuda.output.strip() in _plain(blocks[1])
    assert "device: cuda:0" not in _plain(blocks[0])


def test_provenance_lines(page: str) -> None:
    blocks = [_plain(b) for b in _tab_blocks(page)]
    assert re.search(r"CPU output, recorded \d{4}-\d{2}-\d{2} with torch 2\.13\.0\+cpu, "
                     r"Python 3\.\d+\.\d+, on ", blocks[0])
    assert "with torch 2.13.0+cu130" in blocks[1] and "NVIDIA H200 (test fixture)" in blocks[1]
    assert 'class="snippet-provenance"' in page


def test_output_is_escaped(page: str) -> None:
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page


def test_expected_error_is_shown_as_an_error(page: str) -> None:
    match = re.search(r'<div class="admonition failure">(.*?)</div>\s*</div>', page, re.DOTALL)
    assert match, "no failure box"
    box = _plain(match.group(1))
    assert "Raises RuntimeError, as this snippet intends" in box
    assert "RuntimeError: inconsistent tensor size" in box
    assert "multiplying" not in box, "what the snippet printed belongs above the error box"
    assert "multiplying" in _plain(page[: match.start()].rsplit("fixture_error.py", 1)[1])


def _snippet_section(text: str, name: str) -> str:
    """The built <section> of one snippet, from its code's title to the section's end."""
    start = text.index(f'<span class="filename">snippets/export/{name}</span>')
    start = text.rindex('<section class="snippet"', 0, start)
    return text[start:text.index("</section>", start)]


def test_missing_and_foreign_records_are_said_plainly(page: str, other: str) -> None:
    # A device without an output gets one quiet line, never an empty tab.
    error = _snippet_section(page, "fixture_error.py")
    assert "tabbed-set" not in error
    assert "Not run on CUDA: the snippet is for CPU only." in _plain(error)
    plain = _snippet_section(other, "fixture_plain.py")
    assert "tabbed-set" not in plain and ">CUDA</label>" not in plain
    assert re.search(r'<p class="snippet-unrecorded">Not recorded on CUDA yet\.</p>', plain)
    assert "snippets.py run" not in _plain(other), "maintainer instructions belong in CONTRIBUTING"
    old = _snippet_section(other, "fixture_old.py")
    assert ">CPU</label>" in old and ">CUDA</label>" in old
    text = _plain(old)
    assert "with torch 2.12.0+cu126" in text and "Not the pinned torch 2.13.0" in text


def test_options_are_badges_not_code(page: str, site_source: Path) -> None:
    section = _snippet_section(page, "fixture_error.py")
    badges = re.findall(r'<span class="snippet-badge">([^<]+)</span>', section)
    assert badges == ["Raises RuntimeError on purpose", "CPU only"]
    code = _plain(section[:section.index("</code>")])
    assert "#|" not in code and "import torch" in code
    # Its output names no line of it, so its code is not numbered.
    assert "linenos" not in section


def test_code_whose_output_cites_a_line_is_numbered_as_the_file(other: str, site_source: Path) -> None:
    section = _snippet_section(other, "fixture_folded.py")
    source = (site_source / "snippets/export/fixture_folded.py").read_text().split("\n")
    first = next(n for n, line in enumerate(source, start=1) if line.startswith("print("))
    numbers = re.findall(r'<span class="normal">\s*(\d+)</span>', section)
    assert numbers and int(numbers[0]) == first, numbers
    assert int(numbers[-1]) == len(source) - 1  # the last line, not the count of shown lines
    code = _plain(section[section.index('<td class="code">'):section.index("</code>")])
    assert "#|" not in code


def test_long_torch_messages_are_folded_and_kept(other: str, site_source: Path) -> None:
    section = _snippet_section(other, "fixture_folded.py")
    record = read_record(site_source / "snippets/export/fixture_folded.cpu.txt")
    # The full output's block carries the id that output ties link to (#out-...-full).
    block = (r'<div (?:id="out-[\w-]+" )?class="highlight"><pre><span></span>'
             r'<code(?: data-tokens="")?>(.*?)</code>')
    outputs = [_plain(c) for c in re.findall(block, section, re.DOTALL)]
    assert len(outputs) == 2, outputs
    shown, full = outputs
    assert "RuntimeError: the point of it" in shown and "Caused by: the line" in shown
    assert "after the hints" in shown
    assert "For more debugging help" not in shown and "TORCHDYNAMO_VERBOSE" not in shown
    assert "4 lines of torch's debugging hints and traced-graph dumps are left out here" in _plain(section)
    # The whole record is one click away, in a closed <details>.
    assert re.search(r'<details class="note">\s*<summary>The full output, as recorded \(8 lines\)',
                     section)
    assert full.strip() == record.output.strip()


def test_page_strip_links_every_rehearsed_part(page: str) -> None:
    strip = re.search(r'<nav class="page-strip" aria-label="On this page"[^>]*>(.*?)</nav>', page)
    assert strip, "no 'on this page' strip"
    targets = re.findall(r'href="#([\w-]+)"', strip.group(1))
    assert targets == ["short-answer", "basics", "solid-answer", "code", "go-deeper", "explainer",
                       "follow-ups", "red-flags"]
    assert page.index('class="page-strip"') < page.index('id="short-answer"')


def test_every_section_has_its_stable_anchor(page: str) -> None:
    for anchor in ("short-answer", "basics", "solid-answer", "code", "go-deeper", "explainer",
                   "follow-ups", "red-flags", "sources", "related-questions"):
        assert f'id="{anchor}"' in page, anchor


def test_speaking_time_is_computed_from_words(page: str) -> None:
    assert "Spoken: ~20 s (50 words at 150 words per minute; aim for about 20 s)" in page
    assert "Spoken: ~51 s (127 words at 150 words per minute; aim for about 50 s)" in page


def test_metadata_follow_ups_levels_red_flags_related(page: str) -> None:
    text = _plain(page)
    assert "Level: Middle" in text and "Should know" in text
    assert "Comes up sometimes in export interviews (editor's estimate)" in text
    assert "40%" not in text, "a band, not a percentage, in the text"
    assert ('data-frequency="40" title="An editor\'s estimate, not a measurement: about 40%"'
            in page), "the number stays in the page's metadata"
    # Each follow-up folded, with its own anchor (questions.json links it).
    assert ('<details class="question" id="follow-up-is-the-output-ever-typed-by-hand">\n'
            "<summary>Is the output ever typed by hand?</summary>") in page
    for level in ("Junior", "Middle", "Senior", "Principal"):
        assert f">{level}</label>" in page
    assert "Saying these costs you the question" in text
    assert '<a href="../other-page/">Is this the other fixture page?</a>' in page


def test_question_index_table(built_site: Path) -> None:
    index = (built_site / "questions" / "index.html").read_text()
    rows = re.findall(r"<tr data-id=\"[^\"]+\" data-level=\"(\w+)\"[^>]*>.*?<a href=\"([^\"]+)\"", index)
    assert rows == [("junior", "../export/other-page/"), ("middle", "../export/good-page/")]
    for name in ("level", "importance", "topic", "text"):
        assert f'data-filter="{name}"' in index
    assert "questions.js" in index
    assert '<p class="question-empty" hidden>No question matches these filters.' in index
    assert re.search(r'<td data-label="Comes up" title="about 40% \(editor\'s estimate\)">Sometimes</td>',
                     index)


def test_furniture_and_tools_stay_out_of_search(built_site: Path) -> None:
    """The search index holds answers: not the index's filters and table (the index lists every
    question, which search finds on its own page), the progress pages, the level chips, the
    practice controls or the "On this page" strip."""
    pages = indexed(built_site)
    assert "/export/good-page/" in pages, f"the question pages are searchable: {sorted(pages)}"
    for url in ("/questions/", "/progress/", "/study-plan/", "/tags/", "/notebooks/export/"):
        assert url not in pages, f"{url} is in the search index"
    assert "Your progress" not in pages["/"]["content"]  # the home page's progress summary
    text = " ".join(page["content"] for url, page in pages.items() if url.startswith("/export/"))
    for furniture in ("Words in the question", "Your progress", "Practise this question",
                      "Level: ", "On this page", "Spoken: ~", "Read this section"):
        assert furniture not in text, f"{furniture!r} is in the search index"


def test_learning_path_orders_junior_first(built_site: Path) -> None:
    text = (built_site / "export" / "index.html").read_text()
    topic = _plain(text[text.index('<article'):])
    assert topic.index("Is this the other fixture page?") < topic.index(
        "What does the fixture snippet print")


def test_notebook_is_built_from_records(built_site: Path, site_source: Path) -> None:
    notebook = json.loads((built_site / "notebooks" / "export" / "export.ipynb").read_text())
    code = [c for c in notebook["cells"] if c["cell_type"] == "code" and "snippet" in c["metadata"]]
    by_snippet = {c["metadata"]["snippet"]: c for c in code}
    tensor = by_snippet["snippets/export/fixture_tensor.py"]
    record = read_record(site_source / "snippets/export/fixture_tensor.cpu.txt")
    assert "".join(tensor["outputs"][0]["text"]) == record.output
    assert tensor["execution_count"] is None  # never executed again
    error = by_snippet["snippets/export/fixture_error.py"]["outputs"]
    assert error[-1]["output_type"] == "error" and error[-1]["ename"] == "RuntimeError"
    rendered = (built_site / "notebooks" / "export" / "index.html").read_text()
    assert 'href="export.ipynb" download' in rendered
    assert "tensor([ 1.5410, -0.2934, -2.1788])" in rendered


def test_no_page_requests_another_host(built_site: Path) -> None:
    external = re.compile(
        r"<script[^>]+src=\"(?:https?:)?//|<link[^>]+rel=\"(?:stylesheet|preload|preconnect)\"[^>]+"
        r"href=\"(?:https?:)?//|import\(\s*[\"'](?:https?:)?//|url\(\s*[\"']?(?:https?:)?//")
    for path in built_site.rglob("*.html"):
        text = path.read_text()
        assert not external.search(text), f"{path} loads something from another host"
        assert '<script src="">' not in text, path


def test_sharing_metadata(page: str) -> None:
    title = "What does the fixture snippet print, and why does it matter?"
    assert f'<meta property="og:title" content="{title}">' in page
    assert '<meta name="description" content="The fixture snippet prints a seeded tensor' in page
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page).group(1))
    assert data["@type"] == "QAPage"
    assert data["mainEntity"]["acceptedAnswer"]["text"].startswith("A snippet's output is recorded")


def test_sources_and_related_questions_stay_out_of_search(built_site: Path) -> None:
    """Link lists and other pages' titles: not what a reader searches for, and other pages' titles
    would make a page a hit for what another page answers."""
    page = indexed(built_site)["/export/good-page/"]
    assert "Basics" in page["content"] and "Follow-ups" in page["content"]
    assert "Is this the other fixture page?" not in page["content"]  # the related question
    assert "Sources" not in page["content"] and "Related questions" not in page["content"]


def test_a_cuda_only_snippet_awaits_the_gpu_workflow(other: str, site_source: Path) -> None:
    """`#| devices: cuda`: the build passes without any record of it, and the page shows the
    code with a plain statement that its output is not recorded yet, never an empty tab or an
    output from another device."""
    assert not list((site_source / "snippets/export").glob("fixture_gpu_only.*.txt"))
    section = _snippet_section(other, "fixture_gpu_only.py")
    text = _plain(section)
    assert "print(torch.cuda.get_device_name())" in text
    assert re.findall(r'<span class="snippet-badge">([^<]+)</span>', section) == ["CUDA only"]
    assert ("Not recorded yet: this snippet runs on CUDA only, and its output is recorded by the "
            "project's GPU workflow on a CUDA runner, which has not recorded it. No output is "
            "shown.") in text
    assert "snippet-awaiting-gpu" in section
    assert "tabbed-set" not in section and "output, recorded" not in text
