"""fastapply.runtime.http1 against real loopback servers: the simulated upstream (uvicorn) and small
asyncio servers that misbehave on purpose (close kept-alive connections, cut a body short, stall)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import msgspec
import pytest

from evals.sim_upstream import MODEL_ID, ThreadServer, create_sim_app
from fastapply.runtime.http1 import ConnectError, Http1Pool, ReadTimeout, RemoteProtocolError

BODY = msgspec.json.encode({"model": MODEL_ID, "stream": True, "messages": [
    {"role": "user", "content": "<code>\na = 1\n</code>\n<update>\na = 2\nb = 3\n</update>"}]})
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def sim():
    with ThreadServer(create_sim_app()) as server:
        yield server


def test_a_stream_arrives_whole_and_the_connection_is_kept_alive(sim):
    async def main() -> tuple[list[bytes], int, int]:
        pool = Http1Pool(max_connections=2)
        pieces: list[bytes] = []
        for _ in range(3):
            response = await pool.request("POST", sim.url + "/v1/chat/completions", BODY, JSON)
            assert response.status_code == 200 and response.headers["transfer-encoding"] == "chunked"
            pieces = [piece async for piece in response.chunks()]
            await response.aclose()
        idle = sum(len(q) for q in pool._idle.values())
        opened = pool._open
        await pool.aclose()
        return pieces, idle, opened

    pieces, idle, opened = asyncio.run(main())
    text = b"".join(pieces).decode()
    assert text.endswith("data: [DONE]\n\n") and text.count("data: ") > 4
    assert idle == 1 and opened == 1  # three requests, one connection


async def _serve(handler: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
                 test: Callable[[str], Awaitable[object]]) -> object:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        return await test(f"http://127.0.0.1:{port}/x")
    finally:
        server.close()


async def _read_request(reader: asyncio.StreamReader) -> bool:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    await reader.readexactly(length)
    return True


def test_chunks_that_arrive_together_are_handed_over_together():
    events = [b"data: {\"n\": %d}\n\n" % i for i in range(50)]

    async def burst(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        chunked = b"".join(b"%x\r\n%s\r\n" % (len(e), e) for e in events) + b"0\r\n\r\n"
        writer.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n" + chunked)  # one write
        await writer.drain()
        await reader.read()

    async def test(url: str) -> list[bytes]:
        pool = Http1Pool()
        response = await pool.request("POST", url, b"{}", JSON)
        pieces = [piece async for piece in response.chunks()]
        await response.aclose()
        await pool.aclose()
        return pieces

    pieces = asyncio.run(_serve(burst, test))
    assert b"".join(pieces) == b"".join(events)
    assert len(pieces) <= 3  # one per network read (one or two here), not fifty


def test_a_kept_alive_connection_the_server_closed_is_replaced():
    connections = 0

    async def one_per_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Answers one request, then closes without saying so (like a keep-alive timeout).
        nonlocal connections
        connections += 1
        await _read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.close()

    async def test(url: str) -> list[bytes]:
        pool = Http1Pool()
        bodies = []
        for _ in range(3):
            response = await pool.request("POST", url, b"{}", JSON)
            bodies.append(await response.read())
            await response.aclose()
            await asyncio.sleep(0.2)  # the server has closed it by now
        await pool.aclose()
        return bodies

    assert asyncio.run(_serve(one_per_connection, test)) == [b"ok"] * 3
    assert connections == 3


def test_a_body_cut_short_and_a_stall_are_errors_and_the_pool_recovers():
    async def cut(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n")
        await writer.drain()
        writer.close()  # mid-body

    async def test_cut(url: str) -> str:
        pool = Http1Pool(max_connections=1)
        for _ in range(2):  # the slot of the failed request is free again
            response = await pool.request("POST", url, b"{}", JSON)
            with pytest.raises(RemoteProtocolError):
                await response.read()
            await response.aclose()
        await pool.aclose()
        return "ok"

    assert asyncio.run(_serve(cut, test_cut)) == "ok"

    async def stall(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        await asyncio.sleep(5)

    async def test_stall(url: str) -> str:
        pool = Http1Pool(read_timeout_s=0.2)
        with pytest.raises(ReadTimeout):
            await pool.request("POST", url, b"{}", JSON)
        await pool.aclose()
        return "ok"

    assert asyncio.run(_serve(stall, test_stall)) == "ok"


def test_a_body_without_length_ends_with_the_connection():
    async def until_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nhello ")
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.write(b"world")
        writer.close()

    async def test(url: str) -> tuple[bytes, int]:
        pool = Http1Pool()
        response = await pool.request("POST", url, b"{}", JSON)
        body = await response.read()
        await response.aclose()
        return body, pool._open  # not kept: the server closed it

    assert asyncio.run(_serve(until_close, test)) == (b"hello world", 0)


def test_nothing_listening_is_a_connect_error():
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()

    async def main() -> None:
        with pytest.raises(ConnectError):
            await Http1Pool().request("GET", f"http://127.0.0.1:{port}/v1/models")

    asyncio.run(main())
