"""How a snippet must run, decided from its source: which warm worker, or a fresh interpreter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.records.status import snippet_status
from snippet_engine.source.analysis import fresh_need
from snippet_engine.source.options import parse_options


def _need(source: str):
    return fresh_need(source, parse_options(Path("s.py"), source))


@pytest.mark.parametrize(("source", "reason", "line"), [
    ("import os\nos.environ['TORCH_LOGS'] = '+dynamo'\nimport torch\n", "torch-variable", 2),
    ("#| fresh: true\nimport torch\n", "option", 1),
    ("import sys\nimport torch\nprint('torch._inductor' in sys.modules)\n", "inspects-interpreter", 3),
    ("from sys import modules\n", "inspects-interpreter", 1),
    ("import time\nt = time.perf_counter()\nimport torch\n", "inspects-interpreter", 2),
    ("from time import perf_counter as clock\n", "inspects-interpreter", 1),
    ("import timeit\nprint(timeit.timeit('1 + 1', number=10) > 0)\n", "inspects-interpreter", 2),
    # Under any name: the alias is the author's choice, the clock is the same.
    ("import time as clock\nimport torch\nt = clock.perf_counter()\n", "inspects-interpreter", 3),
    ("import sys as s\nprint('torch' in s.modules)\n", "inspects-interpreter", 2),
    ("import os, timeit as t\nt.default_timer()\n", "inspects-interpreter", 2),
    # torch.utils.benchmark's Timer times a first compile as well as any clock
    ("import torch\nfrom torch.utils.benchmark import Timer\n", "inspects-interpreter", 2),
    ("from torch.utils import benchmark\n", "inspects-interpreter", 1),
    ("import torch.utils.benchmark as bench\n", "inspects-interpreter", 1),
    ("import torch\n\ntorch.utils.benchmark.Timer('x')\n", "inspects-interpreter", 3),
    # torch's variable wins: torch must then be imported by the snippet itself
    ("#| fresh: true\nimport os, sys\nos.environ['TORCH_LOGS'] = 'graph'\nsys.modules\n",
     "torch-variable", 3),
])
def test_fresh_need(source: str, reason: str, line: int) -> None:
    need = _need(source)
    assert need is not None and (need.reason, need.line) == (reason, line)
    assert need.defer_torch  # torch is imported by the snippet, as in `python snippet.py`


@pytest.mark.parametrize("source", [
    "import torch\nprint(torch.ones(2))\n",
    # code run in a subprocess is a fresh process already
    "import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'import sys; sys.modules'])\n",
    "import os\nos.environ['TORCHINDUCTOR_CACHE_DIR'] = '/x'\n",  # read when used
    "import time as clock\nprint(clock.strftime('%Y', clock.gmtime(0)))\n",  # not a clock reading
    "from torch.utils import data\n",
])
def test_no_fresh_need(source: str) -> None:
    assert _need(source) is None


def test_the_pages_read_the_engines_decision(repo: Path) -> None:
    write(repo, "requirements.txt", "torch==2.13.0\n")
    write(repo, "snippets/t/inspects.py", "import sys\nprint(len(sys.modules) > 0)\n")
    write(repo, "snippets/t/plain.py", "print(1)\n")
    fresh = snippet_status(repo, "t/inspects.py").fresh
    assert fresh is not None and "`sys.modules`, line 2" in fresh.why
    assert snippet_status(repo, "t/plain.py").fresh is None


INDUCTOR_LOADED = '''import sys
import torch
print("Inductor loaded by import torch:", "torch._inductor.compile_fx" in sys.modules)
import torch._inductor.compile_fx  # what a first torch.compile() imports
print("after:", "torch._inductor.compile_fx" in sys.modules)
'''


def test_a_question_about_the_interpreter_gets_a_fresh_ones_answer(repo: Path,
                                                                   tmp_path: Path) -> None:
    """Forked from the compile worker, which imported Inductor, it would print True first."""
    write(repo, "snippets/t/inductor_loaded.py", INDUCTOR_LOADED)
    report = tmp_path / "report.json"
    done = run_cli("run", "--report", str(report), root=repo, timeout=600)
    assert done.returncode == 0, done.stderr
    output = json.loads(report.read_text())["snippets"][0]["output"]
    assert output == "Inductor loaded by import torch: False\nafter: True\n"
