"""/mcp: the MCP edit tools (fastapply.mcp) over streamable HTTP, inside the service.

Mounted as a raw ASGI route, so the service's Auth and Limits middleware (API keys, body size,
concurrency, timeout) apply to it as to every /v1 route. Stateless with JSON responses: any worker
process can answer any request, so `--workers N` needs no session affinity. Merges go through the
service's Engine (the merge pool, and the loaded model when the structural engine refuses).
Served only with the `mcp` extra installed, and not when the server listens beyond loopback without an
API key (the tools write files).

Cost: per request, one MCP message decoded and one tool call (a merge, then an atomic write).
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import msgspec
from litestar import asgi

from ..errors import ErrorCode, InputError
from ..result import ApplyResult
from .engine import Engine, Job
from .models import AUTO
from .settings import Settings

log = logging.getLogger("fastapply.service")
PATH = "/mcp"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class McpMount(msgspec.Struct, kw_only=True):
    handler: Any  # the litestar ASGI route handler
    lifespan: Callable[[Any], AbstractAsyncContextManager[None]]
    root: str


def mcp_mount(settings: Settings, engine: Engine) -> McpMount | None:
    """The /mcp route and the lifespan that runs its session manager, or None when not served."""
    if not settings.mcp or importlib.util.find_spec("mcp") is None:
        return None
    if settings.host not in LOOPBACK and not settings.api_keys:
        log.warning("MCP tools at /mcp are off: they write files and this server listens on %s without "
                    "an API key; add --api-key to serve them", settings.host)
        return None
    from mcp.server.transport_security import TransportSecuritySettings

    from ..mcp.server import build_server
    from ..mcp.tools import Refusal, Workspace

    async def merge(original: str, snippet: str, path: str, instruction: str | None) -> ApplyResult:
        return await engine.apply(Job(original=original, update=snippet, filename=path,
                                      instruction=instruction, model=AUTO))

    root = settings.mcp_root or os.getcwd()
    try:
        workspace = Workspace(root, merge)
    except Refusal as exc:
        raise InputError(f"--mcp-root: {exc.message}", code=ErrorCode.INVALID_ARGUMENT) from None
    server = build_server(workspace)
    if settings.log_level != "debug":  # the SDK logs every stateless request at info
        logging.getLogger("mcp").setLevel(logging.WARNING)
    loopback = settings.host in LOOPBACK
    # A browser page on another site must not reach a loopback server through DNS rebinding.
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=loopback,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"] if loopback else [],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"] if loopback else [])
    server.streamable_http_app(stateless_http=True, json_response=True, transport_security=security,
                               max_request_body_size=settings.max_body_bytes)
    manager = server.session_manager

    async def handle(scope: Any, receive: Any, send: Any) -> None:
        await manager.handle_request(scope, receive, send)

    handler = asgi(PATH, is_mount=True, copy_scope=True, include_in_schema=False)(handle)
    return McpMount(handler=handler, lifespan=lambda app: manager.run(), root=workspace.root)
