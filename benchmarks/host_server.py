"""Serve a built site on 127.0.0.1 the way a static host does, for every benchmark.

Static hosts (GitHub Pages, Netlify, Cloudflare Pages) compress text and WebAssembly on the fly
and send caching headers; a benchmark served by plain ``http.server`` measures neither. This
server:

- gzips text and ``.wasm`` responses when the browser sends ``Accept-Encoding: gzip`` (level 6,
  a common host default), preferring a precompressed ``<file>.gz`` beside the file when the build
  wrote one, as nginx's ``gzip_static`` does;
- marks files whose name carries a content hash or a version folder as
  ``Cache-Control: public, max-age=31536000, immutable`` (their bytes never change under that
  name), and everything else ``no-cache`` with ``Last-Modified``/``If-Modified-Since``
  revalidation (HTML, unhashed scripts and style sheets);
- sends the media types hosts send (``.mjs`` as JavaScript, ``.wasm`` as ``application/wasm``,
  which streaming compilation requires).

Not a test fixture: ``tests/support/static_server.py`` stays a plain server for the tests.
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import http.server
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".gz": "application/gzip",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
}

#: Compressed on the fly: text and WebAssembly (zips, gzip files and images already are).
COMPRESSIBLE = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt", ".wasm", ".map"}

#: A name carrying a content hash (``bundle.5d4f2a1c.min.js``, ``roofline_core.0123456789ab.zip``)
#: or a path under a version or content-hash folder (``assets/pyodide/314.0.7/``, ``wheels/<hash>/``).
IMMUTABLE = re.compile(r"\.[0-9a-f]{8,}\.|/\d+\.\d+\.\d+/|/wheels/[0-9a-f]{16}/")

IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable"
REVALIDATE_CACHE_CONTROL = "no-cache"
GZIP_LEVEL = 6


def cache_control(url_path: str) -> str:
    """The ``Cache-Control`` a host configured for hashed names sends for ``url_path``.

    >>> cache_control("/assets/javascripts/bundle.50899def.min.js")
    'public, max-age=31536000, immutable'
    >>> cache_control("/assets/pyodide/314.0.7/pyodide.asm.wasm")
    'public, max-age=31536000, immutable'
    >>> cache_control("/glossary/roofline/")
    'no-cache'
    """
    return IMMUTABLE_CACHE_CONTROL if IMMUTABLE.search(url_path) else REVALIDATE_CACHE_CONTROL


def gzipped(path: Path, body: bytes) -> bytes:
    """``body`` (the content of ``path``) gzipped as this host does: level 6, no time stamp."""
    return gzip.compress(body, GZIP_LEVEL, mtime=0)


def served_body(
    path: Path, body: bytes, compress: Callable[[Path, bytes], bytes] = gzipped
) -> tuple[bytes, str | None]:
    """The bytes this host sends for the file at ``path`` (content ``body``) to a browser that
    accepts gzip, and their Content-Encoding: the precompressed ``<file>.gz`` beside it if the
    build wrote one, else ``compress``'s gzip for compressible types, else the body as is."""
    if path.suffix not in COMPRESSIBLE:
        return body, None
    precompressed = path.with_name(path.name + ".gz")
    if precompressed.is_file():
        return precompressed.read_bytes(), "gzip"
    return compress(path, body), "gzip"


class _HostHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as nginx sets on keep-alive connections by default (`tcp_nodelay on`). With
    # Nagle's algorithm on, a small body sent after its headers waits for the client's delayed
    # ACK (40 ms on Linux): every small file would arrive about 40 ms late.
    disable_nagle_algorithm = True
    compressed: dict[Path, bytes]
    lock: threading.Lock

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._serve(send_body=True)

    def do_HEAD(self) -> None:  # noqa: N802 - stdlib naming
        self._serve(send_body=False)

    def _serve(self, *, send_body: bool) -> None:
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not url_path.endswith("/"):
                self.send_response(301)
                self.send_header("Location", url_path + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            path = path / "index.html"
        if not path.is_file():
            self.send_error(404)
            return
        stat = path.stat()
        last_modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        since = self.headers.get("If-Modified-Since")
        if since and since == last_modified:
            self.send_response(304)
            self.send_header("Cache-Control", cache_control(url_path))
            self.send_header("Last-Modified", last_modified)
            self.end_headers()
            return
        body = path.read_bytes()
        encoding = None
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if accepts_gzip:
            body, encoding = served_body(path, body, self._gzipped_once)
        self.send_response(200)
        self.send_header("Content-Type", MEDIA_TYPES.get(path.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache_control(url_path))
        self.send_header("Last-Modified", last_modified)
        self.send_header("Vary", "Accept-Encoding")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def _gzipped_once(self, path: Path, body: bytes) -> bytes:
        # Gzipping 9.6 MB of WebAssembly takes a while: once per server, under the lock only.
        with self.lock:
            if path not in self.compressed:
                self.compressed[path] = gzipped(path, body)
            return self.compressed[path]

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        pass


class HostServer:
    """Serve ``root`` on ``http://127.0.0.1:<port>/`` like a static host, in a background thread.

    Use as a context manager; ``url`` is the base address with a trailing slash.
    """

    def __init__(self, root: Path) -> None:
        handler = type("Handler", (_HostHandler,), {"compressed": {}, "lock": threading.Lock()})
        self._httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(handler, directory=os.fspath(root))
        )
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> HostServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
