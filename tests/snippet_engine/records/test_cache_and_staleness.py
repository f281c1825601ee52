"""Cache keys, re-runs, stale marking and `check`, end to end with real torch."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from helpers import run_cli, write
from snippet_engine.execution.preview import LivePreview
from snippet_engine.records.cachekey import compute_key
from snippet_engine.records.environment import Environment
from snippet_engine.records.record_file import read_record
from snippet_engine.source.discovery import discover

ENV = Environment(device="cpu", torch_version="2.13.0+cpu", python_version="3.11.7", hardware="x")


def report(root: Path, *args: str) -> tuple[int, dict]:
    path = root / "report.json"
    done = run_cli("run", "--report", str(path), *args, root=root)
    data = {Path(s["path"]).name: s for s in json.loads(path.read_text())["snippets"]}
    return done.returncode, data


def test_key_covers_source_helpers_versions_device(repo: Path) -> None:
    write(repo, "snippets/t/_h.py", "X = 1\n")
    write(repo, "snippets/t/a.py", "from _h import X\nprint(X)\n")
    snippet = discover(repo)[0]
    base, helpers = compute_key(snippet, ENV, repo)
    assert list(helpers) == ["snippets/t/_h.py"]
    variants = [
        dataclasses.replace(ENV, torch_version="2.14.0+cpu"),
        dataclasses.replace(ENV, python_version="3.12.1"),
        dataclasses.replace(ENV, device="cuda"),
    ]
    keys = {compute_key(snippet, env, repo)[0] for env in variants}
    assert base not in keys and len(keys) == 3
    # Same release from a CUDA wheel, another patch of Python, another CPU: same key.
    same = dataclasses.replace(ENV, torch_version="2.13.0+cu130", python_version="3.11.9",
                               hardware="other")
    assert compute_key(snippet, same, repo)[0] == base
    write(repo, "snippets/t/_h.py", "X = 2\n")
    assert compute_key(snippet, ENV, repo)[0] != base


def test_rerun_only_what_changed_and_never_import_torch_when_idle(repo: Path) -> None:
    write(repo, "snippets/t/_h.py", "X = 1\n")
    write(repo, "snippets/t/uses.py", "from _h import X\nprint(X)\n")
    write(repo, "snippets/t/plain.py", "print('plain')\n")
    code, first = report(repo)
    assert code == 0 and not any(s["cached"] for s in first.values())

    idle = run_cli("run", root=repo, python_flags=("-X", "importtime"))
    assert idle.returncode == 0
    assert "| torch" not in idle.stderr, "a run with nothing to do imported torch"

    write(repo, "snippets/t/_h.py", "X = 2\n")
    code, second = report(repo)
    assert (second["uses.py"]["cached"], second["plain.py"]["cached"]) == (False, True)
    assert second["uses.py"]["output"] == "2\n"


def test_force_rerun_with_same_output_leaves_files_untouched(repo: Path, record_of) -> None:
    write(repo, "snippets/t/a.py", "print('same')\n")
    assert report(repo)[0] == 0
    record = record_of(repo, "snippets/t/a.py")
    before = (record.read_bytes(), record.stat().st_mtime_ns)
    code, data = report(repo, "--force")
    assert code == 0 and data["a.py"]["cached"] is False
    assert (record.read_bytes(), record.stat().st_mtime_ns) == before


def test_failure_keeps_old_record_marks_it_stale_and_check_fails(repo: Path, record_of) -> None:
    write(repo, "snippets/t/a.py", "print('good')\n")
    assert report(repo)[0] == 0
    assert run_cli("check", root=repo).returncode == 0

    write(repo, "snippets/t/a.py", "raise RuntimeError('now broken')\n")
    code, data = report(repo)
    assert code == 1 and data["a.py"]["status"] == "failed"
    record = read_record(record_of(repo, "snippets/t/a.py"))
    assert record.output == "good\n" and record.is_stale and "failed" in record.stale
    checked = run_cli("check", root=repo)
    assert checked.returncode == 1 and "snippets/t/a.py [cpu]: stale" in checked.stdout

    write(repo, "snippets/t/a.py", "print('good')\n")
    assert report(repo)[0] == 0  # a fixed snippet re-runs even though its key is as recorded
    assert not read_record(record_of(repo, "snippets/t/a.py")).is_stale
    assert run_cli("check", root=repo).returncode == 0


def test_check_missing_stale_orphan_and_cuda_listing(repo: Path, record_of) -> None:
    write(repo, "snippets/t/a.py", "print(1)\n")
    out = run_cli("check", root=repo)
    assert out.returncode == 1 and "snippets/t/a.py [cpu]: missing" in out.stdout
    assert report(repo)[0] == 0
    write(repo, "snippets/t/b.py", "print(2)\n")
    assert report(repo)[0] == 0
    out = run_cli("check", root=repo)
    # What is only a note is one line, however many snippets it concerns; the device's own check
    # lists each one and fails.
    notes = [line for line in out.stdout.splitlines() if line.startswith("note")]
    assert out.returncode == 0 and notes == [
        "note (does not fail here): cuda: 2 missing record(s). List them with: "
        "python scripts/snippets.py check --device cuda"], out.stdout
    listed = run_cli("check", "--device", "cuda", root=repo)
    assert listed.returncode == 1
    assert "FAIL snippets/t/a.py [cuda]: missing" in listed.stdout
    assert "FAIL snippets/t/b.py [cuda]: missing" in listed.stdout
    (repo / "snippets/t/b.py").unlink()
    record_of(repo, "snippets/t/b.py").unlink()

    write(repo, "snippets/t/a.py", "print(2)\n")
    out = run_cli("check", root=repo)
    assert out.returncode == 1 and "changed since it was recorded" in out.stdout

    (repo / "snippets/t/a.py").unlink()
    out = run_cli("check", root=repo)
    assert out.returncode == 1 and "orphan" in out.stdout


def test_cuda_on_a_machine_without_cuda_writes_nothing(repo: Path) -> None:
    write(repo, "snippets/t/a.py", "print(1)\n")
    before = sorted(p.name for p in repo.rglob("*"))
    done = run_cli("run", "--device", "cuda", "--report", str(repo / "r.json"), root=repo)
    assert done.returncode == 2
    assert "--device cuda needs a CUDA GPU" in done.stderr and "nothing was written" in done.stderr
    assert sorted(p.name for p in repo.rglob("*")) == before


def test_devices_option_limits_where_a_snippet_runs(repo: Path) -> None:
    write(repo, "snippets/t/cpu_only.py", "#| devices: cpu\nprint(1)\n")
    assert report(repo)[0] == 0
    out = run_cli("check", "--device", "cuda", root=repo)
    assert out.returncode == 0, out.stdout


CONFLICTED = ("<<<<<<< HEAD\n{record}=======\nsomething else\n>>>>>>> other-branch\n")


def test_a_damaged_record_is_rewritten_and_the_run_goes_on(repo: Path, record_of) -> None:
    """A record left with git conflict markers: `run` rewrites it, the other snippets are
    recorded, and the run exits 0 (it used to abort with a fatal error at shutdown)."""
    write(repo, "snippets/t/a.py", "print('a')\n")
    write(repo, "snippets/t/b.py", "print('b')\n")
    assert report(repo)[0] == 0
    damaged = record_of(repo, "snippets/t/a.py")
    damaged.write_text(CONFLICTED.format(record=damaged.read_text()))
    checked = run_cli("check", root=repo)
    assert checked.returncode == 1 and "snippets/t/a.py [cpu]: damaged" in checked.stdout
    write(repo, "snippets/t/b.py", "print('b2')\n")
    code, data = report(repo)
    assert code == 0, data
    assert read_record(damaged).output == "a\n"
    assert read_record(record_of(repo, "snippets/t/b.py")).output == "b2\n"
    assert run_cli("check", root=repo).returncode == 0


def test_the_live_preview_survives_a_damaged_record(repo: Path, record_of) -> None:
    write(repo, "snippets/t/a.py", "print('a')\n")
    write(repo, "snippets/t/broken.py", "print('good')\n")
    assert report(repo)[0] == 0
    for rel in ("snippets/t/a.py", "snippets/t/broken.py"):
        record = record_of(repo, rel)
        record.write_text(CONFLICTED.format(record=record.read_text()))
    write(repo, "snippets/t/broken.py", "raise RuntimeError('half edited')\n")
    preview = LivePreview(repo)
    try:
        ran, failures = preview.refresh()
        again, _ = preview.refresh()  # the next rebuild: nothing left to do, nothing raised
    finally:
        preview.close()
    assert {o.path: o.status for o in ran} == {"snippets/t/a.py": "ok",
                                               "snippets/t/broken.py": "failed"}
    assert list(failures) == ["snippets/t/broken.py"] and again == []
    assert read_record(record_of(repo, "snippets/t/a.py")).output == "a\n"


def test_the_live_preview_can_look_at_the_saved_snippets_alone(repo: Path, record_of) -> None:
    """refresh(only=...): what a rebuild for snippet saves does. The saved snippet runs; another
    stale snippet waits for a full refresh; a failure of a snippet not looked at stays shown."""
    for name in ("a", "b", "c"):
        write(repo, f"snippets/t/{name}.py", f"print('{name}')\n")
    assert report(repo)[0] == 0
    write(repo, "snippets/t/c.py", "raise RuntimeError('half edited')\n")
    preview = LivePreview(repo)
    try:
        _, failures = preview.refresh()
        assert list(failures) == ["snippets/t/c.py"]
        write(repo, "snippets/t/a.py", "print('a2')\n")
        write(repo, "snippets/t/b.py", "print('b2')\n")
        ran, failures = preview.refresh(only={"snippets/t/a.py"})
        assert [o.path for o in ran] == ["snippets/t/a.py"]
        assert list(failures) == ["snippets/t/c.py"]
        assert read_record(record_of(repo, "snippets/t/a.py")).output == "a2\n"
        assert read_record(record_of(repo, "snippets/t/b.py")).output == "b\n"
        assert preview.refresh(only=set()) == ([], failures)
        ran, _ = preview.refresh()
        assert [o.path for o in ran] == ["snippets/t/b.py"]
    finally:
        preview.close()


def test_key_covers_data_files_a_helper_reads(repo: Path) -> None:
    write(repo, "snippets/t/table.json", '{"scale": 2}\n')
    write(repo, "snippets/t/_h.py", "import json\nfrom pathlib import Path\n"
                                    "SCALE = json.loads((Path(__file__).parent / 'table.json')"
                                    ".read_text())['scale']\n")
    write(repo, "snippets/t/a.py", "from _h import SCALE\nprint(SCALE)\n")
    write(repo, "snippets/t/b.py", "print('reads nothing')\n")
    a, b = discover(repo)
    before = {s.rel: compute_key(s, ENV, repo)[0] for s in (a, b)}
    write(repo, "snippets/t/table.json", '{"scale": 3}\n')
    after = {s.rel: compute_key(s, ENV, repo)[0] for s in (a, b)}
    assert after[a.rel] != before[a.rel], "a data file the helper reads changed: a must re-run"
    assert after[b.rel] == before[b.rel]


def test_key_covers_helpers_imported_dynamically(repo: Path) -> None:
    write(repo, "snippets/t/_dyn.py", "X = 1\n")
    write(repo, "snippets/t/a.py", "import importlib\nprint(importlib.import_module('_dyn').X)\n")
    snippet = discover(repo)[0]
    base, helpers = compute_key(snippet, ENV, repo)
    assert list(helpers) == ["snippets/t/_dyn.py"]
    write(repo, "snippets/t/_dyn.py", "X = 2\n")
    assert compute_key(snippet, ENV, repo)[0] != base


def test_the_live_preview_tells_its_own_records_from_records_changed_on_disk(
        repo: Path, record_of) -> None:
    """What the dev server's file watcher asks of a record file it saw change: the records the
    preview writes are its own (no second rebuild); one changed on disk while its snippet did not
    (a git pull, the CUDA records' pull request) is not, once per change."""
    write(repo, "snippets/t/a.py", "print('a')\n")
    preview = LivePreview(repo)
    try:
        preview.refresh()
        record = record_of(repo, "snippets/t/a.py")
        assert read_record(record).output == "a\n"
        assert not preview.changed_outside(record), "the preview's own record"
        record.write_text(record.read_text().replace("hardware:", "hardware: another machine,"))
        assert preview.changed_outside(record)
        assert not preview.changed_outside(record), "the same change seen twice"
        cuda = record_of(repo, "snippets/t/a.py", device="cuda")
        cuda.write_text(record.read_text())
        assert preview.changed_outside(cuda)
        preview.refresh()  # nothing to run: the record it saw stays seen
        assert not preview.changed_outside(record)
    finally:
        preview.close()
