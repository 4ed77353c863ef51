"""`--header-timeout-s`: connections that send no complete request head are closed by the server
(uvicorn alone keeps them open for ever), on both HTTP stacks; a request whose head arrived is not
cut by it, and health checks keep answering. Also the abuse script's own scenarios, small."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys

import httpx
import pytest

from evals import abuse, procs
from evals.procs import free_port
from fastapply.errors import InputError
from fastapply.service.settings import from_env

# Generous bounds on waiting (a busy CI machine); the deadline under test is 0.5 s.
_WAIT_S = 20.0


def _read_response(sock: socket.socket) -> bytes:
    """One whole response (head and Content-Length body) from a keep-alive connection."""
    sock.settimeout(_WAIT_S)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return head


def _closed_without_answer(sock: socket.socket) -> bool:
    """True when the server closes `sock` without sending a byte (within _WAIT_S)."""
    sock.settimeout(_WAIT_S)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


@pytest.fixture(params=["h11", "httptools"])
def server(request):
    port = free_port()
    env = {**os.environ, "FASTAPPLY_API_KEY": "", "FASTAPPLY_API_KEYS": ""}
    proc = procs.start([sys.executable, "-m", "fastapply", "serve", "--port", str(port),
                        "--http", request.param, "--executor", "thread", "--timeout-s", "3",
                        "--header-timeout-s", "0.5", "--log-level", "error"],
                       env=env, stderr=subprocess.PIPE)
    try:
        procs.wait_ready(proc, f"http://127.0.0.1:{port}/healthz", timeout_s=40)
        yield port
    finally:
        stderr = procs.stop(proc)
    assert "Traceback" not in stderr, stderr


def test_idle_and_slow_head_connections_are_closed_but_requests_in_progress_are_not(server):
    port = server
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
    partial = socket.create_connection(("127.0.0.1", port))
    partial.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # no blank line: the head never ends
    # a keep-alive connection that completed a request, then sends only part of the next head
    kept = socket.create_connection(("127.0.0.1", port))
    kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert _read_response(kept).startswith(b"HTTP/1.1 200")
    kept.sendall(b"GET /hea")
    # a request whose head arrived and whose body dribbles: the app's --timeout-s answers it (504)
    slow_body = socket.create_connection(("127.0.0.1", port))
    slow_body.sendall(b"POST /v1/apply HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{")
    try:
        assert all(_closed_without_answer(sock) for sock in idle)
        assert _closed_without_answer(partial)
        assert _closed_without_answer(kept)
        slow_body.settimeout(_WAIT_S)
        assert slow_body.recv(65536).split(b"\r\n", 1)[0] == b"HTTP/1.1 504 Gateway Timeout"
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200
    finally:
        for sock in [*idle, partial, kept, slow_body]:
            sock.close()


def test_the_setting_is_checked_and_reaches_the_environment():
    assert from_env({}).header_timeout_s == 10.0
    assert from_env({"FASTAPPLY_HEADER_TIMEOUT_S": "2.5"}).header_timeout_s == 2.5
    with pytest.raises(InputError) as info:
        from_env({}, header_timeout_s=0)
    assert "header_timeout_s must be positive" in info.value.message


def test_abuse_scenarios_small():
    """evals/abuse.py's idle and slow-head scenarios against a real `fastapply serve`: every such
    connection is closed by the server, health answers, no worker dies."""
    with abuse.Server(header_timeout_s=1) as server:
        workers = server.workers()
        idle = asyncio.run(abuse.idle_connections(server.port, 50, _WAIT_S))
        heads = asyncio.run(abuse.slow_heads(server.port, 5, _WAIT_S))
        assert idle == {-1: 50} and heads == {-1: 5}
        assert abuse.health(server.port)[0] and server.workers() == workers == 2
