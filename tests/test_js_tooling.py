"""The site's own JavaScript is checked like the Python (issue 22, item 7): the test command runs
the type check, the linter and the unit tests, each pinned in package.json, and each catches a
break; `serve` on a clone without node_modules installs the one package the site ships."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import ROOT

BIN = ROOT / "node_modules" / ".bin"
DEV = (ROOT / "scripts" / "dev.sh").read_text(encoding="utf-8")


def test_the_test_command_runs_every_js_check_with_pinned_tools() -> None:
    test_branch = DEV[DEV.index("  test)"):]
    for command in ("node_modules/.bin/tsc --project tsconfig.json",
                    "node_modules/.bin/eslint docs/assets/javascripts tests/js", "node --test tests/js/"):
        assert command in test_branch, command
    manifest = json.loads((ROOT / "package.json").read_text())
    for tool in ("typescript", "eslint", "@eslint/js", "globals"):
        assert re.fullmatch(r"\d+\.\d+\.\d+", manifest["devDependencies"][tool]), tool
    assert re.fullmatch(r"\d+\.\d+\.\d+", manifest["dependencies"]["ts-fsrs"])


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture
def js_copy(tmp_path: Path) -> Path:
    """The site's scripts, tests and JS configs, with node_modules linked in."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "docs" / "assets" / "javascripts", root / "docs" / "assets" / "javascripts")
    shutil.copytree(ROOT / "tests" / "js", root / "tests" / "js")
    for name in ("tsconfig.json", "eslint.config.mjs", "package.json"):
        shutil.copy(ROOT / name, root / name)
    (root / "node_modules").symlink_to(ROOT / "node_modules")
    return root


def test_the_type_check_and_the_linter_pass_and_catch_a_break(js_copy: Path) -> None:
    tsc = [str(BIN / "tsc"), "--project", "tsconfig.json"]
    eslint = [str(BIN / "eslint"), "docs/assets/javascripts", "tests/js"]
    assert run(tsc, js_copy).returncode == 0
    assert run(eslint, js_copy).returncode == 0
    core = js_copy / "docs" / "assets" / "javascripts" / "progress-core.js"
    text = core.read_text()
    # A result that may be null used as a date (strict: true): the type check fails on it.
    core.write_text(text.replace("const STATES = ", "calendarDay({ a: 1 }).getTime();\nconst STATES = ", 1))
    broken = run(tsc, js_copy)
    assert broken.returncode != 0 and "progress-core.js" in broken.stdout
    # An unused variable: the linter fails on it.
    core.write_text(text.replace("const STATES = ", "const unused = 1;\nconst STATES = ", 1))
    linted = run(eslint, js_copy)
    assert linted.returncode != 0 and "'unused' is assigned a value but never used" in linted.stdout


def test_serve_installs_the_shipped_package_when_node_modules_is_absent(tmp_path: Path) -> None:
    """`serve` calls setup_site_js, which runs `npm ci --omit=dev` only when ts-fsrs is missing or
    another version (npm is replaced by a recorder here: no test reaches a registry)."""
    functions = re.search(r"^ensure_npm\(\) \{.*?^\}\n.*?^setup_site_js\(\) \{.*?^\}\n", DEV, re.M | re.S)
    assert functions and "setup_site_js" in DEV[DEV.index("  serve)"):DEV.index("  test)")]
    shutil.copy(ROOT / "package.json", tmp_path / "package.json")
    fake = tmp_path / "bin" / "npm"
    fake.parent.mkdir()
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["ts-fsrs"]
    manifest = f'{{\\n  "version": "{pinned}"\\n}}\\n'
    fake.write_text("#!/bin/sh\necho \"$@\" >> npm-calls\nmkdir -p node_modules/ts-fsrs\n"
                    f"printf '{manifest}' > node_modules/ts-fsrs/package.json\n")
    fake.chmod(0o755)
    script = (f'export PATH="{fake.parent}:$PATH"\n' + functions.group(0)
              + "set -euo pipefail\nsetup_site_js\nsetup_site_js\n")
    done = run(["bash", "-c", script], tmp_path)
    assert done.returncode == 0, done.stderr
    calls = (tmp_path / "npm-calls").read_text().splitlines()
    assert len(calls) == 1 and calls[0].startswith("ci --omit=dev"), calls
