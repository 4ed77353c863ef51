"""uvicorn's HTTP protocol (httptools when installed, else h11) with TCP_NODELAY on every connection.

asyncio sets TCP_NODELAY itself only when the listening socket reports proto=IPPROTO_TCP, which is not
the case for the socket uvicorn hands to `--workers N` processes. Without it, Nagle's algorithm holds
the response body until the client ACKs the headers, and delayed ACKs add ~40 ms to every request
(measured with evals/load.py: p50 48 ms with 2 workers against 1.5 ms with 1).
"""

from __future__ import annotations

import importlib.util
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


class _NoDelay:
    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except (OSError, AttributeError):  # not TCP (a Unix socket): nothing to do
                pass
        super().connection_made(transport)  # type: ignore[misc]


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
