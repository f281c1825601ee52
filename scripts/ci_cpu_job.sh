#!/usr/bin/env bash
# The CI CPU job (.github/workflows/ci.yml), step by step, so it runs the same way on a laptop.
#
#   scripts/ci_cpu_job.sh          every step, in the workflow's order; stops at the first failure
#   scripts/ci_cpu_job.sh STEP     one step (the workflow calls each as its own step, for the log)
#   scripts/ci_cpu_job.sh steps    print the step names in order (tests compare them to ci.yml)
#
# The workflow runs exactly these steps, in this order; tests/test_workflows.py keeps them in step.
set -euo pipefail
cd "$(dirname "$0")/.."

STEPS=(setup check drift test build)

export NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
# requirements.txt pins torch==2.13.0 exactly; with the CPU index beside PyPI that pin resolves to
# 2.13.0+cpu (a local version sorts after the plain one), so CI never downloads the CUDA build.
export PIP_EXTRA_INDEX_URL=${PIP_EXTRA_INDEX_URL:-https://download.pytorch.org/whl/cpu}

step_setup() {
  # .venv from requirements-dev.txt + constraints.txt, the torch pin checked, Chromium present.
  bash scripts/dev.sh setup
}

step_check() {
  # Executes nothing: every CPU record present and current (CUDA problems are listed only).
  .venv/bin/python scripts/snippets.py check
}

step_drift() {
  # Re-executes every CPU snippet and fails if any record now says something else. The records are
  # compared with a copy taken just before the run, not with git HEAD, so that a local run judges
  # the working tree; on CI's fresh checkout the two are the same thing.
  SNAPSHOT=$(mktemp -d)
  trap 'rm -rf "$SNAPSHOT"' EXIT
  cp -a snippets "$SNAPSHOT/"
  .venv/bin/python scripts/snippets.py run --force --device cpu --progress never
  if ! diff -ru -x __pycache__ -x '*.pyc' "$SNAPSHOT/snippets" snippets; then
    echo "The CPU records above changed when re-executed: a snippet's output is not what its" \
         "committed record says. Re-run it, check the new output, and commit the record." >&2
    return 1
  fi
}

step_test() {
  # The same command as .ci/run: ruff, then every test (browser tests included).
  bash scripts/dev.sh test
}

step_build() {
  .venv/bin/mkdocs build --strict
}

case "${1:-all}" in
  all)
    for step in "${STEPS[@]}"; do
      echo "==> scripts/ci_cpu_job.sh $step" >&2
      "step_$step"
    done
    echo "==> the CPU job passed: ${STEPS[*]}" >&2
    ;;
  steps)
    printf '%s\n' "${STEPS[@]}"
    ;;
  *)
    if [[ " ${STEPS[*]} " != *" $1 "* ]]; then
      echo "usage: scripts/ci_cpu_job.sh [all | steps | one of: ${STEPS[*]}]" >&2
      exit 2
    fi
    "step_$1"
    ;;
esac
