"""The recorded output is byte-identical on every run, on any checkout path, forked or fresh.

Three ways, compared byte for byte with each other and with the committed records: a warm-worker
run in one checkout, the same in a second checkout at another path under a second CPU capability
(`snippets.py verify --cpu-capability second`: AVX2 on an AVX-512 host, its own elsewhere; a
record must not depend on the CPU that made it, issue 40 item 6), and a run that starts a fresh
`python` for every snippet (with an empty Inductor cache, as every run has). The path and the
capability share one run, so that the second capability costs this test nothing: a difference
there is one or the other, and its message says how to tell.

What runs: fixture snippets that stress the engine (seeding, paths, torch's log lines at DEBUG
level, a variable torch reads at import, an Inductor compile), plus, from the real bank, every
snippet whose committed record is not current (the ones a change touched) and the quickest of
each kind (export, compile, AOTInductor, deployment), so that every kind is always compared (one
of each: an AOTInductor snippet costs 25 s a run, and the run is made three times). The whole
bank, three ways, is CI's drift step (`scripts/ci_cpu_job.sh drift`), which keeps this test
command fast as the bank grows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import ROOT, run_cli
from snippet_engine.commands.verify import first_difference
from snippet_engine.records.check import record_state
from snippet_engine.records.record_file import copy_without_records, read_record
from snippet_engine.source.analysis import KINDS, snippet_kind
from snippet_engine.source.discovery import Snippet, all_records, discover
from snippet_engine.source.options import parse_options

FIXTURES = {
    "seeded.py": ("import torch\ntorch.manual_seed(0)\nprint(torch.randn(2, 2))\n"
                  "print(torch.rand(1).item() < 1)\n"),
    "paths.py": "import os, torch\nprint(__file__)\nprint(os.getcwd())\nprint(torch.__file__)\n",
    "export_print.py": (
        "import torch\ntorch.manual_seed(0)\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
        "        return x.sin() + 1\nprint(torch.export.export(M(), (torch.randn(2),)))\n"),
    "expected.py": "#| expect: RuntimeError\nimport torch\ntorch.ones(2) @ torch.ones(3)\n",
    # torch's DEBUG-level log lines, with the user code traceback that names the stack.
    "set_logs.py": (
        "import torch\ntorch._logging.set_logs(graph_breaks=True)\n\n"
        "def f(x):\n    x = x.sin()\n    print('break')\n    return x.cos()\n\n"
        "print(torch.compile(f, backend='eager')(torch.ones(2)))\n"),
    # A variable torch reads once, at import: a forked worker would have read it long ago.
    "env_before_import.py": (
        "import os\nos.environ['TORCH_LOGS'] = 'recompiles'\nimport torch\n\n"
        "f = torch.compile(lambda x, n: x * n, backend='eager')\n"
        "f(torch.ones(2), 2)\nf(torch.ones(2), 3)\ntorch.manual_seed(0)\nprint(torch.randn(2))\n"),
    # Inductor from a cold cache: generated code, compile workers, the first-compile state.
    "inductor.py": (
        "#| timeout: 240\nimport torch\nfrom torch._inductor.utils import run_and_get_code\n"
        "from torch._dynamo.utils import counters\n\ntorch.manual_seed(0)\n"
        "f = torch.compile(lambda x: (x.sin() + 1).relu())\n"
        "out, (code,) = run_and_get_code(f, torch.randn(8))\n"
        "print('generated a C++ kernel:', 'cpp_fused' in code, 'out:', tuple(out.shape))\n"
        "print('fx graph cache:', dict(counters['inductor']))\n"
        "saved = torch.compiler.save_cache_artifacts()\n"
        "print('cache artifacts:', {k: len(v) for k, v in saved[1].artifacts.items()})\n"),
}
def kind_of(path: Path) -> str:
    return snippet_kind(path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT)
                        else path.as_posix(), path.read_text(encoding="utf-8"))


def chosen_from_the_bank(root: Path) -> list[str]:
    """Every snippet whose record is not current, and the quickest of each kind."""
    by_kind: dict[str, list[tuple[float, str]]] = {kind: [] for kind in KINDS}
    chosen = set()
    for snippet in discover(root):
        if "cpu" not in parse_options(snippet.path).devices:
            continue  # CUDA-only: a CPU run never records it (test_cuda_isolation.py)
        state, _ = record_state(snippet.path, root, "cpu")
        record = read_record(snippet.record_path("cpu")) if state != "damaged" else None
        if state != "current" or record is None:
            chosen.add(snippet.rel)
            continue
        by_kind[kind_of(snippet.path)].append((record.duration_s, snippet.rel))
    for items in by_kind.values():
        chosen.update(rel for _, rel in sorted(items)[:1])
    return sorted(chosen)


def _copy(dest: Path, chosen: list[str]) -> Path:
    copy_without_records(ROOT, dest)
    keep = {dest / rel for rel in chosen}
    for snippet in discover(dest):
        if snippet.path not in keep:
            snippet.path.unlink()
    for name, text in FIXTURES.items():
        path = dest / "snippets" / "zz_engine_fixtures" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return dest


def _outputs(report: Path) -> dict[str, tuple[str, str]]:
    data = json.loads(report.read_text())["snippets"]
    return {s["path"]: (s["status"], s["output"]) for s in data}


def _executed(report: Path) -> set[str]:
    """The snippets the run really executed (not answered from a record)."""
    return {s["path"] for s in json.loads(report.read_text())["snippets"] if not s["cached"]}


@pytest.fixture(scope="module")
def three_runs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    chosen = chosen_from_the_bank(ROOT)
    one = _copy(tmp_path_factory.mktemp("first") / "checkout", chosen)
    two = _copy(tmp_path_factory.mktemp("second") / "a" / "much" / "deeper" / "clone", chosen)
    results: dict = {"chosen": chosen}
    for name, root, extra in (("warm", one, ()), ("other-path", two, ()),
                              ("fresh", one, ("--force", "--fresh"))):
        report = root.parent / f"{name}.json"
        before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in all_records(root)}
        if name == "other-path":
            # Under the second CPU capability, judged against the records the warm run wrote
            # (`verify` records nothing): its report has what each snippet printed.
            for record in all_records(one):
                (two / record.relative_to(one)).write_bytes(record.read_bytes())
            done = run_cli("verify", "--cpu-capability", "second", "--report", str(report),
                           root=root, timeout=3000)
            assert report.is_file(), done.stdout[-4000:] + done.stderr[-4000:]
        else:
            done = run_cli("run", "--report", str(report), *extra, root=root, timeout=3000)
            assert done.returncode == 0, done.stderr[-4000:]
        results[name] = _outputs(report)
        results[f"{name}-executed"] = _executed(report)
        results[f"{name}-records-before"] = before
        results[f"{name}-root"] = root
    return results


def compared_kinds(three_runs: dict) -> set[str]:
    """The kinds of the bank's snippets that all three runs executed and recorded with a good
    status: what the other tests really compare, not what was meant to be run."""
    executed = set.intersection(*(three_runs[f"{name}-executed"]
                                  for name in ("warm", "other-path", "fresh")))
    return {kind_of(ROOT / rel) for rel in executed
            if (ROOT / rel).is_file() and all(three_runs[name][rel][0] in ("ok", "expected-error")
                                              for name in ("warm", "other-path", "fresh"))}


def test_every_kind_of_snippet_is_compared(three_runs: dict) -> None:
    present = {kind_of(s.path) for s in discover(ROOT)}
    kinds = compared_kinds(three_runs)
    assert present and kinds >= present, f"kinds in the bank {present}, compared {kinds}"


def test_the_kind_check_counts_only_what_all_three_runs_executed() -> None:
    """No run at all, or a kind missing from one run, leaves that kind uncompared (fast: it
    builds the runs' results by hand instead of running anything)."""
    by_kind = {kind_of(s.path): s.rel for s in discover(ROOT)}
    names = ("warm", "other-path", "fresh")
    nothing = {**{n: {} for n in names}, **{f"{n}-executed": set() for n in names}}
    assert compared_kinds(nothing) == set()
    every = {**{n: {rel: ("ok", "") for rel in by_kind.values()} for n in names},
             **{f"{n}-executed": set(by_kind.values()) for n in names}}
    assert compared_kinds(every) == set(by_kind)
    every["fresh-executed"] = set(by_kind.values()) - {by_kind["aoti"]}
    assert compared_kinds(every) == set(by_kind) - {"aoti"}


def differences(one: dict[str, tuple[str, str]], other: dict[str, tuple[str, str]]) -> list[str]:
    """Each snippet whose status or output differs, with its first differing line."""
    found = []
    for rel in sorted(set(one) | set(other)):
        a, b = one.get(rel, ("absent", "")), other.get(rel, ("absent", ""))
        if a[0] != b[0]:
            found.append(f"{rel}: {a[0]} here, {b[0]} there")
        elif a[1] != b[1]:
            found.append(f"{rel}: {first_difference(a[1], b[1])}")
    return found


def test_same_on_two_checkout_paths_and_a_second_cpu(three_runs: dict) -> None:
    """A difference here is the checkout's path or the CPU's capability: re-run the snippet with
    `snippets.py verify --cpu-capability second PATH` to tell. A CPU one prints float32 digits
    that the vector width decides: print fewer (round, a format), and say why in the snippet."""
    found = differences(three_runs["warm"], three_runs["other-path"])
    assert not found, "\n".join(found)


def test_fresh_process_gives_the_same_records_byte_for_byte(three_runs: dict) -> None:
    assert three_runs["fresh"] == three_runs["warm"]
    root = three_runs["fresh-root"]
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in all_records(root)}
    assert after == three_runs["fresh-records-before"], "re-running unchanged output rewrote files"


def test_committed_records_match_a_fresh_run(three_runs: dict) -> None:
    for rel in three_runs["chosen"]:
        record = read_record(Snippet(ROOT / rel, rel).record_path("cpu"))
        assert record is not None, f"{rel} has no committed record"
        status, output = three_runs["warm"][rel]
        assert (record.status, record.output) == (status, output), rel


def test_fixture_paths_are_normalised(three_runs: dict) -> None:
    _, output = three_runs["warm"]["snippets/zz_engine_fixtures/paths.py"]
    assert output == ("snippets/zz_engine_fixtures/paths.py\n<cwd>\n"
                      "<site-packages>/torch/__init__.py\n")


def test_logs_name_only_the_snippets_frames(three_runs: dict) -> None:
    _, output = three_runs["warm"]["snippets/zz_engine_fixtures/set_logs.py"]
    assert "Graph break in user code at snippets/zz_engine_fixtures/set_logs.py:6" in output
    assert 'File "snippets/zz_engine_fixtures/set_logs.py", line 9, in <module>' in output
    assert "runpy" not in output and "snippet_engine" not in output
    assert "V<time> <pid> torch/_dynamo/" in output


def test_a_variable_set_before_import_torch_takes_effect(three_runs: dict) -> None:
    _, output = three_runs["warm"]["snippets/zz_engine_fixtures/env_before_import.py"]
    assert "Recompiling function <lambda>" in output, output
    assert output.endswith("tensor([ 1.5410, -0.2934])\n"), "seeded once torch was imported"


def test_a_cold_inductor_compile_in_every_worker(three_runs: dict) -> None:
    _, output = three_runs["warm"]["snippets/zz_engine_fixtures/inductor.py"]
    # The warm-up's own compile leaves no trace: the cache counters start from zero, and the
    # artifacts save_cache_artifacts() collects are this snippet's only.
    assert output == ("generated a C++ kernel: True out: (8,)\n"
                      "fx graph cache: {'fxgraph_cache_miss': 1}\n"
                      "cache artifacts: {'inductor': 1, 'aot_autograd': 1}\n"), output


def test_a_difference_names_the_snippet_and_its_first_differing_line() -> None:
    """What the path-and-CPU comparison reports (fast: the runs' results are built by hand)."""
    warm = {"snippets/a.py": ("ok", "loss: 0.06265699118375778\n"), "snippets/b.py": ("ok", "")}
    other = {"snippets/a.py": ("ok", "loss: 0.06265701353549957\n"),
             "snippets/b.py": ("failed", "")}
    assert differences(warm, other) == [
        "snippets/a.py: line 1: the record says 'loss: 0.06265699118375778', "
        "the run printed 'loss: 0.06265701353549957'",
        "snippets/b.py: ok here, failed there"]
    assert differences(warm, dict(warm)) == []
