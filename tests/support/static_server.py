"""A static file server on 127.0.0.1 for browser tests and benchmarks.

It serves a built site the way a static host would: correct types for ``.mjs`` and ``.wasm``
(Pyodide needs ``application/wasm`` to stream-compile), optional extra headers (for a CSP
test), an optional path prefix (for sub-path hosting, as on GitHub Pages), and optional
recording of POSTed bodies (where a CSP ``report-uri`` sends violation reports).
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

EXTRA_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".xml": "application/xml",
    ".zip": "application/zip",
    ".csv": "text/csv; charset=utf-8",
    # A wheel is a zip (PEP 427); pip does not look at the type.
    ".whl": "application/zip",
}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **EXTRA_TYPES}
    extra_headers: dict[str, str] = {}
    prefix: str = ""
    posts: list[tuple[str, bytes]] | None = None

    def translate_path(self, path: str) -> str:
        if self.prefix:
            if not path.startswith(self.prefix):
                return str(Path(self.directory) / "__outside_prefix__")
            path = "/" + path[len(self.prefix) :].lstrip("/")
        return super().translate_path(path)

    def end_headers(self) -> None:
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        if self.posts is None:
            self.send_error(501, "POST not recorded by this server")
            return
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.posts.append((self.path, body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A browser that leaves a page, or cancels a fetch, closes the connection mid-response; a
        # real host shrugs that off, and its traceback buried the run's output. Anything else
        # still prints.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class StaticServer:
    """Serve ``root`` on ``http://127.0.0.1:<port><prefix>/`` in a background thread.

    Use as a context manager; ``url`` is the base address with a trailing slash.
    """

    def __init__(
        self, root: Path, *, prefix: str = "", headers: dict[str, str] | None = None, record_posts: bool = False
    ) -> None:
        prefix = "/" + prefix.strip("/") if prefix.strip("/") else ""
        #: ``(path, body)`` of every POST, when ``record_posts`` (e.g. CSP violation reports).
        self.posts: list[tuple[str, bytes]] = []
        handler = type(
            "Handler",
            (_Handler,),
            {"extra_headers": dict(headers or {}), "prefix": prefix, "posts": self.posts if record_posts else None},
        )
        self._httpd = _QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}{prefix}/"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> StaticServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
