"""Make captured output byte-identical on any machine and on every run.

Only what varies between runs or machines is replaced: paths (the checkout, the temporary working
directory, the interpreter and site-packages), the names of files Inductor and Triton generate in
the snippet's cache, memory addresses, the snippet's process id, and the timestamps and process
ids that log lines carry. The frames the engine itself adds to a printed stack (its own modules,
and the runpy calls that start the snippet) are dropped, so that a stack reads as a fresh
`python snippet.py` prints it. Everything else is kept exactly.

A value is replaced only where it is provably one of these, never for its shape alone: a hex
number is an address only where a repr or a C++ stack frame puts one (`<Foo object at 0x...>`,
`(0x... in libc10.so)`), so a float's bit pattern or `0x7fffffff` stays; a date-time or a
`[hh:mm:ss]` is a clock reading only when it falls between the snippet's own start and end
(`RunWindow`), so a fixed date the snippet prints stays. Log-line headers (glog, Kineto) are
replaced by their position at the start of a log line.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
# Where an address is printed as one: Python's default repr and its kin ("<Foo object at 0x7f..>",
# "<function f.<locals>.g at 0x7f..>", "<weakref at 0x7f..; to 'Foo' at 0x7f..>",
# "<cell at 0x7f..: int object at 0x7f..>"), and a frame of a C++ stack as c10 prints it
# ("+ 0x8c (0x7f3a2b1c4d50 in /usr/lib/libc10.so)", where the offset before it is kept).
_ADDRESS = re.compile(r"(?<= at )0x[0-9a-fA-F]+(?=>)"
                      r"|(?<=<weakref at )0x[0-9a-fA-F]+(?=; )"
                      r"|(?<=<cell at )0x[0-9a-fA-F]+(?=: )"
                      r"|(?<=\()0x[0-9a-fA-F]+(?= in [^\s)]+\))")
# glog-style prefix used by torch's C++ and Python logging: "I1130 18:47:31.123456 4242 file.py:12]"
# (V for the DEBUG-level artifacts that torch._logging.set_logs and TORCH_LOGS turn on), also
# as c10's logging writes it in a process group's rank: "[rank0]:[E1201 18:55:01.123456 4242 x.cpp:9]".
_GLOG = re.compile(r"^((?:\[rank\d+\]:)?\[?)([VDIWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d+ +\d+ ",
                   re.MULTILINE)
# Kineto's (the profiler's) log prefix: "USDT:2026-12-01 19:07:07 31184:31184 File.cpp:52]",
# a level, a time, and the process and thread ids.
_KINETO = re.compile(r"^([A-Z]+):\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \d+:\d+ (?=\S+:\d+\])",
                     re.MULTILINE)
# A file Inductor or Triton generated in the snippet's own cache: its name is a content hash.
_GENERATED = re.compile(r"(<tmp>/cache/(?:inductor|triton))((?:/[^\s/'\"():,\]]+)+)")
# A frame of a printed stack ("  File "...", line N, in f" and the indented lines under it).
_FRAME = re.compile(r'^(?P<prefix>.*?)(?P<indent> +)File "(?P<file>[^"]+)", line \d+, in \S+$')
# A date-time and a bracketed time of day: replaced only when they fall in the run (RunWindow).
_ISO_TIME = re.compile(
    r"\b(?P<date>\d{4}-\d{2}-\d{2})[ T](?P<time>\d{2}:\d{2}:\d{2})(?P<fraction>[.,]\d+)?"
    r"(?P<zone>Z|[+-]\d{2}:?\d{2})?(?![\d:])")
_CLOCK = re.compile(r"\[(?P<h>\d{2}):(?P<m>\d{2}):(?P<s>\d{2})(?:[.,]\d+)?\]")
_DAY = 86400.0
_PID = re.compile(r"\b(pid|PID|process id)([ =:]+)\d+\b")


@dataclass(frozen=True)
class RunWindow:
    """When the snippet ran, in seconds since the epoch (the worker's clock at the fork and after
    its last output): a time it printed that falls in it is a reading of the clock during the
    run, which a re-run cannot repeat; any other time is a value, and is kept. The snippet runs
    with TZ=UTC, so a time without a zone is UTC. `slack` covers a clock printed to the second."""

    start: float
    end: float
    slack: float = 1.0

    def holds(self, moment: float) -> bool:
        return self.start - self.slack <= moment <= self.end + self.slack

    def holds_time_of_day(self, seconds: float) -> bool:
        """Whether a UTC time of day (seconds since midnight) was on the clock during the run."""
        if self.end - self.start + 2 * self.slack >= _DAY:
            return True
        low = (self.start - self.slack) % _DAY
        high = (self.end + self.slack) % _DAY
        return low <= seconds <= high if low <= high else seconds >= low or seconds <= high


def _iso_moment(match: re.Match[str]) -> float | None:
    """The moment an ISO date-time names, in seconds since the epoch; None if it is no date."""
    fraction = (match.group("fraction") or "")[1:7]
    zone = match.group("zone") or "+00:00"
    if zone == "Z":
        zone = "+00:00"
    elif ":" not in zone:
        zone = f"{zone[:3]}:{zone[3:]}"
    text = f"{match.group('date')}T{match.group('time')}{'.' + fraction if fraction else ''}{zone}"
    try:
        return dt.datetime.fromisoformat(text).timestamp()
    except ValueError:
        return None


def _replace_clock_readings(text: str, window: RunWindow | None) -> str:
    """Date-times and `[hh:mm:ss]` times of day that the run's clock showed become <time>."""
    if window is None:
        return text

    def iso(match: re.Match[str]) -> str:
        moment = _iso_moment(match)
        return "<time>" if moment is not None and window.holds(moment) else match.group(0)

    def clock(match: re.Match[str]) -> str:
        hours, minutes, seconds = (int(match.group(g)) for g in ("h", "m", "s"))
        if hours > 23 or minutes > 59 or seconds > 60:
            return match.group(0)
        of_day = hours * 3600 + minutes * 60 + seconds
        return "[<time>]" if window.holds_time_of_day(of_day) else match.group(0)

    return _CLOCK.sub(clock, _ISO_TIME.sub(iso, text))


def _own_pid(pid: int) -> re.Pattern[str]:
    """Where the snippet's own process id is printed as one, and only there: after a word that
    names it ("process 4242", "pid=4242", "getpid() = 4242") or in a /proc path. A bare number
    is never replaced, not even alone on its line: in a container's pid namespace pids are
    small, and `guard 8 <= s0`, `[0, 1, 2, ...]` or a printed count must keep their numbers."""
    return re.compile(
        rf"(/proc/){pid}(?=/|\b)"
        rf"|(\b(?:[Pp]rocess(?: id)?|[Pp]id|PID|getpid\(\))[ =:#(]+){pid}(?![\w.])")


def torch_shortened(path: str, torch_dir: str) -> str:
    """How torch itself abbreviates `path` in messages (torch.utils._traceback.shorten_filename):
    it cuts the part that `path` shares with torch's own folder, wherever that folder is."""
    try:
        prefix = os.path.commonpath([path, torch_dir])
    except ValueError:
        return path
    return path[len(prefix) + 1:]


ENGINE_DIR = Path(__file__).resolve().parent.parent  # scripts/snippet_engine, every layer of it
# Where a system's own Python is installed among everything else (Debian's /usr, a Docker image's
# /usr/local): never replaced by <prefix>.
SHARED_PREFIXES = frozenset({"/", "/usr", "/usr/local", "/opt", "/opt/local", "/opt/homebrew"})


@dataclass(frozen=True)
class PathContext:
    """Absolute paths to shorten, most specific first, then torch's own abbreviations of them;
    the snippet's process id; and the engine's own files, whose frames a fresh `python` run of
    the snippet would not have on its stack."""

    replacements: tuple[tuple[str, str], ...]
    abbreviations: tuple[tuple[str, str], ...] = ()
    pid: int | None = None
    engine_files: tuple[str, ...] = (str(ENGINE_DIR) + "/", "<frozen runpy>")
    window: RunWindow | None = None  # when the snippet ran; no time is replaced without it

    @classmethod
    def build(cls, repo_root: Path, task_dir: Path | None = None,
              work_dir: Path | None = None, pid: int | None = None,
              interpreter: dict[str, str] | None = None,
              window: RunWindow | None = None) -> PathContext:
        """`interpreter`: the paths of the interpreter that ran the snippet (the worker reports
        them); by default this one's. `window`: when the snippet ran (the worker reports it)."""
        pairs: list[tuple[str, str]] = []
        if work_dir is not None:
            pairs.append((str(work_dir), "<cwd>"))
        if task_dir is not None:
            pairs.append((str(task_dir), "<tmp>"))
        paths = interpreter or {**sysconfig.get_paths(), "executable": sys.executable,
                                "prefix": sys.prefix, "base_prefix": sys.base_prefix}
        for name in ("purelib", "platlib"):
            pairs.append((paths[name], "<site-packages>"))
        for name in ("stdlib", "platstdlib"):
            pairs.append((paths[name], "<python>"))
        for name in ("include", "platinclude"):
            if paths.get(name):
                pairs.append((paths[name], "<python-include>"))
        pairs.append((paths["executable"], "python"))
        pairs.append((str(repo_root), "<repo>"))
        # A prefix that holds only this Python (a venv, a toolcache or pyenv install) is
        # shortened; a shared system prefix is not: under /usr or /usr/local live other
        # programs too (/usr/bin/g++), which print as they are whichever Python ran the snippet.
        for name in ("prefix", "base_prefix"):
            if os.path.normpath(paths[name]) not in SHARED_PREFIXES:
                pairs.append((paths[name], "<prefix>"))
        expanded: list[tuple[str, str]] = []
        for path, label in pairs:
            for variant in {path, str(Path(path).resolve())}:
                if variant and variant != "/":
                    expanded.append((variant, label))
        # Longest first, so site-packages inside a venv inside the checkout wins over the checkout.
        expanded.sort(key=lambda pair: len(pair[0]), reverse=True)
        # torch prints a file under the folder it shares with torch's install as a relative path
        # ("Caused by: (snippets/t/x.py:9 in forward)" when the venv is inside the checkout); with
        # the venv elsewhere that relative path starts with part of the checkout's own path.
        torch_dir = Path(paths["purelib"]) / "torch"
        short: list[tuple[str, str]] = []
        for folder, label in ((repo_root, ""), (work_dir, "<cwd>/")):
            if folder is None:
                continue
            for torch_variant in {str(torch_dir), str(torch_dir.resolve())}:
                for folder_variant in {str(folder), str(Path(folder).resolve())}:
                    cut = torch_shortened(folder_variant, torch_variant)
                    if cut and cut != folder_variant and (cut + "/", label) not in short:
                        short.append((cut + "/", label))
        short.sort(key=lambda pair: len(pair[0]), reverse=True)
        return cls(tuple(expanded), tuple(short), pid, window=window)


def drop_engine_frames(text: str, engine_files: tuple[str, ...]) -> str:
    """Remove, from every printed stack, the frames of the engine and of the runpy calls that
    start the snippet: the stack a fresh `python snippet.py` prints starts at the snippet's
    module. A frame is its 'File' line and the more indented lines under it (the source line
    and the caret line), with the same prefix (a log line's header)."""
    out: list[str] = []
    dropping: tuple[str, int] | None = None
    for line in text.split("\n"):
        if dropping is not None:
            prefix, indent = dropping
            if line.startswith(prefix) and len(line) - len(prefix) > 0:
                body = line[len(prefix):]
                if len(body) - len(body.lstrip(" ")) > indent and body.strip():
                    continue
            dropping = None
        match = _FRAME.match(line)
        if match and match.group("file").startswith(engine_files):
            dropping = (match.group("prefix"), len(match.group("indent")))
            continue
        out.append(line)
    return "\n".join(out)


def _extension(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name[name.index("."):] if "." in name.lstrip(".") else ""


def normalize(raw: bytes | str, context: PathContext) -> str:
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    text = text.replace("\r\n", "\n")
    text = _ANSI.sub("", text)
    text = drop_engine_frames(text, context.engine_files)
    for path, label in context.replacements:
        if label == "<repo>":
            # The snippet's own path reads as it does in the repository: snippets/topic/name.py
            text = text.replace(path + "/", "")
            text = text.replace(path, ".")
        else:
            text = text.replace(path, label)
    for shortened, label in context.abbreviations:
        text = text.replace(shortened, label)
    text = _GENERATED.sub(lambda m: m.group(1) + "/<generated>" + _extension(m.group(2)), text)
    text = _GLOG.sub(r"\1\2<time> <pid> ", text)
    text = _KINETO.sub(r"\1:<time> <pid>:<tid> ", text)
    if context.pid:
        text = _own_pid(context.pid).sub(lambda m: (m.group(1) or m.group(2)) + "<pid>", text)
    text = _replace_clock_readings(text, context.window)
    text = _PID.sub(r"\1\2<pid>", text)
    text = _ADDRESS.sub("0x<addr>", text)
    return text
