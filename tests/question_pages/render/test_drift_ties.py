"""The drift report names sentences: the pages' ties checked against another torch's output (kept
in the report) and its source files (checked in its drift venv, kept beside the report)."""

from __future__ import annotations

import json
from pathlib import Path

from question_pages.format.loading import load_pages
from question_pages.render.drift_reports import DriftReport, load_reports, render_page
from question_pages.render.drift_ties import (
    BrokenTie,
    broken_ties,
    check_sources,
    render_section,
    sources_path,
    write_sources,
)
from snippet_engine.records.drift_coverage import uncovered


def _report(entries: dict[str, dict]) -> DriftReport:
    return DriftReport(Path("reports/drift/torch-9.9.9.json"), {"torch": "2.13.0+cpu"},
                       {"torch": "9.9.9", "python": "3.11", "hardware": "x"},
                       "2026-12-06T00:00:00Z", {"output changed": 1}, entries)


def _entry(rel: str, klass: str, now_output: str | None) -> dict:
    entry = {"snippet": rel, "class": klass, "pages": ["export/good-page.md"], "committed": "ok",
             "now": "ok", "message": "", "only_torch_lines": False, "diff": ""}
    if now_output is not None:
        entry["now_output"] = now_output
    return entry


def test_a_sentence_whose_output_changed_is_named_with_old_and_new(site_source: Path) -> None:
    pages, _ = load_pages(site_source)
    rel = "snippets/export/fixture_tensor.py"
    report = _report({rel: _entry(rel, "output changed", "tensor([1., 2.])\n<script>gone</script>\n")})
    sources_path(site_source, "9.9.9").unlink(missing_ok=True)
    broken = broken_ties(pages, site_source, report)
    outs = [b for b in broken if b.tie.startswith(rel)]
    assert [(b.page, b.line, b.sentence) for b in outs] == [
        ("docs/export/good-page.md", 14, "and an HTML tag, escaped")]
    assert outs[0].was == "<script>alert(1)</script>"
    assert "closest line `<script>gone</script>`" in outs[0].now
    # The source tie was never checked on 9.9.9: listed as such, never as holding.
    srcs = [b for b in broken if b.tie.startswith("torch/")]
    assert len(srcs) == 1 and "not checked on torch 9.9.9 yet" in srcs[0].now
    # Unchanged output: every output tie holds.
    same = _report({rel: _entry(rel, "unchanged", None)})
    assert not [b for b in broken_ties(pages, site_source, same) if b.tie.startswith(rel)]


def test_source_ties_are_checked_in_the_other_torchs_files(site_source: Path, tmp_path: Path) -> None:
    pages, _ = load_pages(site_source)
    other = tmp_path / "site-packages"
    (other / "torch/nn/modules").mkdir(parents=True)
    (other / "torch/nn/modules/module.py").write_text("class Module(Base):\n    pass\n")
    path = write_sources(site_source, "9.9.9", check_sources(pages, other, "9.9.9"))
    try:
        assert json.loads(path.read_text())["ties"] == {
            'torch/nn/modules/module.py\t"class Module:"': {
                "found": False,
                "why": '"class Module:" is not in torch/nn/modules/module.py of torch 9.9.9'}}
        broken = [b for b in broken_ties(pages, site_source, _report({})) if b.tie.startswith("torch/")]
        assert [(b.line, b.now) for b in broken] == [
            (70, '"class Module:" is not in torch/nn/modules/module.py of torch 9.9.9')]
        (other / "torch/nn/modules/module.py").write_text("x = 1\nclass Module:\n")
        write_sources(site_source, "9.9.9", check_sources(pages, other, "9.9.9"))
        assert not [b for b in broken_ties(pages, site_source, _report({})) if b.tie.startswith("torch/")]
    finally:
        path.unlink()


def test_the_upgrading_page_lists_them_first() -> None:
    report = _report({})
    text = render_page([report], {}, [], {"9.9.9": render_section([], "9.9.9")})
    assert "### Tied sentences on torch 9.9.9 {#drift-9-9-9-sentences}" in text
    assert "Every tied sentence holds on torch 9.9.9" in text


def test_a_sentences_own_links_are_kept_as_text_on_the_upgrading_page() -> None:
    # A link into the question page (#a-heading) would be a broken link on the Upgrading page,
    # and `mkdocs build --strict` refuses the whole site for it.
    broken = BrokenTie("docs/gpu/x.md", 3, "See [the sync mode](#the-sync-mode) and "
                       "[sdpa](../llm/sdpa.md#why), not ![img](a.png).", "torch/x.py: \"y\"", "y",
                       "gone")
    text = broken.markdown()
    assert "*See the sync mode and sdpa, not ![img](a.png).*" in text
    assert "](#" not in text and "](../" not in text


def test_the_sources_check_beside_a_report_is_not_read_as_a_report(tmp_path: Path) -> None:
    # check_pages.py --drift-ties writes torch-X-sources.json next to torch-X.json; the site's
    # list of reports must not try to read it as one (the drift command failed on it).
    write_sources(tmp_path, "9.9.9", {})
    assert sources_path(tmp_path, "9.9.9").is_file()
    assert load_reports(tmp_path) == []
    assert uncovered(tmp_path) == []  # nor by `snippets.py check`'s coverage of the reports
