"""Rendering a page: a link between two questions shows on both pages, whichever one's front
matter names it (issue 35 asked for related links both ways); a tied output line is numbered as
the highlighted block numbers it (render/snippet_blocks.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import write
from question_pages.format.parse import parse_page
from question_pages.render.page import BACKLINKS, listed_by, related_block
from question_pages.render.snippet_blocks import shown_lines


def _page(root: Path, page_id: str, related: list[str]):
    path = write(root, f"docs/{page_id}.md", f'---\nquestion: "{page_id}?"\nrelated: [{", ".join(related)}]\n'
                 "---\n\n## Short answer\n\nx\n")
    return parse_page(path, root / "docs")


def test_a_page_lists_its_own_related_then_those_that_list_it(tmp_path: Path) -> None:
    kv = _page(tmp_path, "llm/kv-cache", ["llm/rope", "export/kv-cache-decoder"])
    rope = _page(tmp_path, "llm/rope", ["llm/kv-cache"])
    export = _page(tmp_path, "export/kv-cache-decoder", [])
    guards = _page(tmp_path, "compile/guards", ["export/kv-cache-decoder", "llm/kv-cache"])
    back = listed_by([kv, rope, export, guards])
    assert back == {"llm/rope": ["llm/kv-cache"],
                    "export/kv-cache-decoder": ["compile/guards", "llm/kv-cache"],
                    "llm/kv-cache": ["compile/guards", "llm/rope"]}
    titles = {"llm/kv-cache": "KV?", "compile/guards": "Guards?", "llm/rope": "RoPE?"}
    # The export page lists nothing itself, yet shows both pages that list it, linked from its folder.
    block = related_block(export, titles, back["export/kv-cache-decoder"])
    assert block.count("- [") == 2
    assert "- [Guards?](../compile/guards.md)" in block and "- [KV?](../llm/kv-cache.md)" in block
    # Its own first, in its order; a page listed both ways appears once.
    block = related_block(kv, titles, back["llm/kv-cache"])
    items = [line for line in block.split("\n") if line.startswith("- [")]
    assert items == ["- [RoPE?](rope.md)", "- [export/kv-cache-decoder](../export/kv-cache-decoder.md)",
                     "- [Guards?](../compile/guards.md)"]


def test_a_tied_line_is_numbered_as_the_highlighted_block_numbers_it() -> None:
    # A record that starts with blank lines: Pygments drops them, so the highlighted block's
    # line 1 is "def forward"; a mark and hl_lines counted from the raw text pointed 3 lines off
    # (a link to a line id that did not exist: test_links caught it on export/data-dependent-guards).
    text = "\n\n\ndef forward(x):\n    return x\nerror: the point\n"
    start = text.index("error")
    assert shown_lines(text, start, start + 5) == (3, 3)
    assert shown_lines("a\nb\n", 2, 3) == (2, 2)


def test_the_pages_that_list_a_page_are_shown_up_to_a_bound(tmp_path: Path) -> None:
    target = _page(tmp_path, "llm/kv-cache", ["llm/rope"])
    many = [f"core/p{n:02d}" for n in range(12)]
    block = related_block(target, {}, many)
    items = [line for line in block.split("\n") if line.startswith("- [")]
    assert items[0] == "- [llm/rope](rope.md)"
    assert len(items) == 1 + BACKLINKS and items[1] == "- [core/p00](../core/p00.md)"
