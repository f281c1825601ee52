"""A page's answers as HTML and as plain text, for files read far from the site: the Anki decks
and questions.json.

The page format's answers are plain Markdown (paragraphs, lists, code spans, links), which
Python-Markdown turns into plain HTML without the theme's classes: what a card or a guide needs.
Every link is made absolute, since neither is read on the page it came from. A snippet line in an
answer becomes a pointer to the page (`snippets_as_pointers`): the file cannot show a recorded
output. The plain text is read from that HTML (`html_to_text`), so the two always say the same.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urlsplit
from xml.etree.ElementTree import Element

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from question_pages.format.markers import HELPER_LINE, SNIPPET_LINE
from question_pages.format.model import Page
from question_pages.sitewide.site_urls import Site


class _AbsoluteLinks(Treeprocessor):
    """Every link and image made absolute: the HTML is read far from the site."""

    def __init__(self, md: markdown.Markdown, resolve: Callable[[str], str]) -> None:
        super().__init__(md)
        self.resolve = resolve

    def run(self, root: Element) -> None:
        for element in root.iter():
            attribute = {"a": "href", "img": "src"}.get(element.tag)
            if attribute and element.get(attribute):
                element.set(attribute, self.resolve(element.get(attribute, "")))


class _AbsoluteLinksExtension(Extension):
    def __init__(self, resolve: Callable[[str], str]) -> None:
        super().__init__()
        self.resolve = resolve

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # the name Markdown calls
        md.treeprocessors.register(_AbsoluteLinks(md, self.resolve), "absolute_links", 1)


def resolver(page: Page, site: Site) -> Callable[[str], str]:
    """href -> absolute URL, for a link written on `page`: '#x' is the page's own anchor, a
    relative link to a .md source becomes that page's URL, a URL with a scheme stays."""
    page_url = site.absolute(site.page_path(page.page_id))

    def resolve(href: str) -> str:
        parts = urlsplit(href)
        if parts.scheme or href.startswith("//"):
            return href
        if not parts.path:
            return page_url + (f"#{parts.fragment}" if parts.fragment else "")
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page.page_id), parts.path))
        return site.absolute(site.path(target)) + (f"#{parts.fragment}" if parts.fragment else "")

    return resolve


_PRE = re.compile(r"(<pre\b.*?</pre>)", re.DOTALL)


def _one_line(fragment: str) -> str:
    """HTML with the source's line wrapping gone: outside <pre> a line break is only a space, and
    a card without one is a TSV row without an escape."""
    parts = _PRE.split(fragment)
    return "".join(part if index % 2 else re.sub(r"\s*\n\s*", " ", re.sub(r">\s*\n\s*<", "><", part))
                   for index, part in enumerate(parts))


def to_html(text: str, page: Page, site: Site) -> str:
    """HTML, on one line but inside <pre>, from a section's Markdown (the page format's plain
    Markdown: paragraphs, lists, code spans, links)."""
    converter = markdown.Markdown(extensions=["attr_list", "tables", "fenced_code", "sane_lists",
                                              _AbsoluteLinksExtension(resolver(page, site))],
                                  output_format="html")
    return _one_line(converter.convert(text).strip())


def inline_html(text: str, page: Page, site: Site) -> str:
    """One line of Markdown (a question, a follow-up title, a bullet) without its paragraph."""
    converted = to_html(text, page, site)
    match = re.fullmatch(r"<p>(.*)</p>", converted, re.DOTALL)
    return match.group(1) if match else converted


def snippets_as_pointers(lines: list[tuple[int, str]], anchor: str) -> str:
    """An answer's Markdown with each snippet (or helper) line replaced by a pointer to the page's
    `anchor`, where the page shows the code and its recorded output."""
    out = []
    for _, line in lines:
        snippet, helper = SNIPPET_LINE.match(line), HELPER_LINE.match(line)
        if snippet:
            out.append(f"*(The page runs `snippets/{snippet.group(1)}` here, with its recorded "
                       f"output: [see it](#{anchor}).)*")
        elif helper:
            out.append(f"*(The page shows `snippets/{helper.group(1)}` here: [see it](#{anchor}).)*")
        else:
            out.append(line)
    return "\n".join(out).strip()


# -- HTML to plain text ---------------------------------------------------------------------------

_PARAGRAPH, _LINE, _KEPT_SPACE = "\x00", "\x01", "\x02"  # markers, never in the HTML's text
_BLOCKS = {"p", "div", "pre", "blockquote", "table", "tr", "hr", "ul", "ol", "dl",
           "h1", "h2", "h3", "h4", "h5", "h6"}


class _Text(HTMLParser):
    """Text as a reader sees it: each paragraph (and <pre>, kept as it is) its own block, list
    items on their own lines ('- ' or '1. ', indented two spaces per level), cells apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.lists: list[str] = []  # the open lists' tags, outermost first
        self.numbers: list[int] = []  # the next item's number in each
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "li":
            marker = "- " if not self.lists or self.lists[-1] == "ul" else f"{self.numbers[-1]}. "
            if self.numbers:
                self.numbers[-1] += 1
            indent = _KEPT_SPACE * 2 * max(len(self.lists) - 1, 0)
            self.parts.append(_LINE + indent + marker.replace(" ", _KEPT_SPACE))
        elif tag in ("ul", "ol"):
            self.parts.append(_LINE if self.lists else _PARAGRAPH)
            self.lists.append(tag)
            self.numbers.append(1)
        elif tag in _BLOCKS:
            self.parts.append(_PARAGRAPH)
        elif tag == "br":
            self.parts.append(_LINE)
        elif tag in ("td", "th"):
            self.parts.append(" ")
        if tag == "pre":
            self.pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("ul", "ol") and self.lists:
            self.lists.pop()
            self.numbers.pop()
            self.parts.append(_LINE if self.lists else _PARAGRAPH)
        elif tag in _BLOCKS:
            self.parts.append(_PARAGRAPH)
        if tag == "pre":
            self.pre = max(self.pre - 1, 0)
            body = len(self.parts) - 1  # the code's own last line break ends no line of text
            while body >= 0 and self.parts[body] in (_PARAGRAPH, _LINE):
                body -= 1
            if body >= 0:
                self.parts[body] = self.parts[body].rstrip("\n")

    def handle_data(self, data: str) -> None:
        if self.pre:
            self.parts.append(data.replace(" ", _KEPT_SPACE))  # its line breaks stay as they are
        else:
            self.parts.append(re.sub(r"\s+", " ", data))

    def text(self) -> str:
        joined = re.sub(r" {2,}", " ", "".join(self.parts))
        joined = re.sub(rf" *[{_PARAGRAPH}{_LINE}][ {_PARAGRAPH}{_LINE}]*",
                        lambda m: "\n\n" if _PARAGRAPH in m.group(0) else "\n", joined)
        return joined.replace(_KEPT_SPACE, " ").strip()


def html_to_text(fragment: str) -> str:
    """Plain text of an HTML fragment: what the reader reads, without the markup (see `_Text`)."""
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    return parser.text()
