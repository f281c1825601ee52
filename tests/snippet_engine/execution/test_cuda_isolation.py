"""No CUDA state crosses a fork into a CUDA snippet (issue 27, item 8), shown without a GPU.

On a GPU machine, a warm worker that asks `torch.cuda.is_available()` (torch._dynamo.reset()
and fake tensors do, in every warm-up) or whose compile calls `torch.cuda.get_rng_state()`
(Dynamo's preserve_global_state, when CUDA is available) leaves every child it forks in torch's
"bad fork" state, and the child's first CUDA use raises "Cannot re-initialize CUDA in forked
subprocess". `cuda_simulation.py`, loaded as sitecustomize in the workers and the snippets'
processes, gives this CPU torch exactly that behaviour (torch.cuda's own `_lazy_init` and
`_is_in_bad_fork` path, with only the C entry points faked), so the engine runs here as it would
on a GPU runner.
"""

from __future__ import annotations

import io
import platform
import shutil
import sys
from pathlib import Path

import pytest

from helpers import write
from snippet_engine.execution.progress import Progress
from snippet_engine.execution.runner import execute, plan, select
from snippet_engine.execution.scheduler import WorkerPool
from snippet_engine.records.environment import Environment, torch_version

SIMULATION = Path(__file__).parent.parent / "cuda_simulation.py"
SNIPPETS = {
    # forked from the export worker today: its warm-up asked is_available() through Dynamo
    "snippets/t/export_then_cuda.py": (
        "import torch\n"
        "class M(torch.nn.Module):\n    def forward(self, x):\n        return x.relu()\n"
        "torch.export.export(M(), (torch.ones(2),))\n"
        "torch.cuda.init()  # the lazy-init path every first CUDA use takes\n"
        "print('CUDA initialised:', torch.cuda.is_initialized())\n"),
    # forked from the compile worker today; fails on CPU tensors, inside Dynamo itself
    "snippets/t/compile_on_cpu_tensors.py": (
        "import torch\n"
        "f = torch.compile(lambda x: x.sin() + 1, backend='eager')\n"
        "print(f(torch.zeros(2)))\n"),
}


@pytest.fixture
def simulated_python(tmp_path: Path) -> str:
    """An interpreter command whose processes, and the fresh ones they exec, load the
    simulation: PYTHONPATH reaches every process the worker starts."""
    site = tmp_path / "simulated-site"
    site.mkdir()
    shutil.copy(SIMULATION, site / "sitecustomize.py")
    wrapper = tmp_path / "python-with-simulated-cuda"
    wrapper.write_text(f'#!/bin/sh\nexport PYTHONPATH="{site}${{PYTHONPATH:+:$PYTHONPATH}}"\n'
                       f'exec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


def test_the_simulation_poisons_fork_as_torch_does(simulated_python: str, tmp_path: Path) -> None:
    """The simulation itself: after is_available() in a parent, a forked child cannot
    initialise CUDA; a child that execs a new interpreter can."""
    import subprocess
    probe = (
        "import os, sys, torch\n"
        "assert torch.cuda.is_available()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    try:\n        torch.cuda.init(); os._exit(0)\n"
        "    except RuntimeError as e:\n        print(e); os._exit(1)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print('forked child exit', os.waitstatus_to_exitcode(status))\n")
    done = subprocess.run([simulated_python, "-c", probe], capture_output=True, text=True,
                          timeout=300, check=False)
    assert "Cannot re-initialize CUDA in forked subprocess" in done.stdout, done.stderr[-2000:]
    assert "forked child exit 1" in done.stdout
    fresh = subprocess.run([simulated_python, "-c", "import torch; torch.cuda.init(); print('ok')"],
                           capture_output=True, text=True, timeout=300, check=False)
    assert fresh.stdout == "ok\n", fresh.stderr[-2000:]


def test_cuda_snippets_start_with_no_cuda_state_from_a_worker(simulated_python: str,
                                                               repo: Path) -> None:
    for rel, text in SNIPPETS.items():
        write(repo, rel, text)
    env = Environment("cuda", torch_version(), platform.python_version(),
                      "Simulated GPU, CUDA 13.0")
    jobs, cached = plan(repo, select(repo, None, "cuda", None), env, force=False)
    assert len(jobs) == 2 and not cached
    pool = WorkerPool("cuda", 1, python=simulated_python)
    try:
        outcomes = execute(repo, jobs, env, 1, Progress(len(jobs), io.StringIO(), False),
                           pool=pool)
    finally:
        pool.close()
    got = {o.path: (o.status, o.output or o.message) for o in outcomes}
    assert got == {
        "snippets/t/export_then_cuda.py": ("ok", "CUDA initialised: True\n"),
        "snippets/t/compile_on_cpu_tensors.py": ("ok", "tensor([1., 1.])\n"),
    }, got
    assert (repo / "snippets/t/export_then_cuda.cuda.txt").is_file()


def test_a_cuda_only_snippet_is_recorded_by_the_cuda_run_alone(simulated_python: str,
                                                               repo: Path) -> None:
    """`#| devices: cuda` (issue 37): a CPU run has nothing to record for it, the CUDA run (here
    with the simulated GPU) records it like any other, and `summary --device cuda` then lists it
    as recorded where it listed it as awaiting its record."""
    from helpers import run_cli

    write(repo, "snippets/t/gpu_only.py",
          "#| devices: cuda\nimport torch\ntorch.cuda.init()\nprint('on the GPU runner')\n")
    assert [s.rel for s in select(repo, None, "cpu", None)] == []
    before = run_cli("summary", "--device", "cuda", root=repo)
    assert "- `snippets/t/gpu_only.py`: awaiting its record (missing)" in before.stdout
    env = Environment("cuda", torch_version(), platform.python_version(),
                      "Simulated GPU, CUDA 13.0")
    jobs, _ = plan(repo, select(repo, None, "cuda", None), env, force=False)
    assert [job.snippet.rel for job in jobs] == ["snippets/t/gpu_only.py"]
    pool = WorkerPool("cuda", 1, python=simulated_python)
    try:
        outcomes = execute(repo, jobs, env, 1, Progress(len(jobs), io.StringIO(), False),
                           pool=pool)
    finally:
        pool.close()
    assert [(o.status, o.output) for o in outcomes] == [("ok", "on the GPU runner\n")]
    assert not (repo / "snippets/t/gpu_only.cpu.txt").exists()
    after = run_cli("summary", "--device", "cuda", root=repo)
    assert "- `snippets/t/gpu_only.py`: recorded" in after.stdout, after.stdout
