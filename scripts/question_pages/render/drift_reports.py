"""The committed drift reports (reports/drift/torch-X.json, written by `snippets.py drift`) on the
site: the "Upgrading torch" page, and a line under each snippet saying whether its output holds on
each compared torch.

A report is read, never re-computed here, so the site shows exactly what the maintainer ran and
committed, with its provenance.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from question_pages.render.snippet_blocks import fence
from snippet_engine.errors import ProjectError
from snippet_engine.records.drift_coverage import report_paths
from snippet_engine.records.pins import release
from snippet_engine.source.discovery import discover
from snippet_engine.source.options import parse_options

REPORT_DIR = "reports/drift"
PAGE = "upgrading-torch.md"  # docs-relative
SCHEMA = 1


class DriftReportError(ProjectError, ValueError):
    """A committed report that cannot be read: which file, what is wrong, how to fix it."""

    def __init__(self, path: Path, what: str, fix: str) -> None:
        super().__init__(f"{path}: {what}. {fix}")
        self.path, self.what, self.fix = path, what, fix


@dataclass(frozen=True)
class DriftReport:
    path: Path
    pinned: dict[str, str]
    compared: dict[str, str]
    generated: str
    counts: dict[str, int]
    snippets: dict[str, dict]  # by snippet path (snippets/...)

    @property
    def version(self) -> str:
        return release(self.compared["torch"])

    @property
    def anchor(self) -> str:
        return "drift-" + re.sub(r"[^0-9a-z]+", "-", self.version.lower()).strip("-")

    def snippet_anchor(self, snippet: str) -> str:
        return self.anchor + "-" + re.sub(r"[^0-9a-z]+", "-", snippet.lower()).strip("-")


@cache
def _load(path: Path, mtime_ns: int) -> DriftReport:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("schema") != SCHEMA:
            raise KeyError(f"schema {data.get('schema')!r}, expected {SCHEMA}")
        return DriftReport(path, data["pinned"], data["compared"], data["generated"],
                           data["counts"], {item["snippet"]: item for item in data["snippets"]})
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DriftReportError(path, f"not a drift report this site can read ({exc})",
                               "Re-create it: python scripts/snippets.py drift --torch "
                               "VERSION") from None


def load_reports(root: Path) -> list[DriftReport]:
    """Every committed report, oldest compared torch first."""
    folder = root / REPORT_DIR
    paths = report_paths(folder)
    reports = [_load(path, path.stat().st_mtime_ns) for path in paths]
    return sorted(reports, key=lambda r: [int(x) if x.isdigit() else x
                                          for x in re.split(r"[.+]", r.version)])


def snippet_notes(reports: list[DriftReport], snippet: str, link: str) -> str:
    """Markdown under a snippet: per compared torch, a note where its output differs (linking
    the diff on the Upgrading torch page, `link`), a quiet line where it does not."""
    parts = []
    for report in reports:
        item = report.snippets.get(snippet)
        if item is None:
            continue
        if item["class"] == "unchanged":
            parts.append(f"Same output on torch {report.version}.\n{{: .drift-same }}")
        elif item.get("only_torch_lines"):
            parts.append(f"Same output on torch {report.version}, except the line numbers of "
                         f"torch's own files ([diff]({link}#{report.snippet_anchor(snippet)})).\n"
                         "{: .drift-same }")
        else:
            parts.append(f'!!! note "On torch {report.version}: {item["class"]}"\n\n'
                         f"    Run on torch {report.version}, this snippet's outcome is "
                         f"*{item['now']}* where the pinned torch gives *{item['committed']}*: "
                         f"[see the diff]({link}#{report.snippet_anchor(snippet)}).")
    return "\n\n".join(parts)


def cpu_snippets(root: Path) -> list[str]:
    """Every snippet the bank records on CPU (snippets/...), as a drift run compares them."""
    found = []
    for snippet in discover(root):
        try:
            devices = parse_options(snippet.path).devices
        except ProjectError:
            continue  # check_pages reports it at its line
        if "cpu" in devices:
            found.append(snippet.rel)
    return found


def render_page(reports: list[DriftReport], page_link: dict[str, str],
                current: list[str] | None = None, sentences: dict[str, str] | None = None) -> str:
    """The body of the Upgrading torch page; `page_link[page uri]` links a question page.
    `current`: the bank's CPU snippets now, so that snippets added after a report was made are
    counted as not compared yet rather than covered by "every snippet". `sentences[version]`: the
    pages' tied sentences that do not hold on that torch (render.drift_ties), listed first."""
    if not reports:
        return ("No torch release has been compared yet. A maintainer runs "
                "`python scripts/snippets.py drift --torch VERSION` and commits the report.")
    out = []
    for report in reports:
        pinned = report.pinned
        day = report.generated.split("T")[0]
        out += [f"## torch {report.version} {{#{report.anchor}}}", "",
                f"Every CPU snippet the site had on {day} ({len(report.snippets)}) ran on torch "
                f"{report.compared['torch']} (Python {report.compared['python']}, "
                f"{report.compared['hardware']}) and was compared with its committed record from "
                f"the pinned torch {pinned['torch']}.", ""]
        later = [s for s in current or [] if s not in report.snippets]
        if later:
            out += [f"{len(later)} snippet{'s' if len(later) > 1 else ''} added since "
                    f"{'have' if len(later) > 1 else 'has'} not been compared with torch "
                    f"{report.version} yet: a maintainer runs `python scripts/snippets.py drift "
                    f"--torch {report.version}` and commits the report.", ""]
        out += ["| what happened | snippets |", "|---|---|"]
        out += [f"| {klass} | {count} |" for klass, count in report.counts.items()]
        if sentences is not None and report.version in sentences:
            out += ["", f"### Tied sentences on torch {report.version} "
                        f"{{#{report.anchor}-sentences}}", "", sentences[report.version]]
        # Each changed snippet once, under the first page that shows it.
        by_page: dict[str, list[dict]] = {}
        for item in report.snippets.values():
            if item["class"] != "unchanged":
                by_page.setdefault((item["pages"] or [""])[0], []).append(item)
        if not by_page:
            out += ["", f"Every snippet prints on torch {report.version} what it prints on the "
                        "pinned torch."]
        for page in sorted(by_page, key=lambda uri: (uri not in page_link, uri)):
            title = page_link.get(page)
            out += ["", f"### {title if title else 'Snippets on no page'}", ""]
            for item in sorted(by_page[page], key=lambda i: i["snippet"]):
                anchor = report.snippet_anchor(item["snippet"])
                also = [page_link[p] for p in item["pages"][1:] if p in page_link]
                moved = " (only torch's line numbers)" if item.get("only_torch_lines") else ""
                out += [f"#### `{item['snippet']}`: {item['class']}{moved} {{#{anchor}}}", "",
                        f"Pinned torch: *{item['committed']}*; torch {report.version}: "
                        f"*{item['now']}*." + (f" Also shown on {', '.join(also)}." if also else ""),
                        ""]
                if item["message"]:
                    out += [fence(item["message"], "text"), ""]
                if item["diff"]:
                    out += [fence(item["diff"], "diff"), ""]
    return "\n".join(out).rstrip() + "\n"
