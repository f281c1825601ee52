"""The drill bank as files: which drills there are and what each one's files declare.

Read without running anything: a drill's judge and solutions need torch, this module does not, so
`check_pages.py` and the build can list drills and find a malformed one cheaply.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from question_pages.format.model import PageError

DRILLS_DIR = Path("snippets") / "drills"
ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_MISTAKE_LINE = re.compile(r"^# mistake: (?P<says>\S.*)$")
_FAILS_LINE = re.compile(r"^# fails: (?P<test>[a-z0-9_]+)$")
_TEST = re.compile(r"^test_[a-z0-9_]+$")
REQUIRED = ("_starter.py", "_reference.py", "_judge.py")


class DrillError(ValueError):
    """A drill's files are not in the form the bank needs: where, what, and how to fix it."""

    def __init__(self, path: Path, root: Path, line: int, what: str, fix: str) -> None:
        self.error = PageError(path.relative_to(root).as_posix(), line, what, fix)
        super().__init__(str(self.error))


@dataclass(frozen=True)
class Mistake:
    name: str  # `no_scale` for _mistake_no_scale.py
    path: Path
    says: str  # what is wrong, one line
    fails: str  # the test it must fail, without `test_`
    fails_line: int  # the line of `# fails:`, for errors about it


@dataclass(frozen=True)
class Drill:
    id: str
    folder: Path
    tests: tuple[str, ...]  # the judge's test names, in order, without `test_`
    mistakes: tuple[Mistake, ...]

    @property
    def starter(self) -> Path:
        return self.folder / "_starter.py"

    @property
    def reference(self) -> Path:
        return self.folder / "_reference.py"

    @property
    def judge(self) -> Path:
        return self.folder / "_judge.py"

    def solutions(self) -> list[tuple[str, Path]]:
        """(role, file) of every solution the engine judges: the starter, the reference and
        each mistake, the role being the file's name without `_` and `.py`."""
        return [("starter", self.starter), ("reference", self.reference),
                *[(f"mistake_{m.name}", m.path) for m in self.mistakes]]

    def verdict_snippet(self, role: str) -> Path:
        """The snippet whose record is the judge's verdict on the solution of `role`."""
        return self.folder / f"judge_{role}.py"


def verdict_source(role: str) -> str:
    """What a `judge_<role>.py` snippet holds, exactly: the judge run on that solution."""
    return f"import _judge\nimport _{role}\n\n_judge.TESTS.report(_{role})\n"


def _tests(judge: Path, root: Path) -> tuple[str, ...]:
    """The names of the judge's tests: its top-level functions `test_*` that are decorated."""
    tree = ast.parse(judge.read_text(encoding="utf-8"), filename=str(judge))
    names = [node.name.removeprefix("test_") for node in tree.body
             if isinstance(node, ast.FunctionDef) and _TEST.match(node.name) and node.decorator_list]
    if not names:
        raise DrillError(judge, root, 1, "the judge declares no test",
                         "Add functions named test_<name>, each decorated with @TESTS.test(says, hint=...)")
    return tuple(names)


def _mistake(path: Path, root: Path, tests: tuple[str, ...]) -> Mistake:
    """A mistake's header: `# mistake: <what is wrong>` (continued on `# ` lines), then
    `# fails: <test>`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    says = _MISTAKE_LINE.match(lines[0]) if lines else None
    if says is None:
        raise DrillError(path, root, 1, "a mistake starts with '# mistake: <what is wrong>'",
                         "Add that line first")
    text, number = [says["says"]], 1
    while number < len(lines) and lines[number].startswith("# ") and not _FAILS_LINE.match(lines[number]):
        text.append(lines[number][2:].strip())
        number += 1
    fails = _FAILS_LINE.match(lines[number]) if number < len(lines) else None
    if fails is None:
        raise DrillError(path, root, number + 1, "no '# fails: <test>' line after '# mistake: ...'",
                         f"Name the judge's test it fails, one of: {', '.join(tests)}")
    if fails["test"] not in tests:
        raise DrillError(path, root, number + 1, f"the judge has no test '{fails['test']}'",
                         f"Name one of: {', '.join(tests)}")
    return Mistake(path.stem.removeprefix("_mistake_"), path, " ".join(text), fails["test"],
                   number + 1)


def load_drill(folder: Path, root: Path) -> Drill:
    """One drill from its folder; DrillError naming the file and line when it is malformed."""
    if not ID.match(folder.name):
        raise DrillError(folder, root, 1, "a drill's folder is its id: lower case words joined by '-'",
                         "Rename the folder (attention-from-scratch)")
    for name in REQUIRED:
        if not (folder / name).is_file():
            raise DrillError(folder / name, root, 1, "missing",
                             f"A drill has {', '.join(REQUIRED)} and at least one _mistake_<name>.py")
    tests = _tests(folder / "_judge.py", root)
    mistakes = tuple(_mistake(p, root, tests) for p in sorted(folder.glob("_mistake_*.py")))
    if not mistakes:
        raise DrillError(folder, root, 1, "the drill lists no mistake",
                         "Add _mistake_<name>.py files: the wrong solutions candidates write, each "
                         "failing the test it names")
    return Drill(folder.name, folder, tests, mistakes)


def drill_folders(root: Path) -> list[Path]:
    base = root / DRILLS_DIR
    return sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))) \
        if base.is_dir() else []


def load_bank(root: Path) -> list[Drill]:
    """Every drill, by id; the first malformed one raises."""
    return [load_drill(folder, root) for folder in drill_folders(root)]
