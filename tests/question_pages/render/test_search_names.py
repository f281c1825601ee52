"""What the site search gets from a page beyond its prose: the aliases its front matter declares
and the PyTorch names its snippets use, both in attributes of an empty hidden element (Pagefind
indexes the attribute at the parent's weight; a reader sees nothing)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from helpers import write
from question_pages.format.parse import parse_page
from question_pages.render.page import ALIAS_WEIGHT, search_aliases_block
from question_pages.render.search_names import NAMES_WEIGHT, code_names, names_block

CODE = """\
import os
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def run(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = DDP(torch.nn.Linear(2, 2), find_unused_parameters=True)
    model.zero_grad(set_to_none=True)
    t = torch.ones(2)
    dist.all_reduce(t)
    print(os.environ.get("RANK"), t)
"""


def test_the_names_are_those_a_reader_types_and_no_other_words() -> None:
    names = code_names(CODE)
    for name in ("all_reduce", "dist.all_reduce", "torch.distributed.all_reduce", "init_process_group",
                 "torch.nn.parallel", "DistributedDataParallel", "find_unused_parameters",
                 "zero_grad", "set_to_none", "torch.nn.Linear", "torch.ones"):
        assert name in names, f"{name} not in {names}"
    # Not the code's own words, the standard library, or "torch" (every page has it).
    for word in ("run", "rank", "model", "t", "print", "os", "os.environ", "torch", "gloo", "RANK"):
        assert word not in names, f"{word} in {names}"
    assert len(names) == len(set(names))


def test_code_that_does_not_parse_gives_no_names() -> None:
    assert code_names("def broken(:\n") == []
    assert names_block("x = 1\n") == ""


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed(block: str) -> _Text:
    parser = _Text()
    parser.feed(block)
    return parser


def test_the_names_are_an_attribute_of_a_hidden_weighted_element_with_no_text() -> None:
    parsed = _parsed(names_block(CODE))
    assert "".join(parsed.text).strip() == ""  # nothing for a reader or a screen reader
    (div, outer), (span, inner) = parsed.tags
    assert div == "div" and "hidden" in outer and outer["data-pagefind-weight"] == str(NAMES_WEIGHT)
    assert span == "span" and inner["data-pagefind-index-attrs"] == "data-search-names"
    assert "torch.distributed.all_reduce" in (inner["data-search-names"] or "").split()


def test_a_pages_aliases_are_indexed_at_their_weight_and_escaped(tmp_path: Path) -> None:
    path = write(tmp_path, "docs/distributed/ddp.md",
                 '---\nquestion: "DDP?"\nsearch_aliases: [DDP, "A \\"quoted\\" <name>"]\n'
                 "---\n\n## Short answer\n\nx\n")
    block = search_aliases_block(parse_page(path, tmp_path / "docs"))
    parsed = _parsed(block)
    assert "".join(parsed.text).strip() == ""
    (_, outer), (_, inner) = parsed.tags
    assert "hidden" in outer and outer["data-pagefind-weight"] == str(ALIAS_WEIGHT)
    assert inner["data-search-aliases"] == 'DDP, A "quoted" <name>'
    assert inner["data-pagefind-meta"] == "aliases[data-search-aliases]"
    assert not re.search(r"<name>", block)  # escaped in the HTML


def test_a_page_without_aliases_gets_no_element(tmp_path: Path) -> None:
    path = write(tmp_path, "docs/core/x.md", '---\nquestion: "X?"\n---\n\n## Short answer\n\nx\n')
    assert search_aliases_block(parse_page(path, tmp_path / "docs")) == ""


def test_the_names_stay_valid_html_inside_a_follow_up_or_a_tab() -> None:
    """Indented Markdown wraps a one-line raw <div> in a <p> (invalid: the browser splits it into
    empty paragraphs); the block is laid out so that no <p> holds the <div>."""
    import markdown

    extensions = ["admonition", "attr_list", "md_in_html", "pymdownx.details", "pymdownx.superfences",
                  "pymdownx.tabbed"]
    block = "\n".join("    " + line if line else line for line in names_block(CODE).split("\n"))
    for opener in ('??? question "Why?"', '=== "Senior"', "- an item"):
        out = markdown.markdown(f"{opener}\n\n    Some text.\n\n{block}\n", extensions=extensions)
        assert 'class="search-names"' in out, out
        assert not re.search(r"<p>\s*<div", out), out
