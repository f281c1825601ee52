from pathlib import Path

from helpers import write
from snippet_engine.source.discovery import discover, helper_files


def test_helpers_and_hidden_files_are_not_snippets(repo: Path) -> None:
    write(repo, "snippets/t/a.py", "print(1)\n")
    write(repo, "snippets/t/_helper.py", "X = 1\n")
    write(repo, "snippets/_shared/util.py", "Y = 1\n")
    assert [s.rel for s in discover(repo)] == ["snippets/t/a.py"]


def test_helper_imports_are_followed_transitively(repo: Path) -> None:
    write(repo, "snippets/_common.py", "import math\nVALUE = 1\n")
    write(repo, "snippets/t/_models.py", "from _common import VALUE\n")
    write(repo, "snippets/t/a.py", "import torch\nfrom _models import VALUE\n")
    write(repo, "snippets/t/b.py", "print(2)\n")
    a, b = discover(repo)
    assert [p.relative_to(repo).as_posix() for p in helper_files(a, repo)] == [
        "snippets/_common.py", "snippets/t/_models.py"]
    assert helper_files(b, repo) == []
