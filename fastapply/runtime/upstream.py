"""HTTP calls to OpenAI-compatible servers (vLLM, SGLang, `transformers serve`, llama.cpp).

One `UpstreamPool` per process holds a bounded connection pool (fastapply.runtime.http1) and a list of
endpoints (base URLs ending in /v1). Each call goes to the endpoint with the fewest requests outstanding (ties: the one used
least recently), so a slow replica gets less work. Before the first byte of an answer arrives, a 429 or
503 is retried with exponential backoff (honouring Retry-After), and a connection error or another 5xx
fails over to the next endpoint, which is then skipped for a cool-down. A stream that breaks after its
first event is never retried (the text so far was already passed on): it ends in `upstream_failed`.

Picking an endpoint is O(endpoints); reading a stream is O(bytes). The HTTP client is fastapply.runtime.http1
(httptools, a dependency of the service already): it hands over a stream per network read, not per token.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ..errors import ErrorCode, ModelError
from .http1 import Http1Pool, HttpError

JSON_HEADERS = {"content-type": "application/json", "accept": "text/event-stream"}
RETRY_STATUSES = frozenset({429, 503})  # the server is busy: wait and try again (any endpoint)
FAILOVER_STATUSES = frozenset({500, 502, 504})  # this endpoint is broken: try another one


class UpstreamEvent(msgspec.Struct, kw_only=True):
    """One finished call (or failed attempt), for metrics. outcome: ok, retry, failover, error or
    cancelled; reason: the error code (http_STATUS, a connection error's name, bad_event, ...)."""

    endpoint: str
    outcome: str
    reason: str = ""
    seconds: float = 0.0
    first_event_s: float | None = None
    tokens: int = 0  # streamed events (about one token each)
    prompt_tokens: int = 0  # from the server's `usage` (stream_options.include_usage), when it sends one
    completion_tokens: int = 0


class StreamDelta(msgspec.Struct):
    content: str | None = None


class StreamChoice(msgspec.Struct):
    """One choice of a streamed chunk: `text` (completions) or `delta.content` (chat)."""

    text: str | None = None
    delta: StreamDelta | None = None
    finish_reason: str | None = None

    @property
    def new_text(self) -> str:
        if self.text is not None:
            return self.text
        return (self.delta.content or "") if self.delta is not None else ""


class StreamUsage(msgspec.Struct):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class StreamChunk(msgspec.Struct):
    """One SSE event of an OpenAI-compatible stream, with only the fields we read (others are skipped
    while decoding). `error`: vLLM and SGLang report a failure mid-stream in an event of its own."""

    choices: list[StreamChoice] = msgspec.field(default_factory=list)
    usage: StreamUsage | None = None
    error: Any = None


_CHUNK = msgspec.json.Decoder(StreamChunk)
_CHUNKS = msgspec.json.Decoder(list[StreamChunk])


# A caller's second chance for a request the server refused (400/422): given the status and the
# server's message, the reason to count and the body to send instead, or None to fail.
Rewrite = Callable[[int, str], "tuple[str, dict[str, Any]] | None"]


@dataclass
class Endpoint:
    url: str  # base URL, ending in /v1
    outstanding: int = 0
    down_until: float = 0.0
    last_used: float = 0.0
    failures: int = 0  # consecutive failed attempts
    health: str = "unknown"


def upstream_error(message: str, **details: Any) -> ModelError:
    return ModelError(message, code=ErrorCode.UPSTREAM_FAILED, details=details)


@dataclass
class UpstreamPool:
    urls: list[str]
    api_key: str | None = None
    connect_timeout_s: float = 5.0
    # Longest silence between two events of a stream (a queued request on a busy server waits here).
    read_timeout_s: float = 120.0
    max_connections: int = 64
    retries: int = 3
    backoff_s: float = 0.25
    max_backoff_s: float = 8.0
    cooldown_s: float = 5.0
    observer: Callable[[UpstreamEvent], None] | None = None
    endpoints: list[Endpoint] = field(init=False)
    _clients: dict[int, Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        if not self.urls:
            raise ModelError("no upstream URL given; write openai:http://host:8000/v1[#MODEL]",
                             code=ErrorCode.INVALID_ARGUMENT)
        self.endpoints = [Endpoint(normalize_url(url)) for url in self.urls]

    def client(self) -> Http1Pool:
        """The connection pool of the running event loop (a connection cannot be shared across loops)."""
        loop = asyncio.get_running_loop()
        key = id(loop)
        entry = self._clients.get(key)
        if entry is None or entry[0] is not loop or entry[1].is_closed:
            headers = {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}
            entry = (loop, Http1Pool(max_connections=self.max_connections, connect_timeout_s=self.connect_timeout_s,
                                     read_timeout_s=self.read_timeout_s, headers=headers))
            self._clients[key] = entry
        return entry[1]

    async def _get(self, url: str, timeout_s: float) -> tuple[int, bytes]:
        """GET `url`: (status, body), all within `timeout_s` (TimeoutError past it)."""
        async with asyncio.timeout(timeout_s):
            response = await self.client().request("GET", url)
            try:
                return response.status_code, await response.read()
            finally:
                await response.aclose()

    async def aclose(self) -> None:
        loop = asyncio.get_running_loop()
        entry = self._clients.pop(id(loop), None)
        if entry is not None:
            await entry[1].aclose()

    def pick(self, exclude: set[str]) -> Endpoint:
        """The endpoint with the fewest outstanding requests, among those up and not yet tried."""
        now = time.monotonic()
        candidates = [e for e in self.endpoints if e.url not in exclude and e.down_until <= now]
        if not candidates:  # everything is down or tried: the least recently failed one still beats none
            candidates = [e for e in self.endpoints if e.url not in exclude] or self.endpoints
        return min(candidates, key=lambda e: (e.outstanding, e.last_used))

    def _observe(self, event: UpstreamEvent) -> None:
        if self.observer is not None:
            self.observer(event)

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(self.max_backoff_s, max(0.0, float(retry_after)))
            except ValueError:
                pass  # an HTTP date: fall back to our own backoff
        base = min(self.max_backoff_s, self.backoff_s * (2 ** attempt))
        return base * (0.5 + random.random() / 2)  # jitter, so that retrying clients spread out

    async def events(self, path: str, body: dict[str, Any], *,
                     rewrite: Rewrite | None = None) -> AsyncIterator[list[StreamChunk]]:
        """POST `body` with stream=true to `path` on the best endpoint; yield the SSE events, decoded, in
        batches: all events that arrived in one network read (under load, one yield per many tokens).
        Closing the iterator closes the connection, which makes vLLM and SGLang abort the request.
        `rewrite`: once, a request the server refused is sent again as it says (counted as a retry)."""
        client = self.client()
        tried: set[str] = set()
        attempt = 0
        while True:
            endpoint = self.pick(tried)
            endpoint.outstanding += 1
            endpoint.last_used = started = time.monotonic()
            response = None
            try:
                try:
                    response = await client.request("POST", endpoint.url + path, msgspec.json.encode(body),
                                                    JSON_HEADERS)
                except (HttpError, OSError) as exc:  # refused, reset, timed out, pool full
                    reason = type(exc).__name__
                    status = None
                else:
                    status = response.status_code
                    reason = f"http_{status}"
                if status == 200:
                    assert response is not None
                    endpoint.failures = 0
                    reader = self._read(endpoint, response, started, attempt)
                    try:
                        async for batch in reader:
                            yield batch
                    finally:  # on our caller's close too: count the call, then drop the connection
                        await reader.aclose()
                    return
                message = ""
                retry_after = None
                if response is not None:
                    retry_after = response.headers.get("retry-after")
                    message = (await response.read()).decode("utf-8", "replace")[:500]
                    await response.aclose()
                    response = None
                second = rewrite(status, message) if rewrite is not None and status is not None else None
                if second is not None:
                    rewrite = None
                    reason, body = second
                    self._observe(UpstreamEvent(endpoint=endpoint.url, outcome="retry", reason=reason,
                                                seconds=time.monotonic() - started))
                    continue
                retryable = status is None or status in RETRY_STATUSES or status in FAILOVER_STATUSES
                if status is None or status in FAILOVER_STATUSES:
                    endpoint.failures += 1
                    endpoint.down_until = time.monotonic() + self.cooldown_s
                    tried.add(endpoint.url)  # fail over: another endpoint first
                if not retryable or attempt >= self.retries:
                    self._observe(UpstreamEvent(endpoint=endpoint.url, outcome="error", reason=reason,
                                                seconds=time.monotonic() - started))
                    raise upstream_error(_failure_text(endpoint.url, status, reason, message, attempt + 1),
                                         endpoint=endpoint.url, status=status, reason=reason,
                                         attempts=attempt + 1, upstream_message=message)
                outcome = "retry" if status in RETRY_STATUSES else "failover"
                self._observe(UpstreamEvent(endpoint=endpoint.url, outcome=outcome, reason=reason,
                                            seconds=time.monotonic() - started))
                if len(tried) >= len(self.endpoints):
                    tried.clear()  # every endpoint failed once: start over after the backoff
                delay = self._delay(attempt, retry_after) if outcome == "retry" or not tried else 0.0
                attempt += 1
            finally:
                endpoint.outstanding -= 1
                if response is not None:
                    await response.aclose()
            if delay:
                await asyncio.sleep(delay)

    async def _read(self, endpoint: Endpoint, response: Any, started: float,
                    attempt: int) -> AsyncIterator[list[StreamChunk]]:
        from ..tracing import end_span, start_span

        trace = start_span("fastapply.upstream", **{"fastapply.endpoint": endpoint.url,
                                                    "fastapply.attempt": attempt + 1})

        first: float | None = None
        count = 0
        usage: StreamUsage | None = None
        outcome, reason = "error", "closed"
        done = False
        try:
            async for lines in _line_batches(response):
                if done:
                    continue  # anything after [DONE]; read to the end, so the connection is pooled again
                datas, done = _data_fields(lines)
                if done:
                    outcome, reason = "ok", ""
                try:
                    batch = _decode_events(datas)
                except BadEvent as exc:
                    reason = "bad_event"
                    raise upstream_error(f"the upstream {endpoint.url} sent an event that is not an OpenAI "
                                         f"stream chunk: {exc}", endpoint=endpoint.url) from None
                for event in batch:
                    if event.error:
                        reason = "error_event"
                        raise upstream_error(f"the upstream {endpoint.url} reported an error mid-stream: "
                                             f"{str(event.error)[:300]}", endpoint=endpoint.url)
                    usage = event.usage or usage
                if batch:
                    if first is None:
                        first = time.monotonic() - started
                    count += len(batch)
                    yield batch
            if not done:
                outcome, reason = "ok", "no_done"  # the caller decides from finish_reason
        except (HttpError, OSError) as exc:
            reason = type(exc).__name__
            raise upstream_error(f"the upstream {endpoint.url} broke the stream after {count} events "
                                 f"({reason}); the answer is incomplete and was not used",
                                 endpoint=endpoint.url, reason=reason, events=count) from None
        except (GeneratorExit, asyncio.CancelledError):
            if not done:  # left after [DONE]: the call completed, only its last bytes went unread
                outcome, reason = "cancelled", ""
            raise
        finally:
            prompt, completion = (usage.prompt_tokens or 0, usage.completion_tokens or 0) if usage else (0, 0)
            self._observe(UpstreamEvent(endpoint=endpoint.url, outcome=outcome, reason=reason,
                                        seconds=time.monotonic() - started, first_event_s=first,
                                        tokens=count, prompt_tokens=prompt, completion_tokens=completion))
            end_span(trace, **{"fastapply.outcome": outcome, "fastapply.reason": reason or None,
                               "fastapply.events": count})

    async def check(self, timeout_s: float = 2.0) -> dict[str, str]:
        """GET /models on every endpoint: {url: "ok" | "down: why"}; a down endpoint is cooled down."""

        async def one(endpoint: Endpoint) -> None:
            try:
                status, _ = await self._get(endpoint.url + "/models", timeout_s)
                endpoint.health = "ok" if status == 200 else f"down: http {status}"
            except TimeoutError:
                endpoint.health = f"down: no answer within {timeout_s:g} s"
            except (HttpError, OSError) as exc:
                endpoint.health = f"down: {type(exc).__name__}"
            if endpoint.health != "ok":
                endpoint.down_until = time.monotonic() + self.cooldown_s
            elif endpoint.failures:
                endpoint.failures, endpoint.down_until = 0, 0.0

        await asyncio.gather(*(one(e) for e in self.endpoints))
        return {e.url: e.health for e in self.endpoints}

    async def model_ids(self) -> list[str]:
        """The model ids the first reachable endpoint serves (GET /models)."""
        for endpoint in sorted(self.endpoints, key=lambda e: e.down_until):
            try:
                status, data = await self._get(endpoint.url + "/models", self.connect_timeout_s)
                if status == 200:
                    return [str(m.get("id")) for m in msgspec.json.decode(data).get("data", []) if m.get("id")]
            except (HttpError, OSError, TimeoutError, msgspec.DecodeError, AttributeError):
                continue
        raise upstream_error("no upstream answered GET /models; is the server running?",
                             endpoints=[e.url for e in self.endpoints])


async def _line_batches(response: Any) -> AsyncIterator[list[bytes]]:
    """The body's complete lines, as bytes, per network read (SSE is line-based; CR LF and CR end a
    line too: a CR LF split across two reads only adds an empty line, which SSE ignores here)."""
    pending = b""
    async for chunk in response.chunks():
        if b"\r" in chunk:
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        pending += chunk
        if b"\n" not in chunk:
            continue
        *lines, pending = pending.split(b"\n")
        yield lines
    if pending:
        yield [pending]


def _data_fields(lines: list[bytes]) -> tuple[list[bytes], bool]:
    """The `data:` payloads of some SSE lines (comments, event names and keep-alives skipped) up to a
    `[DONE]`, and whether it came. Per line this is one C-level test; [DONE] is looked for once."""
    datas = [line[5:] for line in lines if line.startswith(b"data:")]
    if b"[DONE]" not in b"".join(datas):  # (it may also sit inside a JSON string: checked below)
        return datas, False
    for index, data in enumerate(datas):
        if data.strip() == b"[DONE]":
            return datas[:index], True
    return datas, False


def _decode_events(datas: list[bytes]) -> list[StreamChunk]:
    """The events of one network read, decoded in one call (as a JSON array: ~5x fewer Python steps
    than one decode per token). When that fails, one at a time, to name the event at fault."""
    if not datas:
        return []
    try:
        return _CHUNKS.decode(b"[" + b",".join(datas) + b"]")
    except (msgspec.DecodeError, msgspec.ValidationError) as batch_error:
        for data in datas:
            try:
                _CHUNK.decode(data)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                raise BadEvent(f"{exc}: {data[:200].decode('utf-8', 'replace')!r}") from None
        raise BadEvent(str(batch_error)) from None


class BadEvent(ValueError):
    """An SSE event that is not JSON, or not shaped like an OpenAI stream chunk."""


def normalize_url(url: str) -> str:
    """'http://h:8000' or 'http://h:8000/v1/' -> 'http://h:8000/v1' (the OpenAI base URL)."""
    from urllib.parse import urlsplit

    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ModelError(f"upstream URL {url!r} is not an http(s) URL; write e.g. http://host:8000/v1",
                         code=ErrorCode.INVALID_ARGUMENT)
    return url if parts.path else url + "/v1"


def _failure_text(url: str, status: int | None, reason: str, message: str, attempts: int) -> str:
    what = f"answered HTTP {status}" if status is not None else f"could not be reached ({reason})"
    tail = f": {message.strip()[:300]}" if message.strip() else ""
    return f"the upstream {url} {what} after {attempts} attempt(s){tail}"
