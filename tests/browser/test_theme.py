"""The theme's accessibility fixes stay what they claim to be when Material is upgraded."""

from __future__ import annotations

from pathlib import Path

import material

from helpers import ROOT

OVERRIDE = ROOT / "docs" / "overrides" / "partials" / "search.html"
STOCK = Path(material.__file__).parent / "templates" / "partials" / "search.html"
STOCK_TAG = '<div class="md-search" data-md-component="search" role="dialog">'
NAMED = STOCK_TAG.replace(">", ' aria-label="{{ lang.t(\'search\') }}">')


def _body(text: str) -> str:
    """The template without its leading {#- comment -#}."""
    return text.split("-#}\n", 1)[1]


def test_search_partial_is_materials_own_plus_a_dialog_name() -> None:
    """docs/overrides/partials/search.html replaces Material's partial to give the search dialog a
    name. If Material changes its partial, this copy is stale: copy the new one and add the label."""
    override = _body(OVERRIDE.read_text())
    assert NAMED in override
    stock = _body(STOCK.read_text())
    assert override.replace(NAMED, STOCK_TAG) == stock, (
        f"Material's {STOCK.name} changed: copy it again into {OVERRIDE} and keep the label")
