"""Syntax colours as ranges over a code block's text, not as one element per token.

Pygments (through pymdownx.highlight) wraps every token of a code block in a `<span>`: a page's
snippets came to about 2,000 such elements, three quarters of the heaviest page's DOM. Lighthouse
measured what they cost on a phone: the first style and layout of those elements was most of the
page's blocking time (performance 88 with them, 96 to 98 without; `scripts/page_figures.py`).

So a built page keeps a code block's text as plain text, and the token classes go into one
attribute of its `<code>`, `data-tokens`: `code-colours.js` turns them into CSS Custom Highlight
ranges (`CSS.highlights`), painted by `::highlight(code-...)` rules in site.css with Material's own
colour variables. The colours need no element, so the reader sees the same colours in both
schemes, the copy button and find-in-page see the same text, and a browser without the API (or
without JavaScript) shows the code in the code colour, still readable.

What is left as elements: spans Material styles with more than a colour (a highlighted line, a
diff's inserted or deleted text), and anything that is not a plain token span. Tokens Material
paints in the code's own colour (names, whitespace, keyword constants) and classes it does not
style at all get no range: they already look like the text around them.

The attribute holds one entry per coloured run, `<group letter><gap>.<length>`, separated by
spaces: the gap is the number of characters since the end of the previous run (from the start of
the text for the first), both counted in UTF-16 code units as JavaScript counts a string.
Neighbouring tokens of one group make one run.
"""

from __future__ import annotations

import html as html_lib
import re

from pygments.token import STANDARD_TYPES  # type: ignore[import-untyped]

# Material for MkDocs' colour for each Pygments class, as its main stylesheet sets them
# (`.highlight .k { color: var(--md-code-hl-keyword-color) }` and so on); a test reads the
# installed stylesheet and compares. The letter is the group's name in `data-tokens`.
GROUP_LETTERS = {"keyword": "k", "string": "s", "special": "x", "number": "m", "comment": "c",
                 "constant": "b", "function": "f", "variable": "v", "generic": "g",
                 "operator": "o", "punctuation": "p"}
_CLASSES = {
    "keyword": "k kd kn kp kr kt nd ni nl nt",
    "string": "cpf l s s1 s2 sb sc si ss",
    "special": "cp se sh sr sx",
    "number": "il m mb mf mh mi mo",
    "comment": "c c1 ch cm cs sd",
    "constant": "bp nb no",
    "function": "nc ne nf nn",
    "variable": "na nv vc vg vi",
    "generic": "ge gh go gp gr gs gt gu",
    "operator": "o ow",
    "punctuation": "p",
}
CLASS_GROUP = {cls: group for group, names in _CLASSES.items() for cls in names.split()}
# Styled with more than a colour (a background, padding): they stay elements.
KEEP = frozenset({"gd", "gi"})
# Every class Pygments gives a token. Those with no group above are painted in the code's own
# colour (names, whitespace, keyword constants: --md-code-hl-name-color is --md-code-fg-color in
# both schemes) or not styled at all. A span of any other class (a highlighted line, `hll`) stays.
TOKEN_CLASSES = frozenset(STANDARD_TYPES.values()) - {""} - KEEP

_BLOCK = re.compile(r"(<pre\b[^>]*>(?:<span></span>)?<code)([^>]*)>(.*?)(</code></pre>)", re.S)
_PART = re.compile(r'<span class="([a-z0-9]+)">|</span>|<[^>]*>|[^<]+')


def _units(text: str) -> int:
    """Length in UTF-16 code units: JavaScript's string length, which the browser's offsets use."""
    return len(text.encode("utf-16-le")) // 2


class UnexpectedMarkup(ValueError):
    """A code block holds markup this transform does not know how to keep; it is left alone."""


def _strip(inner: str) -> tuple[str, list[tuple[str, int, int]]]:
    """The code's markup without its colour-only spans, and each coloured run (group, start, end)."""
    out: list[str] = []
    runs: list[tuple[str, int, int]] = []
    stack: list[str | None] = []  # per open span: its group when dropped ("" if plain), else None
    offset = 0
    start = 0
    for match in _PART.finditer(inner):
        part, cls = match.group(0), match.group(1)
        if cls is not None and cls in TOKEN_CLASSES:
            if any(entry is not None for entry in stack):
                raise UnexpectedMarkup(f"a token span inside another token: {part}")
            stack.append(CLASS_GROUP.get(cls, ""))
            start = offset
        elif part == "</span>":
            if not stack:
                raise UnexpectedMarkup("a closing </span> with no opening one")
            group = stack.pop()
            if group is None:
                out.append(part)
            elif group and offset > start:
                if runs and runs[-1][0] == group and runs[-1][2] == start:
                    runs[-1] = (group, runs[-1][1], offset)
                else:
                    runs.append((group, start, offset))
        elif part.startswith("<"):
            out.append(part)
            if part.startswith("<span"):
                stack.append(None)
            elif not part.startswith("</") and not part.endswith("/>") and part[1:3] != "br":
                raise UnexpectedMarkup(f"an element other than a span: {part[:40]}")
        else:
            out.append(part)
            offset += _units(html_lib.unescape(part))
    if stack:
        raise UnexpectedMarkup("a span left open")
    return "".join(out), runs


def encode(runs: list[tuple[str, int, int]]) -> str:
    """`data-tokens`' value: `<letter><gap>.<length>` per run (see the module's docstring)."""
    entries, end = [], 0
    for group, start, stop in runs:
        entries.append(f"{GROUP_LETTERS[group]}{start - end}.{stop - start}")
        end = stop
    return " ".join(entries)


def decode(value: str) -> list[tuple[str, int, int]]:
    """The runs back from `data-tokens` (what code-colours.js does in the browser)."""
    letters = {letter: group for group, letter in GROUP_LETTERS.items()}
    runs, end = [], 0
    for entry in value.split():
        gap, length = entry[1:].split(".")
        start = end + int(gap)
        end = start + int(length)
        runs.append((letters[entry[0]], start, end))
    return runs


def colours_as_ranges(page_html: str) -> str:
    """Every highlighted code block of a page with its token spans moved into `data-tokens`.
    A block whose markup is not what Pygments writes is left exactly as it was."""
    def one(match: re.Match[str]) -> str:
        head, attrs, inner, tail = match.groups()
        if "data-tokens" in attrs or "<span" not in inner:
            return match.group(0)
        try:
            stripped, runs = _strip(inner)
        except UnexpectedMarkup:
            return match.group(0)
        return f'{head}{attrs} data-tokens="{encode(runs)}">{stripped}{tail}'
    return _BLOCK.sub(one, page_html)
