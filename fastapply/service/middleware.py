"""ASGI middleware: request id, access log and metrics; CORS refusals as JSON; API keys; limits.

Order (outermost first): RequestContext and PreflightErrors wrap the whole litestar application
(app.py installs them around `Litestar.asgi_handler`), so they also see what litestar answers before
any route runs: 404 and 405 for unknown routes and methods, and CORS preflights. Auth and Limits are
route middleware. Preflights never reach Auth, so browsers get them without a key.
"""

from __future__ import annotations

import hmac
import itertools
import logging
import math
import os
import re
import time
from typing import Any

import anyio

from .errors import ServiceCode, error_body
from .executor import STOPPED_MERGES
from .logs import request_id_var
from .metrics import Metrics
from .settings import Settings

log = logging.getLogger("fastapply.service.access")

REQUEST_ID_HEADER = b"x-request-id"
_SAFE_ID = re.compile(rb"^[A-Za-z0-9._:\-]{1,128}$")
# Paths that never need a key: probes, and the API description itself.
OPEN_PATHS = ("/healthz", "/readyz", "/schema")

Scope = dict[str, Any]

# Request ids: a random per-process prefix and a counter. Unique across processes and restarts, and
# cheap (uuid4 costs an os.urandom call per request, measurably slow on a loaded VM).
_ID_PREFIX = os.urandom(8).hex()
_ID_COUNTER = itertools.count(1)


def new_request_id() -> str:
    return f"{_ID_PREFIX}{next(_ID_COUNTER):016x}"


def header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value
    return None


async def send_error(send: Any, status: int, code: str, message: str, details: dict[str, Any] | None = None,
                     headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = error_body(code, message, details)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


# The metrics label for a request that matched no route: raw paths would let any scanner create an
# unbounded number of series.
UNMATCHED_ROUTE = "(unmatched)"


class RequestContext:
    """Gives each request an id (the client's x-request-id when sane), echoes it, logs and counts it.

    `routes`: the application's route paths, for labelling a 405 (a known path, another method).
    """

    def __init__(self, app: Any, metrics: Metrics, routes: frozenset[str] = frozenset()) -> None:
        self.app, self.metrics, self.routes = app, metrics, routes

    def route_label(self, scope: Scope, path: str) -> str:
        # litestar sets path_template once a route matched (the same for every path of a template).
        template = scope.get("path_template")
        if template:
            return str(template)
        return path if path in self.routes else UNMATCHED_ROUTE

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = header(scope, REQUEST_ID_HEADER)
        request_id = incoming.decode() if incoming and _SAFE_ID.match(incoming) else new_request_id()
        token = request_id_var.set(request_id)
        status = 500
        started = time.perf_counter()
        path = scope["path"]  # routing may rewrite scope["path"]; log what the client asked for

        async def send_with_id(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), (REQUEST_ID_HEADER, request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - started
            method = scope["method"]
            self.metrics.request(self.route_label(scope, path), method, status, seconds)
            log.info("request", extra={"request_id": request_id, "fields": {
                "method": method, "path": path, "status": status, "duration_ms": round(seconds * 1000, 3),
                "client": (scope.get("client") or ("", 0))[0]}})
            request_id_var.reset(token)


class PreflightErrors:
    """litestar answers a refused CORS preflight with a plain-text 400 ("Disallowed CORS Origin, method");
    turn it into the service's JSON error: `cors_origin_denied` when the origin is not on the
    allow-list, `cors_preflight_denied` when only the method or the headers are not allowed."""

    def __init__(self, app: Any, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        origin = header(scope, b"origin") if scope["type"] == "http" else None
        if origin is None or scope["method"] != "OPTIONS":
            await self.app(scope, receive, send)
            return
        refused = False

        async def send_json(message: dict[str, Any]) -> None:
            nonlocal refused
            if message["type"] == "http.response.start" and message["status"] == 400:
                refused = True
                return  # sent below, with the body
            if refused and message["type"] == "http.response.body":
                await self._refuse(send, origin, bytes(message.get("body", b"")))
                return
            await send(message)

        await self.app(scope, receive, send_json)

    async def _refuse(self, send: Any, origin: bytes, text: bytes) -> None:
        # litestar's text names what failed: "Disallowed CORS Origin, method, headers".
        failed = [part.strip().lower() for part in text.decode("utf-8", "replace")
                  .removeprefix("Disallowed CORS").split(",") if part.strip()]
        name = origin.decode("latin-1")
        if "origin" in failed:
            code = ServiceCode.CORS_ORIGIN_DENIED
            message = (f"origin {name} is not allowed; the server allows the origins given with "
                       "--cors-origin (FASTAPPLY_CORS_ORIGINS)")
        else:
            code = ServiceCode.CORS_PREFLIGHT_DENIED
            message = f"CORS preflight from {name} refused; not allowed: {', '.join(failed)}"
        self.metrics.refusal(code)
        await send_error(send, 400, code, message, {"origin": name, "failed": failed})


class Auth:
    """Requires one of the configured API keys, as `Authorization: Bearer KEY` or `x-api-key: KEY`."""

    def __init__(self, app: Any, settings: Settings, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics
        self.keys = [key.encode() for key in settings.api_keys]

    def allowed(self, scope: Scope) -> bool:
        presented = header(scope, b"x-api-key")
        authorization = header(scope, b"authorization")
        if authorization is not None:
            scheme, _, token = authorization.partition(b" ")
            if scheme.lower() == b"bearer":
                presented = token.strip()
        if not presented:
            return False
        # Compare against every key without stopping early, so timing says nothing about which matched.
        matched = False
        for key in self.keys:
            matched |= hmac.compare_digest(presented, key)
        return matched

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if (not self.keys or scope["type"] != "http" or scope["method"] == "OPTIONS"
                or scope["path"].startswith(OPEN_PATHS) or self.allowed(scope)):
            await self.app(scope, receive, send)
            return
        self.metrics.refusal(ServiceCode.UNAUTHORIZED)
        await send_error(send, 401, ServiceCode.UNAUTHORIZED,
                         "missing or wrong API key; send `Authorization: Bearer KEY` or `x-api-key: KEY`",
                         headers=[(b"www-authenticate", b'Bearer realm="fastapply"')])


class Gate:
    """The processing slots and the queue, shared by every route (litestar builds the middleware
    stack once per route, so this state must live outside the middleware instances)."""

    def __init__(self, max_concurrency: int) -> None:
        self.slots = anyio.Semaphore(max_concurrency)
        self.waiting = 0


class Limits:
    """Body size (from Content-Length, before any work), concurrency with a bounded queue, timeout.

    The timeout covers everything up to the response headers: queueing and the whole merge for a
    plain response or a structural stream. A model stream starts at once and then runs until done,
    until the client disconnects, or until `max_generation_s` (the engine stops it, in-band).
    """

    def __init__(self, app: Any, settings: Settings, metrics: Metrics, gate: Gate) -> None:
        self.app, self.settings, self.metrics, self.gate = app, settings, metrics, gate

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        length = header(scope, b"content-length")
        limit = self.settings.max_body_bytes
        if length is not None and length.isdigit() and int(length) > limit:
            self.metrics.refusal(ServiceCode.PAYLOAD_TOO_LARGE)
            await send_error(send, 413, ServiceCode.PAYLOAD_TOO_LARGE,
                             f"the request body is {int(length)} bytes, over the limit of {limit} bytes; "
                             "raise --max-body-mb or send less", {"size": int(length), "limit": limit})
            return
        if self.gate.slots.value == 0 and self.gate.waiting >= self.settings.max_queue:
            self.metrics.refusal(ServiceCode.RATE_LIMITED)
            await send_error(send, 429, ServiceCode.RATE_LIMITED,
                             f"the server is busy ({self.settings.max_concurrency} requests running, "
                             f"{self.gate.waiting} queued); retry after the Retry-After seconds",
                             headers=[(b"retry-after", b"1")])
            return
        await self._run(scope, receive, send)

    async def _run(self, scope: Scope, receive: Any, send: Any) -> None:
        response_started = False
        stopped: list[str] = []
        STOPPED_MERGES.set(stopped)  # this request's task only: the pool notes a merge it stopped
        with anyio.move_on_after(self.settings.timeout_s) as deadline:

            async def send_tracking(message: dict[str, Any]) -> None:
                nonlocal response_started
                if message["type"] == "http.response.start":
                    response_started = True
                    deadline.deadline = math.inf
                await send(message)

            if self.gate.slots.value > 0:
                self.gate.slots.acquire_nowait()  # no await since the check in __call__
            else:
                self.gate.waiting += 1
                self.metrics.queued.set(self.gate.waiting)
                try:
                    await self.gate.slots.acquire()
                finally:
                    self.gate.waiting -= 1
                    self.metrics.queued.set(self.gate.waiting)
            try:
                self.metrics.inflight.set(self.settings.max_concurrency - self.gate.slots.value)
                await self.app(scope, receive, send_tracking)
            finally:
                self.gate.slots.release()
                self.metrics.inflight.set(self.settings.max_concurrency - self.gate.slots.value)
        if deadline.cancelled_caught and not response_started:
            if stopped:  # the merge itself ran out of time, and was stopped (its worker killed)
                code, what = ServiceCode.MERGE_TIMEOUT, "the merge ran past the request's"
            else:
                code, what = ServiceCode.TIMEOUT, "the request took longer than the"
            self.metrics.refusal(code)
            await send_error(send, 504, code, f"{what} {self.settings.timeout_s:g} s limit and was stopped; "
                             "raise --timeout-s or send a smaller edit", {"timeout_s": self.settings.timeout_s})
