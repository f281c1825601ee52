"""Every outcome, end to end: real workers, real torch, one run over a bank of fixture snippets."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from helpers import host_pid, run_cli, still_running, write
from snippet_engine.records.record_file import read_record

BANK = {
    "ok_seeded.py": "import torch\ntorch.manual_seed(0)\nprint(torch.randn(3))\n",
    "ok_streams.py": (
        "import os, sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)\n"
        "os.system('echo from a subprocess')\nprint('\\x1b[31mred\\x1b[0m é ✓ <script>x</script>')\n"
        "open('written.txt', 'w').write('x')\nprint(os.listdir('.'))\n"),
    "expected.py": "#| expect: ValueError\nprint('before')\nraise ValueError('bad value')\n",
    "expected_subclass.py": "#| expect: LookupError\n{}['missing']\n",
    "expected_dotted.py": (
        "#| expect: torch._dynamo.exc.UserError\nimport torch._dynamo.exc as e\n"
        "raise e.UserError(e.UserErrorType.INVALID_INPUT, 'nope')\n"),
    "expect_but_clean.py": "#| expect: ValueError\nprint('fine')\n",
    "wrong_exception.py": "#| expect: ValueError\nraise TypeError('not the one')\n",
    "unexpected.py": "def f():\n    raise RuntimeError('kaboom')\nf()\n",
    "exit_code.py": "import sys\nsys.exit(3)\n",
    "syntax.py": "def broken(:\n",
    "interrupt.py": "raise KeyboardInterrupt\n",
    "slow.py": ("#| timeout: 3\nimport subprocess, time\n"
                "p = subprocess.Popen(['sleep', '300'])\n"
                "open('/tmp/{marker}', 'w').write(open(f'/proc/{p.pid}/stat').read())\n"
                "time.sleep(300)\n"),
    "segv.py": "import ctypes\nctypes.string_at(0)\n",
    "chatty.py": "import sys\nwhile True:\n    sys.stdout.write('x' * 4096)\n",
    # Not by sys.modules: a snippet that asks what it holds runs fresh (analysis.fresh_need).
    "forked.py": ("print('warm worker' if b'snippet_engine.execution.worker' in "
                  "open('/proc/self/cmdline', 'rb').read() else 'fresh')\n"),
    "fresh_opt_out.py": ("#| fresh: true\nprint('warm worker' if b'snippet_engine.execution.worker' in "
                         "open('/proc/self/cmdline', 'rb').read() else 'fresh')\n"),
}


@pytest.fixture(scope="module")
def outcome_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("outcomes")
    marker = f"snippet-grandchild-{os.getpid()}-{time.time_ns()}"
    for name, text in BANK.items():
        write(root, f"snippets/t/{name}", text.replace("{marker}", marker))
    report = root / "report.json"
    done = run_cli("run", "--report", str(report), "--jobs", "2", root=root)
    by_name = {Path(s["path"]).name: s for s in json.loads(report.read_text())["snippets"]}
    return {"root": root, "done": done, "by": by_name, "marker": Path("/tmp") / marker}


EXPECTED_STATUS = {
    "ok_seeded.py": "ok", "ok_streams.py": "ok", "expected.py": "expected-error",
    "expected_subclass.py": "expected-error", "expected_dotted.py": "expected-error",
    "expect_but_clean.py": "failed", "wrong_exception.py": "failed", "unexpected.py": "failed",
    "exit_code.py": "failed", "syntax.py": "failed", "interrupt.py": "failed",
    "slow.py": "timeout", "segv.py": "crashed", "chatty.py": "failed",
    "forked.py": "ok", "fresh_opt_out.py": "ok",
}


@pytest.mark.parametrize("name", sorted(EXPECTED_STATUS))
def test_each_outcome(outcome_run: dict, name: str) -> None:
    assert outcome_run["by"][name]["status"] == EXPECTED_STATUS[name], outcome_run["by"][name]


def test_run_fails_and_names_every_bad_snippet(outcome_run: dict) -> None:
    done = outcome_run["done"]
    assert done.returncode == 1
    for name, status in EXPECTED_STATUS.items():
        if status not in ("ok", "expected-error"):
            assert f"snippets/t/{name} [cpu]: {status}" in done.stderr, name
    assert "kaboom" in done.stderr  # the lines that explain it
    assert "SIGSEGV" in done.stderr


def test_good_snippets_keep_records_despite_failures(outcome_run: dict, record_of) -> None:
    root = outcome_run["root"]
    for name, status in EXPECTED_STATUS.items():
        record = read_record(record_of(root, f"snippets/t/{name}"))
        if status in ("ok", "expected-error"):
            assert record is not None and record.status == status and not record.is_stale
        else:
            assert record is None, f"{name} failed on its first run and must not get a record"


def test_seeded_output_is_torch_seed_zero(outcome_run: dict) -> None:
    assert outcome_run["by"]["ok_seeded.py"]["output"] == "tensor([ 1.5410, -0.2934, -2.1788])\n"


def test_capture_is_fd_level_ordered_and_clean(outcome_run: dict) -> None:
    out = outcome_run["by"]["ok_streams.py"]["output"]
    assert out.splitlines()[:3] == ["to stdout", "to stderr", "from a subprocess"]
    assert "red é ✓ <script>x</script>" in out and "\x1b" not in out
    assert "['written.txt']" in out  # the working directory starts empty


def test_files_written_stay_out_of_the_repository(outcome_run: dict) -> None:
    assert not list(outcome_run["root"].rglob("written.txt"))


def test_expected_error_records_type_and_message(outcome_run: dict, record_of) -> None:
    assert outcome_run["by"]["expected.py"]["output"] == "before\nValueError: bad value\n"
    root = outcome_run["root"]
    record = read_record(record_of(root, "snippets/t/expected_dotted.py"))
    assert record is not None and record.error_type == "torch._dynamo.exc.UserError"
    assert "KeyError: 'missing'" in outcome_run["by"]["expected_subclass.py"]["output"]


def test_messages_say_why(outcome_run: dict) -> None:
    by = outcome_run["by"]
    assert "ran without raising it" in by["expect_but_clean.py"]["message"]
    assert "expected ValueError but it raised TypeError" in by["wrong_exception.py"]["message"]
    assert "sys.exit(3)" in by["exit_code.py"]["message"]
    assert "SyntaxError" in by["syntax.py"]["message"]
    assert "KeyboardInterrupt" in by["interrupt.py"]["message"]
    assert "timeout of 3 s" in by["slow.py"]["message"]
    assert by["segv.py"]["message"] == "the process was killed by SIGSEGV"
    assert "output cap" in by["chatty.py"]["message"]
    assert "snippets/t/unexpected.py" in by["unexpected.py"]["output"]  # traceback, repo-relative


def test_timeout_kills_the_whole_process_group(outcome_run: dict) -> None:
    stat = outcome_run["marker"].read_text()  # the pid the snippet saw is not this machine's
    outcome_run["marker"].unlink()
    pid = host_pid(stat)
    deadline = time.time() + 5
    while time.time() < deadline:
        if not still_running(stat):
            return
        time.sleep(0.1)
    pytest.fail(f"the snippet's grandchild {pid} survived its timeout")


def test_a_snippet_can_opt_out_to_a_fresh_process(outcome_run: dict) -> None:
    assert outcome_run["by"]["forked.py"]["output"] == "warm worker\n"
    assert outcome_run["by"]["fresh_opt_out.py"]["output"] == "fresh\n"
