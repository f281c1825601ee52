"""The recorded output is byte-identical on every run, on any checkout path, forked or fresh.

This runs the real bank (every snippet under snippets/) three ways: a warm-worker run in one
checkout, the same in a second checkout at another path, and a run that starts a fresh `python`
for every snippet. All three must agree byte for byte, and agree with the committed records.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from helpers import ROOT, run_cli
from snippet_engine.discovery import all_records
from snippet_engine.records import read_record

FIXTURES = {
    "seeded.py": "import torch\nprint(torch.randn(2, 2))\nprint(torch.rand(1).item() < 1)\n",
    "paths.py": "import os, torch\nprint(__file__)\nprint(os.getcwd())\nprint(torch.__file__)\n",
    "export_print.py": (
        "import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
        "        return x.sin() + 1\nprint(torch.export.export(M(), (torch.randn(2),)))\n"),
    "expected.py": "#| expect: RuntimeError\nimport torch\ntorch.ones(2) @ torch.ones(3)\n",
}


def _copy_bank(dest: Path) -> Path:
    shutil.copytree(ROOT / "snippets", dest / "snippets",
                    ignore=shutil.ignore_patterns("*.cpu.txt", "*.cuda.txt", "__pycache__"))
    for name, text in FIXTURES.items():
        path = dest / "snippets" / "zz_engine_fixtures" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return dest


def _outputs(root: Path, report: Path) -> dict[str, tuple[str, str]]:
    data = json.loads(report.read_text())["snippets"]
    return {s["path"]: (s["status"], s["output"]) for s in data}


@pytest.fixture(scope="module")
def three_runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    one = _copy_bank(tmp_path_factory.mktemp("first") / "checkout")
    two = _copy_bank(tmp_path_factory.mktemp("second") / "a" / "much" / "deeper" / "clone")
    results = {}
    for name, root, extra in (("warm", one, ()), ("other-path", two, ()),
                              ("fresh", one, ("--force", "--fresh"))):
        report = root.parent / f"{name}.json"
        before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in all_records(root)}
        done = run_cli("run", "--report", str(report), *extra, root=root, timeout=3000)
        assert done.returncode == 0, done.stderr[-4000:]
        results[name] = _outputs(root, report)
        results[f"{name}-records-before"] = before
        results[f"{name}-root"] = root
    return results


def test_same_on_two_checkout_paths(three_runs: dict) -> None:
    assert three_runs["warm"] == three_runs["other-path"]


def test_fresh_process_gives_the_same_records_byte_for_byte(three_runs: dict) -> None:
    assert three_runs["fresh"] == three_runs["warm"]
    root = three_runs["fresh-root"]
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in all_records(root)}
    assert after == three_runs["fresh-records-before"], "re-running unchanged output rewrote files"


def test_committed_records_match_a_fresh_run(three_runs: dict) -> None:
    for record_path in all_records(ROOT):
        if not record_path.name.endswith(".cpu.txt"):
            continue
        record = read_record(record_path)
        status, output = three_runs["warm"][record.snippet]
        assert (record.status, record.output) == (status, output), record.snippet


def test_fixture_paths_are_normalised(three_runs: dict) -> None:
    _, output = three_runs["warm"]["snippets/zz_engine_fixtures/paths.py"]
    assert output == ("snippets/zz_engine_fixtures/paths.py\n<cwd>\n"
                      "<site-packages>/torch/__init__.py\n")
