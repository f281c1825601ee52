"""Every rule of the page format, each reported with the file, the line, what and how to fix it.

The same checks run in `mkdocs build` (through the hooks), in `scripts/check_pages.py` and in the
tests, so a broken page cannot reach the site. The rules are grouped as a reader meets them: the
front matter, the order of the sections, then one method per section (`SECTION_RULES`), then the
snippets and links wherever they appear.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import cache
from pathlib import Path

from markdown.extensions.toc import slugify

from question_pages.format.ids import id_problem, suggested_name
from question_pages.format.markers import (
    HELPER_LINE,
    SNIPPET_ATTEMPT,
    SNIPPET_LINE,
    helper_refs,
    snippet_refs,
)
from question_pages.format.model import (
    ANCHORS,
    FRONT_MATTER_KEYS,
    GENERATED_ANCHORS,
    GO_DEEPER_LEVELS,
    IMPORTANCE,
    LEVELS,
    MAX_ALIAS_CHARS,
    MAX_SEARCH_ALIASES,
    OPTIONAL_FRONT_MATTER_KEYS,
    SECTION_TITLES,
    SNIPPET_SECTIONS,
    WORD_RANGES,
    Page,
    PageError,
    Section,
)
from question_pages.format.parse import BULLET, LINK, bullet_items, page_anchors, parse_page, words
from question_pages.format.ties import (
    SYNTAX,
    Tie,
    find_source,
    installed_release,
    line_ties,
    malformed,
    site_packages,
)
from snippet_engine.records.pins import pinned_minor, pinned_torch
from snippet_engine.records.status import SnippetOptionError, StatusBook


class _Checker:
    def __init__(self, page: Page, root: Path, page_ids: set[str], book: StatusBook,
                 previewed: Collection[str] = ()) -> None:
        self.page, self.root, self.page_ids, self.book = page, root, page_ids, book
        self.previewed = previewed  # snippets whose failed run a live preview shows instead
        self.errors: list[PageError] = []

    def error(self, line: int, what: str, fix: str) -> None:
        self.errors.append(PageError(self.page.rel, line, what, fix))

    def meta_line(self, key: str) -> int:
        return self.page.meta_lines.get(key, 1)

    # -- front matter -------------------------------------------------------------------------
    def front_matter(self) -> None:
        meta = self.page.meta
        for key in meta:
            if key not in FRONT_MATTER_KEYS + OPTIONAL_FRONT_MATTER_KEYS:
                self.error(self.meta_line(key), f"unknown front matter field '{key}'",
                           f"Use only: {', '.join(FRONT_MATTER_KEYS + OPTIONAL_FRONT_MATTER_KEYS)}")
        for key in FRONT_MATTER_KEYS:
            if key not in meta:
                self.error(2, f"the front matter lacks '{key}'",
                           "Add it; see the page format in CONTRIBUTING.md")
        question = meta.get("question")
        if "question" in meta and (not isinstance(question, str) or not question.strip().endswith("?")):
            self.error(self.meta_line("question"), "the question must be text ending in '?'",
                       "Write the question as an interviewer would ask it")
        if "level" in meta and meta["level"] not in LEVELS:
            self.error(self.meta_line("level"), f"unknown level '{meta['level']}'",
                       f"Use one of: {', '.join(LEVELS)}")
        if "importance" in meta and meta["importance"] not in IMPORTANCE:
            self.error(self.meta_line("importance"), f"unknown importance '{meta['importance']}'",
                       f"Use one of: {', '.join(IMPORTANCE)}")
        frequency = meta.get("frequency")
        if "frequency" in meta and (isinstance(frequency, bool) or not isinstance(frequency, int)):
            self.error(self.meta_line("frequency"), f"frequency '{frequency}' is not a whole number",
                       "Give the editor's estimate as a whole number from 0 to 100 (percent)")
        elif isinstance(frequency, int) and not 0 <= frequency <= 100:
            self.error(self.meta_line("frequency"), f"frequency '{frequency}' is out of range",
                       "Give the editor's estimate as a whole number from 0 to 100 (percent)")
        folder = self.page.page_id.split("/")[0]
        if "topic" in meta and meta["topic"] != folder:
            self.error(self.meta_line("topic"), f"topic '{meta['topic']}' does not match the "
                       f"folder docs/{folder}/", f"Set 'topic: {folder}' or move the page")
        tags = meta.get("tags")
        if "tags" in meta and (not isinstance(tags, list) or not tags
                               or not all(isinstance(t, str) and t.strip() for t in tags)):
            self.error(self.meta_line("tags"), "tags must be a non-empty list of words",
                       "Write e.g. 'tags: [ExportedProgram, tracing]'")
        related = meta.get("related")
        if "related" in meta:
            if not isinstance(related, list):
                self.error(self.meta_line("related"), "related must be a list of page ids",
                           "Write e.g. 'related: [export/graph-signature]'")
            else:
                for item in related:
                    if item == self.page.page_id:
                        self.error(self.meta_line("related"), "a page lists itself as related",
                                   "Remove it")
                    elif item not in self.page_ids:
                        self.error(self.meta_line("related"),
                                   f"related question '{item}' does not exist",
                                   "Give a page as 'topic/slug' (docs/topic/slug.md without .md); "
                                   "known: " + ", ".join(sorted(self.page_ids))[:300])

        if "search_aliases" in meta:
            self._search_aliases(meta["search_aliases"])

    def _search_aliases(self, aliases: object) -> None:
        line = self.meta_line("search_aliases")
        example = "Write e.g. 'search_aliases: [DDP, DistributedDataParallel]'"
        if (not isinstance(aliases, list) or not aliases
                or not all(isinstance(a, str) and a.strip() for a in aliases)):
            self.error(line, "search_aliases must be a non-empty list of names", example)
            return
        if len(aliases) > MAX_SEARCH_ALIASES:
            self.error(line, f"search_aliases has {len(aliases)} names (at most "
                       f"{MAX_SEARCH_ALIASES})", "Keep the acronyms and other names of the page's "
                       "subject; the words of the page are searched already")
        seen: set[str] = set()
        for alias in aliases:
            if len(alias) > MAX_ALIAS_CHARS or "\n" in alias:
                self.error(line, f"search alias '{alias[:MAX_ALIAS_CHARS]}...' is not a name",
                           f"Give a name of at most {MAX_ALIAS_CHARS} characters on one line, "
                           "as a reader would type it")
            if alias.strip().casefold() in seen:
                self.error(line, f"search alias '{alias}' is given twice", "Remove one")
            seen.add(alias.strip().casefold())

    # -- sections -----------------------------------------------------------------------------
    def structure(self) -> None:
        for number, line in self.page.preamble:
            if line.startswith("# "):
                self.error(number, "the page has its own '# ' title",
                           "Remove it: the question from the front matter is the title")
                return
            if line.strip():
                self.error(number, "text before the first section",
                           "Move it into a section; the page starts with '## Short answer'")
                return
        seen: dict[str, int] = {}
        expected = list(SECTION_TITLES)
        position = 0
        for section in self.page.sections:
            if section.title not in SECTION_TITLES:
                close = [t for t in SECTION_TITLES if t.lower() == section.title.lower()]
                hint = f"Did you mean '## {close[0]}'?" if close else (
                    f"The sections are, in order: {', '.join(SECTION_TITLES)}")
                self.error(section.line, f"unknown section '## {section.title}'", hint)
                continue
            if section.title in seen:
                self.error(section.line, f"section '{section.title}' appears twice "
                           f"(first on line {seen[section.title]})", "Merge them into one")
                continue
            seen[section.title] = section.line
            index = expected.index(section.title)
            if index < position:
                self.error(section.line, f"section '{section.title}' is out of place",
                           f"Put it before '{expected[position]}'; the order is: "
                           + ", ".join(SECTION_TITLES))
            position = max(position, index)
        for title in SECTION_TITLES:
            if title not in seen:
                self.error(self._where_missing(title), f"section '## {title}' is missing",
                           f"Add it (anchor #{ANCHORS[title]}); see CONTRIBUTING.md")

    def _where_missing(self, title: str) -> int:
        index = SECTION_TITLES.index(title)
        later = [s.line for s in self.page.sections if s.title in SECTION_TITLES[index + 1:]]
        return min(later) if later else (self.page.sections[-1].line if self.page.sections
                                         else self.page.body_start)

    # -- one rule per section -------------------------------------------------------------------
    def contents(self) -> None:
        rules: dict[str, Callable[[Section], None]] = {
            "Short answer": self._short_answer, "Basics": self._spoken, "Solid answer": self._spoken,
            "Go deeper": self._go_deeper, "Explainer": self._explainer,
            "Follow-ups": self._follow_ups, "Red flags": self._red_flags, "Sources": self._sources,
        }
        for title in SECTION_TITLES:
            section = self.page.section(title)
            if section is None:
                continue  # reported by structure()
            if not section.text:
                self.error(section.line, f"section '{title}' is empty", "Write it")
                continue
            if title in rules:
                rules[title](section)

    def _short_answer(self, section: Section) -> None:
        bullets, others = bullet_items(section.body)
        if not 1 <= len(bullets) <= 5:
            self.error(section.line, f"the short answer has {len(bullets)} bullets",
                       "Give one to five bullets, each a few words")
        if others:
            self.error(others[0], "the short answer holds something other than bullets",
                       "Keep it to '- ' bullets; the detail goes in Basics and Solid answer")
        self._untied(section, "short-answer bullet", "the record line or torch source line that "
                     "proves it")

    def _spoken(self, section: Section) -> None:
        low, high = WORD_RANGES[section.title]
        count = words(section.text)
        if not low <= count <= high:
            self.error(section.line, f"'{section.title}' has {count} words; spoken at 150 "
                       f"words per minute it must have {low} to {high}",
                       "Cut or expand it" if count > high else "Expand it")
        if section.subsections:
            self.error(section.subsections[0].line, f"'{section.title}' has a subsection",
                       "Answers spoken aloud are plain paragraphs")

    def _sources(self, section: Section) -> None:
        if not LINK.search(section.text):
            self.error(section.line, "the sources section has no link",
                       f"Link the torch {pinned_minor(self.root)} documentation or source that "
                       "backs the claims")

    def _go_deeper(self, section: Section) -> None:
        titles = [sub.title for sub in section.subsections]
        if titles != list(GO_DEEPER_LEVELS):
            self.error(section.line, f"'Go deeper' has subsections {titles or 'none'}",
                       "Give exactly '### Junior', '### Middle', '### Senior', '### Principal', "
                       "in that order")
        if section.intro_text:
            self.error(section.intro[0][0] if section.intro else section.line,
                       "text before '### Junior' in 'Go deeper'", "Move it into a level")
        for sub in section.subsections:
            if not sub.text:
                self.error(sub.line, f"'{sub.title}' in 'Go deeper' is empty", "Write it")

    def _explainer(self, section: Section) -> None:
        if not section.subsections:
            self.error(section.line, "the explainer has no '###' sections",
                       "Split it into sections with '### ' headings")
        reserved = set(ANCHORS.values()) | set(GENERATED_ANCHORS)
        for sub in section.subsections:
            if slugify(sub.title, "-") in reserved:
                self.error(sub.line, f"explainer heading '{sub.title}' takes the anchor of a "
                           "section", "Rename it")

    def _follow_ups(self, section: Section) -> None:
        if not section.subsections:
            self.error(section.line, "no follow-up questions",
                       "Give each as '### The question?' with its answer below")
        if section.intro_text:
            self.error(section.intro[0][0], "text before the first follow-up",
                       "Each follow-up is a '### Question?' with its answer below")
        for sub in section.subsections:
            if not sub.title.endswith("?"):
                self.error(sub.line, f"follow-up '{sub.title}' is not a question",
                           "End it with '?'")
            if not sub.text:
                self.error(sub.line, f"follow-up '{sub.title}' has no answer",
                           "Write the answer below it")

    def _red_flags(self, section: Section) -> None:
        bullets, stray = bullet_items(section.body)
        if stray:
            self.error(stray[0], "red flags hold something other than bullets",
                       "Write each misconception as a '- ' bullet")
        if not bullets:
            self.error(section.line, "red flags must be bullets",
                       "Write each misconception as a '- ' bullet")
        for number, line in bullets:
            if not LINK.search(line):
                self.error(number, "this red flag does not link to where it is shown wrong",
                           "Add a link to the explainer section or page that refutes it")
        self._untied(section, "red flag's rebuttal", "the record line or torch source line that "
                     "shows the misconception wrong")

    def _untied(self, section: Section, what: str, evidence: str) -> None:
        """Each bullet of the section carries a tie (format/ties.py) on one of its lines: a short
        answer and a red flag are what a reader repeats, so each says where it is proven."""
        items: list[list[int]] = []
        for number, line in section.body:
            if BULLET.match(line):
                items.append([number])
            elif items and line.strip() and line.startswith((" ", "\t")):
                items[-1].append(number)
        for lines in items:
            if not any(line_ties(n, self.page.raw[n]) for n in lines if n in self.page.raw):
                self.error(lines[0], f"this {what} is not tied to its evidence",
                           f"End it with a tie to {evidence}: {SYNTAX} (CONTRIBUTING.md, Ties)")

    # -- snippets and links ------------------------------------------------------------------
    def snippets(self) -> None:
        refs = snippet_refs(self.page)
        code = self.page.section("Code")
        if code and not any(title == "Code" for _, _, title in refs):
            self.error(code.line, "the code section shows no snippet",
                       'Add a line {{ snippet("topic/name.py") }} naming a file under snippets/')
        for section in self.page.sections:
            for number, line in section.body:
                attempt = SNIPPET_ATTEMPT.search(line)
                if attempt and not (SNIPPET_LINE.match(line) or HELPER_LINE.match(line)):
                    self.error(number, f"malformed {attempt.group(1)} line",
                               f'Write it alone on its line: {{{{ {attempt.group(1)}("topic/name.py") }}}}')
        for number, ref, title in helper_refs(self.page):
            if title not in SNIPPET_SECTIONS:
                self.error(number, f"a helper module in '{title}'",
                           f"Show helpers in {', '.join(SNIPPET_SECTIONS)}")
            if not (self.root / "snippets" / ref).is_file():
                self.error(number, f"helper '{ref}' does not exist (looked for snippets/{ref})",
                           "Name a module under snippets/ that the snippets import")
        for number, ref, title in refs:
            if title not in SNIPPET_SECTIONS:
                self.error(number, f"a snippet in '{title}'",
                           f"Snippets go in {', '.join(SNIPPET_SECTIONS)}")
            try:
                status = self.book.status(ref)
                cpu = status.on("cpu")
            except FileNotFoundError:
                self.error(number, f"snippet '{ref}' does not exist (looked for snippets/{ref})",
                           "Create it, or fix the path (relative to snippets/)")
                continue
            except SnippetOptionError as exc:
                self.error(number, f"snippet '{ref}' has a bad option: {exc}", "Fix the snippet")
                continue
            if not cpu.declared:
                # CUDA only: this machine cannot record it, so its record may be missing (the
                # page says it awaits the GPU workflow) or stale (labelled so); a damaged one
                # was edited by hand and is never shown.
                cuda = status.on("cuda")
                if cuda.state == "damaged":
                    self.error(number, f"the CUDA record of snippets/{ref} is damaged ({cuda.why})",
                               "Restore it with git (git checkout -- the .cuda.txt file) or delete "
                               "it; the GPU workflow records it again")
                continue
            if cpu.state != "current" and f"snippets/{ref}" not in self.previewed:
                self.error(number, f"the CPU record of snippets/{ref} is {cpu.state} ({cpu.why})",
                           f"Run: python scripts/snippets.py run snippets/{ref}")

    def links(self) -> None:
        anchors = page_anchors(self.page)
        docs = self.page.path.parent
        for section in self.page.sections:
            for number, line in section.body:
                for target in LINK.findall(line):
                    if re.match(r"^[a-z]+:", target):
                        continue
                    path_part, _, anchor = target.partition("#")
                    if not path_part:
                        if anchor not in anchors:
                            self.error(number, f"link to '#{anchor}', which is not on this page",
                                       "Anchors here: " + ", ".join(sorted(anchors)))
                    elif path_part.endswith(".md") and not (docs / path_part).resolve().is_file():
                        self.error(number, f"link to '{path_part}', which does not exist",
                                   "Link another page by its file, e.g. graph-signature.md#basics")
                    elif path_part.endswith(".md") and anchor:
                        target_path = (docs / path_part).resolve()
                        stamp = target_path.stat()
                        docs_dir = self.page.path.parents[1]
                        target_id = target_path.relative_to(docs_dir).with_suffix("").as_posix()
                        there = (_question_page_anchors(target_path, docs_dir, stamp.st_mtime_ns,
                                                        stamp.st_size)
                                 if target_id in self.page_ids else None)
                        if there is not None and anchor not in there:
                            self.error(number, f"link to '{path_part}#{anchor}', an anchor that "
                                       "page does not have",
                                       "Link a section or explainer heading of it: "
                                       + ", ".join(sorted(there)))


    # -- ties -------------------------------------------------------------------------------
    def ties(self) -> None:
        """Each tie holds: its snippet is on this page and printed the fragment in the record of
        every device it names; its source file has the fragment in the installed pinned torch."""
        shown = {ref for _, ref, _ in snippet_refs(self.page)}
        for number, line in sorted(self.page.raw.items()):
            if malformed(line):
                self.error(number, "a tie this page cannot read", f"Write it as {SYNTAX}")
            for tie in line_ties(number, line):
                problem = (self._out_problem(tie, shown) if tie.kind == "out"
                           else self._source_problem(tie))
                if problem:
                    what, fix = problem
                    self.error(number, f"the tie of '{_quote(tie.sentence)}' does not hold: {what}",
                               fix)

    def _out_problem(self, tie: Tie, shown: set[str]) -> tuple[str, str] | None:
        if tie.ref not in shown:
            return (f"snippets/{tie.ref} is not shown on this page",
                    f'Show it here with {{{{ snippet("{tie.ref}") }}}}, or tie a snippet this page '
                    "shows: the mark links to the output line on the page")
        try:
            status = self.book.status(tie.ref)
        except (FileNotFoundError, SnippetOptionError):
            return None  # the snippet line's own error says what is wrong
        for device in tie.devices:
            if device not in status.devices:
                return (f"unknown device '{device}'",
                        f"Name devices among {', '.join(status.devices)}")
            on = status.on(device)
            if not on.declared:
                return (f"snippets/{tie.ref} does not run on {device} ({on.why})",
                        "Tie a device the snippet declares")
            if f"snippets/{tie.ref}" in self.previewed:
                return None  # its failed run is on the page, in the preview's banner
            if on.record is None or on.state != "current":
                return (f"its {device} record is {on.state}: a sentence may not claim an output "
                        "the site does not have",
                        "Tie a device whose record is current, or state the claim from the source "
                        "with a [[src ...]] tie" if device != "cpu"
                        else f"Run: python scripts/snippets.py run snippets/{tie.ref}")
            if tie.find(on.record.output) is None:
                return (f"{tie.fragment} is not in the {device} record of snippets/{tie.ref}",
                        "Copy the exact text from the record's output (or fix the sentence, if the "
                        "output changed)")
        return None

    def _source_problem(self, tie: Tie) -> tuple[str, str] | None:
        found = find_source(site_packages(), tie.ref, tie, installed_release("torch"))
        if isinstance(found, str):
            return (found, "Quote a fragment that is in the installed file, as it is written there "
                    "(the link goes to the line where it is found)")
        pinned = pinned_torch(self.root)
        if installed_release("torch") != pinned:
            return (f"the installed torch is {installed_release('torch')}, not the pinned {pinned}",
                    "Check the pages with the pinned torch installed (scripts/dev.sh setup)")
        return None


def _quote(sentence: str, limit: int = 80) -> str:
    return sentence if len(sentence) <= limit else sentence[:limit - 3] + "..."


@cache
def _question_page_anchors(path: Path, docs_dir: Path, mtime_ns: int,
                           size: int) -> frozenset[str] | None:
    """The anchors of another question page, or None when it does not parse (its own errors say
    why). Cached by the file's path, time and size, so that an edited page is read again."""
    try:
        return frozenset(page_anchors(parse_page(path, docs_dir)))
    except (ValueError, OSError):
        return None


def validate_page(page: Page, root: Path, page_ids: set[str], book: StatusBook,
                  previewed: Collection[str] = ()) -> list[PageError]:
    """Every problem of one parsed page. `page_ids`: the question pages that exist ('topic/slug'),
    for related questions and links; `book`: this build's snippet statuses."""
    checker = _Checker(page, root, page_ids, book, previewed)
    for number, line in enumerate(page.path.read_text(encoding="utf-8").split("\n"), start=1):
        if "TODO" in line:
            checker.error(number, "unfinished placeholder (TODO)", "Replace it with the real text")
    problem = id_problem(page.page_id)
    if problem:
        topic, _, slug = page.page_id.partition("/")
        renamed = f"docs/{suggested_name(topic)}/{suggested_name(slug)}.md"
        checker.error(1, problem, f"Rename the file to {renamed} (and add the old path to "
                      "redirect_maps in mkdocs.yml if it was published)")
    checker.front_matter()
    checker.structure()
    checker.contents()
    checker.snippets()
    checker.links()
    checker.ties()
    return sorted(set(checker.errors))
