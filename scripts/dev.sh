#!/usr/bin/env bash
# The project's two entry points (the README's two commands), plus the set-up they share.
#
#   scripts/dev.sh serve   set everything up, record missing CPU outputs, serve on 127.0.0.1:8000
#   scripts/dev.sh test    set everything up and run every test (what .ci/run runs)
#   scripts/dev.sh setup   only the set-up
set -euo pipefail
cd "$(dirname "$0")/.."

export NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
# The Python the records are made with: its major.minor is in every record's cache key, so any
# other one would call every record stale and re-record the bank. Never fall back to python3.
RECORDS_PYTHON=3.11

python_minor() {  # the major.minor of interpreter $1, or nothing if it does not run
  "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true
}

refuse_python() {
  echo "scripts/dev.sh: $1" >&2
  echo "The records are made with Python $RECORDS_PYTHON (its version is in every record's cache key)." >&2
  echo "Install python$RECORDS_PYTHON (Debian/Ubuntu: apt-get install python$RECORDS_PYTHON python$RECORDS_PYTHON-venv," >&2
  echo "or https://www.python.org/downloads/), or point PYTHON at one: PYTHON=/path/to/python$RECORDS_PYTHON scripts/dev.sh ..." >&2
  exit 2
}

choose_python() {
  if [ -n "${PYTHON:-}" ]; then
    command -v "$PYTHON" >/dev/null || refuse_python "PYTHON=$PYTHON is not an interpreter that runs here."
  else
    PYTHON=$(command -v "python$RECORDS_PYTHON" || true)
    [ -n "$PYTHON" ] || refuse_python "no python$RECORDS_PYTHON on PATH (another python3 is not used)."
  fi
  local have
  have=$(python_minor "$PYTHON")
  [ "$have" = "$RECORDS_PYTHON" ] || refuse_python "$PYTHON is Python ${have:-(did not run)}, not $RECORDS_PYTHON."
}

setup_python() {
  if [ -x .venv/bin/python ]; then
    local have
    have=$(python_minor .venv/bin/python)
    [ "$have" = "$RECORDS_PYTHON" ] || refuse_python ".venv was made with Python ${have:-(does not run)}, not $RECORDS_PYTHON. Remove it (rm -rf .venv) and run this again."
  else
    choose_python
    "$PYTHON" -m venv .venv
  fi
  .venv/bin/python -m pip install --quiet --upgrade "pip==26.3"
  # Compiled as pip installs (not --no-compile): a snippet's writes into the checkout, .venv's
  # __pycache__ included, stay in its own overlay (snippet_engine.execution.namespaces), so a
  # module left uncompiled can be compiled again by each snippet that imports it (a fresh-clone
  # run with --no-compile was 73% through at 21 minutes where one without it was 62% at 12).
  .venv/bin/python -m pip install --quiet -r requirements-dev.txt -c constraints.txt
  # Nothing may have pulled in another torch than the pinned one.
  .venv/bin/python - <<'PY'
import importlib.metadata as md, re, sys
pinned = re.search(r"^torch==(\S+)", open("requirements.txt").read(), re.M).group(1)
have = md.version("torch").split("+")[0]
sys.exit(0 if have == pinned else f"torch {have} is installed, but requirements.txt pins {pinned}")
PY
}

setup_browser() {
  # Debian's Chromium for the browser tests; a test tool's own browser download cannot work here.
  if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  fi
}

ensure_npm() {
  # Node 18.16 or later (Lighthouse; ts-fsrs wants 20): Debian's nodejs when the machine has no npm.
  if ! command -v npm >/dev/null; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
  fi
}

setup_node() {
  # Every Node tool of the tests (Lighthouse, TypeScript, ESLint) and the packages the site ships
  # (ts-fsrs), exactly as pinned in package-lock.json.
  ensure_npm
  npm ci --no-audit --no-fund --loglevel=error
}

setup_site_js() {
  # Only the packages the site ships (ts-fsrs; the build copies its browser file from
  # node_modules/), when they are missing or not the pinned version: enough for `serve`.
  local want have
  want=$(sed -n 's/^ *"ts-fsrs": "\(.*\)".*/\1/p' package.json | head -n 1)
  have=$(sed -n 's/^ *"version": "\(.*\)".*/\1/p' node_modules/ts-fsrs/package.json 2>/dev/null | head -n 1 || true)
  if [ "$want" != "$have" ]; then
    ensure_npm
    npm ci --omit=dev --no-audit --no-fund --loglevel=error
  fi
}

case "${1:-}" in
  setup)
    setup_python
    setup_browser
    ;;
  serve)
    setup_python
    setup_site_js
    .venv/bin/python scripts/snippets.py run   # records only what is missing or stale
    # --dirty: a snippet save rebuilds only the pages that show it (scripts/mkdocs_hooks.py);
    # any other change still rebuilds every page.
    exec .venv/bin/mkdocs serve --dirty -a 127.0.0.1:8000
    ;;
  test)
    setup_python
    setup_browser
    setup_node
    .venv/bin/ruff check scripts tests
    # mypy (over scripts/, as pyproject.toml says) on one core while the JavaScript checks take the
    # other: `wait` fails the command if mypy did.
    .venv/bin/mypy &
    mypy_pid=$!
    # The site's own JavaScript: type-checked from its JSDoc (tsconfig.json), linted
    # (eslint.config.mjs), and its logic (progress rules, syntax colours) unit-tested with node --test.
    node_modules/.bin/tsc --project tsconfig.json
    node_modules/.bin/eslint docs/assets/javascripts tests/js
    node --test tests/js/
    wait "$mypy_pid"
    .venv/bin/python -m pytest
    ;;
  *)
    echo "usage: scripts/dev.sh serve|test|setup" >&2
    exit 2
    ;;
esac
