#!/usr/bin/env bash
# The project's two entry points (the README's two commands), plus the set-up they share.
#
#   scripts/dev.sh serve   set everything up, record missing CPU outputs, serve on 127.0.0.1:8000
#   scripts/dev.sh test    set everything up and run every test (what .ci/run runs)
#   scripts/dev.sh setup   only the set-up
set -euo pipefail
cd "$(dirname "$0")/.."

export NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}

setup_python() {
  if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
  fi
  .venv/bin/python -m pip install --quiet --upgrade "pip==26.3"
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
    exec .venv/bin/mkdocs serve -a 127.0.0.1:8000
    ;;
  test)
    setup_python
    setup_browser
    setup_node
    .venv/bin/ruff check scripts tests
    .venv/bin/mypy   # over scripts/, as pyproject.toml says
    # The site's own JavaScript: type-checked from its JSDoc (tsconfig.json), linted
    # (eslint.config.mjs), and the progress rules unit-tested with node's test runner.
    node_modules/.bin/tsc --project tsconfig.json
    node_modules/.bin/eslint docs/assets/javascripts tests/js
    node --test tests/js/
    .venv/bin/python -m pytest
    ;;
  *)
    echo "usage: scripts/dev.sh serve|test|setup" >&2
    exit 2
    ;;
esac
