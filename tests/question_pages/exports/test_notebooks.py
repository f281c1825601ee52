"""The notebooks: one per question and one per topic, built with nbformat from the records.

They validate and build byte-identically; a question's notebook runs top to bottom with nbclient
in an empty folder (its helper module written by the notebook itself, its expected error tagged
so that running goes on) and prints what the records say; a snippet that needs a fresh
interpreter runs in one; and each question page links its notebook as a download.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import sys
from pathlib import Path

import markdown
import nbclient
import nbformat
import pytest
from jupyter_client.manager import KernelManager

from helpers import ROOT, run_cli, write
from question_pages.exports.notebooks import (
    CELL_DIR_PREFIX,
    RAISES_TAG,
    build_question_notebook,
    write_notebooks,
)
from question_pages.format.loading import load_pages
from question_pages.format.model import Page
from question_pages.format.parse import parse_page
from question_pages.format.topics import load_topics
from question_pages.render.page import notebook_link, render_page
from question_pages.render.snippet_blocks import split_expected_error
from question_pages.sitewide.catalog import titles
from question_pages.sitewide.downloads import question_notebook_uri
from snippet_engine.records.normalize import PathContext, normalize
from snippet_engine.records.record_file import Record, read_record
from snippet_engine.source.discovery import Snippet

# A question whose notebook has both an expected-error cell and a helper module.
EXECUTED = "export/unflatten-and-module-calls"
CELL_DIR = re.compile(rf"/[^\s'\"]*/{CELL_DIR_PREFIX}[^/\s'\"]+")


@pytest.fixture(scope="module")
def pages() -> list[Page]:
    """The repository's own pages (the site's checks report their problems, not these tests)."""
    return load_pages(ROOT)[0]


def _record(root: Path, rel: str) -> Record:
    record = read_record(Snippet(root / rel, rel).record_path("cpu"))
    assert record is not None, f"{rel} has no CPU record"
    return record


def _snippet_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [c for c in notebook.cells if c.cell_type == "code" and "snippet" in c.metadata]


def _execute(notebook: nbformat.NotebookNode, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run All, as Jupyter does, in `folder`: a cell that raises stops the run unless it is
    tagged raises-exception (nbclient's CellExecutionError). The kernel's temporary files (each
    cell's working folder) go under `folder` too, not into the machine's temp."""
    temp = folder.parent / f"{folder.name}-temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=600,
                            resources={"metadata": {"path": str(folder)}}).execute()


def _printed(cell: nbformat.NotebookNode, context: PathContext) -> str:
    """What a cell printed, then its error as Python prints it, normalised as records are (the
    kernel's addresses and paths replaced by the engine's placeholders; the cell's own working
    folder is what a record calls <cwd>)."""
    text = "".join(o.text for o in cell.outputs if o.output_type == "stream")
    errors = [o for o in cell.outputs if o.output_type == "error"]
    if errors:
        text += f"{errors[0].ename}: {errors[0].evalue}\n"
    return normalize(CELL_DIR.sub("<cwd>", text), context)


def _recorded(record: Record) -> str:
    """The record's output, its error named as a kernel names it (the class, not its module)."""
    if record.status != "expected-error":
        return record.output
    printed, error = split_expected_error(record)
    return printed + error.removeprefix(record.error_type.rpartition(".")[0] + ".")


# -- (a) valid, and byte-identical from one build to the next ---------------------------------

def test_every_notebook_validates_and_two_builds_are_identical(pages: list[Page],
                                                              tmp_path: Path) -> None:
    topics = [t.id for t in load_topics(ROOT / "docs")]
    first = write_notebooks(pages, ROOT, tmp_path / "one", topics)
    second = write_notebooks(pages, ROOT, tmp_path / "two", topics)
    expected = {f"notebooks/{t}.ipynb" for t in topics} | {
        question_notebook_uri(p.page_id) for p in pages}
    assert {p.relative_to(tmp_path / "one").as_posix() for p in first} == expected
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), f"{a.name} differs between two builds"
        nbformat.validate(nbformat.reads(a.read_text(encoding="utf-8"), as_version=4))


def test_a_notebook_left_by_an_earlier_build_is_removed(pages: list[Page], tmp_path: Path) -> None:
    old = tmp_path / "notebooks" / "export" / "a-page-since-moved.ipynb"
    old.parent.mkdir(parents=True)
    old.write_text("{}")
    write_notebooks(pages[:1], ROOT, tmp_path, [])
    assert not old.exists()


def test_question_notebook_holds_page_snippets_records_tags_and_helpers(pages: list[Page]) -> None:
    page = next(p for p in pages if p.page_id == EXECUTED)
    notebook = build_question_notebook(page, ROOT, page_url="https://example.org/export/x/")
    intro = notebook.cells[0].source
    assert intro.startswith(f"# {page.question}\n") and "(https://example.org/export/x/)" in intro
    assert "torch 2.13.0" in intro and notebook.metadata["torch_recorded"] == "2.13.0"
    cells = _snippet_cells(notebook)
    refs = [c.metadata["snippet"] for c in cells]
    in_page = re.findall(r'\{\{ snippet\("([^"]+)"\) \}\}', page.path.read_text(encoding="utf-8"))
    assert refs == [f"snippets/{ref}" for ref in dict.fromkeys(in_page)]
    for cell in cells:
        record = _record(ROOT, cell.metadata["snippet"])
        source = (ROOT / cell.metadata["snippet"]).read_text(encoding="utf-8")
        assert cell.source == source.rstrip("\n")  # `#|` option lines kept, as comments
        tagged = RAISES_TAG in cell.metadata.get("tags", [])
        assert tagged == (record.status == "expected-error")
        kinds = [o.output_type for o in cell.outputs]
        assert kinds[-1:] == (["error"] if tagged else ["stream"])
    # The helper module is written first, byte for byte, by a %%writefile cell.
    helper = ROOT / "snippets/export/_unflatten_models.py"
    first_code = next(c for c in notebook.cells if c.cell_type == "code")
    assert first_code.source == f"%%writefile {helper.name}\n{helper.read_text(encoding='utf-8')}"
    # Each expected error is announced above its cell.
    about = [c.source for c in notebook.cells if c.cell_type == "markdown"]
    assert any("**Raises `TypeError` on purpose**" in text for text in about)


# -- (b) Run All on the pinned torch prints what the records say ------------------------------

def test_kernel_is_this_venv_python() -> None:
    command = KernelManager(kernel_name="python3").format_kernel_cmd()
    assert Path(command[0]) == Path(sys.executable)
    assert command[1:3] == ["-m", "ipykernel_launcher"]


def test_question_notebook_runs_to_the_end_and_prints_its_records(
        pages: list[Page], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Compared after normalising with the engine's own `normalize` (addresses, paths), every
    snippet cell of the notebook: none of them prints a timing."""
    page = next(p for p in pages if p.page_id == EXECUTED)
    notebook = build_question_notebook(page, ROOT)
    assert not list(tmp_path.iterdir())  # an empty folder, as a reader's
    _execute(notebook, tmp_path, monkeypatch)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), "Run All stopped before the end"
    helper = ROOT / "snippets/export/_unflatten_models.py"
    assert (tmp_path / helper.name).read_bytes() == helper.read_bytes()
    context = PathContext.build(ROOT, work_dir=tmp_path)
    cells = _snippet_cells(notebook)
    assert any(RAISES_TAG in c.metadata.get("tags", []) for c in cells)
    for cell in cells:
        record = _record(ROOT, cell.metadata["snippet"])
        assert _printed(cell, context) == _recorded(record), cell.metadata["snippet"]


# -- seeding, fresh interpreters and __file__ -------------------------------------------------

FRESH_PAGE = """---
question: "Does each kind of snippet run as the engine ran it?"
---

## Code

{{ snippet("t/random_a.py") }}

{{ snippet("t/random_b.py") }}

{{ snippet("t/env_at_import.py") }}

{{ snippet("t/fresh_raises.py") }}

## Explainer

{{ snippet("t/names_file.py") }}

{{ snippet("t/fresh_names_file.py") }}
"""
RANDOM = ("import os\nimport random\nimport torch\nrandom.seed(0)\ntorch.manual_seed(0)\n"
          "print(os.listdir('.'), random.random(), torch.randn(2))\nopen('written.txt', 'w').close()\n")
FRESH_SNIPPETS = {
    # Each seeds itself and runs in an empty folder: the second prints what the first did.
    "random_a.py": RANDOM,
    "random_b.py": RANDOM,
    # TORCH_SHOW_CPP_STACKTRACES is read when torch is imported: the engine runs it fresh.
    "env_at_import.py": 'import os\nos.environ["TORCH_SHOW_CPP_STACKTRACES"] = "1"\n'
                        "import sys\nprint('torch imported before me:', 'torch' in sys.modules)\n"
                        "import torch\nprint('imported torch', torch.__version__.split('+')[0])\n",
    "fresh_raises.py": "#| fresh: true\n#| expect: ValueError\nimport sys\n"
                       "print('torch imported before me:', 'torch' in sys.modules)\n"
                       "raise ValueError('on purpose')\n",
    "names_file.py": "import os\nprint('I am', os.path.basename(__file__))\n",
    "fresh_names_file.py": "#| fresh: true\nimport os\nprint('I am', os.path.basename(__file__))\n",
}


@pytest.fixture(scope="module")
def fresh_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fresh") / "repo"
    root.mkdir()
    shutil.copy(ROOT / "requirements.txt", root / "requirements.txt")
    for name, text in FRESH_SNIPPETS.items():
        write(root, f"snippets/t/{name}", text)
    done = run_cli("run", root=root)
    assert done.returncode == 0, done.stdout + done.stderr
    write(root, "docs/t/fresh.md", FRESH_PAGE)
    return root


def test_each_kind_of_snippet_prints_its_record(fresh_repo: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The set-up cell seeds before every cell and gives it an empty folder, as the engine does
    for every snippet. A
    kernel that imported torch (the set-up cell) cannot honour a variable torch reads at
    import: `%%script "{sys.executable}"` runs the cell in a new interpreter of the same Python
    and nbclient shows its output. A snippet that names __file__ is written to its file and
    %run (or given to the new interpreter). Each prints what the engine recorded."""
    page = parse_page(fresh_repo / "docs/t/fresh.md", fresh_repo / "docs")
    notebook = build_question_notebook(page, fresh_repo)
    cells = {c.metadata["snippet"]: c for c in _snippet_cells(notebook)}
    env, raises = cells["snippets/t/env_at_import.py"], cells["snippets/t/fresh_raises.py"]
    assert env.source.startswith('%%script "{sys.executable}"\n')
    assert raises.source.startswith('%%script "{sys.executable}"\n#| fresh: true\n')
    assert raises.metadata["tags"] == [RAISES_TAG]
    assert cells["snippets/t/names_file.py"].source == "%run -m names_file"
    assert cells["snippets/t/fresh_names_file.py"].source == \
        '%%script "{sys.executable}" -m fresh_names_file\n# runs the file written above'
    _execute(notebook, tmp_path, monkeypatch)
    context = PathContext.build(fresh_repo, work_dir=tmp_path)
    assert _record(fresh_repo, "snippets/t/random_a.py").output == \
        _record(fresh_repo, "snippets/t/random_b.py").output
    for rel in ("snippets/t/random_a.py", "snippets/t/random_b.py", "snippets/t/env_at_import.py",
                "snippets/t/names_file.py", "snippets/t/fresh_names_file.py"):
        assert _printed(cells[rel], context) == _record(fresh_repo, rel).output, rel
    assert "torch imported before me: False" in _record(fresh_repo, "snippets/t/env_at_import.py").output
    # The expected error comes from the subprocess: its traceback, then CalledProcessError.
    streams = "".join(o.text for o in raises.outputs if o.output_type == "stream")
    assert "torch imported before me: False" in streams and "ValueError: on purpose" in streams
    assert [o.ename for o in raises.outputs if o.output_type == "error"] == ["CalledProcessError"]


# -- (c) the page links its notebook ----------------------------------------------------------

def test_question_page_links_its_notebook_as_a_download(pages: list[Page]) -> None:
    page = next(p for p in pages if p.page_id == EXECUTED)
    rendered = render_page(page, ROOT, titles(pages))
    code = rendered[rendered.index("## Code {#code}"):rendered.index("## Go deeper")]
    line = notebook_link(page)
    assert line in code and rendered.count(line) == 1
    html = markdown.markdown(line, extensions=["attr_list"])
    href = "../notebooks/export/unflatten-and-module-calls.ipynb"
    assert f'<a download href="{href}">download the notebook</a>' in html
    # Relative to the page's source, it names the file the build writes.
    assert posixpath.normpath(posixpath.join("export", href)) == question_notebook_uri(EXECUTED)


def test_built_site_serves_question_notebooks_as_files(built_site: Path) -> None:
    """mkdocs-jupyter's `notebooks/*.ipynb` renders only the topic notebooks: a question's
    notebook is copied as it is, and its page's link reaches it."""
    notebook = built_site / "notebooks" / "export" / "good-page.ipynb"
    data = json.loads(notebook.read_text(encoding="utf-8"))
    assert data["cells"][0]["source"][0].startswith("# ")
    assert not (built_site / "notebooks" / "export" / "good-page" / "index.html").exists()
    page = (built_site / "export" / "good-page" / "index.html").read_text(encoding="utf-8")
    assert '<a download href="../../notebooks/export/good-page.ipynb">' in page


def test_a_cuda_only_snippet_is_a_tagged_cell_without_output(site_source: Path) -> None:
    """On the fixture site, other-page shows a `#| devices: cuda` snippet with no record: its
    cell has no output, says it awaits the GPU workflow, and is tagged so that Run All on a
    machine without CUDA goes on."""
    page = parse_page(site_source / "docs/export/other-page.md", site_source / "docs")
    notebook = build_question_notebook(page, site_source, page_url="https://example.org/x/")
    cells = notebook.cells
    index = next(i for i, c in enumerate(cells)
                 if c.metadata.get("snippet") == "snippets/export/fixture_gpu_only.py")
    cell, about = cells[index], cells[index - 1].source
    assert cell.outputs == [] and cell.metadata["tags"] == [RAISES_TAG]
    assert "It runs on CUDA only" in about and "none is recorded yet" in about
    assert f"tagged `{RAISES_TAG}` and Run All goes on" in about
