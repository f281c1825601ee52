"""Token spans moved into `data-tokens` (question_pages/render/code_colours.py): the text is unchanged,
every coloured token is one run of its group, and the group table is Material's own."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import markdown
import material
import pytest

from helpers import ROOT
from question_pages.render.code_colours import (
    CLASS_GROUP,
    GROUP_LETTERS,
    KEEP,
    TOKEN_CLASSES,
    colours_as_ranges,
    decode,
)

SOURCE = '''\
import torch  # a comment with <, & and "quotes"

@torch.compile(fullgraph=True)
def f(x: torch.Tensor) -> torch.Tensor:
    """Docstring: 🔥 counts as two UTF-16 units."""
    return x * 2.5 + len("ab\\n") if x is not None else None  # 🔥 again
'''


def _render(source: str, options: str = "") -> str:
    """What pymdownx.highlight writes for a fenced block, as the site's build configures it."""
    fence = f"```python{(' ' + options) if options else ''}\n{source}```\n"
    return markdown.markdown(fence, extensions=["pymdownx.highlight", "pymdownx.superfences"])


def _code(html: str) -> str:
    match = re.search(r"<code[^>]*>(.*?)</code>", html, re.S)
    assert match, html
    return match.group(1)


def _text(inner: str) -> str:
    return html_lib.unescape(re.sub(r"<[^>]+>", "", inner))


def _runs_as_text(page_html: str) -> list[tuple[str, str]]:
    """(group, text) for each run of `data-tokens`, cut out of the block's new plain text with
    UTF-16 offsets, as the browser cuts them."""
    attrs = re.search(r'<code[^>]*data-tokens="([^"]*)"', page_html)
    assert attrs, page_html
    text16 = _text(_code(page_html)).encode("utf-16-le")
    return [(group, text16[2 * start:2 * end].decode("utf-16-le"))
            for group, start, end in decode(attrs.group(1))]


def _spans_by_group(inner: str) -> list[tuple[str, str]]:
    """Each coloured span's (group, text) in order, neighbours of one group with nothing between
    them joined into one (as the transform joins them)."""
    out: list[tuple[str, str]] = []
    last_end = None
    position = 0
    for part in re.finditer(r'<span class="([a-z0-9]+)">([^<]*)</span>|<[^>]+>|[^<]+', inner):
        cls, text = part.group(1), part.group(2)
        if cls is None:
            if not part.group(0).startswith("<"):
                position += len(html_lib.unescape(part.group(0)))
            continue
        plain = html_lib.unescape(text)
        group = CLASS_GROUP.get(cls) if cls in TOKEN_CLASSES else None
        if group and plain:
            if out and out[-1][0] == group and last_end == position:
                out[-1] = (group, out[-1][1] + plain)
            else:
                out.append((group, plain))
            last_end = position + len(plain)
        position += len(plain)
    return out


@pytest.mark.parametrize("options", ["", 'hl_lines="2 3"'])
def test_the_text_is_unchanged_and_each_coloured_token_is_a_run(options: str) -> None:
    before_html = _render(SOURCE, options)
    after_html = colours_as_ranges(before_html)
    assert _text(_code(after_html)) == _text(_code(before_html)) == SOURCE
    expected = _spans_by_group(_code(before_html))
    assert expected, "the sample must have coloured tokens"
    assert _runs_as_text(after_html) == expected
    # Strings, numbers, a comment and the 🔥 after a non-BMP character land where they should.
    got = dict((text, group) for group, text in _runs_as_text(after_html))
    assert got.get("# 🔥 again") == "comment" and got.get("2.5") == "number"
    assert got.get("import") == "keyword" and got.get('"ab') == "string"


def test_only_spans_with_more_than_a_colour_stay() -> None:
    before_html = _render(SOURCE, 'hl_lines="2"')
    after_html = colours_as_ranges(before_html)
    classes = re.findall(r'<span class="([a-z0-9]+)"', _code(after_html))
    assert classes == ["hll"], classes  # the highlighted line stays an element; no token span does
    assert _code(before_html).count("<span") > 40


def test_markup_it_does_not_know_is_left_alone() -> None:
    odd = ('<div class="highlight"><pre><span></span><code><span class="k">import</span> '
           '<a href="#x">torch</a></code></pre></div>')
    assert colours_as_ranges(odd) == odd
    nested = ('<pre><span></span><code><span class="k">a<span class="n">b</span></span>'
              '</code></pre>')
    assert colours_as_ranges(nested) == nested
    plain = "<pre><code>no spans at all</code></pre>"
    assert colours_as_ranges(plain) == plain


def test_the_groups_are_materials_own() -> None:
    """Each class's group is the colour variable Material's stylesheet gives it; a class Material
    styles with more than a colour stays an element; every group has a ::highlight rule."""
    css = next((Path(material.__file__).parent / "templates" / "assets" / "stylesheets")
               .glob("main.*.min.css")).read_text()
    colour_of: dict[str, str] = {}
    other: set[str] = set()
    for selectors, body in re.findall(r"([^{}]*\.highlight \.[a-z0-9]+[^{}]*)\{([^}]*)\}", css):
        classes = re.findall(r"\.highlight \.([a-z0-9]+)(?![\w-])", selectors)
        colour = re.fullmatch(r"color:var\(--md-code-hl-([a-z]+)-color\)", body)
        for cls in classes:
            if colour:
                colour_of[cls] = colour.group(1)
            else:
                other.add(cls)
    assert colour_of, "Material's stylesheet has no .highlight rules: was it restructured?"
    for cls, var in colour_of.items():
        if var == "name":  # --md-code-hl-name-color is the code's own colour: no range needed
            assert cls not in CLASS_GROUP, cls
        else:
            assert CLASS_GROUP.get(cls) == var, (cls, var)
    assert set(CLASS_GROUP) <= set(colour_of)
    assert other - {"hll"} == set(KEEP), other
    site_css = (ROOT / "docs" / "assets" / "stylesheets" / "site.css").read_text()
    for group in GROUP_LETTERS:
        assert re.search(rf"::highlight\(code-{group}\)\s*\{{\s*color:\s*var\(--md-code-hl-{group}-color\)",
                         site_css), group
    js = (ROOT / "docs" / "assets" / "javascripts" / "code-colours.js").read_text()
    for group, letter in GROUP_LETTERS.items():
        assert f'{letter}: "{group}"' in js, (letter, group)
