"""The benchmarks' static host serves as real hosts do: compressed, with caching headers, and
without adding latency of its own to each response."""

from __future__ import annotations

import gzip
import http.client
import statistics
import time
from pathlib import Path

from benchmarks.host_server import IMMUTABLE_CACHE_CONTROL, HostServer


def _connect(server: HostServer) -> http.client.HTTPConnection:
    port = int(server.url.rstrip("/").rsplit(":", 1)[1])
    return http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def test_small_responses_on_a_kept_connection_are_not_held_back(tmp_path: Path) -> None:
    # With Nagle's algorithm on, a body sent after its headers waits for the client's delayed
    # ACK: about 40 ms per response on Linux, which put 40 ms on every step of a page's module
    # chain. nginx and CDNs send with TCP_NODELAY.
    (tmp_path / "small.mjs").write_text("export const answer = 42;\n")
    with HostServer(tmp_path) as server:
        connection = _connect(server)
        times_ms = []
        for _ in range(9):
            started = time.perf_counter()
            connection.request("GET", "/small.mjs", headers={"Accept-Encoding": "gzip"})
            response = connection.getresponse()
            body = response.read()
            times_ms.append((time.perf_counter() - started) * 1000)
        connection.close()
    assert gzip.decompress(body) == b"export const answer = 42;\n"
    assert statistics.median(times_ms) < 20, times_ms


def test_hashed_names_are_immutable_and_text_is_gzipped(tmp_path: Path) -> None:
    (tmp_path / "bundle.0123abcd.min.js").write_text("console.log(1);\n" * 50)
    with HostServer(tmp_path) as server:
        connection = _connect(server)
        connection.request("GET", "/bundle.0123abcd.min.js", headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        body = response.read()
        connection.close()
    assert response.getheader("Cache-Control") == IMMUTABLE_CACHE_CONTROL
    assert response.getheader("Content-Encoding") == "gzip"
    assert gzip.decompress(body) == b"console.log(1);\n" * 50
