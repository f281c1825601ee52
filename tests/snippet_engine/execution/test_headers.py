"""The shared folder of precompiled C++ headers: torch's own for the coordinator's TMPDIR, found
where torch looks, built once whichever way a snippet runs (forked or fresh) and kept for the next
run, and cleared of what a killed compile or a killed run may have half-written. And the
CPU-feature probes a compile worker built, which a forked snippet's own subprocesses find in its
Inductor cache instead of compiling them again. The records are what a fresh `python` prints."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.execution.headers import (
    RunMark,
    header_dir,
    link_shared_headers,
    prune_abandoned,
    prune_since,
    shared_header_dir,
)
from snippet_engine.snippet_env import worker_env

# A tiny AOTInductor compile. `{name}` and `{out}` make two different snippets.
AOTI = '''{fresh}import subprocess
import sys
import warnings

import torch

warnings.filterwarnings("ignore", category=FutureWarning)  # torch 2.13's internal pytree warning
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, {out}), torch.nn.ReLU()).eval()
x = torch.randn(2, 8)
with torch.no_grad():
    ep = torch.export.export(model, (x,))
    torch._inductor.aoti_compile_and_package(ep, package_path="{name}.pt2")
runner = torch._inductor.aoti_load_package("{name}.pt2")
print("{name}: matches eager:", torch.allclose(runner(x), model(x)), tuple(runner(x).shape))
{serve}'''
# A serving process that loads the package, as the AOTInductor snippets have.
SERVE = '''serve = "import torch; print(torch._inductor.aoti_load_package('forked.pt2')"
serve += "(torch.ones(1, 8)).shape)"
print("served:", subprocess.run([sys.executable, "-c", serve], capture_output=True, text=True).stdout)
'''
SNIPPETS = {"forked": AOTI.format(fresh="", name="forked", out=4, serve=SERVE),
            "fresh": AOTI.format(fresh="#| fresh: true\n", name="fresh", out=3, serve="")}


def test_header_dir_is_where_torch_looks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The name is copied from torch (the worker may not import Inductor to ask it)."""
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert header_dir(tmp_path) == Path(default_cache_dir()) / "precompiled_headers"


def test_the_shared_folder_is_the_one_python_uses_here(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    """A `python snippet.py` with the same TMPDIR keeps its headers there, and finds the engine's."""
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert shared_header_dir() == Path(default_cache_dir()) / "precompiled_headers"


def _dead_pid() -> int:
    """A pid that was a process of ours and is gone."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_run_that_is_gone_has_what_it_wrote_removed(tmp_path: Path) -> None:
    """A run killed outright could not prune after a compiler killed mid-header: the next run
    removes every header written since that run began, and its mark; a living run's stays."""
    old, new = tmp_path / "ab" / "old.h.gch", tmp_path / "cd" / "new.h.gch"
    for path in (old, new):
        path.parent.mkdir(exist_ok=True)
        path.write_text("x")
    os.utime(old, (time.time() - 60, time.time() - 60))
    runs = tmp_path / RunMark.FOLDER
    runs.mkdir()
    gone = runs / f"{_dead_pid()}-12345"
    gone.touch()
    os.utime(gone, (time.time() - 30, time.time() - 30))
    living = RunMark(tmp_path)
    assert living.claim() == [new]
    assert old.exists() and not new.exists() and not gone.exists()
    assert living.path is not None and living.path.exists()
    new.write_text("x")
    assert prune_abandoned(tmp_path) == [], "a running run's headers were removed"
    living.release()
    assert not living.path.exists()


def test_the_link_leads_to_the_shared_folder(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    link_shared_headers(tmp_path / "tmp", shared)
    link_shared_headers(tmp_path / "tmp", shared)  # a second time changes nothing
    (header_dir(tmp_path / "tmp") / "a.h").write_text("#include <x.h>\n")
    assert (shared / "a.h").read_text() == "#include <x.h>\n"


def test_prune_removes_only_headers_written_since(tmp_path: Path) -> None:
    """A half-written `.gch` goes; older headers, the header sources and the locks stay."""
    old, new = tmp_path / "ab" / "old.h.gch", tmp_path / "cd" / "new.h.gch"
    source, lock = tmp_path / "cd" / "new.h", tmp_path / "locks" / "new.lock"
    for path in (old, new, source, lock):
        path.parent.mkdir(exist_ok=True)
        path.write_text("x")
    os.utime(old, (time.time() - 60, time.time() - 60))
    assert prune_since(tmp_path, time.time() - 30) == [new]
    assert old.exists() and source.exists() and lock.exists() and not new.exists()


@pytest.fixture(scope="module")
def header_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One forked and one fresh AOTInductor snippet in one `run --jobs 2` (so in two workers at
    once), with every header precompile logged by a `g++` found first on PATH, in a TMPDIR of its
    own (so with no header built yet); and the forked one again as a fresh `python` with that
    TMPDIR, which finds the run's headers where torch keeps them, its probes logged too. (The
    fresh snippet is not run a second time as `python`: the engine ran it as one, and its output
    is checked by value.) About 1.5 minutes on 2 idle cores (three AOTInductor compiles, two
    workers' warm-ups, two serving processes)."""
    root = tmp_path_factory.mktemp("headers")
    run_tmp = root / "run-tmp"
    run_tmp.mkdir()
    for name, source in SNIPPETS.items():
        write(root, f"snippets/t/{name}.py", source)
    log = root / "header-builds.log"
    bin_dir = root / "bin"
    bin_dir.mkdir()
    real = shutil.which("g++")
    assert real, "these tests need g++, as AOTInductor does"
    wrapper = bin_dir / "g++"
    probes = root / "probe-builds.log"  # a CPU-feature probe: a source naming a *_chk_kernel
    wrapper.write_text('#!/bin/sh\ncase " $* " in *" c++-header "*) '
                       f'echo "$*" >> {log};; esac\n'
                       f'if [ -f "$1" ] && grep -qs _chk_kernel "$1"; then echo "$1" >> {probes}; fi\n'
                       f'exec {real} "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    report = root / "report.json"
    done = run_cli("run", "--report", str(report), "--jobs", "2", root=root, timeout=900,
                   env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                        "TMPDIR": str(run_tmp)})
    outputs = {Path(s["path"]).stem: s["output"] for s in json.loads(report.read_text())["snippets"]}

    def fresh_python(name: str, tmp: Path) -> subprocess.Popen:
        cwd = root / "fresh" / name
        cwd.mkdir(parents=True)
        (cwd / "s.py").write_text(SNIPPETS[name])
        # The same g++ as the run's (its path is part of a header's name), logging too.
        env = dict(worker_env("cpu", tmpdir=str(tmp)), TORCHINDUCTOR_CACHE_DIR=str(cwd / "cache"),
                   PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
        return subprocess.Popen([sys.executable, "s.py"], cwd=cwd, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    # The run's TMPDIR: as `python` on this machine, it finds the headers the run built.
    python_prints = {"forked": fresh_python("forked", run_tmp).communicate(timeout=900)[0]}
    builds = log.read_text().splitlines() if log.exists() else []
    probe_builds = probes.read_text().splitlines() if probes.exists() else []
    return {"done": done, "outputs": outputs, "python_prints": python_prints, "builds": builds,
            "probe_builds": probe_builds, "kept": sorted(header_dir(run_tmp).rglob("*.gch")),
            "marks": sorted((header_dir(run_tmp) / RunMark.FOLDER).glob("*"))}


def test_each_header_is_precompiled_once(header_run: dict) -> None:
    """Without the shared folder each worker, and the fresh snippet, built its own copies; the
    fresh `python` after the run builds none."""
    assert header_run["done"].returncode == 0, header_run["done"].stderr
    built = [next(arg for arg in line.split() if arg.endswith(".h"))
             for line in header_run["builds"]]
    assert built, "no header was precompiled: is the g++ on PATH still the one torch runs?"
    names = [Path(path).name for path in built]
    assert len(names) == len(set(names)), "\n".join(built)


def test_the_headers_are_kept_for_the_next_run(header_run: dict) -> None:
    """In the folder a `python` with the run's TMPDIR uses, and with no mark of a run left."""
    assert len(header_run["kept"]) == len(header_run["builds"]), header_run["kept"]
    assert header_run["marks"] == []


def test_a_forked_snippets_subprocess_finds_the_cpu_probes_built(header_run: dict) -> None:
    """The compile worker builds them once; the fresh snippet builds its own, as a fresh `python`
    does; before, the forked snippet's serving process built the same ones again."""
    in_snippets = [Path(path).name for path in header_run["probe_builds"]
                   if re.search(r"/snippet-worker-[^/]+/snippet-[^/]+/", path)]  # a snippet's
    assert in_snippets, "the fresh snippet built no probe: is the marker still `_chk_kernel`?"
    assert len(in_snippets) == len(set(in_snippets)), "\n".join(header_run["probe_builds"])


def test_the_records_are_what_a_fresh_python_prints(header_run: dict) -> None:
    assert header_run["outputs"]["forked"] == header_run["python_prints"]["forked"]
    assert header_run["outputs"]["fresh"] == "fresh: matches eager: True (2, 3)\n"
    assert "served: torch.Size([1, 4])" in header_run["outputs"]["forked"]


# Stands for a compiler writing a precompiled header into the shared folder, through the link in
# the snippet's own TMPDIR (fresh: a forked snippet reaches it through its worker's link instead).
WRITES_A_HEADER = '''#| fresh: true
{options}import getpass, os, time
from pathlib import Path
folder = Path(os.environ["TMPDIR"]) / ("torchinductor_" + getpass.getuser()) / "precompiled_headers"
(folder / "{name}.h.gch").write_bytes(b"written by a compiler")
{then}
'''


def test_a_header_written_by_a_snippet_killed_at_its_timeout_is_removed(repo: Path,
                                                                        tmp_path: Path) -> None:
    """What a killed compiler may have half-written goes; what a snippet that ended by itself
    wrote stays, for the next run and for a `python` with the same TMPDIR."""
    write(repo, "snippets/t/killed.py", WRITES_A_HEADER.format(
        options="#| timeout: 5\n", name="killed", then="time.sleep(120)"))
    write(repo, "snippets/t/ended.py", WRITES_A_HEADER.format(options="", name="ended",
                                                              then="print('done')"))
    run_tmp = tmp_path / "run-tmp"
    run_tmp.mkdir()
    # One at a time, `ended` first (by name): a killed snippet's clean-up removes every header
    # written since it started, a parallel snippet's too, which only costs a rebuild.
    done = run_cli("run", "--jobs", "1", root=repo, env={"TMPDIR": str(run_tmp)}, timeout=300)
    assert "ran past its timeout of 5 s" in done.stderr, done.stderr
    kept = sorted(p.name for p in header_dir(run_tmp).glob("*.gch"))
    assert kept == ["ended.h.gch"]


def test_a_shared_folder_that_cannot_be_made_runs_without_it(repo: Path, tmp_path: Path,
                                                             record_of) -> None:
    """Its parent is a file: every snippet failed (an engine error) and its good record was
    marked stale, where a fresh `python` prints what the record says. The run goes on without
    sharing the headers, says so once, and leaves the record as it is."""
    snippet = write(repo, "snippets/t/plain.py", "print('no compile here')\n")
    write(repo, "snippets/t/other.py", "print('nor here')\n")
    first_tmp = tmp_path / "first"
    first_tmp.mkdir()
    assert run_cli("run", root=repo, env={"TMPDIR": str(first_tmp)}).returncode == 0
    record = record_of(repo, "snippets/t/plain.py")
    good = record.read_bytes()
    run_tmp = tmp_path / "run-tmp"
    run_tmp.mkdir()
    header_dir(run_tmp).parent.write_text("a file where torch's folder would be")
    python = subprocess.run([sys.executable, str(snippet)], capture_output=True, text=True,
                            env={**os.environ, "TMPDIR": str(run_tmp)}, check=False)
    assert python.stdout == "no compile here\n"
    done = run_cli("run", "--force", "--jobs", "2", root=repo, env={"TMPDIR": str(run_tmp)},
                   timeout=300)
    assert done.returncode == 0, done.stderr
    assert record.read_bytes() == good, "the good record was marked stale"
    assert done.stderr.count("precompiled headers") == 1, done.stderr


# Stands for torch's header build (`codecache._worker_compile_cpp`): the same lock, with torch's
# own lock class and timeout, in the folder torch locks headers in.
TAKES_THE_LOCK = '''#| timeout: 20
{fresh}import getpass, os
from pathlib import Path
from torch.utils._filelock import FileLock
folder = Path(os.environ["TMPDIR"]) / ("torchinductor_" + getpass.getuser()) / "precompiled_headers"
(folder / "locks").mkdir(parents=True, exist_ok=True)
with FileLock(str(folder / "locks" / "h.lock"), timeout=600):
    print("built")
'''


def test_a_lock_held_outside_the_run_does_not_stall_it(repo: Path, tmp_path: Path) -> None:
    """A process outside the run (a `python` stopped with Ctrl-Z mid-compile, say) holds a
    header's lock in the shared folder: each snippet building that header waited up to torch's
    600 s lock timeout, past its own timeout. The run waits a few seconds at most, then runs
    without the shared headers."""
    import fcntl

    write(repo, "snippets/t/forked.py", TAKES_THE_LOCK.format(fresh=""))
    write(repo, "snippets/t/fresh.py", TAKES_THE_LOCK.format(fresh="#| fresh: true\n"))
    run_tmp = tmp_path / "run-tmp"
    locks = header_dir(run_tmp) / "locks"
    locks.mkdir(parents=True)
    with open(locks / "h.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        report = tmp_path / "report.json"
        done = run_cli("run", "--jobs", "1", "--report", str(report), root=repo,
                       env={"TMPDIR": str(run_tmp)}, timeout=300)
    assert done.returncode == 0, done.stderr
    statuses = {Path(s["path"]).stem: (s["status"], s["output"])
                for s in json.loads(report.read_text())["snippets"]}
    assert statuses == {"forked": ("ok", "built\n"), "fresh": ("ok", "built\n")}
    assert done.stderr.count("precompiled headers") == 1, done.stderr
