"""The GitHub workflows: valid against GitHub's schema, and every command they run exists here.

A workflow is only exercised on GitHub, where a typo in a path or a flag costs a push and a failed
run (or, for the CUDA workflow, a GPU runner's time). So every workflow is checked here: the
schema (offline: check-jsonschema vendors it), the repository paths and requirement files its
`run:` steps name, the `scripts/snippets.py` subcommands and flags against the CLI's own parser,
and the same for the repository scripts those steps call. The CPU job must be
scripts/ci_cpu_job.sh's steps in the same order, so it can be run locally as it runs on CI.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from helpers import ROOT, run_cli
from snippet_engine.commands.cli import _parser
from snippet_engine.execution.sharding import parse_shard

WORKFLOWS_DIR = ROOT / ".github" / "workflows"
WORKFLOWS = sorted([*WORKFLOWS_DIR.glob("*.yml"), *WORKFLOWS_DIR.glob("*.yaml")])
CPU_JOB_SCRIPT = "scripts/ci_cpu_job.sh"

EXPRESSION = re.compile(r"\$\{\{.*?\}\}")
REPO_PATH = re.compile(r"(?<![\w./$-])((?:scripts|\.ci|tests)/[\w./-]*\w)")
REQUIREMENTS_FILE = re.compile(r"(?<![\w./-])((?:requirements|constraints)[\w.-]*\.txt)\b")
SHELL_OPERATORS = {"&&", "||", ";", "|", "&", ">", ">>", "<", "2>", "(", ")"}


def load(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in data:  # YAML 1.1 reads the key `on` as a boolean
        data["on"] = data.pop(True)
    return data


def steps(workflow: dict) -> list[tuple[str, dict]]:
    return [(job_id, step) for job_id, job in workflow["jobs"].items() for step in job.get("steps", [])]


def describe(step: dict, number: int) -> str:
    label = step.get("name") or step.get("uses") or (step.get("run", "").strip().splitlines() or ["?"])[0]
    return f"step {number} ({label[:60]})"


def cpu_job_steps() -> list[str]:
    done = subprocess.run(["bash", str(ROOT / CPU_JOB_SCRIPT), "steps"], capture_output=True,
                          text=True, check=True, timeout=60)
    return done.stdout.split()


def _command_lines(script: str) -> list[str]:
    """Shell lines with continuations joined, comments dropped and `${{ }}` made a plain value."""
    joined = EXPRESSION.sub("1", script.replace("\\\n", " "))
    return [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _snippets_cli_problem(args: list[str]) -> str | None:
    """Why scripts/snippets.py would reject these arguments, or None: asks the real parser."""
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            parsed = _parser().parse_args(args)
    except SystemExit:
        return errors.getvalue().strip().splitlines()[-1]
    if getattr(parsed, "shard", None):
        try:
            parse_shard(parsed.shard)
        except ValueError as exc:
            return str(exc)
    return None


def command_problems(script: str, where: str, root: Path, seen: set[Path] | None = None) -> list[str]:
    """Problems with the commands in one `run:` block or one repository shell script.

    Repository shell scripts it calls are checked the same way, once each, so a flag that
    scripts/ci_cpu_job.sh passes to scripts/snippets.py is checked just as one written inline.
    """
    seen = set() if seen is None else seen
    problems = []
    for line in _command_lines(script):
        for rel in REPO_PATH.findall(line):
            path = root / rel
            if not path.exists():
                problems.append(f"{where}: `{rel}` does not exist in the repository")
            elif path.suffix == ".sh" and path not in seen:
                seen.add(path)
                problems += command_problems(path.read_text(encoding="utf-8"), rel, root, seen)
        for rel in REQUIREMENTS_FILE.findall(line):
            if not (root / rel).exists():
                problems.append(f"{where}: requirements file `{rel}` does not exist")
        try:
            tokens = list(shlex.shlex(line, posix=True, punctuation_chars=True))
        except ValueError:
            continue  # not one shell line on its own (a heredoc body, a quote spanning lines)
        for index, token in enumerate(tokens):
            rest = tokens[index + 1:]
            args = rest[:next((i for i, t in enumerate(rest) if t in SHELL_OPERATORS), len(rest))]
            if token.endswith("scripts/snippets.py"):
                why = _snippets_cli_problem(args)
                if why:
                    problems.append(f"{where}: `scripts/snippets.py {' '.join(args)}`: {why}")
            elif token.endswith(CPU_JOB_SCRIPT) and args and args[0] not in ("all", "steps",
                                                                                *cpu_job_steps()):
                problems.append(f"{where}: {CPU_JOB_SCRIPT} has no step `{args[0]}`")
    return problems


def workflow_problems(path: Path, root: Path = ROOT) -> list[str]:
    """Every problem in one workflow, apart from its schema."""
    workflow = load(path)
    problems = []
    for number, (job_id, step) in enumerate(steps(workflow), start=1):
        where = f"{path.name}: job {job_id}, {describe(step, number)}"
        if "uses" in step and "@" not in step["uses"]:
            problems.append(f"{where}: `{step['uses']}` is not pinned to a version (add @vN or @sha)")
        if "run" in step:
            problems += command_problems(step["run"], where, root)
    return problems


def schema_errors(path: Path) -> str:
    """check-jsonschema's complaint, or '' when the file is a valid GitHub workflow."""
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
         str(path)], capture_output=True, text=True, timeout=120, check=False)
    return "" if done.returncode == 0 else done.stdout + done.stderr


def test_the_three_workflows_exist() -> None:
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "cuda-records.yml", "deploy.yml"}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_matches_the_github_schema(path: Path) -> None:
    assert schema_errors(path) == ""


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_command_a_workflow_runs_exists(path: Path) -> None:
    assert workflow_problems(path) == []


# A synthetic workflow that is valid against the schema but names things the repository lacks.
BAD_WORKFLOW = """\
name: bad
on: push
jobs:
  bad:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout
      - run: python scripts/nonexistent.py
      - run: pip install -r requirements-gpu.txt -c constraints.txt
      - run: python scripts/snippets.py run --devices cuda
      - run: python scripts/snippets.py lint
      - run: |
          .venv/bin/python scripts/snippets.py run --device cuda \\
              --shard ${{ matrix.shard }}/0 && echo done
      - run: bash scripts/ci_cpu_job.sh deploy
"""


def test_a_workflow_naming_what_the_repository_lacks_fails(tmp_path: Path) -> None:
    path = tmp_path / "bad.yml"
    path.write_text(BAD_WORKFLOW, encoding="utf-8")
    assert schema_errors(path) == ""  # the schema alone would let every one of these through
    found = "\n".join(workflow_problems(path))
    for expected in ("`actions/checkout` is not pinned", "`scripts/nonexistent.py` does not exist",
                     "`requirements-gpu.txt` does not exist", "unrecognized arguments: --devices",
                     "invalid choice: 'lint'", "--shard '1/0'", "has no step `deploy`"):
        assert expected in found
    assert "`constraints.txt` does not exist" not in found
    assert len(workflow_problems(path)) == 7


def test_flags_in_a_repository_script_a_workflow_calls_are_checked_too(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "snippets.py").write_text("", encoding="utf-8")
    (tmp_path / "scripts" / "job.sh").write_text(
        "# scripts/gone.py in a comment is not a command\n"
        "python scripts/snippets.py check --device gpu\n", encoding="utf-8")
    found = command_problems("bash scripts/job.sh", "step", tmp_path)
    assert len(found) == 1
    assert found[0].startswith("scripts/job.sh: `scripts/snippets.py check --device gpu`")
    assert "invalid choice: 'gpu'" in found[0]


def test_a_workflow_that_breaks_the_schema_fails(tmp_path: Path) -> None:
    path = tmp_path / "broken.yml"
    path.write_text("name: broken\non: push\njobs:\n  j:\n    steps:\n      - run: echo hi\n",
                    encoding="utf-8")
    assert "runs-on" in schema_errors(path)


def test_the_cpu_job_is_the_local_script_in_the_same_order() -> None:
    workflow = load(WORKFLOWS_DIR / "ci.yml")
    assert {"push", "pull_request"} <= set(workflow["on"])
    job = workflow["jobs"]["cpu"]
    assert job["runs-on"].startswith("ubuntu")
    # Debian with Python 3.11, like the project's machines (Debian's chromium, the torch wheel).
    assert job["container"]["image"] == "python:3.11-bookworm"
    runs = [s["run"].strip() for s in job["steps"] if "run" in s]
    assert runs == [f"bash {CPU_JOB_SCRIPT} {step}" for step in cpu_job_steps()]
    assert cpu_job_steps() == ["setup", "check", "verify", "drift", "test", "build"]
    script = (ROOT / CPU_JOB_SCRIPT).read_text(encoding="utf-8")
    # verify-changed needs the base commit: the whole history, and the base in VERIFY_SINCE.
    assert job["steps"][0]["with"]["fetch-depth"] == 0
    verify = next(s for s in job["steps"] if s.get("run", "").strip().endswith(" verify"))
    assert "github.event.pull_request.base.sha" in verify["env"]["VERIFY_SINCE"]
    for command in ("scripts/snippets.py check", "scripts/snippets.py verify-changed --since",
                    "scripts/snippets.py run --force --device cpu",
                    # the drift step's third way: the whole bank on a second CPU (issue 40, 6)
                    "scripts/snippets.py verify --cpu-capability second --device cpu",
                    "bash scripts/dev.sh test", "mkdocs build --strict",
                    "https://download.pytorch.org/whl/cpu"):
        assert command in script
    assert "scripts/dev.sh test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_cuda_matrix_covers_every_shard_and_every_cuda_snippet_once() -> None:
    workflow = load(WORKFLOWS_DIR / "cuda-records.yml")
    shards = int(workflow["env"]["SHARDS"])
    record = workflow["jobs"]["record"]
    assert {"self-hosted", "gpu"} <= set(record["runs-on"])
    assert record["strategy"]["matrix"]["shard"] == list(range(1, shards + 1))
    commands = [s["run"] for s in record["steps"] if "scripts/snippets.py run" in s.get("run", "")]
    assert commands and all("--device cuda" in c and "--shard ${{ matrix.shard }}/${{ env.SHARDS }}"
                            in c for c in commands)
    # The merge job is tested on its own below.
    # What the matrix runs, run here: together the shards list every CUDA snippet exactly once.
    everything = run_cli("run", "--device", "cuda", "--list", root=ROOT, timeout=120)
    assert everything.returncode == 0, everything.stderr
    listed = []
    for k in range(1, shards + 1):
        done = run_cli("run", "--device", "cuda", "--shard", f"{k}/{shards}", "--list", root=ROOT,
                       timeout=120)
        assert done.returncode == 0, done.stderr
        listed += done.stdout.splitlines()
    assert sorted(listed) == everything.stdout.splitlines()


def test_the_cuda_merge_keeps_what_succeeded_and_says_what_did_not() -> None:
    """One failing snippet or shard must not discard every other record: the merge runs
    whatever the shards did, lists the failures in the pull request, and ends red."""
    workflow = load(WORKFLOWS_DIR / "cuda-records.yml")
    merge = workflow["jobs"]["merge"]
    assert merge["needs"] == "record"
    assert "always()" in merge["if"]
    by_id = {s.get("id"): s for s in merge["steps"] if s.get("id")}
    # The shards' reports reach the summary where the record steps wrote them.
    reports = [re.search(r"--report shard-out/([\w-]+)/cuda-shard-\$\{\{ matrix.shard \}\}\.json",
                         s["run"]) for s in workflow["jobs"]["record"]["steps"]
               if "scripts/snippets.py run" in s.get("run", "")]
    assert reports and all(reports)
    folder = {m.group(1) for m in reports if m}
    summary = by_id["summary"]["run"]
    assert len(folder) == 1 and f"--reports {folder.pop()}" in summary
    assert "summary --device cuda --shards ${{ env.SHARDS }}" in summary
    assert "scripts/snippets.py check --device cuda" not in summary  # it stops at the first
    upload = [s for s in workflow["jobs"]["record"]["steps"]
              if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert upload and all(s["if"] == "${{ always() }}" and s["with"]["path"] == "shard-out/"
                          for s in upload)
    # The pull request's body is the summary, and its CI runs.
    pr = by_id["pr"]
    assert pr["uses"].startswith("peter-evans/create-pull-request@")
    assert pr["with"]["body-path"] == "pr-body/body.md" and "pr-body/summary.md" in summary
    assert "secrets.CUDA_RECORDS_TOKEN" in pr["with"]["token"]
    dispatch = [s for s in merge["steps"] if "gh workflow run ci.yml" in s.get("run", "")]
    assert dispatch and "--ref automation/cuda-records" in dispatch[0]["run"]
    assert pr["with"]["branch"] == "automation/cuda-records"
    assert merge["permissions"]["actions"] == "write"
    assert "workflow_dispatch" in load(WORKFLOWS_DIR / "ci.yml")["on"]
    # ... and the run still fails when something is missing.
    last = merge["steps"][-1]
    assert "steps.summary.outputs.complete != 'true'" in last["if"] and "exit 1" in last["run"]


def test_deploy_uses_the_official_pages_actions_with_their_permissions() -> None:
    workflow = load(WORKFLOWS_DIR / "deploy.yml")
    assert workflow["permissions"]["pages"] == "write"
    assert workflow["permissions"]["id-token"] == "write"
    assert workflow["concurrency"]["group"]
    used = [step.get("uses", "").split("@")[0] for _, step in steps(workflow)]
    for action in ("actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"):
        assert action in used
    assert any("mkdocs build --strict" in step.get("run", "") for _, step in steps(workflow))
    assert workflow["jobs"]["deploy"]["environment"]["name"] == "github-pages"


def test_deploy_checks_out_the_history_the_decks_take_their_time_from() -> None:
    """With the default shallow checkout, every page looks touched by the one commit there is, so
    every deploy would stamp every card newer and Anki's import would overwrite readers' edits."""
    workflow = load(WORKFLOWS_DIR / "deploy.yml")
    (checkout,) = [step for _, step in steps(workflow)
                   if step.get("uses", "").startswith("actions/checkout@")]
    assert checkout.get("with", {}).get("fetch-depth") == 0
    assert not any("SOURCE_DATE_EPOCH" in str(step.get("env", {})) for _, step in steps(workflow))


def test_a_ci_job_builds_the_site_with_properdocs_and_compares() -> None:
    workflow = load(WORKFLOWS_DIR / "ci.yml")
    job = workflow["jobs"]["properdocs"]
    assert job["container"]["image"] == workflow["jobs"]["cpu"]["container"]["image"]
    runs = [step["run"].strip() for step in job["steps"] if "run" in step]
    assert runs == ["bash scripts/dev.sh setup", ".venv/bin/python scripts/check_generators.py"]
    assert "properdocs" in (ROOT / "scripts" / "check_generators.py").read_text(encoding="utf-8")
