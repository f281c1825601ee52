"""The snippets as Jupyter notebooks that hold their recorded outputs and run top to bottom.

Two kinds, both built here with nbformat from the snippets and their committed CPU records:

- one per question, `notebooks/<topic>/<slug>.ipynb`: the page's snippets in page order, a
  download linked from the page's Code section (a plain file on the site, not a rendered page:
  mkdocs-jupyter's `notebooks/*.ipynb` glob does not reach into the topic folders);
- one per topic, `notebooks/<topic>.ipynb`: every snippet of the topic in learning order, which
  mkdocs-jupyter renders as a page.

A notebook is never executed at build time: its outputs are the records, so it shows exactly
what the site shows. What makes "Run All" work in an empty folder on the pinned torch:

- every helper module a snippet imports (`snippets/<topic>/_name.py`) is written first by a
  `%%writefile` cell with the module's exact contents;
- a set-up cell gives every later cell an empty working folder of its own and resets Dynamo
  before it, and uses one thread, as the engine does for every snippet, so that a cell prints its
  record (the helpers stay importable). Every snippet that draws random numbers seeds itself (the
  engine refuses one that does not); the set-up cell also seeds `random`, numpy and torch with 0
  before each cell, so that a cell run again does not go on from where an earlier one left off;
- a snippet whose record is an expected error is tagged `raises-exception`: nbclient, nbconvert
  and JupyterLab go on past it;
- a snippet the engine runs in a fresh interpreter (`#| fresh: true`, one that sets a variable
  torch reads at import, one that asks about the interpreter: `snippet_engine.source.analysis.fresh_need`)
  runs in a new one with `%%script "{sys.executable}"`, since the kernel imported torch in the
  set-up cell;
- a snippet that names `__file__` (undefined in a kernel) is written to a file beside the
  helpers and run from it (`%run -m`).

Cell ids are positional (`cell-0`, `cell-1`, ...) and `nbformat.writes` sorts keys, so two builds
of the same sources give byte-identical files.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from question_pages.format.markers import snippet_refs
from question_pages.format.model import Page, PageError
from question_pages.format.published import read_ledger
from question_pages.render.snippet_blocks import split_expected_error
from question_pages.sitewide.catalog import learning_order
from question_pages.sitewide.downloads import question_notebook_uri, question_notebook_uris
from snippet_engine.records.pins import pinned_torch
from snippet_engine.records.status import Record, StatusBook

RAISES_TAG = "raises-exception"  # the cell tag nbclient, nbconvert and JupyterLab honour
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
SETUP_MARK = "_seed_like_the_records"  # the set-up cell's hook, found again when it is re-run
NOTEBOOK_DIR = "NOTEBOOK_DIR"  # the set-up cell's name for the folder the helpers are written to
CELL_DIR_PREFIX = "snippet-cell-"  # each cell's own working folder, under the system's temp
# A new interpreter, the kernel's own (`python` on PATH may be another), quoted for a path with
# spaces: IPython expands {sys.executable} in a magic's line.
FRESH_MAGIC = '%%script "{sys.executable}"'


def moved_notebooks(redirects: Mapping[str, str]) -> dict[str, str]:
    """The notebook URLs that page redirects move too (old notebook -> new notebook): a page
    moved with `old.md: new.md` in redirect_maps takes its notebook with it, and the build
    publishes the new notebook at the old address as well, so a saved download link keeps
    working (a download cannot be redirected the way a page is)."""
    return {question_notebook_uri(old.removesuffix(".md")): question_notebook_uri(new.removesuffix(".md"))
            for old, new in redirects.items()
            if "/" in old and old.endswith(".md") and new.endswith(".md")}


def notebooks_of_missing_pages(root: Path, sources: set[str], redirects: Mapping[str, str]) -> set[str]:
    """Notebook URLs of listed question pages that are gone without a redirect. The page's own
    error says what to do (a redirect for the page, which moves its notebook too), so the
    notebook is not reported again, with advice that does not fit a download."""
    listed = {uri for _, uri in read_ledger(root)}
    gone = {uri.removesuffix(".md") for uri in listed
            if uri.endswith(".md") and uri not in sources and uri not in redirects}
    return question_notebook_uris(sorted(gone)) & listed


# -- what a snippet needs to run in a notebook -------------------------------------------------

@dataclass(frozen=True)
class _Entry:
    """One snippet of a notebook: where it comes from and how its cell must run it."""

    ref: str  # under snippets/, as pages name it
    section: str  # the page section that shows it
    source: str
    expect: str | None  # the exception it declares (`#| expect:`)
    record: Record | None
    stale: bool
    fresh_reason: str  # why it needs a new interpreter; empty when the kernel can run it
    names_file: bool  # uses __file__, which a kernel cell does not define
    cuda_only: bool = False  # declares `#| devices: cuda`: no CPU record, the GPU workflow's if any

    @property
    def rel(self) -> str:
        return f"snippets/{self.ref}"

    @property
    def name(self) -> str:
        return posixpath.basename(self.ref)

    @property
    def raises(self) -> str:
        """The exception it raises on purpose, from its record or else its declaration; ''."""
        if self.record is not None and self.record.status == "expected-error":
            return self.record.error_type
        return self.expect or ""


def _names_file(source: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return any(isinstance(node, ast.Name) and node.id == "__file__" for node in ast.walk(tree))


def _entry(ref: str, section: str, book: StatusBook) -> _Entry:
    status = book.status(ref)
    source = status.path.read_text(encoding="utf-8")
    cpu = status.on("cpu")
    if not cpu.declared:  # a CUDA-only snippet: the GPU workflow's record, when there is one
        cuda = status.on("cuda")
        return _Entry(ref, section, source, status.options.expect, cuda.record,
                      cuda.state == "stale", "", _names_file(source), cuda_only=True)
    # The engine's decision, so the notebook runs in a new interpreter exactly what it did.
    reason = (f"{status.fresh.why}, and this kernel imported torch in the set-up cell"
              if status.fresh else "")
    return _Entry(ref, section, source, status.options.expect, cpu.record, cpu.state == "stale",
                  reason, _names_file(source))


def _helpers(entries: list[_Entry], root: Path, book: StatusBook) -> list[tuple[str, str]]:
    """(path to write, exact contents) of every helper module the snippets import, in order of
    first use; the path is relative to the folder the module is imported from."""
    found: dict[str, str] = {}
    for entry in entries:
        status = book.status(entry.ref)
        bases = (status.path.parent, root / "snippets")
        for module in status.helpers:
            base = next(b for b in bases if module.is_relative_to(b))
            found.setdefault(module.relative_to(base).as_posix(), module.read_text(encoding="utf-8"))
    return list(found.items())


# -- cells ---------------------------------------------------------------------------------------

def _outputs(record: Record | None) -> list[NotebookNode]:
    """The record as the outputs a kernel would have shown: what it printed, then its error."""
    if record is None:
        return []
    if record.status != "expected-error":
        return [new_output("stream", name="stdout", text=record.output)] if record.output else []
    printed, error = split_expected_error(record)
    outputs = [new_output("stream", name="stdout", text=printed)] if printed else []
    outputs.append(new_output("error", ename=record.error_type,
                              evalue=error.split(": ", 1)[-1].rstrip("\n"),
                              traceback=error.rstrip("\n").split("\n")))
    return outputs


def _about(entry: _Entry) -> str:
    """The markdown above a snippet's cell: where it is from, its record, how it runs and why."""
    # Not a heading: mkdocs-jupyter would list it in the page's table of contents with an anchor that
    # its page does not have (a code span in a heading loses its text there).
    lines = [f"**`{entry.rel}`**", ""]
    record = entry.record
    if entry.cuda_only and record is None:
        what = ("It runs on CUDA only. Its output is recorded by the project's GPU workflow on a "
                "CUDA runner, and none is recorded yet, so no output is shown.")
    elif entry.cuda_only and record is not None:
        what = (f"It runs on CUDA only. Recorded {record.recorded.split('T')[0]} with torch "
                f"{record.torch} on {record.hardware} by the GPU workflow.")
        if entry.stale:
            what += (" The record was made from an earlier version of the snippet: the code may "
                     "now print something else.")
    elif entry.record is None:
        what = "It has no CPU record yet, so no output is shown."
    else:
        what = (f"Recorded {entry.record.recorded.split('T')[0]} with torch {entry.record.torch} "
                "on CPU.")
        if entry.stale:
            what += (" The record was made from an earlier version of the snippet: the code may "
                     "now print something else.")
    lines.append(f"From the page's *{entry.section}* section. {what}")
    if entry.raises:
        lines += ["", f"**Raises `{entry.raises}` on purpose**: the error is the snippet's point. "
                  f"The cell is tagged `{RAISES_TAG}`, so Run All goes on."]
    if entry.cuda_only and not entry.raises:
        lines += ["", "Without a CUDA device it fails, so the cell is tagged "
                  f"`{RAISES_TAG}` and Run All goes on."]
    if entry.names_file:
        lines += ["", f"It uses `__file__`, which a notebook cell does not define, so a first "
                  f"cell writes it to `{entry.name}` in the notebook's folder and the next one "
                  "runs that file."]
    if entry.fresh_reason:
        how = f"`{FRESH_MAGIC}" + (f" -m {entry.name.removesuffix('.py')}`" if entry.names_file else "`")
        lines += ["", f"It runs in a new Python process ({how}: the kernel's own interpreter) "
                  f"because {entry.fresh_reason}. Its output shows here; its variables stay in "
                  "that process"
                  + (", and its error shows as that process's traceback, then "
                     "`CalledProcessError`." if entry.raises else ".")]
    return "\n".join(lines) + "\n"


def _snippet_cells(entry: _Entry) -> list[NotebookNode]:
    """The markdown about it, then its cell with the record as outputs. In the kernel unless it
    needs a new interpreter (`%%script`), from its own file when it names __file__."""
    metadata: dict = {"snippet": entry.rel}
    if entry.raises or entry.cuda_only:
        metadata["tags"] = [RAISES_TAG]
    cells = [new_markdown_cell(_about(entry))]
    if entry.names_file:
        # Beside the helpers, since every cell has a working folder of its own; run as a module
        # from there (a cell magic needs a body: the second line is never read).
        cells.append(new_code_cell(f'%%writefile "{{{NOTEBOOK_DIR}}}/{entry.name}"\n{entry.source}'))
        module = entry.name.removesuffix(".py")
        code = (f"{FRESH_MAGIC} -m {module}\n# runs the file written above"
                if entry.fresh_reason else f"%run -m {module}")
    elif entry.fresh_reason:
        code = f"{FRESH_MAGIC}\n{entry.source}"
    else:
        code = entry.source
    cells.append(new_code_cell(code.rstrip("\n"), metadata=metadata,
                               outputs=_outputs(entry.record)))
    return cells


def _setup_cells(helpers: list[tuple[str, str]], pinned: str) -> list[NotebookNode]:
    intro = ["## Set-up", ""]
    if helpers:
        names = ", ".join(f"`{name}`" for name, _ in helpers)
        intro.append(f"The snippets import helper modules ({names}). The next cells write them "
                     "into the notebook's folder with their exact contents, so that Run All works "
                     "in an empty folder.")
        intro.append("")
    intro.append("The set-up cell then does what the site's snippet engine does before every "
                 "snippet, so that each cell prints what its record says: before every cell (a "
                 "`pre_run_cell` hook) it moves to a new empty working folder and resets "
                 "`torch.compile`'s caches and counters, and it uses one thread; it also seeds "
                 "`random`, numpy and torch with 0 before each cell (each snippet that draws "
                 "random numbers seeds itself too). So the files a cell writes are in its own folder "
                 "(`os.getcwd()` names it), and a function compiled in one cell is compiled "
                 "again when a later cell calls it.")
    cells = [new_markdown_cell("\n".join(intro) + "\n")]
    folders = sorted({posixpath.dirname(name) for name, _ in helpers} - {""})
    if folders:  # %%writefile does not create folders
        cells.append(new_code_cell("import os\n\n" + "\n".join(
            f"os.makedirs({folder!r}, exist_ok=True)" for folder in folders)))
    # Not stripped: %%writefile writes the cell's body as it is (adding a final newline only
    # when there is none), so a module that ends with one is written byte for byte.
    cells += [new_code_cell(f"%%writefile {name}\n{text}") for name, text in helpers]
    cells.append(new_code_cell(f'''\
# What the snippet engine does before every snippet, so that each cell prints its record.
import os
import random
import sys
import tempfile

import torch

try:
    import numpy
except ImportError:
    numpy = None

{NOTEBOOK_DIR} = globals().get("{NOTEBOOK_DIR}") or os.getcwd()  # where the helpers are
sys.path.insert(0, {NOTEBOOK_DIR})  # importable from every cell's own folder,
os.environ["PYTHONPATH"] = os.pathsep.join(  # and from a new interpreter
    p for p in ({NOTEBOOK_DIR}, os.environ.get("PYTHONPATH")) if p)


def {SETUP_MARK}(*_):
    os.chdir(tempfile.mkdtemp(prefix="{CELL_DIR_PREFIX}"))  # each cell in an empty folder
    random.seed(0)
    if numpy is not None:
        numpy.random.seed(0)
    torch.manual_seed(0)
    # As in a new process: compile ids from [0/0], no counts, no cached graph or artifact.
    if "torch._dynamo" in sys.modules:
        torch._dynamo.reset()
        torch._dynamo.utils.counters.clear()
    if "torch._inductor.utils" in sys.modules:
        from torch._inductor import metrics
        from torch.compiler._cache import CacheArtifactManager

        torch._inductor.utils.clear_caches()
        metrics.reset()
        CacheArtifactManager.clear()


torch.set_num_threads(1)
_events = get_ipython().events
for _old in [f for f in _events.callbacks["pre_run_cell"]
             if getattr(f, "__name__", "") == "{SETUP_MARK}"]:
    _events.unregister("pre_run_cell", _old)
_events.register("pre_run_cell", {SETUP_MARK})
print("torch", torch.__version__, "(the outputs below were recorded with torch {pinned})")'''))
    return cells


def _notebook(cells: list[NotebookNode], pinned: str) -> NotebookNode:
    for index, cell in enumerate(cells):
        cell.id = f"cell-{index}"  # new_*_cell draws a random id; a stable one keeps builds equal
    notebook = new_notebook(cells=cells, metadata={
        "kernelspec": KERNELSPEC, "language_info": {"name": "python"}, "torch_recorded": pinned})
    nbformat.validate(notebook)
    return notebook


def _page_entries(page: Page, book: StatusBook, seen: set[str]) -> list[_Entry]:
    entries = []
    for _, ref, section in snippet_refs(page):
        if ref not in seen:
            seen.add(ref)
            entries.append(_entry(ref, section, book))
    return entries


# -- notebooks -----------------------------------------------------------------------------------

def build_question_notebook(page: Page, root: Path, book: StatusBook | None = None,
                            page_url: str | None = None) -> NotebookNode:
    """A question's snippets in page order (Code, Explainer, Follow-ups), with their records.
    `page_url`: the page's address on the site; without it the notebook names the page's
    source file."""
    book = book or StatusBook(root)
    pinned = pinned_torch(root)
    entries = _page_entries(page, book, set())
    where = f"[its page]({page_url})" if page_url else f"its page (`docs/{page.page_id}.md`)"
    intro = new_markdown_cell(
        f"# {page.question}\n\n"
        f"The code of this interview question, as {where} shows it: every snippet in page order, "
        f"each with the output the site's snippet engine recorded on **torch {pinned}** (CPU). "
        "This notebook was built from those records, not executed: run it (Run All) to see what "
        "your torch prints.\n")
    cells = [intro, *_setup_cells(_helpers(entries, root, book), pinned)]
    for entry in entries:
        cells += _snippet_cells(entry)
    return _notebook(cells, pinned)


def build_notebook(topic: str, pages: list[Page], root: Path,
                   book: StatusBook | None = None) -> NotebookNode:
    """Every snippet of a topic, question by question in learning order, with its records."""
    book = book or StatusBook(root)
    pinned = pinned_torch(root)
    seen: set[str] = set()
    groups = [(page, _page_entries(page, book, seen))
              for page in learning_order([p for p in pages if p.meta["topic"] == topic])]
    groups = [(page, entries) for page, entries in groups if entries]
    intro = new_markdown_cell(
        f"# {topic}: every snippet of the topic, with its recorded output\n\n"
        f"The outputs below were recorded on torch {pinned} (CPU) by the site's snippet engine; "
        "this notebook was built from those records, not executed again. Run it yourself to "
        "compare with your torch. Each question also has a notebook of its own, linked from its "
        "page.\n")
    cells = [intro, *_setup_cells(_helpers([e for _, es in groups for e in es], root, book), pinned)]
    for page, entries in groups:
        cells.append(new_markdown_cell(f"## {page.question}\n"))
        for entry in entries:
            cells += _snippet_cells(entry)
    return _notebook(cells, pinned)


def notebook_text(notebook: NotebookNode) -> str:
    return nbformat.writes(notebook, version=4).rstrip("\n") + "\n"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_notebooks(pages: list[Page], root: Path, out_dir: Path, topics: list[str],
                    book: StatusBook | None = None, page_urls: Mapping[str, str] | None = None,
                    moved: Mapping[str, str] | None = None) -> list[Path]:
    """Write notebooks/<topic>.ipynb for every declared topic and notebooks/<topic>/<slug>.ipynb
    for every question page under out_dir; return their paths. `page_urls`: each page's address
    on the site, by page id. `moved` (from `moved_notebooks`): old notebook URLs that get a copy
    of the new one. A notebook left there by an earlier build and not written now is removed, so
    that it cannot be published by mistake."""
    book = book or StatusBook(root)
    written: list[Path] = []
    texts: dict[str, str] = {}
    for topic in topics:
        path = out_dir / "notebooks" / f"{topic}.ipynb"
        _write(path, notebook_text(build_notebook(topic, pages, root, book)))
        written.append(path)
    for page in pages:
        uri = question_notebook_uri(page.page_id)
        notebook = build_question_notebook(page, root, book, (page_urls or {}).get(page.page_id))
        texts[uri] = notebook_text(notebook)
        _write(out_dir / uri, texts[uri])
        written.append(out_dir / uri)
    for old, new in sorted((moved or {}).items()):
        if new in texts and old not in texts:
            _write(out_dir / old, texts[new])
            written.append(out_dir / old)
    for leftover in sorted((out_dir / "notebooks").rglob("*.ipynb")):
        if leftover not in written:
            leftover.unlink()
    return written


def question_notebook_errors(root: Path, pages: list[Page],
                             book: StatusBook | None = None) -> list[PageError]:
    """Question notebooks that would not be valid, or that would land on another file: a page
    whose slug is its topic's name would overwrite the topic notebook's download
    (mkdocs-jupyter copies `notebooks/<topic>.ipynb` to `notebooks/<topic>/<topic>.ipynb`)."""
    book = book or StatusBook(root)
    errors = []
    for page in pages:
        topic, _, slug = page.page_id.rpartition("/")
        if slug == topic:
            errors.append(PageError(page.rel, 1, f"the page's notebook would be "
                                    f"{question_notebook_uri(page.page_id)}, the download of the "
                                    f"topic's own notebook", "Choose another slug for the page"))
            continue
        try:
            build_question_notebook(page, root, book)
        except nbformat.ValidationError as exc:
            errors.append(PageError(page.rel, 1, f"the page's notebook is not a valid notebook "
                                    f"({exc.message})", "A snippet or record of the page is "
                                    "malformed; run scripts/snippets.py check"))
    return errors
