"""A snippet that draws random numbers without seeding the generator is refused, with the line of
its first draw and the seed call to add: plain `python` seeds torch's default generator, Python's
`random` and NumPy's from a new seed on every run, so a record made under the engine's own seed
would show numbers no reader can reproduce (`core/custom_fn_wrong_backward` and
`compile/acc_minifier` printed other numbers under `python`). A snippet that seeds itself records
exactly what `python` prints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.records.record_file import read_record

BANK = {
    "torch_unseeded.py": "import torch\n\nx = torch.randn(3)\nprint(x)\n",
    "weights_unseeded.py": "import torch\n\nmodel = torch.nn.Linear(2, 1)\nprint(model(torch.ones(2)))\n",
    "random_unseeded.py": "import random\n\nprint(random.random())\n",
    "numpy_unseeded.py": "import numpy as np\n\nprint(np.random.rand(2))\n",
    "raises_unseeded.py": "#| expect: RuntimeError\nimport torch\n\n"
                          "torch.randn(2) @ torch.randn(3)\n",
    # fresh (it times something): torch is imported by the snippet and seeded on import
    "fresh_unseeded.py": "import time as clock\nimport torch\n\nt = clock.perf_counter()\n"
                         "print(torch.rand(2))\n",
    "torch_seeded.py": "import torch\n\ntorch.manual_seed(0)\nprint(torch.randn(3))\n"
                       "print(torch.nn.Linear(2, 1).weight)\n",
    "random_seeded.py": "import random\nimport numpy as np\n\nrandom.seed(1)\nnp.random.seed(2)\n"
                        "print(random.random(), np.random.rand(2))\n",
    "no_draws.py": "import torch\n\nprint(torch.ones(2) * 2)\n",
}
REFUSED = {  # the snippet, its first draw's line, the seed call the fix names
    "torch_unseeded.py": (3, "torch.manual_seed(0)"),
    "weights_unseeded.py": (3, "torch.manual_seed(0)"),
    "random_unseeded.py": (3, "random.seed(0)"),
    "numpy_unseeded.py": (3, "np.random.seed(0)"),
    "raises_unseeded.py": (4, "torch.manual_seed(0)"),
    "fresh_unseeded.py": (5, "torch.manual_seed(0)"),
}


def _plain_python(path: Path, cwd: Path) -> str:
    return subprocess.run([sys.executable, str(path)], cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120, check=False).stdout


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("seeds")
    for name, text in BANK.items():
        write(root, f"snippets/t/{name}", text)
    report = root / "report.json"
    done = run_cli("run", "--jobs", "1", "--progress", "never", "--report", str(report),
                   root=root)
    by_name = {Path(s["path"]).name: s for s in json.loads(report.read_text())["snippets"]}
    return {"root": root, "done": done, "by_name": by_name}


def test_plain_python_prints_other_numbers_on_every_run(run: dict, tmp_path: Path) -> None:
    """Why it is refused: two runs of `python snippet.py` disagree."""
    path = run["root"] / "snippets" / "t" / "torch_unseeded.py"
    assert _plain_python(path, tmp_path) != _plain_python(path, tmp_path)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_unseeded_draw_is_refused_with_its_line_and_the_fix(run: dict, name: str) -> None:
    line, call = REFUSED[name]
    entry = run["by_name"][name]
    assert entry["status"] == "failed", entry
    assert "without seeding it" in entry["message"]
    assert f"at line {line}:" in entry["message"]
    assert not (run["root"] / "snippets" / "t" / name.replace(".py", ".cpu.txt")).exists()
    assert run["done"].returncode != 0
    # What `snippets.py run` says: the snippet, the line, and the fix.
    said = (run["done"].stdout + run["done"].stderr).split(f"snippets/t/{name} [cpu]: failed: ", 1)[1]
    said = said.split("\n\n", 1)[0]
    assert said.startswith("draws random numbers") and f"at line {line}:" in said
    assert f"fix: seed it at the top: add `{call}` after the imports" in said


@pytest.mark.parametrize("name", ["torch_seeded.py", "random_seeded.py", "no_draws.py"])
def test_a_seeded_snippet_records_what_plain_python_prints(run: dict, name: str,
                                                           tmp_path: Path) -> None:
    path = run["root"] / "snippets" / "t" / name
    record = read_record(path.with_suffix(".cpu.txt"))
    assert record is not None and run["by_name"][name]["status"] == "ok"
    assert record.output == _plain_python(path, tmp_path)
