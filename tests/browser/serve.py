"""Serve a built site on 127.0.0.1 the way its host will: a static server that gzips text.

Readers get the site from a static host that compresses text (GitHub Pages gzips HTML, CSS,
JavaScript, JSON and SVG), so the bytes a first visit transfers, and Lighthouse's verdict on them,
are only meaningful if the test server does the same. Everything else is Python's http.server.
"""

from __future__ import annotations

import gzip
import mimetypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/xml",
                "image/svg+xml")


class _Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as browsers get from a real host

    def log_message(self, format: str, *args: object) -> None:
        pass  # a test run's output is for failures, not for every request

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            path = path / "index.html"
        kind = mimetypes.guess_type(path.name)[0] or ""
        if (not path.is_file() or "gzip" not in self.headers.get("Accept-Encoding", "")
                or not kind.startswith(COMPRESSIBLE)):
            super().do_GET()
            return
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith("text/") else ""))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve `site` on a free loopback port for the duration; yields the base URL (ending in /)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(site)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=f"serve {site}", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
