"""Serve a built site on 127.0.0.1 the way its host will: a static server that gzips text.

Readers get the site from a static host that compresses text (GitHub Pages gzips HTML, CSS,
JavaScript, JSON and SVG), so the bytes a first visit transfers, and Lighthouse's verdict on them,
are only meaningful if the test server does the same. And the host says how long a file may be
kept (GitHub Pages: `Cache-Control: max-age=600`, with `Last-Modified`), so a reader's second page
takes the scripts and styles from the browser's cache: a tour that goes from page to page in one
context meets the site as that reader does (without these headers every page fetched, parsed and
compiled every script again). A first visit (a fresh context) is not changed by them. Everything
else is Python's http.server.
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import mimetypes
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/xml",
                "image/svg+xml")


MAX_AGE_S = 600  # GitHub Pages' Cache-Control


class _Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as browsers get from a real host

    def log_message(self, format: str, *args: object) -> None:
        pass  # a test run's output is for failures, not for every request

    def end_headers(self) -> None:
        self.send_header("Cache-Control", f"max-age={MAX_AGE_S}")
        super().end_headers()

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            path = path / "index.html"
        kind = mimetypes.guess_type(path.name)[0] or ""
        if (not path.is_file() or "gzip" not in self.headers.get("Accept-Encoding", "")
                or not kind.startswith(COMPRESSIBLE)):
            super().do_GET()
            return
        modified = path.stat().st_mtime
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                if int(modified) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(HTTPStatus.NOT_MODIFIED)
                    self.end_headers()
                    return
            except (TypeError, ValueError, IndexError, OverflowError):
                pass  # an unreadable date: send the file, as http.server does
        body = _gzipped(path, path.stat().st_mtime_ns)
        self.send_response(HTTPStatus.OK)
        self.send_header("Last-Modified", self.date_time_string(int(modified)))
        self.send_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith("text/") else ""))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@functools.lru_cache(maxsize=512)
def _gzipped(path: Path, mtime_ns: int) -> bytes:
    """A file's gzip, once per version of it (`mtime_ns` is part of the key): each tab's first
    visit asks for the same scripts again."""
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that closes a kept-alive connection (a closed tab, the end of a test) is not a
        failure of the site: only other errors are printed, as socketserver does."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve `site` on a free loopback port for the duration; yields the base URL (ending in /)."""
    server = _Server(("127.0.0.1", 0), partial(_Handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, name=f"serve {site}", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
