"""The one file a reader downloads for a drill: the starter on top, the judge below.

`python drill_<id>.py` judges the solution written above the judge in the same file, and
`python drill_<id>.py mine.py` judges another file; it needs torch and nothing else. The judge and
its framework are carried as their exact source, run in modules of their own, so a helper the
reader names `compare` or `main` cannot collide with the judge's, and what the download runs is
what the engine's records proved.
"""

from __future__ import annotations

from pathlib import Path

from .bank import Drill

FRAMEWORK = Path("snippets") / "_drill.py"
_CUT = "# " + "-" * 30 + " the judge: nothing to edit below this line " + "-" * 30


def _literal(source: str, path: Path) -> str:
    if "'''" in source or source.rstrip().endswith("\\"):
        raise ValueError(f"{path}: a bundled file may not contain ''' (it is carried in a ''' string)")
    return "r'''" + source + "'''"


def bundle(drill: Drill, root: Path) -> str:
    """The text of drill_<id>.py."""
    framework = root / FRAMEWORK
    starter = drill.starter.read_text(encoding="utf-8").rstrip("\n")
    return "\n".join([
        # Python reads an encoding declaration from either of the first two lines of a file (PEP
        # 263): "# Drill speculative-decoding: write ..." declared the encoding "write", and the
        # file did not run. Declaring it on line 1 ends the search there.
        "# -*- coding: utf-8 -*-",
        f"# Drill {drill.id}: write the solution below, then judge it with plain python:",
        f"#     python drill_{drill.id}.py            judges the solution in this file",
        f"#     python drill_{drill.id}.py mine.py    judges the solution in mine.py",
        "# It needs torch only. The exit status is 0 when every test passes.",
        "",
        starter,
        "",
        "",
        _CUT,
        "",
        "_DRILL_SOURCE = " + _literal(framework.read_text(encoding="utf-8"), framework),
        "",
        "_JUDGE_SOURCE = " + _literal(drill.judge.read_text(encoding="utf-8"), drill.judge),
        "",
        "",
        "def _judge_this_file():",
        "    import sys",
        "    import types",
        "",
        "    modules = {}",
        '    for name, source in (("_drill", _DRILL_SOURCE), ("_judge", _JUDGE_SOURCE)):',
        "        module = modules[name] = types.ModuleType(name)",
        "        module.__file__ = name + \".py\"",
        "        sys.modules[name] = module",
        "        exec(compile(source, name + \".py\", \"exec\"), module.__dict__)",
        '    return modules["_drill"].main(modules["_judge"].TESTS, sys.modules["__main__"])',
        "",
        "",
        'if __name__ == "__main__":',
        "    raise SystemExit(_judge_this_file())",
        "",
    ])
