"""The site's URLs, computed as MkDocs computes them (`use_directory_urls`) from plain values the
hooks pass in, for the files the build writes beside the pages (questions.json, the decks), so
that the page format never imports MkDocs."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from snippet_engine.errors import ProjectError


class SiteUrlError(ProjectError, ValueError):
    """The site has no absolute URL, so the index and the decks could not link anything."""


@dataclass(frozen=True)
class Site:
    """What the generated files need to know of the site: its name and where its pages are."""

    name: str
    url: str  # absolute, ending in "/"
    use_directory_urls: bool = True

    @classmethod
    def make(cls, name: str, url: str | None, use_directory_urls: bool = True) -> Site:
        if not url or "://" not in url:
            raise SiteUrlError(
                f"site_url is '{url or ''}', not an absolute URL: questions.json and the Anki "
                "decks give absolute links. Set site_url in mkdocs.yml, e.g. "
                "'site_url: https://example.github.io/'")
        return cls(name, url if url.endswith("/") else url + "/", use_directory_urls)

    def path(self, uri: str) -> str:
        """The site-relative URL of a docs source ("export/x.md" -> "export/x/"), as MkDocs
        gives it; any other file keeps its name."""
        if not uri.endswith(".md"):
            return uri
        stem = uri[: -len(".md")]
        folder, name = posixpath.split(stem)
        if name in ("index", "README"):  # MkDocs makes a README the folder's index page
            prefix = folder + "/" if folder else ""
            return prefix if self.use_directory_urls else prefix + "index.html"
        return stem + "/" if self.use_directory_urls else stem + ".html"

    def page_path(self, page_id: str) -> str:
        return self.path(page_id + ".md")

    def absolute(self, path: str) -> str:
        return self.url + path
