"""uvicorn's HTTP protocol with TCP_NODELAY on every connection.

asyncio sets TCP_NODELAY itself only when the listening socket reports proto=IPPROTO_TCP, which is not
the case for the socket uvicorn hands to `--workers N` processes. Without it, Nagle's algorithm holds
the response body until the client ACKs the headers, and delayed ACKs add ~40 ms to every request
(measured with evals/load.py: p50 48 ms with 2 workers against 1.5 ms with 1).
"""

from __future__ import annotations

import importlib.util
import socket
from typing import Any

if importlib.util.find_spec("httptools") is not None:  # what uvicorn's "auto" would pick
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
else:
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Base


class NoDelayHTTPProtocol(_Base):  # type: ignore[misc, valid-type]
    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except (OSError, AttributeError):  # not TCP (a Unix socket): nothing to do
                pass
        super().connection_made(transport)
