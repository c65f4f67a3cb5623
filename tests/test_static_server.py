"""The tests' static server shrugs off a client that hangs up mid-response, as a real host does,
and still reports any other error."""

from __future__ import annotations

import http.client
import socket
import struct
import threading
import time

from tests.support.static_server import StaticServer


def _hang_up_mid_response(url: str, path: str) -> None:
    host, port = url.split("//")[1].rstrip("/").split(":")
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        sock.recv(1024)  # the response has started
        # Linger 0: closing sends a reset, as a browser leaving the page does.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def _wait_for_handlers_to_finish(limit_s: float = 60.0) -> None:
    # Each request is handled on a thread of its own (named after process_request_thread); the
    # dropped response's handler prints, if it prints, before its thread ends.
    deadline = time.monotonic() + limit_s
    while any("process_request_thread" in t.name for t in threading.enumerate()):
        assert time.monotonic() < deadline, "a request handler is still running"
        time.sleep(0.05)


def test_a_client_hanging_up_mid_response_prints_nothing(tmp_path, capfd):
    (tmp_path / "big.bin").write_bytes(b"\0" * (64 << 20))  # far more than the socket buffers hold
    with StaticServer(tmp_path) as server:
        _hang_up_mid_response(server.url, "/big.bin")
        _wait_for_handlers_to_finish()
        connection = http.client.HTTPConnection(server.url.split("//")[1].rstrip("/"), timeout=30)
        connection.request("HEAD", "/big.bin")
        assert connection.getresponse().status == 200
    assert "Traceback" not in capfd.readouterr().err


def test_another_error_still_prints(tmp_path, capfd, monkeypatch):
    from tests.support import static_server

    def broken(self, *args):
        raise RuntimeError("a bug in the handler")

    monkeypatch.setattr(static_server._Handler, "do_GET", broken)
    with StaticServer(tmp_path) as server:
        connection = http.client.HTTPConnection(server.url.split("//")[1].rstrip("/"), timeout=30)
        connection.request("GET", "/")
        try:
            connection.getresponse()
        except (http.client.HTTPException, ConnectionError):
            pass
    assert "RuntimeError: a bug in the handler" in capfd.readouterr().err
