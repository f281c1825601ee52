import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from helpers import SCRIPTS, run_cli, write
from snippet_engine.records.normalize import PathContext, RunWindow, normalize


def ctx(root: str = "/home/alice/work/repo") -> PathContext:
    return PathContext.build(Path(root), Path("/tmp/snippet-abc"), Path("/tmp/snippet-abc/work"))


def test_paths_become_stable_placeholders() -> None:
    site = sysconfig.get_paths()["purelib"]
    text = (f'File "/home/alice/work/repo/snippets/t/a.py", line 3\n'
            f'File "{site}/torch/export/__init__.py", line 9\n'
            "wrote /tmp/snippet-abc/work/model.pt2 and /tmp/snippet-abc/cache/x\n"
            f"{sys.executable} ran\n")
    assert normalize(text, ctx()) == (
        'File "snippets/t/a.py", line 3\n'
        'File "<site-packages>/torch/export/__init__.py", line 9\n'
        "wrote <cwd>/model.pt2 and <tmp>/cache/x\npython ran\n")


def test_same_output_from_two_checkouts() -> None:
    one = normalize("at /a/repo/snippets/t/x.py", ctx("/a/repo"))
    two = normalize("at /b/other/snippets/t/x.py", ctx("/b/other"))
    assert one == two == "at snippets/t/x.py"


# 2026-11-30 18:47:30 UTC to ten seconds later: when a snippet ran.
RAN = (1796064450.0, 1796064460.0)


def ran_ctx() -> PathContext:
    return PathContext.build(Path("/home/alice/work/repo"), Path("/tmp/snippet-abc"),
                             Path("/tmp/snippet-abc/work"), window=RunWindow(*RAN))


def test_addresses_timestamps_pids() -> None:
    assert dt.datetime.fromtimestamp(RAN[0], dt.UTC).isoformat() == "2026-11-30T18:47:30+00:00"
    text = ("<object object at 0x7f3a2b1c4d50>\n"
            "I1130 18:47:31.123456 41234 torch/_dynamo/eval_frame.py:12] hello\n"
            "2026-11-30 18:47:31,123 - started pid=4242\n"
            "[18:47:31.5] tick\n")
    assert normalize(text, ran_ctx()) == (
        "<object object at 0x<addr>>\n"
        "I<time> <pid> torch/_dynamo/eval_frame.py:12] hello\n"
        "<time> - started pid=<pid>\n"
        "[<time>] tick\n")


def test_a_hex_number_is_an_address_only_where_a_repr_or_a_stack_prints_one() -> None:
    text = ("<function outer.<locals>.inner at 0x7f3a2b1c4d50>\n"
            "<bound method M.f of <M object at 0x7f3a2b1c4d60>>\n"
            "<weakref at 0x7f3a2b1c4d70; to 'M' at 0x7f3a2b1c4d80>\n"
            "<cell at 0x7f3a2b1c4d90: int object at 0x7f3a2b1c4da0>\n"
            "frame #3: c10::Error::Error() + 0x8c (0x7f3a2b1c4db0 in /usr/lib/libc10.so)\n")
    assert normalize(text, ctx()) == (
        "<function outer.<locals>.inner at 0x<addr>>\n"
        "<bound method M.f of <M object at 0x<addr>>>\n"
        "<weakref at 0x<addr>; to 'M' at 0x<addr>>\n"
        "<cell at 0x<addr>: int object at 0x<addr>>\n"
        "frame #3: c10::Error::Error() + 0x8c (0x<addr> in /usr/lib/libc10.so)\n")


def test_hex_values_survive() -> None:
    """Bit patterns, masks and limits are what the page teaches: they are kept."""
    text = ("float32 1.0 bits: 0x3f800000, inf: 0x7f800000, nan: 0x7fc00000\n"
            "int32 max 0x7fffffff, int64 max 0x7fffffffffffffff\n"
            "mask 0xdeadbeefcafe; flags=0x00ff00ff\n"
            "hex(id(x)) at 0x7fffffff is a value, not a repr\n")
    assert normalize(text, ctx()) == text
    assert normalize(text, ran_ctx()) == text


def test_times_are_replaced_only_when_they_fall_in_the_run() -> None:
    text = ("started 2026-11-30T18:47:33.250Z\n"
            "2026-11-30 19:47:35+01:00 is in the run too\n"
            "2026-11-30T18:47:35+01:00 is an hour before it\n"
            "epoch 1970-01-01T00:00:00Z, release 2024-03-10 12:00:00\n"
            "[18:47:39] tick, [12:34:56] a time the snippet chose, [25:61:00] no time at all\n")
    assert normalize(text, ran_ctx()) == (
        "started <time>\n"
        "<time> is in the run too\n"
        "2026-11-30T18:47:35+01:00 is an hour before it\n"
        "epoch 1970-01-01T00:00:00Z, release 2024-03-10 12:00:00\n"
        "[<time>] tick, [12:34:56] a time the snippet chose, [25:61:00] no time at all\n")
    # Without knowing when it ran (a notebook's cell), no time is provably a clock reading.
    assert normalize(text, ctx()) == text


def test_a_clock_around_midnight() -> None:
    start = dt.datetime(2026, 11, 30, 23, 59, 58, tzinfo=dt.UTC).timestamp()
    context = PathContext.build(Path("/r"), None, None, window=RunWindow(start, start + 5))
    assert normalize("[23:59:59] [00:00:02] [00:00:30] [12:00:00]", context) == (
        "[<time>] [<time>] [00:00:30] [12:00:00]")


CLOCK_AND_VALUES = (
    "import datetime, struct\n"
    "print('now', datetime.datetime.now().isoformat(timespec='seconds'))\n"
    "print('utc', datetime.datetime.now(datetime.timezone.utc).isoformat())\n"
    "print('fixed', datetime.datetime(2024, 3, 10, 12, 0).isoformat())\n"
    "print('bits', hex(struct.unpack('<I', struct.pack('<f', 1.0))[0]), hex(2**31 - 1))\n"
    "print(object())\n")


def test_a_run_keeps_values_and_replaces_its_clock(repo: Path, record_of) -> None:
    write(repo, "snippets/t/clock.py", CLOCK_AND_VALUES)
    done = run_cli("run", "--progress", "never", root=repo)
    assert done.returncode == 0, done.stderr
    record = record_of(repo, "snippets/t/clock.py").read_text()
    assert record.endswith("now <time>\nutc <time>\nfixed 2024-03-10T12:00:00\n"
                           "bits 0x3f800000 0x7fffffff\n<object object at 0x<addr>>\n"), record


def test_ansi_stripped_utf8_kept_and_values_untouched() -> None:
    text = b"\x1b[1;31mError\x1b[0m: \xc3\xa9 tensor([0.1234, 1000000]) 0x10\r\n"
    assert normalize(text, ctx()) == "Error: é tensor([0.1234, 1000000]) 0x10\n"


def test_torch_abbreviated_paths_read_the_same_from_any_checkout() -> None:
    # torch cuts the prefix a file shares with its install: with the venv outside the checkout,
    # what remains starts inside the checkout's own path.
    site = sysconfig.get_paths()["purelib"]
    for root in ("/tmp/det/a/checkout", "/srv/deeper/other/clone"):
        context = ctx(root)
        cut = root[len(os.path.commonpath([root, site + "/torch"])) + 1:]
        text = f"Caused by: ({cut}/snippets/t/x.py:9 in forward)\n"
        assert normalize(text, context) == "Caused by: (snippets/t/x.py:9 in forward)\n"


def interpreter_at(base: str, venv: str = "/srv/app/.venv") -> dict[str, str]:
    """The paths a worker reports for a venv at `venv` made from a Python installed at `base`."""
    return {"purelib": f"{venv}/lib/python3.11/site-packages",
            "platlib": f"{venv}/lib/python3.11/site-packages",
            "stdlib": f"{base}/lib/python3.11", "platstdlib": f"{venv}/lib/python3.11",
            "include": f"{base}/include/python3.11", "platinclude": f"{base}/include/python3.11",
            "executable": f"{venv}/bin/python", "prefix": venv, "base_prefix": base}


def test_where_python_is_installed_does_not_reach_a_record() -> None:
    """Debian's Python lives in /usr, among the C++ compiler; CI's in a folder of its own. The
    compiler's path must print as it is on both, and Python's own files alike on both."""
    text = ("cc: /usr/bin/g++ -I{base}/include/python3.11 -c x.cpp\n"
            "import os: {base}/lib/python3.11/os.py\n")
    want = ("cc: /usr/bin/g++ -I<python-include> -c x.cpp\n"
            "import os: <python>/os.py\n")
    for base in ("/usr", "/usr/local", "/opt/hostedtoolcache/Python/3.11.14/x64",
                 "/root/.pyenv/versions/3.11.7"):
        context = PathContext.build(Path("/r"), Path("/tmp/snippet-abc"), None,
                                    interpreter=interpreter_at(base))
        assert normalize(text.format(base=base), context) == want, base
    # A prefix that holds only Python is still shortened.
    toolcache = "/opt/hostedtoolcache/Python/3.11.14/x64"
    context = PathContext.build(Path("/r"), None, None, interpreter=interpreter_at(toolcache))
    assert normalize(f"{toolcache}/lib/libpython3.11.so\n", context) == (
        "<prefix>/lib/libpython3.11.so\n")


LOGS_A_TORCH_PATH = (
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        return x + 1\n"
    "# torch logs this deprecation through its own logger, naming its own file\n"
    "torch.export.export(M(), (torch.ones(3),), dynamic_shapes={'x': {0: None}})\n"
    "print('exported')\n")


def test_a_record_does_not_depend_on_how_the_interpreter_was_reached(repo: Path,
                                                                     tmp_path: Path) -> None:
    """With the venv reached through a symlink, torch's log lines named its files by their full
    resolved path (`<site-packages>/torch/...`) where a real folder gives `torch/...`."""
    write(repo, "snippets/t/logs.py", LOGS_A_TORCH_PATH)
    direct = run_cli("run", "--report", str(tmp_path / "direct.json"), root=repo)
    assert direct.returncode == 0, direct.stderr
    link = tmp_path / "venv-link"
    link.symlink_to(Path(sys.prefix).resolve(), target_is_directory=True)
    linked_python = link / "bin" / Path(sys.executable).name
    done = subprocess.run(
        [str(linked_python), str(SCRIPTS / "snippets.py"), "--root", str(repo), "run", "--force",
         "--report", str(tmp_path / "linked.json")], capture_output=True, text=True, check=False,
        timeout=600)
    assert done.returncode == 0, done.stderr
    outputs = [json.loads((tmp_path / f"{name}.json").read_text())["snippets"][0]["output"]
               for name in ("direct", "linked")]
    assert "torch/export/dynamic_shapes.py" in outputs[0] and "<site-packages>" not in outputs[0]
    assert outputs[0] == outputs[1]


def test_torch_log_lines_at_every_level() -> None:
    text = "".join(f"{level}1201 07:53:20.310000 27288 torch/_dynamo/x.py:5] [0/0] msg\n"
                   for level in "VDIWEF")
    assert normalize(text, ctx()) == "".join(
        f"{level}<time> <pid> torch/_dynamo/x.py:5] [0/0] msg\n" for level in "VDIWEF")


def test_c10_log_lines_of_a_ranks_process() -> None:
    """c10's logging in a process group prefixes the rank and brackets the glog header."""
    text = ("[rank0]:[E1201 18:55:01.123456 4242 ProcessGroupGloo.cpp:143] Gloo connectFullMesh failed\n"
            "[W1201 18:55:02.5 77 socket.cpp:200] [c10d] hostname\n"
            "rank 1 of [rank0]:[E1201 kept 12] mid-line\n")
    assert normalize(text, ctx()) == (
        "[rank0]:[E<time> <pid> ProcessGroupGloo.cpp:143] Gloo connectFullMesh failed\n"
        "[W<time> <pid> socket.cpp:200] [c10d] hostname\n"
        "rank 1 of [rank0]:[E1201 kept 12] mid-line\n")


def test_the_profilers_log_lines() -> None:
    """Kineto writes a level, a time and the process:thread ids when a profiler starts and stops."""
    text = ("USDT:2026-12-01 19:07:07 31184:31184 SyncActivityProfilerHandler.cpp:52] profiler_start\n"
            "step 2026: 31 of 40\n")
    assert normalize(text, ctx()) == (
        "USDT:<time> <pid>:<tid> SyncActivityProfilerHandler.cpp:52] profiler_start\n"
        "step 2026: 31 of 40\n")


def test_files_generated_in_the_snippets_caches() -> None:
    text = ("Output code written to: /tmp/snippet-abc/cache/inductor/gh/cghxq7zk2b3ybu.py\n"
            "kernel /tmp/snippet-abc/cache/triton/7FQX2W/triton_poi_fused_0.cubin, done\n"
            "lib: /tmp/snippet-abc/cache/inductor/aot/c4x.so)\n")
    assert normalize(text, ctx()) == (
        "Output code written to: <tmp>/cache/inductor/<generated>.py\n"
        "kernel <tmp>/cache/triton/<generated>.cubin, done\n"
        "lib: <tmp>/cache/inductor/<generated>.so)\n")


def test_the_snippets_own_process_id_where_it_is_printed_as_one() -> None:
    context = PathContext.build(Path("/r"), Path("/tmp/snippet-abc"), None, pid=48213)
    text = ("process 48213 started; os.getpid() = 48213; pid 48213\n"
            "read /proc/48213/status\n"
            "482135 and 1.48213 are other numbers\n")
    assert normalize(text, context) == (
        "process <pid> started; os.getpid() = <pid>; pid <pid>\n"
        "read /proc/<pid>/status\n"
        "482135 and 1.48213 are other numbers\n")


def test_a_number_equal_to_a_small_pid_is_kept() -> None:
    # In a fresh pid namespace (a container) the snippet's pid is small: 5 or 8 are real output.
    for pid in (5, 8, 1):
        context = PathContext.build(Path("/r"), Path("/tmp/snippet-abc"), None, pid=pid)
        listing = str(list(range(300)))
        guard = "Runtime assertion: guard 8 <= u0 failed (1 == 1, 5 >= 1)\n  8\n"
        assert normalize(listing + "\n" + guard, context) == listing + "\n" + guard


def test_small_pid_namespace_keeps_numbers_end_to_end(tmp_path: Path) -> None:
    """The issue's repro: a run in a new pid namespace, where the snippet's pid is a small number
    that also appears in its output. Needs root (or user namespaces) for unshare."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    probe = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"],
                           capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a pid namespace here: {probe.stderr.decode()[-200:]}")
    write(tmp_path, "snippets/t/numbers.py",
          "import os\nprint(list(range(40)))\nprint(8)\nprint('pid', os.getpid())\n")
    done = subprocess.run(
        ["unshare", "--pid", "--fork", "--mount-proc", sys.executable,
         str(SCRIPTS / "snippets.py"), "--root", str(tmp_path), "run", "--jobs", "1"],
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    record = (tmp_path / "snippets/t/numbers.cpu.txt").read_text()
    assert record.endswith(f"\n{list(range(40))}\n8\npid <pid>\n"), record[-300:]


def test_engine_frames_leave_a_printed_stack() -> None:
    engine = str(Path(SCRIPTS) / "snippet_engine")
    head = "V1201 07:53:20.310000 27288 torch/_dynamo/symbolic_convert.py:5124] [0/0] [__graph_breaks]"
    stack = [
        "User code traceback:",
        '  File "<frozen runpy>", line 198, in _run_module_as_main',
        f'  File "{engine}/worker.py", line 256, in <module>',
        "    main()",
        f'  File "{engine}/child.py", line 131, in execute',
        '    runpy.run_path(snippet, run_name="__main__")',
        "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "<frozen runpy>", line 88, in _run_code',
        '  File "/home/alice/work/repo/snippets/t/gb.py", line 9, in <module>',
        '    torch.compile(f, backend="eager")(torch.ones(3))',
        '  File "/home/alice/work/repo/snippets/t/gb.py", line 6, in f',
        '    print("hi")',
        "",
    ]
    text = "\n".join(f"{head} {line}" for line in stack) + "\nhi\n"
    want = [
        "User code traceback:",
        '  File "snippets/t/gb.py", line 9, in <module>',
        '    torch.compile(f, backend="eager")(torch.ones(3))',
        '  File "snippets/t/gb.py", line 6, in f',
        '    print("hi")',
        "",
    ]
    short = "V<time> <pid> torch/_dynamo/symbolic_convert.py:5124] [0/0] [__graph_breaks]"
    assert normalize(text, ctx()) == "\n".join(f"{short} {line}" for line in want) + "\nhi\n"
