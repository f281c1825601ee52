"""The theme's overrides stay what they claim to be when Material is upgraded."""

from __future__ import annotations

from pathlib import Path

import material

from helpers import ROOT

OVERRIDE = ROOT / "docs" / "overrides" / "partials" / "header.html"
STOCK = Path(material.__file__).parent / "templates" / "partials" / "header.html"
STOCK_SEARCH = '    {% if "material/search" in config.plugins %}'
AFTER_SEARCH = "    {% if config.repo_url %}"
OURS = '    {#- Pagefind'


def _body(text: str) -> str:
    """The template without its leading {#- comment -#}."""
    return text.split("-#}\n", 1)[1]


def _without_search(text: str, start: str) -> str:
    head, rest = text.split(start, 1)
    return head + AFTER_SEARCH + rest.split(AFTER_SEARCH, 1)[1]


def test_header_partial_is_materials_own_but_for_the_search_box() -> None:
    """docs/overrides/partials/header.html replaces Material's partial to show the Pagefind search
    box without Material's search plugin. If Material changes its header, this copy is stale: copy
    the new one and put the search block back."""
    override = _body(OVERRIDE.read_text())
    assert OURS in override and '{% include "partials/search.html" %}' in override
    stock = _body(STOCK.read_text())
    assert _without_search(override, OURS) == _without_search(stock, STOCK_SEARCH), (
        f"Material's {STOCK.name} changed: copy it again into {OVERRIDE} and keep the search block")


PALETTE = ROOT / "docs" / "overrides" / "partials" / "palette.html"
STOCK_PALETTE = Path(material.__file__).parent / "templates" / "partials" / "palette.html"


def test_palette_partial_is_materials_own_but_for_its_component_mark() -> None:
    """docs/overrides/partials/palette.html is Material's switch, marked so that Material's bundle
    does not mount its palette component (docs/assets/javascripts/palette.js runs it). If Material
    changes the partial, copy it again and mark the form `data-palette` in place of
    `data-md-component="palette"`."""
    override = _body(PALETTE.read_text())
    assert "data-palette" in override and 'data-md-component="palette"' not in override
    stock = _body(STOCK_PALETTE.read_text())
    assert override == stock.replace('data-md-component="palette"', "data-palette"), (
        f"Material's {STOCK_PALETTE.name} changed: copy it again into {PALETTE} and mark its form "
        "data-palette")
