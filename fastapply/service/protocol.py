"""uvicorn's HTTP protocol (httptools when installed, else h11) with TCP_NODELAY on every connection
and a deadline for request heads.

asyncio sets TCP_NODELAY itself only when the listening socket reports proto=IPPROTO_TCP, which is not
the case for the socket uvicorn hands to `--workers N` processes. Without it, Nagle's algorithm holds
the response body until the client ACKs the headers, and delayed ACKs add ~40 ms to every request
(measured with evals/load.py: p50 48 ms with 2 workers against 1.5 ms with 1).

uvicorn closes a keep-alive connection that stays idle after a response, but never one that has sent
nothing (or dribbles its headers): thousands of those hold as many file descriptors, up to the
process's limit, after which nobody can connect. So every connection gets `--header-timeout-s` from
the moment it opens (and again after each response) to deliver a complete request head, else it is
closed. A request whose head has arrived is bounded by the app's own `--timeout-s` instead.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import socket
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol


def available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def resolve_http(kind: str) -> str:
    """`auto` -> httptools when installed (uvicorn[standard]), else h11; other names as given."""
    if kind == "auto":
        return "httptools" if available("httptools") else "h11"
    return kind


def resolve_loop(kind: str) -> str:
    """`auto` -> uvloop when installed (uvicorn[standard]), else asyncio; other names as given."""
    if kind == "auto":
        return "uvloop" if available("uvloop") else "asyncio"
    return kind


def header_timeout_s() -> float:
    """`--header-timeout-s`: worker processes get it, like every setting, through the environment."""
    from .settings import DEFAULT_HEADER_TIMEOUT_S, env_name

    try:
        value = float(os.environ.get(env_name("header_timeout_s"), "") or DEFAULT_HEADER_TIMEOUT_S)
    except ValueError:
        return DEFAULT_HEADER_TIMEOUT_S
    return value if value > 0 else DEFAULT_HEADER_TIMEOUT_S


class _NoDelay:
    """Mixed in before uvicorn's protocol class: TCP_NODELAY, and the request-head deadline."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except (OSError, AttributeError):  # not TCP (a Unix socket): nothing to do
                pass
        super().connection_made(transport)  # type: ignore[misc]
        self._arm_head_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        self._arm_head_deadline()  # the next request's head has the same time

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)  # type: ignore[misc]

    def _arm_head_deadline(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        transport = self.transport  # type: ignore[attr-defined]
        self._head_timer = None if transport.is_closing() else \
            self.loop.call_later(header_timeout_s(), self._head_deadline_passed)  # type: ignore[attr-defined]

    def _head_deadline_passed(self) -> None:
        self._head_timer = None
        cycle = self.cycle  # type: ignore[attr-defined]
        if cycle is not None and not cycle.response_complete:
            return  # a request is being served: its head arrived, and --timeout-s bounds the rest
        if not self.transport.is_closing():  # type: ignore[attr-defined]
            self.transport.close()  # type: ignore[attr-defined]


class NoDelayH11(_NoDelay, H11Protocol):
    pass


if available("httptools"):
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class NoDelayHttpTools(_NoDelay, HttpToolsProtocol):
        pass


def http_protocol(kind: str = "auto") -> str:
    """uvicorn's `http=` option for `auto`, `httptools` or `h11`: an import string (worker processes
    re-import it) of the protocol class with TCP_NODELAY."""
    name = "NoDelayHttpTools" if resolve_http(kind) == "httptools" else "NoDelayH11"
    return f"{__name__}:{name}"
