"""The site's search finds the page a reader means, typed as readers type it: dotted and
underscored identifiers, flags with their value, environment variables and plain words.

Each query goes into the search box in the header of the real site, in Chromium, one key at a
time, and the page it should find must be among the first three pages the results list. These
queries were checked against Material's lunr search before the site moved to Pagefind, so they
guard what readers already had.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

from .gates import DESKTOP, recorded_context, visit
from .sites import Site

# (what a reader types, the page it must find in the top three)
QUERIES = [
    ("torch._dynamo.explain", "compile/graph-breaks/"),
    ("recompile_limit", "compile/recompile-limit/"),
    ("aoti_compile_and_package", "export/aotinductor/"),
    ("TORCH_LOGS", "compile/guards-and-recompilation/"),
    ("fullgraph=True", "compile/fullgraph-and-set-stance/"),
    ("graph break", "compile/graph-breaks/"),
    ("int8", "deployment/torchao-quantize/"),
    ("set_stance", "compile/fullgraph-and-set-stance/"),
    ("mark_dynamic", "compile/dynamic-shapes-in-compile/"),
    ("Dim.AUTO", "export/dynamic-shapes/"),
    ("torch.cond", "export/torch-cond/"),
    ("draft_export", "export/draft-export/"),
    ("run_decompositions", "export/ir-and-decompositions/"),
    ("torch._check", "export/data-dependent-guards/"),
    ("custom_op", "export/custom-ops/"),
    ("preserve_module_call_signature", "export/unflatten-and-module-calls/"),
    ("prepare_pt2e", "deployment/pt2e-quantization/"),
    ("quantize_", "deployment/torchao-quantize/"),
    ("XNNPACK", "deployment/executorch-xnnpack/"),
    ("torch.onnx.export", "deployment/onnx-export/"),
    ("reduce-overhead", "compile/compile-modes/"),
    ("max-autotune", "compile/compile-modes/"),
    ("allow_in_graph", "compile/keeping-code-out-of-dynamo/"),
    ("regional compilation", "compile/regional-compilation/"),
    ("AOTAutograd", "compile/training-with-compile/"),
    ("strict=False", "export/strict-vs-non-strict/"),
    ("bf16", "deployment/precision-at-inference/"),
    ("output_code", "compile/inductor-output-code/"),
    ("running_mean", "export/mutation/"),
    ("pytree", "export/non-tensor-inputs/"),
    ("TorchScript", "deployment/migrating-from-torchscript/"),
    ("torch.jit.trace", "export/export-vs-jit-and-fx/"),
]
TOP = 3
SETTLE_S = 10.0  # the first query also loads the search's code and index

# The results as a list of pages, best first, whatever the search's markup: each result item's
# first link (Material and our Pagefind results both use these classes).
_TOP_PAGES = """els => els.map(e => e.href)"""
_RESULT_LINKS = ".md-search-result__item > .md-search-result__link"


@pytest.fixture(scope="module")
def search_page(real_site: Site, browser: Browser) -> Iterator[Page]:
    with recorded_context(browser, real_site.base, viewport=DESKTOP) as (context, visits):
        page = visit(context, visits, real_site.url(""))[0]
        yield page
        problems = [problem for record in visits for problem in record.problems()]
        assert not problems, "\n".join(problems)


def top_pages(page: Page, base: str) -> list[str]:
    """The distinct pages of the result list, in order, as URLs relative to the site."""
    found: list[str] = []
    for href in page.locator(_RESULT_LINKS).evaluate_all(_TOP_PAGES):
        rel = urlsplit(href).path.removeprefix(urlsplit(base).path)
        if rel not in found:
            found.append(rel)
    return found


def search(page: Page, query: str) -> None:
    box = page.locator(".md-search__input")
    box.click()
    box.fill("")
    box.press_sequentially(query)  # as a reader types: searches run on key events


def test_realistic_queries_find_their_page(real_site: Site, search_page: Page) -> None:
    missed = []
    for query, target in QUERIES:
        assert (real_site.dir / target / "index.html").is_file(), f"{target} is not a page"
        search(search_page, query)
        # Until the results are the same on two reads 300 ms apart (not a prefix's, still being
        # replaced) and hold the target, or the time is up.
        deadline, before = time.monotonic() + SETTLE_S, None
        found = top_pages(search_page, real_site.base)[:TOP]
        while not (found == before and target in found) and time.monotonic() < deadline:
            search_page.wait_for_timeout(300)
            before, found = found, top_pages(search_page, real_site.base)[:TOP]
        if target not in found:
            missed.append(f"{query!r}: expected {target} in the top {TOP}, got {found}")
    assert not missed, f"{len(missed)} of {len(QUERIES)} queries missed:\n" + "\n".join(missed)
