"""The terms of reuse say the same everywhere a reader may meet them: the licence files, the README,
every page's footer, the downloads and questions.json."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import yaml

from helpers import ROOT
from question_pages.sitewide.licences import CODE, CONTENT, attribution, licence_entry

SITE_URL = "https://pytorch-interview-questions.github.io/"
# The unmodified plain-text legal code of CC BY 4.0, as Creative Commons publishes it.
CC_BY_4_SHA256 = "d26e56663498f0f17dbcb8a9bd50d344828948be08265f4fc97b4fc612e9be71"


def test_the_licence_files_hold_the_full_texts() -> None:
    mit = (ROOT / CODE.file).read_text(encoding="utf-8")
    assert mit.startswith("MIT License\n\nCopyright (c) ")
    assert "Permission is hereby granted, free of charge, to any person obtaining a copy" in mit
    content = (ROOT / CONTENT.file).read_bytes()
    assert content.startswith(b"Creative Commons Attribution 4.0 International Public License")
    assert hashlib.sha256(content).hexdigest() == CC_BY_4_SHA256


def test_the_readme_names_both_licences_and_their_files() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Licence"):]
    for licence in (CODE, CONTENT):
        assert f"]({licence.file})" in section
    flowing = " ".join(section.split())
    assert "MIT License" in flowing and "CC BY 4.0" in flowing
    assert "`snippets/`" in section and "`questions.json`" in section


def test_every_page_footer_states_both(real_site: Path) -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert f'<a href="{CONTENT.url}">{CONTENT.short}</a>' in config["copyright"]
    assert f'<a href="{CODE.url}">{CODE.short}</a>' in config["copyright"]
    for page in ("index.html", "export/graph-signature/index.html", "questions/index.html"):
        built = (real_site / page).read_text(encoding="utf-8")
        footer = built[built.index('<footer class="md-footer">'):]
        copyright_text = re.search(r'<div class="md-copyright__highlight">(.*?)</div>', footer,
                                   re.DOTALL)
        assert copyright_text, page
        assert " ".join(copyright_text.group(1).split()) == " ".join(config["copyright"].split())


def test_questions_json_and_the_downloads_state_both(real_site: Path) -> None:
    index = json.loads((real_site / "questions.json").read_text(encoding="utf-8"))
    assert index["license"] == licence_entry("PyTorch Interview Questions", SITE_URL)
    assert index["license"]["content"]["spdx"] == "CC-BY-4.0"
    assert index["license"]["code"]["spdx"] == "MIT"
    assert index["license"]["attribution"] == (
        f'"PyTorch Interview Questions" ({SITE_URL}), CC BY 4.0')
    assert attribution("X", "https://x.org/p/") == '"X" (https://x.org/p/), CC BY 4.0'
    progress = (real_site / "progress" / "index.html").read_text(encoding="utf-8")
    assert f'under <a href="{CONTENT.url}">CC BY 4.0</a>, crediting this site' in progress
