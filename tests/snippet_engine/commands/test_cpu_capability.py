"""`snippets.py verify --cpu-capability`: a record must not depend on the CPU that made it.

A float32 reduction adds in the order the vector width gives it, so a softmax printed at full
precision moves by an ulp between an AVX-512 and an AVX2 host (issue 40, item 6:
`core/nans_first_nonfinite`). `verify` re-runs snippets as another CPU would (torch's
ATEN_CPU_CAPABILITY, MKL's and oneDNN's instruction sets, all read when the process starts),
records nothing, and names each record that then differs and its first differing line.

The tests use `default` (no vectors): it differs from every host's own capability, so they
hold on an AVX2 host as well as an AVX-512 one.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from helpers import run_cli, write

SOFTMAX = "import torch\n\ntorch.manual_seed(0)\nx = torch.softmax(torch.randn(4099), 0)\n"
# Full precision: the last digits are the CPU's.
FULL = SOFTMAX + "print('softmax sums to one')\nprint(x[:3].tolist())\n"
# Four significant digits: the same on every CPU.
ROUNDED = SOFTMAX + "print([f'{v:.4g}' for v in x[:3].tolist()])\n"
PROBE = ("import os\nimport torch\n\nprint(torch.backends.cpu.get_cpu_capability())\n"
         "print(os.environ.get('MKL_ENABLE_INSTRUCTIONS'), os.environ.get('ONEDNN_MAX_CPU_ISA'))\n")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Records made on this host, with its own capability."""
    repo = tmp_path_factory.mktemp("capability")
    write(repo, "snippets/t/full.py", FULL)
    write(repo, "snippets/t/rounded.py", ROUNDED)
    write(repo, "snippets/t/probe.py", PROBE)
    write(repo, "snippets/t/probe_fresh.py", "#| fresh: true\n" + PROBE)  # a fresh python
    done = run_cli("run", "--progress", "never", root=repo)
    assert done.returncode == 0, done.stderr
    return repo


def _verify(repo: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict[str, tuple]]:
    report = repo.parent / "report.json"
    report.unlink(missing_ok=True)
    done = run_cli("verify", "--cpu-capability", "default", "--report", str(report),
                   "--progress", "never", *args, root=repo)
    outputs = {s["path"]: (s["status"], s["output"])
               for s in json.loads(report.read_text())["snippets"]}
    return done, outputs


def test_a_full_precision_reduction_fails_under_another_capability(recorded: Path,
                                                                   record_of) -> None:
    before = {p: p.read_bytes() for p in recorded.rglob("*.cpu.txt")}
    done, outputs = _verify(recorded)
    assert done.returncode == 1, done.stdout + done.stderr
    fail = next(line for line in done.stdout.splitlines() if "full.cpu.txt" in line)
    assert fail.startswith("FAIL snippets/t/full.cpu.txt: its output is not what the snippet "
                           "prints (line 2: the record says '[4.758"), fail
    assert "ok   snippets/t/rounded.cpu.txt" in done.stdout
    assert "4 cpu record(s) re-run under CPU capability default: " in done.stdout
    # A forked snippet and a fresh python both ran under it: the worker was started with it.
    assert outputs["snippets/t/probe.py"] == ("ok", "DEFAULT\nSSE4_2 SSE41\n")
    assert outputs["snippets/t/probe_fresh.py"] == ("ok", "DEFAULT\nSSE4_2 SSE41\n")
    # Nothing recorded: the committed records are as they were.
    assert before == {p: p.read_bytes() for p in recorded.rglob("*.cpu.txt")}


def test_the_host_shell_never_sets_a_capability() -> None:
    """The recording shell's variables stay out (snippet_env's allow-list): only the option sets
    them, so a record is always made under the host's own capability."""
    from snippet_engine.snippet_env import CPU_CAPABILITIES, worker_env
    shell = {"PATH": "/bin", **CPU_CAPABILITIES["avx2"]}
    assert not set(CPU_CAPABILITIES["avx2"]) & set(worker_env("cpu", shell=shell))
    assert worker_env("cpu", shell=shell, cpu_capability="avx2").items() >= \
        CPU_CAPABILITIES["avx2"].items()


def test_second_capability_is_another_than_the_hosts(tmp_path: Path) -> None:
    from snippet_engine.snippet_env import second_capability
    avx512 = tmp_path / "avx512"
    avx512.write_text("processor\t: 0\nflags\t\t: fpu sse avx2 avx512f avx512bw\n")
    avx2 = tmp_path / "avx2"
    avx2.write_text("processor\t: 0\nflags\t\t: fpu sse avx avx2 fma\n")
    assert second_capability(str(avx512)) == "avx2"
    assert second_capability(str(avx2)) is None  # the host's own: it is the other machine
    assert second_capability(str(tmp_path / "none")) is None


def test_first_difference_names_the_line() -> None:
    from snippet_engine.commands.verify import first_difference

    assert first_difference("a\nb\nc\n", "a\nB\nc\n") == \
        "line 2: the record says 'b', the run printed 'B'"
    assert first_difference("a\nb\n", "a\n") == \
        "line 2: the record says 'b', the run printed nothing more"
    assert first_difference("a\n", "a\nb\n") == \
        "line 2: the record has no more lines, the run printed 'b'"
    assert first_difference("a\n", "a") == "they differ only in the final newline"
