"""Process ids and paths read as a fresh `python snippet.py` run from the checkout prints them
(issue 40, items 4 and 5), and a run cannot change the checkout.

Item 4: where Linux lets an ordinary user make a pid namespace (through a user namespace), the
snippet runs in one of its own and its pid is the same on every run, so a pid printed in a form
no text rule can know (a `logging` format's `%(process)d`, a bare `os.getpid()`) is stable; where
it cannot, the engine falls back to the text rule. Item 5: the snippet runs from the checkout's
path (or a copy whose path is written back as the checkout's), finds the files beside it, and
whatever it or its helpers write into the checkout does not reach it.

Both ways are run here: the namespace way where this machine allows it, and the fallback always
(a worker started with `SNIPPET_NAMESPACES=0`, as if the kernel refused).
"""

from __future__ import annotations

import io
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import write
from snippet_engine.execution.namespaces import DISABLE_VARIABLE, SNIPPET_PID
from snippet_engine.execution.progress import Progress
from snippet_engine.execution.runner import Outcome, execute, plan, select
from snippet_engine.execution.scheduler import WorkerPool
from snippet_engine.records.environment import Environment, torch_version

SIMULATION = Path(__file__).parent.parent / "cuda_simulation.py"

# Item 4: a custom logging format and a bare pid, which no text rule can tell from a number.
PID_SNIPPET = ("import logging, os\n"
               "logging.basicConfig(format='%(process)d %(levelname)s %(message)s',"
               " level=logging.INFO)\n"
               "logging.info('hello')\n"
               "print(os.getpid())\n"
               "print('pid', os.getpid())\n")
# Item 5 (c): a file beside the snippet, read as `python snippet.py` reads it.
BESIDE = ("from pathlib import Path\n"
          "print(Path(__file__).with_name('table.csv').read_text(), end='')\n")
# Item 5 (d): a helper that writes beside itself and into sys.path[0], over another snippet's
# record and a new file; the snippet prints where its helper and sys.path[0] are.
WRITER_HELPER = ("import sys\nfrom pathlib import Path\n"
                 "Path(__file__).with_name('victim.cpu.txt').write_text('rewritten by a helper')\n"
                 "(Path(sys.path[0]) / 'new_file.txt').write_text('x')\n"
                 "(Path(__file__).resolve().parent / 'victim.cpu.txt').write_text('rewritten')\n")
USES_WRITER = ("import sys\nimport _writer\n"
               "print(_writer.__file__)\nprint(sys.path[0])\nprint(__file__)\n")
VICTIM = "print('the victim')\n"
# Not the init of its namespace: a signal it sends itself ends it, as in a shell (a namespace's
# pid 1 would ignore it), and it is not the parent of the orphans there.
TERMINATES = ("import os, signal\nprint('parent is init:', os.getppid() == 1)\n"
              "os.kill(os.getpid(), signal.SIGTERM)\nprint('still here')\n")


def _python(tmp_path: Path, namespaces: bool, cuda: bool = False) -> str:
    """An interpreter command for the workers: with the namespaces refused (the fallback), and
    with the CUDA simulation (`cuda_simulation.py`) loaded in every process."""
    lines = ["#!/bin/sh"]
    if cuda:
        site = tmp_path / "simulated-site"
        site.mkdir(exist_ok=True)
        shutil.copy(SIMULATION, site / "sitecustomize.py")
        lines.append(f'export PYTHONPATH="{site}${{PYTHONPATH:+:$PYTHONPATH}}"')
    if not namespaces:
        lines.append(f"export {DISABLE_VARIABLE}=0")
    lines.append(f'exec "{sys.executable}" "$@"')
    wrapper = tmp_path / f"python-{'ns' if namespaces else 'fallback'}{'-cuda' if cuda else ''}"
    wrapper.write_text("\n".join(lines) + "\n")
    wrapper.chmod(0o755)
    return str(wrapper)


def _namespaces_here() -> bool:
    try:
        probe = subprocess.run(["unshare", "--user", "--map-current-user", "--pid", "--mount",
                                "--fork", "--mount-proc", "true"], capture_output=True,
                               timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


MODES = [pytest.param(True, id="namespace"), pytest.param(False, id="fallback")]


def _run(repo: Path, python: str, device: str = "cpu", force: bool = True) -> dict[str, Outcome]:
    hardware = "Simulated GPU, CUDA 13.0" if device == "cuda" else "test CPU"
    env = Environment(device, torch_version(), platform.python_version(), hardware)
    jobs, _ = plan(repo, select(repo, None, device, None), env, force=force)
    pool = WorkerPool(device, 1, python=python)
    try:
        outcomes = execute(repo, jobs, env, 1, Progress(len(jobs), io.StringIO(), False),
                           pool=pool)
    finally:
        pool.close()
    return {o.path: o for o in outcomes}


@pytest.fixture(scope="module", params=MODES)
def bank(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One worker per mode, two runs of the same bank (the pid must not change between them)."""
    namespaces = request.param
    if namespaces and not _namespaces_here():
        pytest.skip("this machine cannot make a user and pid namespace")
    repo = tmp_path_factory.mktemp("pids-and-paths")
    (repo / "snippets" / "t").mkdir(parents=True)
    write(repo, "snippets/t/pid.py", PID_SNIPPET)
    write(repo, "snippets/t/beside.py", BESIDE)
    write(repo, "snippets/t/table.csv", "a,b\n1,2\n")
    write(repo, "snippets/t/_writer.py", WRITER_HELPER)
    write(repo, "snippets/t/uses_writer.py", USES_WRITER)
    write(repo, "snippets/t/victim.py", VICTIM)
    write(repo, "snippets/t/terminates.py", TERMINATES)
    python = _python(tmp_path_factory.mktemp("python"), namespaces)
    first = _run(repo, python)
    victim = (repo / "snippets/t/victim.cpu.txt").read_bytes()
    tree = sorted(str(p.relative_to(repo)) for p in repo.rglob("*"))
    second = _run(repo, python)
    return {"repo": repo, "namespaces": namespaces, "first": first, "second": second,
            "victim": victim, "tree": tree}


def test_a_pid_in_a_custom_format_is_the_same_on_every_run(bank: dict) -> None:
    """Item 4. Before: `48213 INFO hello` and `48213`, another number on every run."""
    first, second = (bank[run]["snippets/t/pid.py"] for run in ("first", "second"))
    assert first.status == "ok", first.output
    lines = first.output.splitlines()
    assert lines[-1] == "pid <pid>", first.output  # the text rule, in both ways
    if bank["namespaces"]:
        assert first.output == second.output, (first.output, second.output)
        assert first.output == f"{SNIPPET_PID} INFO hello\n{SNIPPET_PID}\npid <pid>\n"
    else:  # the fallback: the text rule alone; a bare pid is the process's own number
        assert lines[0].endswith(" INFO hello") and lines[0].split()[0] == lines[1]
        assert lines[1] != str(SNIPPET_PID)


def test_a_signal_to_itself_ends_the_snippet(bank: dict) -> None:
    outcome = bank["first"]["snippets/t/terminates.py"]
    assert (outcome.status, outcome.message) == ("crashed", "the process was killed by SIGTERM")
    assert "still here" not in outcome.output


def test_a_file_beside_the_snippet_is_found(bank: dict) -> None:
    """Item 5 (c). Before: FileNotFoundError naming snippets/t/table.csv, which exists."""
    outcome = bank["first"]["snippets/t/beside.py"]
    assert (outcome.status, outcome.output) == ("ok", "a,b\n1,2\n"), outcome.output


def test_helpers_and_sys_path_read_as_the_checkout(bank: dict) -> None:
    """Item 5 (d): as `python snippets/t/uses_writer.py` from the checkout prints them."""
    outcome = bank["first"]["snippets/t/uses_writer.py"]
    assert outcome.status == "ok", outcome.output
    assert outcome.output == ("snippets/t/_writer.py\nsnippets/t\nsnippets/t/uses_writer.py\n")


def test_a_run_cannot_change_the_checkout(bank: dict) -> None:
    """Item 5 (d). Before: the helper, imported from the checkout, rewrote victim.cpu.txt and
    left new_file.txt there."""
    repo = bank["repo"]
    victim = (repo / "snippets/t/victim.cpu.txt").read_bytes()
    assert victim == bank["victim"]
    assert b"the victim" in victim and b"rewritten" not in victim
    assert not (repo / "snippets/t/new_file.txt").exists()
    assert sorted(str(p.relative_to(repo)) for p in repo.rglob("*")) == bank["tree"]


@pytest.mark.parametrize("namespaces", MODES)
def test_cuda_records_name_the_checkout(namespaces: bool, repo: Path, tmp_path: Path) -> None:
    """Item 5 (b): the CUDA worker never imports torch, so torch's short form of the copy's path
    (`tmp/snippet-worker-.../source/...`, torch.utils._traceback.shorten_filename, as graph-break
    logs print it) was never written back. Shown with the CUDA simulation."""
    if namespaces and not _namespaces_here():
        pytest.skip("this machine cannot make a user and pid namespace")
    write(repo, "snippets/t/where.py",
          "#| devices: cuda\nimport torch\nfrom torch.utils._traceback import shorten_filename\n"
          "print(shorten_filename(__file__))\nprint(__file__)\n")
    outcome = _run(repo, _python(tmp_path, namespaces, cuda=True), device="cuda")[
        "snippets/t/where.py"]
    assert (outcome.status, outcome.output) == (
        "ok", "snippets/t/where.py\nsnippets/t/where.py\n"), outcome.output


COMPILE_WORKER = '''
import sys
if "snippet_engine.execution.worker" in sys.orig_argv:
    from snippet_engine.execution import warm_ups

    def warm_up_header_dir() -> None:
        """A compile worker as far as the header folder goes: it imported Inductor's codecache,
        which fixed `_HEADER_DIR` in the worker's TMPDIR (the whole warm-up takes a minute)."""
        warm_ups.warm_up()
        import torch._inductor.codecache  # noqa: F401

    warm_ups.WARM_UPS["compile"] = warm_up_header_dir
'''


def test_a_forked_compile_snippet_names_its_own_header_folder(repo: Path,
                                                                 tmp_path: Path) -> None:
    """Item 5 (a): a C++ compile of a snippet forked from the compile worker uses, and its error
    names, torch's precompiled-header folder, which the worker fixed in its own random TMPDIR
    (`/tmp/snippet-worker-.../torchinductor_<user>/...`); a fresh `python` names its TMPDIR's."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(COMPILE_WORKER)
    wrapper = tmp_path / "python-compile"
    wrapper.write_text(f'#!/bin/sh\nexport PYTHONPATH="{site}${{PYTHONPATH:+:$PYTHONPATH}}"\n'
                       f'exec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    probe = ("import torch\nimport torch._inductor.codecache as c  # torch.compile\n"
             "print(c._HEADER_DIR)\nprint(c._HEADER_LOCK_DIR)\n")
    write(repo, "snippets/t/forked.py", probe)
    write(repo, "snippets/t/fresh.py", "#| fresh: true\n" + probe)
    got = _run(repo, str(wrapper))
    forked, fresh = got["snippets/t/forked.py"], got["snippets/t/fresh.py"]
    assert forked.status == fresh.status == "ok", (forked.output, fresh.output)
    assert "snippet-worker-" not in forked.output, forked.output
    assert forked.output == fresh.output, (forked.output, fresh.output)
