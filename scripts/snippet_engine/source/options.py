"""Parse the `#|` option lines at the top of a snippet (the Quarto/knitr cell-option convention).

Options live in the snippet itself so that the file stays a plain script and its options are part
of its source hash: changing an option re-runs the snippet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from snippet_engine.errors import ProjectError

DEVICES = ("cpu", "cuda")
DEFAULT_TIMEOUT_S = 300.0
KNOWN = ("expect", "timeout", "devices", "fresh")


class SnippetOptionError(ProjectError, ValueError):
    """A `#|` line that cannot be understood; the message names the file and line."""


@dataclass(frozen=True)
class SnippetOptions:
    expect: str | None = None
    timeout: float = DEFAULT_TIMEOUT_S
    devices: tuple[str, ...] = DEVICES
    fresh: bool = False
    lines: dict[str, int] = field(default_factory=dict, compare=False)


def _fail(path: Path, lineno: int, what: str, fix: str) -> SnippetOptionError:
    return SnippetOptionError(f"{path}:{lineno}: {what}. {fix}")


def parse_options(path: Path, source: str | None = None) -> SnippetOptions:
    """Read the leading block of `#|` lines; the first other non-blank line ends it."""
    text = path.read_text(encoding="utf-8") if source is None else source
    values: dict[str, object] = {}
    lines: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if lineno == 1 and stripped.startswith("#!"):
            continue
        if not stripped.startswith("#|"):
            if stripped:
                break
            continue
        body = stripped[2:].strip()
        key, sep, value = body.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise _fail(path, lineno, f"option line '{raw.strip()}' is not 'key: value'",
                        "Write it as '#| key: value', e.g. '#| timeout: 60'")
        if key not in KNOWN:
            raise _fail(path, lineno, f"unknown option '{key}'",
                        f"Known options: {', '.join(KNOWN)}")
        if key in values:
            raise _fail(path, lineno, f"option '{key}' is given twice (first on line {lines[key]})",
                        "Keep one")
        lines[key] = lineno
        if key == "expect":
            if not value or not all(part.isidentifier() for part in value.split(".")):
                raise _fail(path, lineno, f"expect '{value}' is not an exception class name",
                            "Give a class name such as RuntimeError or a dotted path such as "
                            "torch._dynamo.exc.UserError")
            values[key] = value
        elif key == "timeout":
            try:
                seconds = float(value)
            except ValueError:
                seconds = -1.0
            if not seconds > 0:
                raise _fail(path, lineno, f"timeout '{value}' is not a positive number of seconds",
                            "Write e.g. '#| timeout: 120'")
            values[key] = seconds
        elif key == "devices":
            devices = tuple(d.strip() for d in value.split(",") if d.strip())
            bad = [d for d in devices if d not in DEVICES]
            if not devices or bad:
                raise _fail(path, lineno, f"devices '{value}' names an unknown device",
                            f"Use a comma-separated subset of: {', '.join(DEVICES)}")
            values[key] = tuple(d for d in DEVICES if d in devices)
        elif key == "fresh":
            if value.lower() not in ("true", "false"):
                raise _fail(path, lineno, f"fresh '{value}' is not true or false",
                            "Write '#| fresh: true'")
            values[key] = value.lower() == "true"
    return SnippetOptions(lines=lines, **values)  # type: ignore[arg-type]
