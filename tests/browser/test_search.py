"""The site's search finds the page a reader means, typed as readers type it: dotted and
underscored identifiers, flags with their value, environment variables and plain words.

Each query goes into the search box in the header of the real site, in Chromium (all but its
last character pasted, the last one typed), and the page it should find must be among the first
three pages the results list once the list shows that query's results. These
queries for the compile, export and deployment pages were checked against Material's lunr search
before the site moved to Pagefind, so they guard what readers already had.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from site_search import SearchIndexError, indexed, mark_body

from .gates import (
    DESKTOP,
    PHONE,
    recorded_context,
    serious_accessibility_violations,
    sideways_scroll,
    visit,
)
from .sites import Site

# (what a reader types, the page it must find in the top three)
QUERIES = [
    ("torch._dynamo.explain", "compile/graph-breaks/"),
    ("recompile_limit", "compile/recompile-limit/"),
    ("aoti_compile_and_package", "export/aotinductor/"),
    ("TORCH_LOGS", "compile/observability-tlparse/"),  # the page that asks about it
    ("TORCH_LOGS recompiles", "compile/guards-and-recompilation/"),
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
    # One for each core page and torchrun's, added with those pages, so checked on Pagefind only:
    # identifiers, error text a reader pastes and plain words.
    ("retain_graph", "core/backward-and-the-graph/"),
    ("zero_grad", "core/gradient-accumulation/"),
    ("inference_mode", "core/no-grad-inference-mode-eval/"),
    ("state_dict", "core/parameters-buffers-state-dict/"),
    ("register_full_backward_hook", "core/hooks/"),
    ("gradcheck", "core/custom-autograd-function/"),
    ("create_graph", "core/double-backward/"),
    ("vmap", "core/torch-func/"),
    ("GradScaler", "core/mixed-precision/"),
    ("use_reentrant", "core/activation-checkpointing/"),
    ("clip_grad_norm_", "core/nans-and-exploding-gradients/"),
    ("worker_init_fn", "core/dataloader/"),
    ("record_function", "core/profiling-a-training-step/"),
    ("use_deterministic_algorithms", "core/reproducibility/"),
    ("weights_only", "core/saving-and-loading/"),
    ("torchrun", "distributed/torchrun-and-elastic/"),
    ("modified by an inplace operation", "core/inplace-version-counter/"),
    ("view size is not compatible", "core/views-and-strides/"),
    ("per-sample gradients", "core/torch-func/"),
    ("memory leak", "core/memory-leaks/"),
    ("type promotion", "core/broadcasting-and-type-promotion/"),
    # The distributed pages and the last PT2 pages, added with them (checked on Pagefind only).
    ("no_sync", "distributed/ddp-gradient-accumulation/"),
    ("find_unused_parameters", "distributed/ddp/"),
    ("set_epoch", "distributed/distributed-sampler/"),
    ("fully_shard", "distributed/fsdp2-and-zero/"),
    ("ZeRO", "distributed/fsdp2-and-zero/"),
    ("reduce_scatter", "distributed/collectives/"),
    ("TORCH_DISTRIBUTED_DEBUG", "distributed/debugging-hangs/"),
    ("monitored_barrier", "distributed/debugging-hangs/"),
    ("parallelize_module", "distributed/tensor-and-pipeline-parallelism/"),
    ("distributed checkpoint", "distributed/distributed-checkpoint/"),
    ("tlparse", "compile/observability-tlparse/"),
    ("minifier", "compile/accuracy-debugging-minifier/"),
    ("freezing", "compile/cpu-inference-inductor/"),
    ("triton_op", "compile/user-triton-kernels/"),
    ("DDPOptimizer", "compile/compile-with-ddp-fsdp/"),
    # Issue 39: the acronyms and aliases of a subject (search_aliases), API names as readers type
    # them (a snippet's names: the hangs page's prose says "all-reduce"), error text readers paste,
    # and the Contributing page kept below answers ("CUDA out of memory").
    ("DDP", "distributed/ddp/"),
    ("all_reduce hang", "distributed/debugging-hangs/"),
    ("CUDA out of memory", "gpu/debugging-oom/"),
    ("OOM", "gpu/debugging-oom/"),
    ("FSDP", "distributed/fsdp2-and-zero/"),
    ("FSDP1", "distributed/fsdp1-vs-fsdp2/"),
    ("ZeRO-3", "distributed/fsdp2-and-zero/"),
    ("AMP", "core/mixed-precision/"),
    ("autocast", "core/mixed-precision/"),
    ("TP", "distributed/tensor-and-pipeline-parallelism/"),
    ("ColwiseParallel", "distributed/tensor-and-pipeline-parallelism/"),
    ("PP", "distributed/pipeline-schedules/"),
    ("1F1B", "distributed/pipeline-schedules/"),
    ("DCP", "distributed/distributed-checkpoint/"),
    ("async_save", "distributed/checkpointing-at-scale/"),
    ("NCCL timeout", "distributed/nccl-in-production/"),
    ("flight recorder", "distributed/nccl-in-production/"),
    ("HSDP", "distributed/hsdp-and-2d-parallelism/"),
    ("DeviceMesh", "distributed/dtensor-placements/"),
    ("Shard Replicate Partial", "distributed/dtensor-placements/"),
    ("ring attention", "distributed/context-parallelism/"),
    ("bucket_cap_mb", "distributed/ddp/"),
    ("all_gather", "distributed/collectives/"),
    ("dist.all_reduce", "distributed/collectives/"),
    ("LOCAL_RANK", "distributed/torchrun-and-elastic/"),
    ("straggler", "distributed/stragglers-and-restarts/"),
    ("gradient clipping FSDP", "distributed/gradient-clipping-across-shards/"),
    ("communication cost", "distributed/communication-cost/"),
    ("DistributedSampler", "distributed/distributed-sampler/"),
    ("AdamW", "core/adam-vs-adamw/"),
    ("label_smoothing", "core/loss-pitfalls/"),
    ("warmup cosine", "core/lr-schedules/"),
    ("kaiming_uniform_", "core/initialisation/"),
    ("ModuleList", "core/module-internals/"),
    ("Trying to backward through the graph a second time", "core/backward-and-the-graph/"),
    ("detect_anomaly", "core/nans-and-exploding-gradients/"),
    ("NaN loss", "core/nans-and-exploding-gradients/"),
    ("num_workers", "core/dataloader/"),
    ("register_buffer", "core/parameters-buffers-state-dict/"),
    ("Hessian-vector product", "core/double-backward/"),
    ("meta device", "core/meta-device-init/"),
    ("gradient checkpointing", "core/activation-checkpointing/"),
    ("torch.autograd.Function", "core/custom-autograd-function/"),
    ("functorch", "core/torch-func/"),
    ("set_to_none", "core/gradient-accumulation/"),
    ("KV cache", "llm/kv-cache/"),
]
TOP = 3
SETTLE_S = 10.0  # the first query also loads the search's code and index

# The results as a list of pages, best first, whatever the search's markup: each result item's
# first link (Material and our Pagefind results both use these classes).
_TOP_PAGES = """els => els.map(e => e.href)"""
_RESULT_LINKS = ".md-search-result__item > .md-search-result__link"
_SHOWS_RESULTS_FOR = "q => document.querySelector('.md-search-result__list').dataset.query === q"


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
    # All but the last character at once (as a paste), then the last one typed: search.js searches
    # on each input event, and a search for every prefix of 115 queries ranks nothing this test
    # reads. test_nothing_of_search_loads_until_the_reader_searches types key by key.
    box.fill(query[:-1])
    box.press_sequentially(query[-1])


def test_realistic_queries_find_their_page(real_site: Site, search_page: Page) -> None:
    missed = []
    for query, target in QUERIES:
        assert (real_site.dir / target / "index.html").is_file(), f"{target} is not a page"
        search(search_page, query)
        # Until the list shows this query's results (search.js marks the list with the query it
        # rendered; an earlier prefix's results are replaced first), or the time is up.
        try:
            search_page.wait_for_function(_SHOWS_RESULTS_FOR, arg=query.strip(),
                                          timeout=SETTLE_S * 1000)
        except PlaywrightTimeoutError:
            missed.append(f"{query!r}: no results shown for it within {SETTLE_S:.0f} s")
            continue
        found = top_pages(search_page, real_site.base)[:TOP]
        if target not in found:
            missed.append(f"{query!r}: expected {target} in the top {TOP}, got {found}")
    assert not missed, f"{len(missed)} of {len(QUERIES)} queries missed:\n" + "\n".join(missed)


def test_nothing_of_search_loads_until_the_reader_searches(real_site: Site, browser: Browser) -> None:
    """A cold visit fetches no search file; pressing `/` opens the box and loads Pagefind, a query
    shows the question, the section matched and its passage, linking to that section, and Esc
    closes the results."""
    with recorded_context(browser, real_site.base, viewport=DESKTOP) as (context, visits):
        page, record = visit(context, visits, real_site.url(real_site.questions[0]))
        loaded = [r.url for r in record.finished if "/pagefind/" in r.url]
        assert not loaded, f"search files fetched before the reader searched: {loaded}"
        page.keyboard.press("/")
        box = page.locator(".md-search__input")
        expect(box).to_be_focused()
        box.press_sequentially("recompile_limit")
        first = page.locator(".md-search-result__item").first
        expect(first.locator("h1")).to_have_text(re.compile(r"recompile limit", re.I), timeout=15_000)
        expect(first.locator("mark").first).to_be_visible()
        href = first.locator(".md-search-result__link").get_attribute("href") or ""
        assert "#" in href, f"the first result links to the page, not the section matched: {href}"
        expect(page.locator(".md-search-result__meta")).to_have_text(re.compile(r"\d+ matching"))
        assert any("/pagefind/" in r.url for r in record.finished), "no Pagefind file was fetched"
        page.keyboard.press("ArrowDown")
        expect(first.locator(".md-search-result__link")).to_be_focused()
        page.keyboard.press("Escape")
        expect(first).to_be_hidden()
        first.locator(".md-search-result__link").evaluate("a => a.click()")
        page.wait_for_url(re.compile(re.escape(href.split("#")[1]) + "$"))
        target = page.locator(f"#{href.split('#')[1]}")
        expect(target).to_be_in_viewport()
        problems = [problem for visit_ in visits for problem in visit_.problems()]
        assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_open_results_are_accessible_in_both_schemes_and_on_a_phone(
        real_site: Site, browser: Browser, scheme: str) -> None:
    viewport = DESKTOP if scheme == "light" else PHONE
    with recorded_context(browser, real_site.base, viewport=viewport,
                          color_scheme=scheme) as (context, visits):
        page = visit(context, visits, real_site.url(""))[0]
        if viewport == PHONE:
            page.locator('label.md-header__button[for="__search"]').click()
        box = page.locator(".md-search__input")
        box.click()
        box.press_sequentially("graph break")
        expect(page.locator(".md-search-result__item").first).to_be_visible(timeout=15_000)
        problems = serious_accessibility_violations(page) + sideways_scroll(page)
        assert not problems, "\n".join(problems)


def test_without_javascript_the_search_box_is_absent(real_site: Site, browser: Browser) -> None:
    with recorded_context(browser, real_site.base, viewport=DESKTOP,
                          java_script_enabled=False) as (context, visits):
        page = visit(context, visits, real_site.url(""))[0]
        expect(page.locator(".md-search__input")).to_be_hidden()
        expect(page.locator('label.md-header__button[for="__search"]')).to_be_hidden()


def _visible_text(html_text: str) -> str:
    """The article's text as a reader gets it: no tags, no hidden elements' attributes."""
    article = html_text[html_text.index("<article"):html_text.index("</article>")]
    return re.sub(r"<[^>]+>", " ", article)


def test_aliases_and_code_names_are_indexed_but_not_shown(real_site: Site) -> None:
    """A page's `search_aliases` and its snippets' PyTorch names are in the index, from attributes
    of hidden, empty elements: the page a reader sees has no word more."""
    pages = indexed(real_site.dir)
    ddp = pages["/distributed/ddp/"]["content"]
    assert "DDP, DistributedDataParallel" in ddp
    assert pages["/distributed/ddp/"]["meta"]["aliases"] == "DDP, DistributedDataParallel"
    hangs = pages["/distributed/debugging-hangs/"]["content"]
    assert "torch.distributed.all_reduce" in hangs  # its code's name; its prose says all-reduce
    html_text = (real_site.dir / "distributed" / "ddp" / "index.html").read_text(encoding="utf-8")
    assert 'data-search-aliases="DDP, DistributedDataParallel"' in html_text
    shown = _visible_text(html_text)
    assert "DDP, DistributedDataParallel" not in shown
    assert re.search(r'<div class="search-aliases" hidden data-pagefind-weight="\d+">'
                     r'<span [^>]*></span></div>', html_text)
    # Code and outputs themselves stay out: a line of the DDP page's code is not indexed.
    assert 'os.environ.setdefault("MASTER_ADDR"' not in ddp
    for rel in real_site.questions:  # the hidden blocks add no furniture to any question page
        assert "Practise this question" not in pages["/" + rel]["content"], rel
    # A topic page keeps its introduction; its list of the questions' titles is left out (each is
    # found on its own page: listed, the topic page outranked answers for their titles' words).
    topic = pages["/distributed/"]["content"]
    assert "DistributedDataParallel keep replicas in sync" not in topic
    assert "must know, comes up" not in topic and len(topic.split()) > 20


def test_pages_about_the_site_count_less_than_answers(real_site: Site) -> None:
    html_text = (real_site.dir / "contributing" / "index.html").read_text(encoding="utf-8")
    assert "data-pagefind-body data-pagefind-weight=\"0.2\"" in html_text
    article = '<html><article class="md-content__inner md-typeset"><h1>x</h1></article></html>'
    assert 'data-pagefind-weight="0.5"' in mark_body(article, 0.5)
    assert "data-pagefind-weight" not in mark_body(article)
    for wrong in (0, 11, "low", True):
        with pytest.raises(SearchIndexError):
            mark_body(article, wrong)  # type: ignore[arg-type]
