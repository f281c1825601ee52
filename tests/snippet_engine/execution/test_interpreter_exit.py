"""A snippet's process ends as a fresh `python snippet.py` ends: it waits for the threads the
snippet left running (non-daemon threads, `ThreadPoolExecutor` work), then runs the `atexit`
handlers, and what they print is in the record, forked from a warm worker or fresh alike."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.records.record_file import read_record

THREAD = ("import threading, time\n"
          "def late():\n    time.sleep(0.4)\n    print('the thread finished', flush=True)\n"
          "threading.Thread(target=late).start()\nprint('the main module finished')\n")
POOL = ("import time\nfrom concurrent.futures import ThreadPoolExecutor\n"
        "def work(n):\n    time.sleep(0.3)\n    print('pool task', n, 'finished', flush=True)\n"
        "pool = ThreadPoolExecutor(max_workers=1)\nfor n in range(3):\n    pool.submit(work, n)\n"
        "print('submitted')\n")
# A fresh interpreter joins the threads first, then runs atexit handlers.
ORDER = ("import atexit, threading, time\n"
         "atexit.register(print, 'atexit handler ran')\n"
         "def late():\n    time.sleep(0.3)\n    print('thread before atexit', flush=True)\n"
         "threading.Thread(target=late).start()\n")
RAISES = ("#| expect: ValueError\nimport threading, time\n"
          "def late():\n    time.sleep(0.3)\n    print('the thread finished after the error')\n"
          "threading.Thread(target=late).start()\nraise ValueError('the main module failed')\n")
BANK = {"thread.py": THREAD, "pool.py": POOL, "order.py": ORDER, "raises.py": RAISES}


def _plain_python(path: Path, cwd: Path) -> str:
    """What `python snippet.py` prints, stdout and stderr together, as a reader sees it."""
    done = subprocess.run([sys.executable, str(path)], cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120, check=False)
    return done.stdout


@pytest.fixture(scope="module", params=["warm", "fresh"])
def recorded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp(f"exit-{request.param}")
    for name, text in BANK.items():
        write(root, f"snippets/t/{name}", text)
    flags = ("--fresh",) if request.param == "fresh" else ()
    done = run_cli("run", "--jobs", "1", "--progress", "never", *flags, root=root)
    assert done.returncode == 0, done.stderr
    outputs = {}
    for name in BANK:
        record = read_record(root / "snippets" / "t" / name.replace(".py", ".cpu.txt"))
        assert record is not None, name
        outputs[name] = record.output
    return {"root": root, "outputs": outputs}


@pytest.mark.parametrize("name", ["thread.py", "pool.py", "order.py"])
def test_record_is_what_a_fresh_python_prints(recorded: dict, name: str, tmp_path: Path) -> None:
    expected = _plain_python(recorded["root"] / "snippets" / "t" / name, tmp_path)
    assert recorded["outputs"][name] == expected


def test_expected_lines(recorded: dict) -> None:
    outputs = recorded["outputs"]
    assert outputs["thread.py"] == "the main module finished\nthe thread finished\n"
    assert outputs["pool.py"] == ("submitted\npool task 0 finished\npool task 1 finished\n"
                                  "pool task 2 finished\n")
    assert outputs["order.py"] == "thread before atexit\natexit handler ran\n"


def test_a_thread_outlives_the_expected_error(recorded: dict) -> None:
    assert recorded["outputs"]["raises.py"] == (
        "ValueError: the main module failed\nthe thread finished after the error\n")
