"""Build the site with MkDocs and with ProperDocs, and fail unless both give the same site.

MkDocs 1.x is unmaintained (Material's own notice gives its end of life as 2027-05-05), and
ProperDocs is its maintained 1.x continuation, a drop-in replacement: `properdocs build` reads the
same mkdocs.yml, loads the same theme, plugins and hooks (it answers their `import mkdocs...` with
its own modules). This keeps the way out open: CI runs it (.github/workflows/ci.yml, job
`properdocs`), and tests/test_check_generators.py runs the same comparison in the test command.

Both live in the project's one venv: properdocs is pinned in requirements-dev.txt (and
mkdocs-redirects already requires it), and `python -m properdocs` does not touch the `mkdocs`
package. What must be the same:

- the set of HTML pages;
- every page's main content (Material's <article>: the question, its answers, the snippets and
  their records); the <head> may differ (the generator's name is in a <meta>);
- every other file the build writes (questions.json, the decks, the notebooks, the sitemap, the
  theme's assets), byte for byte, except the search index, which a search step makes from the
  built HTML, whatever made it: that both builds have one is all that is compared.

    .venv/bin/python scripts/check_generators.py [--keep DIR]

exits 1 with each difference, or prints what it compared.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATORS = {"mkdocs": "mkdocs", "properdocs": "properdocs"}  # name: the module `python -m` runs
SEARCH_DIRS = ("search", "pagefind")  # a search index, made from the built HTML: present or not
_ARTICLE = re.compile(r'<article class="md-content__inner[^"]*"[^>]*>(.*)</article>', re.DOTALL)
_GENERATOR = re.compile(r'<meta name="generator" content="([^"]*)"')


def build(generator: str, dest: Path, root: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m <generator> build --strict` of the site at root, into dest."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
    return subprocess.run(
        [sys.executable, "-m", GENERATORS[generator], "build", "--strict",
         "-f", str(root / "mkdocs.yml"), "-d", str(dest)],
        capture_output=True, text=True, env=env, cwd=root, timeout=900, check=False)


def generator_of(page: Path) -> str:
    """What the page's <meta name="generator"> says made it ('' when it says nothing)."""
    found = _GENERATOR.search(page.read_text(encoding="utf-8"))
    return found.group(1) if found else ""


def main_content(html: str) -> str | None:
    """The page's <article> (Material's main content), or None when it has none."""
    found = _ARTICLE.search(html)
    return found.group(1) if found else None


def _files(site: Path) -> set[str]:
    """Every file of a built site but the search index's (module docstring)."""
    return {rel for p in site.rglob("*") if p.is_file()
            if not (rel := p.relative_to(site).as_posix()).startswith(
                tuple(d + "/" for d in SEARCH_DIRS))}


def _first_difference(first: str, second: str) -> str:
    diff = difflib.unified_diff(first.splitlines(), second.splitlines(), lineterm="", n=0)
    lines = [line for line in diff if not line.startswith(("---", "+++"))]
    return "\n      ".join(lines[:6])


def compare_sites(first: Path, second: Path, names: tuple[str, str] = ("first", "second")
                  ) -> list[str]:
    """Every way the two built sites differ (module docstring), as lines for a reader."""
    problems = []
    files = {name: _files(site) for name, site in zip(names, (first, second), strict=True)}
    for name, other in (names, names[::-1]):
        for rel in sorted(files[name] - files[other]):
            problems.append(f"{rel}: only the {name} build wrote it")
    for folder in SEARCH_DIRS:
        has = [(site / folder).is_dir() for site in (first, second)]
        if has[0] != has[1]:
            problems.append(f"{folder}/: only the {names[has.index(True)]} build wrote a search "
                            "index there")
    for rel in sorted(files[names[0]] & files[names[1]]):
        a, b = (first / rel).read_bytes(), (second / rel).read_bytes()
        if a == b:
            continue
        if rel.endswith(".html"):
            mains = [main_content(x.decode("utf-8")) for x in (a, b)]
            if mains[0] != mains[1]:
                problems.append(f"{rel}: the main content differs\n      "
                                + _first_difference(mains[0] or "", mains[1] or ""))
        else:
            problems.append(f"{rel}: the bytes differ")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="build into DIR/mkdocs and DIR/properdocs and "
                        "keep them (default: a temporary folder, removed)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="generators-") as scratch:
        out = args.keep or Path(scratch)
        sites = {}
        for generator in GENERATORS:
            sites[generator] = out / generator
            done = build(generator, sites[generator])
            if done.returncode != 0:
                print(f"`{generator} build --strict` failed:\n{done.stderr[-4000:]}", file=sys.stderr)
                return 1
        made_by = generator_of(sites["properdocs"] / "index.html")
        if "ProperDocs" not in made_by:
            print(f"the ProperDocs build says it was made by '{made_by}'", file=sys.stderr)
            return 1
        problems = compare_sites(sites["mkdocs"], sites["properdocs"], ("mkdocs", "properdocs"))
        if problems:
            print("ProperDocs builds another site than MkDocs:\n  " + "\n  ".join(problems),
                  file=sys.stderr)
            return 1
        pages = sorted(p for p in _files(sites["mkdocs"]) if p.endswith(".html"))
        print(f"Same site from {generator_of(sites['mkdocs'] / 'index.html')} and {made_by}: "
              f"{len(pages)} pages with the same main content, "
              f"{len(_files(sites['mkdocs'])) - len(pages)} other files byte for byte the same.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
