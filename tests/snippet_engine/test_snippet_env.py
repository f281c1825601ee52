"""A snippet's environment comes from an allow-list: nothing the recording shell sets reaches it."""

from __future__ import annotations

import json

from helpers import run_cli, write
from snippet_engine.snippet_env import ENGINE_SET, LOGIN_SHELL, worker_env

# Each of these changed a committed record, or could, when the shell that recorded it had it set.
SHELL = {
    "PYTHONDEVMODE": "1",  # shows warnings a clean shell hides
    "TORCH_SHOW_CPP_STACKTRACES": "1",  # adds C++ traces to errors
    "PYTHONOPTIMIZE": "2",  # drops asserts and docstrings
    "AOTI_RUNTIME_CHECK_INPUTS": "1",
    "TORCH_FORCE_WEIGHTS_ONLY_LOAD": "1",
    "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "1",
    "PYTHONWARNINGS": "error",
    "PYTHONUTF8": "0",
    "LD_PRELOAD": "",
    "CC": "clang",
}


def test_worker_env_is_the_login_shell_plus_the_engine() -> None:
    shell = {**SHELL, "HOME": "/home/me", "PATH": "/usr/bin", "USER": "me", "TMPDIR": "/t"}
    env = worker_env("cpu", tmpdir="/engine-tmp", shell=shell)
    assert {k for k in env if k in SHELL} == set()
    assert {k: env[k] for k in ("HOME", "PATH", "USER")} == {"HOME": "/home/me", "PATH": "/usr/bin",
                                                           "USER": "me"}
    assert env["TMPDIR"] == "/engine-tmp"
    assert set(env) <= {*LOGIN_SHELL, *ENGINE_SET, "TMPDIR", "CUDA_VISIBLE_DEVICES"}
    assert env["CUDA_VISIBLE_DEVICES"] == ""


def test_a_cuda_worker_keeps_which_gpu() -> None:
    env = worker_env("cuda", shell={"CUDA_VISIBLE_DEVICES": "1", "PYTHONDEVMODE": "1"})
    assert env["CUDA_VISIBLE_DEVICES"] == "1" and "PYTHONDEVMODE" not in env


INSPECTS = '''import os, sys
print("dev mode:", sys.flags.dev_mode, "| optimize:", sys.flags.optimize, "| asserts:", __debug__)
print("from the shell:", sorted(k for k in os.environ if k in {names!r}))
'''


def test_the_recording_shell_does_not_reach_the_record(repo, tmp_path) -> None:
    write(repo, "snippets/t/inspects.py", INSPECTS.format(names=set(SHELL)))
    report = tmp_path / "report.json"
    done = run_cli("run", "--report", str(report), root=repo, env=SHELL)
    assert done.returncode == 0, done.stderr
    output = json.loads(report.read_text())["snippets"][0]["output"]
    assert output == "dev mode: False | optimize: 0 | asserts: True\nfrom the shell: []\n"
