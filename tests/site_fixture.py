"""Build a small but real copy of the site: the project's config, hooks and theme, two fixture
pages, real snippets recorded by the real engine, and one CUDA record made for the tests."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import ROOT, mkdocs_env, run_cli
from question_pages.format.loading import question_page_paths
from question_pages.sitewide.downloads import question_notebook_uri

FIXTURES = Path(__file__).parent / "question_pages" / "fixtures"
SNIPPETS = {
    "fixture_tensor.py": ('import torch\ntorch.manual_seed(0)\nprint(torch.randn(3))\n'
                          'print("<script>alert(1)</script>")\n'),
    "fixture_plain.py": "print('plain output, no CUDA record')\n",
    "fixture_old.py": "print('recorded on CUDA with an older torch')\n",
    "fixture_error.py": "#| expect: RuntimeError\n#| devices: cpu\nimport torch\n"
                        "print('multiplying')\ntorch.ones(2) @ torch.ones(3)\n",
    # Prints a message shaped like torch's, with its debugging boilerplate, for the page to fold.
    "fixture_folded.py": "#| timeout: 60\n#| devices: cpu\n\nprint('RuntimeError: the point of it')\n"
                         "print('Caused by: the line that explains it')\n"
                         "print('  File \"snippets/export/fixture_folded.py\", line 5, in <module>')\n"
                         "print('For more information, run with TORCH_LOGS=\"dynamic\"')\n"
                         "print('For more debugging help, see https://example.invalid/doc')\n"
                         "print('For C++ stack trace, run with TORCHDYNAMO_EXTENDED_DEBUG_CPP=1')\n"
                         "print('Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace')\n"
                         "print('after the hints')\n",
    # CUDA only: a CPU machine cannot record it, so the page says it awaits the GPU workflow.
    "fixture_gpu_only.py": "#| devices: cuda\nimport torch\nprint(torch.cuda.get_device_name())\n",
}
FIXTURE_CUDA_HARDWARE = "NVIDIA H200 (test fixture), CUDA 13.0"


def make_site_source(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copy(ROOT / "requirements.txt", dest / "requirements.txt")
    # The npm package the build ships (site_vendor), as installed by `npm ci`.
    shutil.copy(ROOT / "package.json", dest / "package.json")
    shutil.copytree(ROOT / "node_modules" / "ts-fsrs", dest / "node_modules" / "ts-fsrs")
    shutil.copy(ROOT / "CONTRIBUTING.md", dest / "CONTRIBUTING.md")
    shutil.copytree(ROOT / "scripts", dest / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "docs", dest / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    # Every topic's question pages go, whichever topics exist; their index pages stay.
    removed = set()
    for page in question_page_paths(dest / "docs"):
        removed.add(page.relative_to(dest / "docs").as_posix())
        removed.add(question_notebook_uri(page.relative_to(dest / "docs").with_suffix("").as_posix()))
        page.unlink()
    # The drills' pages go too (their files are in snippets/drills/, which the fixture leaves
    # out); the drills' index page stays, and lists none.
    for page in (dest / "docs" / "drills").glob("*.md"):
        if page.name != "index.md":
            removed.add(page.relative_to(dest / "docs").as_posix())
            page.unlink()
    for page in FIXTURES.glob("*.md"):
        shutil.copy(page, dest / "docs" / "export" / page.name)
    shutil.copy(FIXTURES / "tags.yml", dest / "docs" / "tags.yml")  # the real tags name real pages
    ledger = dest / "docs" / "published-urls.txt"
    keep = [line for line in ledger.read_text().splitlines() if line.strip() not in removed]
    fixtures = ["export/good-page", "export/other-page"]
    ledger.write_text("\n".join([*keep, *(f"{p}.md" for p in fixtures),
                                 *(question_notebook_uri(p) for p in fixtures)]) + "\n")
    (dest / "snippets" / "export").mkdir(parents=True)
    for name, text in SNIPPETS.items():
        (dest / "snippets" / "export" / name).write_text(text)
    done = run_cli("run", root=dest)
    assert done.returncode == 0, done.stderr
    add_cuda_fixture_record(dest)
    return dest


def add_cuda_fixture_record(root: Path) -> None:
    """CUDA records as a GPU runner would write them (tests only): one made with the pinned torch,
    one made with another torch, which the page must label."""
    sys.path.insert(0, str(root / "scripts"))
    from snippet_engine.records.cachekey import compute_key
    from snippet_engine.records.environment import Environment
    from snippet_engine.records.record_file import read_record, write_atomic
    from snippet_engine.source.discovery import discover

    for name, torch_version in (("fixture_tensor.py", "2.13.0+cu130"),
                                ("fixture_old.py", "2.12.0+cu126")):
        snippet = next(s for s in discover(root) if s.path.name == name)
        cpu = read_record(snippet.record_path("cpu"))
        env = Environment("cuda", torch_version, cpu.python, FIXTURE_CUDA_HARDWARE)
        key, _ = compute_key(snippet, env, root)
        cuda = dataclasses.replace(cpu, device="cuda", key=key, torch=env.torch_version,
                                   hardware=FIXTURE_CUDA_HARDWARE,
                                   output=cpu.output + "device: cuda:0\n")
        write_atomic(snippet.record_path("cuda"), cuda.render())


def build(root: Path, strict: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *(["--strict"] if strict else []),
         "-f", str(root / "mkdocs.yml"), "-d", str(root / "site")],
        capture_output=True, text=True, env=mkdocs_env(), cwd=root, timeout=600, check=False)
