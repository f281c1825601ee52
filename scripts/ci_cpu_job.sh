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

STEPS=(setup check verify drift test build)

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

step_verify() {
  # Every CPU snippet whose record this submission changed, re-run and compared with its record:
  # a record's digest catches an output edited by hand, this catches one whose digest was
  # rewritten too. The base is VERIFY_SINCE (the workflow gives the pull request's base or the
  # commit before the push), else where HEAD left origin/main. With neither (a first push, a
  # clone without origin), it says so: the drift step below re-runs every snippet anyway.
  local since=${VERIFY_SINCE:-}
  if [ -z "$since" ] || ! git rev-parse --verify --quiet "$since^{commit}" >/dev/null; then
    since=$(git merge-base HEAD origin/main 2>/dev/null || true)
  fi
  if [ -z "$since" ]; then
    echo "verify: no base commit to compare with (VERIFY_SINCE='${VERIFY_SINCE:-}', no" \
         "origin/main); the drift step re-runs every snippet instead" >&2
    return 0
  fi
  .venv/bin/python scripts/snippets.py verify-changed --since "$since" --device cpu --progress never
}

step_drift() {
  # The whole bank, three ways: re-executed in place by warm workers, again with a fresh python
  # per snippet (--fresh), and, in a scratch copy at another path, under a second CPU capability
  # (`verify --cpu-capability second`: AVX2 on an AVX-512 runner, its own on an AVX2 one; a
  # record must not depend on the CPU that made it). Any record that then says something else
  # fails. (The test command compares only the snippets a change touched and one of each kind,
  # so that it stays fast as the bank grows; this is the rest.) The records are compared with a
  # copy taken just before the runs, not with git HEAD, so that a local run judges the working
  # tree; on CI's fresh checkout the two are the same thing.
  SNAPSHOT=$(mktemp -d)
  trap 'rm -rf "$SNAPSHOT"' EXIT
  cp -a snippets "$SNAPSHOT/"
  local way
  for way in warm fresh; do
    case $way in
      warm) .venv/bin/python scripts/snippets.py run --force --device cpu --progress never ;;
      fresh) .venv/bin/python scripts/snippets.py run --force --fresh --device cpu --progress never ;;
    esac
    if ! diff -ru -x __pycache__ -x '*.pyc' "$SNAPSHOT/snippets" snippets; then
      echo "The CPU records above changed when re-executed ($way): a snippet's output is not" \
           "what its committed record says. Re-run it, check the new output, and commit the" \
           "record." >&2
      return 1
    fi
  done
  # Records nothing: each snippet's output, run elsewhere on another CPU, against its record
  # (the list names each that differs and its first differing line).
  if ! .venv/bin/python scripts/snippets.py verify --cpu-capability second --device cpu \
      --progress never; then
    echo "The CPU records above are not what their snippets print at another path or on another" \
         "CPU (verify --cpu-capability second PATH tells which): print fewer float32 digits" \
         "where the vector width decides them (round, a format), say why in the snippet, and" \
         "re-record it." >&2
    return 1
  fi
}

step_test() {
  # The same command as .ci/run: ruff, mypy, then every test (browser tests included).
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
