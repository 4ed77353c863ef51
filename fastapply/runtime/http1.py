"""A small HTTP/1.1 client for calls to upstream model servers, whose streamed body arrives per network read.

Why not httpx here: an upstream streams one HTTP chunk per token, and httpx (through httpcore and h11,
pure Python) hands them over one chunk at a time, ~12 us each plus a trip through every async generator
above it. At a few hundred tokens per answer that was most of the front's added latency
(`python -m evals.load --sim-upstream`). Here httptools (the C parser uvicorn uses; a dependency already)
decodes the chunked body, and `Response.chunks()` yields everything that arrived in one read of the
socket: under load, many tokens per step. Keep-alive connections are pooled per event loop and bounded;
a response abandoned half-read closes its connection, which makes vLLM and SGLang abort the request.
HTTPS is verified against the system's trust store (point SSL_CERT_FILE or SSL_CERT_DIR at a private
CA). Not supported (not needed for OpenAI-compatible servers): proxies (HTTP(S)_PROXY is ignored: the
upstream must be reachable directly), redirects, HTTP/2, cookies.

Errors are HttpError subclasses named like httpx's (ConnectError, ConnectTimeout, ReadTimeout,
RemoteProtocolError, PoolTimeout): metrics and messages report the class name.
Reading a body is O(bytes); a request costs one write and O(1) pool work.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httptools

READ_BYTES = 65536


class HttpError(Exception):
    """A transport failure: no connection, a timeout, or a malformed or cut-off response."""


class ConnectError(HttpError):
    pass


class ConnectTimeout(HttpError):
    pass


class ReadTimeout(HttpError):
    pass


class ReadError(HttpError):
    pass


class PoolTimeout(HttpError):
    pass


class RemoteProtocolError(HttpError):
    pass


Origin = tuple[str, str, int]  # scheme, host, port


@dataclass(eq=False)
class _Connection:
    origin: Origin
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    reused: bool = False

    def usable(self) -> bool:
        return not self.writer.transport.is_closing() and not self.reader.at_eof()

    def close(self) -> None:
        self.writer.transport.abort()  # at once: a server streaming to us sees the connection drop


class _Parse:
    """One response: httptools callbacks (status, headers, body pieces, completion), and its watchdog.

    The read timeout is the longest wait for the next bytes. One timer per response checks it (asyncio's
    timeout per read costs a timer per read, a noticeable share of a streamed token's cost); when a read
    has waited too long it closes the connection, which ends the read, and `timed_out` says why."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.limit = 0.0
        self.reading_since: float | None = None
        self.timed_out = False
        self.watchdog: asyncio.TimerHandle | None = None
        self.headers: dict[str, str] = {}
        self.headers_done = False
        self.keep_alive = False
        self.complete = False
        self.body: list[bytes] = []
        self.parser = httptools.HttpResponseParser(self)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_headers_complete(self) -> None:
        self.headers_done = True
        # Asked here: llhttp forgets the connection's keep-alive state once the message is complete.
        self.keep_alive = self.parser.should_keep_alive()

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.complete = True

    def watch(self, conn: _Connection, limit: float) -> None:
        self.limit = limit
        self.watchdog = self.loop.call_later(limit, self._check, conn)

    def _check(self, conn: _Connection) -> None:
        waited = 0.0 if self.reading_since is None else self.loop.time() - self.reading_since
        if waited >= self.limit:
            self.timed_out = True
            conn.close()
        else:
            self.watchdog = self.loop.call_later(self.limit - waited, self._check, conn)

    def stop_watching(self) -> None:
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None


class Response:
    """A response whose headers were read; read the body with `chunks()` or `read()`, then `aclose()`."""

    def __init__(self, pool: Http1Pool, conn: _Connection, state: _Parse) -> None:
        self._pool, self._conn, self._state = pool, conn, state
        self.status_code: int = state.parser.get_status_code()
        self.headers = state.headers
        self._released = False

    async def chunks(self) -> AsyncIterator[bytes]:
        """The body, one piece per network read (all the chunks that read delivered, joined)."""
        state = self._state
        while True:
            if state.body:
                piece = b"".join(state.body)
                state.body.clear()
                yield piece
            if state.complete:
                return
            await self._pool._feed(self._conn, state)

    async def read(self) -> bytes:
        return b"".join([piece async for piece in self.chunks()])

    async def aclose(self) -> None:
        """Back to the pool when the body was read to its end (and the server keeps it open), else closed."""
        if self._released:
            return
        self._released = True
        self._state.stop_watching()
        keep = self._state.complete and self._state.keep_alive
        self._pool._release(self._conn, keep)


@dataclass
class Http1Pool:
    """Connections of one event loop: at most `max_connections` open (busy and idle together)."""

    max_connections: int = 64
    connect_timeout_s: float = 5.0
    read_timeout_s: float = 120.0  # longest wait for the next bytes of a response
    headers: dict[str, str] = field(default_factory=dict)
    _idle: dict[Origin, deque[_Connection]] = field(init=False, default_factory=dict)
    _slots: asyncio.Semaphore = field(init=False)
    _closed: bool = field(init=False, default=False)
    _open: int = field(init=False, default=0)  # connections busy or idle

    def __post_init__(self) -> None:
        self._slots = asyncio.Semaphore(self.max_connections)
        self._ssl: ssl.SSLContext | None = None

    @property
    def is_closed(self) -> bool:
        return self._closed

    async def request(self, method: str, url: str, body: bytes = b"",
                      headers: dict[str, str] | None = None, timeout_s: float | None = None) -> Response:
        """Send the request; return once the response's headers arrived (the body is still to read).
        A kept-alive connection that the server closed meanwhile is replaced once, transparently."""
        parts = urlsplit(url)
        origin = (parts.scheme, parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        lines = [f"{method} {target} HTTP/1.1", f"host: {parts.netloc}", f"content-length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in {**self.headers, **(headers or {})}.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        try:
            async with asyncio.timeout(self.read_timeout_s):
                await self._slots.acquire()
        except TimeoutError:
            raise PoolTimeout(f"no free connection to {parts.netloc} within {self.read_timeout_s:g} s") from None
        try:
            while True:
                conn = await self._connect(origin)
                try:
                    return await self._exchange(conn, head + body, timeout_s)
                except (RemoteProtocolError, ReadError):
                    self._drop(conn)
                    if not conn.reused:  # a fresh connection failed: that is the server's answer
                        raise
                except BaseException:
                    self._drop(conn)
                    raise
        except BaseException:
            self._slots.release()
            raise

    async def _exchange(self, conn: _Connection, data: bytes, timeout_s: float | None) -> Response:
        state = _Parse()
        state.watch(conn, timeout_s if timeout_s is not None else self.read_timeout_s)
        try:
            conn.writer.write(data)
            while not state.headers_done:
                await self._feed(conn, state)
        except BaseException:
            state.stop_watching()
            raise
        return Response(self, conn, state)

    async def _feed(self, conn: _Connection, state: _Parse) -> None:
        state.reading_since = state.loop.time()
        try:
            data = await conn.reader.read(READ_BYTES)
        except OSError as exc:
            raise ReadError(f"the connection broke: {exc.strerror or exc}") from None
        finally:
            state.reading_since = None
        if state.timed_out:
            raise ReadTimeout(f"no data for {state.limit:g} s")
        if not data:
            framed = "content-length" in state.headers or "chunked" in state.headers.get("transfer-encoding", "")
            if state.headers_done and not framed:  # a body that ends where the connection does
                state.complete, state.keep_alive = True, False
                return
            raise RemoteProtocolError("the server closed the connection before the response ended")
        try:
            state.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            raise RemoteProtocolError(f"malformed HTTP response: {exc}") from None

    async def _connect(self, origin: Origin) -> _Connection:
        idle = self._idle.get(origin)
        while idle:
            conn = idle.pop()  # the most recently used: the least likely to have timed out
            if conn.usable():
                conn.reused = True
                return conn
            self._drop(conn)
        if self._open >= self.max_connections:  # the idle ones are other servers': make room
            oldest = next((q for q in self._idle.values() if q), None)
            if oldest:
                self._drop(oldest.popleft())
        scheme, host, port = origin
        context = None
        if scheme == "https":
            self._ssl = self._ssl or ssl.create_default_context()
            context = self._ssl
        try:
            async with asyncio.timeout(self.connect_timeout_s):
                reader, writer = await asyncio.open_connection(host, port, ssl=context, limit=READ_BYTES)
        except TimeoutError:
            raise ConnectTimeout(f"no connection to {host}:{port} within {self.connect_timeout_s:g} s") from None
        except OSError as exc:
            raise ConnectError(f"cannot connect to {host}:{port}: {exc.strerror or exc}") from None
        self._open += 1
        return _Connection(origin, reader, writer)

    def _drop(self, conn: _Connection) -> None:
        conn.close()
        self._open -= 1

    def _release(self, conn: _Connection, keep: bool) -> None:
        if keep and not self._closed and conn.usable():
            self._idle.setdefault(conn.origin, deque()).append(conn)
        else:
            self._drop(conn)
        self._slots.release()

    async def aclose(self) -> None:
        self._closed = True
        for idle in self._idle.values():
            while idle:
                self._drop(idle.popleft())
