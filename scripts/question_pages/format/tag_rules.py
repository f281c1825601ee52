"""The tags a question page may use, declared once in `docs/tags.yml`, and the rules that keep
them useful to a reader.

A tag is a way to browse the bank: the site's Tags page lists, under each tag, every question that
carries it. A tag that names a single question groups nothing, and a tag spelled a new way on each
page splits one concept into many; both crept in while pages were written one at a time. So the
tags are declared in one list, each with what a reader finds under it, and the checks here say:

- a page uses only declared tags, at most MAX_TAGS_PER_PAGE of them, each once;
- a declared tag names at least two pages, unless its entry says with `single:` why a reader
  browses that one page by it;
- a declared tag names at least one page (an unused entry is a concept the bank does not have).

The page checks read the `Page` objects the site check already parsed; the counts are only made
when every question page parsed, since a page that did not would make its tags look unused.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml
from pymdownx.slugs import slugify

from question_pages.format.model import Page, PageError

TAGS_FILE = "tags.yml"  # under docs/
MAX_TAGS_PER_PAGE = 4  # more than this and a tag no longer says what the question is about
PLACEHOLDER = "TODO"  # the scaffold's tag; the placeholder rule already reports it
STOP_WORDS = frozenset({"torch", "with", "from"})
STEM_LENGTH = 6
FIELDS = ("name", "description", "single")
ENTRY_HINT = ("Write one '- name: <tag>' entry per tag, with 'description: <what a reader finds "
              "under it>' below it (and 'single: <why>' for a tag on one page only)")
# Material's tags plugin anchors a tag on the Tags page with its default `tags_slugify`
# (pymdownx's slugify, lowercase, '-' between words); two names with one slug share an anchor.
_MATERIAL_SLUG = slugify(case="lower")


def tag_slug(name: str) -> str:
    """The anchor of a tag on the Tags page, as Material's tags plugin makes it (`#tag:<slug>`)."""
    return _MATERIAL_SLUG(name, "-")


@dataclass(frozen=True)
class DeclaredTag:
    name: str
    description: str
    single: str | None  # why a tag on one page is kept; None when it must group pages
    line: int  # the entry's first line in tags.yml, for errors


def tags_path(docs_dir: Path) -> Path:
    return docs_dir / TAGS_FILE


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _read_entry(node: yaml.Node, index: int, rel: str,
                errors: list[PageError]) -> dict[str, tuple[str, int]] | None:
    """One entry's fields as {field: (text, line)}, or None after reporting why it is not one."""
    if not isinstance(node, yaml.MappingNode):
        errors.append(PageError(rel, _line(node), f"entry {index} is not a 'name' and a "
                                "'description'", ENTRY_HINT))
        return None
    fields: dict[str, tuple[str, int]] = {}
    for key_node, value_node in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key not in FIELDS:
            errors.append(PageError(rel, _line(key_node), f"entry {index} has an unknown field "
                                    f"'{key}'", f"Use only {', '.join(FIELDS)}"))
            return None
        if key in fields:
            errors.append(PageError(rel, _line(key_node), f"entry {index} gives '{key}' twice "
                                    f"(first on line {fields[key][1]})", "Keep one"))
            return None
        text = value_node.value.strip() if isinstance(value_node, yaml.ScalarNode) else ""
        if not text or "\n" in text:
            errors.append(PageError(rel, _line(value_node), f"'{key}' of entry {index} is not "
                                    "one line of text", f"Write it as '{key}: <text>' on one line"))
            return None
        fields[key] = (text, _line(key_node))
    missing = [field for field in ("name", "description") if field not in fields]
    if missing:
        errors.append(PageError(rel, _line(node), f"entry {index} has no '{missing[0]}'",
                                ENTRY_HINT))
        return None
    return fields


def load_tags(root: Path, docs_dir: Path) -> tuple[list[DeclaredTag], list[PageError]]:
    """The declared tags in their order, and every problem of the file (each with its line).

    The file is read as YAML nodes rather than plain data so that each problem points at its own
    line, as the page errors do."""
    path = tags_path(docs_dir)
    rel = _rel(path, root)
    if not path.is_file():
        return [], [PageError(rel, 1, f"{rel} is missing", f"Create it. {ENTRY_HINT}")]
    text = path.read_text(encoding="utf-8")
    try:
        document = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or exc
        # An unclosed bracket is found at the end of the stream: name the file's last line.
        line = min(mark.line + 1, max(len(text.splitlines()), 1)) if mark else 1
        return [], [PageError(rel, line, f"not valid YAML ({problem})",
                              f"{ENTRY_HINT}; quote a value that contains ': ' or ' #'")]
    if not isinstance(document, yaml.SequenceNode) or not document.value:
        return [], [PageError(rel, _line(document) if document else 1, "no tags are declared",
                              ENTRY_HINT)]
    tags: list[DeclaredTag] = []
    errors: list[PageError] = []
    names: dict[str, int] = {}
    slugs: dict[str, DeclaredTag] = {}
    for index, node in enumerate(document.value, start=1):
        fields = _read_entry(node, index, rel, errors)
        if fields is None:
            continue
        name, name_line = fields["name"]
        slug = tag_slug(name)
        if name in names:
            errors.append(PageError(rel, name_line, f"tag '{name}' is declared twice (first on "
                                    f"line {names[name]})", "Keep one entry"))
            continue
        if not slug:
            errors.append(PageError(rel, name_line, f"tag '{name}' has no letters or digits, so "
                                    "the Tags page cannot link to it", "Name it with words"))
            continue
        if slug in slugs:
            other = slugs[slug]
            errors.append(PageError(rel, name_line, f"tags '{other.name}' (line {other.line}) and "
                                    f"'{name}' share the anchor #tag:{slug} on the Tags page",
                                    "They are one concept: keep one name"))
            continue
        single = fields["single"][0] if "single" in fields else None
        tag = DeclaredTag(name, fields["description"][0], single, _line(node))
        names[name] = tag.line
        slugs[slug] = tag
        tags.append(tag)
    return tags, errors


def close_tags(tag: str, declared: Iterable[str], limit: int = 3) -> list[str]:
    """Declared names a mistyped or retired tag most likely meant, best first: the same name in
    another case or spacing alone ('dynamic_shapes' -> 'Dynamic shapes'); else names close in
    spelling ('Perfomance'), then names sharing the start of a word, in declaration order
    ('recompiles' -> 'Guards and recompilation', 'custom_op' -> 'Custom operators')."""
    names = list(declared)
    wanted = _fold(tag)
    by_fold = {_fold(name): name for name in names}
    if wanted in by_fold:
        return [by_fold[wanted]]
    hits = [by_fold[f] for f in difflib.get_close_matches(wanted, list(by_fold), n=limit,
                                                          cutoff=0.8)]
    words = _words(wanted)
    hits += [name for name in names if name not in hits
             and any(_same_stem(a, b) for a in words for b in _words(_fold(name)))]
    return hits[:limit]


def _fold(text: str) -> str:
    return re.sub(r"[\s_.-]+", " ", text.casefold()).strip()


def _words(folded: str) -> list[str]:
    """The words that can say what a tag is about (not 'and', not 'torch', which all tags share)."""
    return [w for w in re.findall(r"[a-z0-9]+", folded) if len(w) > 3 and w not in STOP_WORDS]


def _same_stem(a: str, b: str) -> bool:
    """'recompiles' and 'recompilation', 'guard' and 'guards': the same first letters, up to
    STEM_LENGTH of them (so 'dynamo' and 'dynamic' differ)."""
    length = min(STEM_LENGTH, len(a), len(b))
    return a[:length] == b[:length]


def _page_tags(page: Page) -> list[str] | None:
    """The page's tags, or None when the field is absent or malformed (validate reports that)."""
    tags = page.meta.get("tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) and t.strip()
                                                         for t in tags):
        return None
    return [t.strip() for t in tags]


def _page_errors(page: Page, tags: list[str], declared: dict[str, DeclaredTag],
                 tags_rel: str) -> list[PageError]:
    line = page.meta_lines.get("tags", 1)
    errors = []
    seen: set[str] = set()
    for tag in tags:
        if PLACEHOLDER in tag:
            continue
        if tag in seen:
            errors.append(PageError(page.rel, line, f"tag '{tag}' is listed twice", "Keep one"))
            continue
        seen.add(tag)
        if tag in declared:
            continue
        close = close_tags(tag, declared)
        if close:
            fix = ("Use the declared tag " + " or ".join(f"'{name}'" for name in close)
                   + f" ({tags_rel} lists them all with what each groups)")
        else:
            fix = f"Use a tag declared in {tags_rel}, where each says what it groups"
        errors.append(PageError(page.rel, line, f"tag '{tag}' is not declared in {tags_rel}",
                                f"{fix}; a new concept that groups several questions gets a "
                                "'- name:' entry there, with its description"))
    if len(tags) > MAX_TAGS_PER_PAGE:
        errors.append(PageError(page.rel, line, f"the page has {len(tags)} tags; at most "
                                f"{MAX_TAGS_PER_PAGE} are allowed", "Keep the concepts a reader "
                                "would browse to find this question, and drop the rest"))
    return errors


def _usage_errors(tags: list[DeclaredTag], users: dict[str, list[str]],
                  tags_rel: str) -> list[PageError]:
    errors = []
    for tag in tags:
        pages = users.get(tag.name, [])
        if not pages:
            errors.append(PageError(tags_rel, tag.line, f"tag '{tag.name}' is declared but no "
                                    "page uses it", "Add it to the 'tags:' of the questions it "
                                    "groups, or remove its entry"))
        elif len(pages) == 1 and tag.single is None:
            errors.append(PageError(tags_rel, tag.line, f"tag '{tag.name}' names one page only "
                                    f"({pages[0]}), so it groups nothing", "Add it to the other "
                                    "questions it fits; or tag that page with a broader declared "
                                    "tag and remove this entry; or, if a reader does browse "
                                    "by it, say why in a 'single: <reason>' line of the entry"))
    return errors


def tag_errors(root: Path, docs_dir: Path, pages: list[Page], *,
               complete: bool = True) -> list[PageError]:
    """Every tag problem of the site. `complete`: every question page parsed into `pages`; when
    one did not, which tags are used is not known, so the per-tag counts are not checked."""
    declared, errors = load_tags(root, docs_dir)
    if errors:
        return errors  # the pages' tags cannot be judged against a list that cannot be read
    tags_rel = _rel(tags_path(docs_dir), root)
    by_name = {tag.name: tag for tag in declared}
    users: dict[str, list[str]] = {}
    for page in sorted(pages, key=lambda p: p.rel):
        page_tags = _page_tags(page)
        if page_tags is None:
            continue
        errors += _page_errors(page, page_tags, by_name, tags_rel)
        for tag in dict.fromkeys(page_tags):
            users.setdefault(tag, []).append(page.rel)
    if complete:
        errors += _usage_errors(declared, users, tags_rel)
    return errors
