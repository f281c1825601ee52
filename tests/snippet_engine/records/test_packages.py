"""The distributions a snippet uses are in its cache key, and `check` names the one that moved."""

from __future__ import annotations

import dataclasses
import platform
from pathlib import Path

import pytest

from helpers import write
from snippet_engine.records import packages
from snippet_engine.records.cachekey import compute_key, snippet_packages
from snippet_engine.records.check import record_state
from snippet_engine.records.environment import Environment, torch_version
from snippet_engine.records.record_file import Record, parse_record, read_record, write_atomic
from snippet_engine.source.discovery import Snippet

INSTALLED = {
    "numpy": ("2.4.6", ()),
    "onnx": ("1.23.2", ("numpy", "protobuf")),
    "onnxscript": ("0.7.2", ("onnx", "onnx-ir", "numpy")),
    "onnx-ir": ("1.1.0", ("onnx", "numpy")),
    "onnxruntime": ("1.32.0", ("numpy", "protobuf")),
    "protobuf": ("7.36.2", ()),
    "torch": ("2.13.0+cpu", ("sympy", "nvidia-cublas")),  # never expanded: wheel-specific
    "sympy": ("1.14.0", ()),
}
OWNERS = {"numpy": ("numpy",), "onnx": ("onnx",), "onnxscript": ("onnxscript",),
          "onnx_ir": ("onnx-ir",), "onnxruntime": ("onnxruntime",), "torch": ("torch",),
          "google": ("protobuf",), "sympy": ("sympy",)}


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> dict:
    """A made-up installation the test can change: {canonical name: (version, requires)}."""
    have = dict(INSTALLED)
    monkeypatch.setattr(packages, "installed", lambda: have)
    monkeypatch.setattr(packages, "_owners", lambda: OWNERS)
    return have


def env() -> Environment:
    return Environment("cpu", torch_version(), platform.python_version(), "x")


def snippet(root: Path, rel: str, text: str) -> Snippet:
    return Snippet(write(root, rel, text), rel)


def test_what_a_snippet_imports_and_what_that_requires(repo: Path, installed: dict) -> None:
    ort = snippet(repo, "snippets/t/ort.py", "import torch\nimport onnxruntime as ort\n")
    assert snippet_packages(ort, repo) == {"numpy": "2.4.6", "onnxruntime": "1.32.0",
                                           "protobuf": "7.36.2"}
    # torch.onnx imports onnxscript itself; the snippet never names it.
    via_torch = snippet(repo, "snippets/t/via.py", "import torch\ntorch.onnx.export(m, (x,))\n")
    assert set(snippet_packages(via_torch, repo)) == {"numpy", "onnx", "onnxscript", "onnx-ir",
                                                      "protobuf"}
    # A helper's imports count; torch and what its wheel requires do not (keyed by release).
    write(repo, "snippets/t/_h.py", "from onnx import helper\n")
    helped = snippet(repo, "snippets/t/helped.py", "import torch, sympy\nfrom _h import helper\n")
    assert set(snippet_packages(helped, repo)) == {"numpy", "onnx", "protobuf", "sympy"}


def test_moving_a_pin_changes_the_key_of_the_snippets_that_use_it(repo: Path,
                                                                   installed: dict) -> None:
    ort = snippet(repo, "snippets/t/ort.py", "import onnxruntime\n")
    plain = snippet(repo, "snippets/t/plain.py", "import torch\n")
    before = {s.rel: compute_key(s, env(), repo)[0] for s in (ort, plain)}
    installed["onnxruntime"] = ("1.33.0", ("numpy", "protobuf"))
    after = {s.rel: compute_key(s, env(), repo)[0] for s in (ort, plain)}
    assert after[ort.rel] != before[ort.rel] and after[plain.rel] == before[plain.rel]
    installed["protobuf"] = ("7.37.0", ())  # a requirement of a requirement
    assert compute_key(ort, env(), repo)[0] != after[ort.rel]
    installed["numpy"] = ("2.5.0", ())  # every snippet's process seeds numpy
    assert compute_key(plain, env(), repo)[0] != after[plain.rel]


def record_for(repo: Path, code: Snippet, environment: Environment) -> Path:
    key, helpers = compute_key(code, environment, repo)
    record = Record(snippet=code.rel, device="cpu", status="ok", output="1\n", key=key,
                    source_sha256="s", engine="6", torch=environment.torch_version,
                    python=environment.python_version, hardware="x", duration_s=1.0,
                    peak_rss_mib=1.0, recorded="2026-12-01T00:00:00Z", helpers=helpers,
                    packages=snippet_packages(code, repo))
    path = code.record_path("cpu")
    write_atomic(path, record.render())
    return path


def test_check_names_the_package_that_moved(repo: Path, installed: dict) -> None:
    ort = snippet(repo, "snippets/t/ort.py", "import onnxruntime\n")
    path = record_for(repo, ort, env())
    assert read_record(path).packages["onnxruntime"] == "1.32.0"
    assert record_state(ort.path, repo, "cpu") == ("current", "")
    installed["onnxruntime"] = ("1.33.0", ("numpy", "protobuf"))
    state, why = record_state(ort.path, repo, "cpu")
    assert state == "stale" and "onnxruntime 1.32.0 -> 1.33.0" in why, why
    del installed["onnxruntime"]
    assert "onnxruntime 1.32.0 -> not installed" in record_state(ort.path, repo, "cpu")[1]


def test_check_says_when_the_interpreter_is_the_difference(repo: Path, installed: dict) -> None:
    code = snippet(repo, "snippets/t/a.py", "print(1)\n")
    other = "3.12.3" if not platform.python_version().startswith("3.12") else "3.11.9"
    record_for(repo, code, dataclasses.replace(env(), python_version=other))
    state, why = record_state(code.path, repo, "cpu")
    assert state == "stale" and f"recorded with Python {other}" in why, why
    assert f"python{other.rsplit('.', 1)[0]}" in why and "snippet or a helper" not in why


def test_a_record_from_before_the_packages_line_still_reads() -> None:
    old = Record(snippet="snippets/t/a.py", device="cpu", status="ok", output="1\n", key="k",
                 source_sha256="s", engine="5", torch="2.13.0+cpu", python="3.11.7",
                 hardware="x", duration_s=1.0, peak_rss_mib=1.0, recorded="2026-12-01T00:00:00Z")
    text = "\n".join(line for line in old.render().split("\n")
                     if not line.startswith("packages: "))
    assert parse_record(text) == old


def test_versions_come_from_the_snippets_environment_not_the_recording_shells(
        repo: Path, tmp_path: Path, record_of) -> None:
    """A PYTHONPATH set where the run is started never reaches the snippet (its environment is an
    allow-list), so a distribution found there is not what the snippet imports: neither the key
    nor the record's packages line may read it."""
    from helpers import run_cli

    shadow = tmp_path / "shadow"
    (shadow / "numpy-0.0.1.dist-info").mkdir(parents=True)
    (shadow / "numpy-0.0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: numpy\nVersion: 0.0.1\n")
    (shadow / "numpy-0.0.1.dist-info" / "top_level.txt").write_text("numpy\n")
    write(repo, "snippets/t/a.py", "import numpy\nprint(numpy.__version__ != '0.0.1')\n")
    assert run_cli("run", "--progress", "never", root=repo).returncode == 0
    real = read_record(record_of(repo, "snippets/t/a.py"))
    assert real is not None and real.packages["numpy"] != "0.0.1"

    shadowed = {"PYTHONPATH": str(shadow)}
    done = run_cli("check", root=repo, env=shadowed)
    assert done.returncode == 0, done.stdout
    done = run_cli("run", "--force", "--progress", "never", root=repo, env=shadowed)
    assert done.returncode == 0, done.stderr
    record = read_record(record_of(repo, "snippets/t/a.py"))
    assert record is not None and record.output == "True\n"
    assert record.packages == real.packages
