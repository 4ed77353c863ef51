"""The litestar application: `create_app(settings)` wires routes, middleware, limits and engines."""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from .. import __version__
from . import logs
from .engine import Engine
from .errors import EXCEPTION_HANDLERS
from .executor import MergePool
from .metrics import Metrics
from .middleware import Auth, Gate, Limits, PreflightErrors, RequestContext
from .models import ApplyModelLike, Models
from .routes_apply import apply_route
from .routes_batch import apply_batch
from .routes_mcp import mcp_mount
from .routes_openai import chat_completions, list_models
from .routes_ops import healthz, metrics, readyz
from .settings import Settings, from_env


def create_app(settings: Settings | None = None, *, models: list[ApplyModelLike] | None = None) -> Litestar:
    """The service for `settings` (default: from FASTAPPLY_* variables). `models`: already loaded
    models to serve besides `settings.model` (tests, or an embedding application)."""
    settings = (settings or from_env()).check()
    logs.configure(settings.log_level)
    metrics_ = Metrics()
    registry = Models([settings.model] if settings.model else [], preloaded=models,
                      aliases=settings.model_aliases, strict=settings.strict_models,
                      draft_head=settings.draft_head)
    for name in registry.names():
        metrics_.loaded(name)
    pool = MergePool(settings.executor, settings.pool_size())
    # Pushed on every change, not read at scrape time: with --workers N a scrape reaches one worker.
    pool.on_change = lambda: metrics_.merge_workers(pool.workers_alive, pool.workers_replaced)
    engine = Engine(pool, registry, metrics_, max_generation_s=settings.max_generation_s)
    background: set[asyncio.Task[Any]] = set()
    mcp = mcp_mount(settings, engine)  # None without the `mcp` extra, or when turned off

    async def startup(app: Litestar) -> None:
        await pool.start()
        pool.on_change()
        if registry.specs:
            # Load in the background: /healthz answers now, /readyz once the model is in memory.
            task = asyncio.ensure_future(
                registry.load_all(on_loaded=metrics_.loaded))
            background.add(task)
            task.add_done_callback(background.discard)

    async def shutdown(app: Litestar) -> None:
        for task in list(background):
            task.cancel()
        pool.close()
        metrics_.process_exit()

    cors = None
    if settings.cors_origins:
        cors = CORSConfig(allow_origins=settings.cors_origins, allow_methods=["GET", "POST", "OPTIONS"],
                          allow_headers=["authorization", "content-type", "x-api-key", "x-request-id"],
                          expose_headers=["x-request-id", "retry-after"])
    app = Litestar(
        route_handlers=[apply_route, apply_batch, chat_completions, list_models, healthz, readyz, metrics,
                        *([mcp.handler] if mcp else [])],
        middleware=[DefineMiddleware(Auth, settings=settings, metrics=metrics_),
                    DefineMiddleware(Limits, settings=settings, metrics=metrics_,
                                     gate=Gate(settings.max_concurrency))],
        exception_handlers=EXCEPTION_HANDLERS,  # type: ignore[arg-type]
        cors_config=cors,
        request_max_body_size=settings.max_body_bytes,
        state=State({"engine": engine, "metrics": metrics_, "settings": settings}),
        on_startup=[startup],
        on_shutdown=[shutdown],
        lifespan=[mcp.lifespan] if mcp else [],
        openapi_config=OpenAPIConfig(
            title="fastapply", version=__version__, path="/schema", **_security(settings),
            description="Merge AI-written code edits into files: Relace-style /v1/apply, OpenAI-style "
            "/v1/chat/completions (Morph's format), batch apply. Auth: `Authorization: Bearer KEY` or "
            "`x-api-key` when the server has keys."),
        debug=False,
    )
    # Route middleware runs only once a route matched; wrapping litestar's whole handler (its CORS
    # layer and router included) gives 404s, 405s and preflights a request id and a metrics line too.
    routes = frozenset(route.path for route in app.routes)
    app.asgi_handler = RequestContext(PreflightErrors(app.asgi_handler, metrics_), metrics_, routes)
    return app


def _security(settings: Settings) -> dict[str, Any]:
    """Document the API keys in the OpenAPI schema when the server requires them."""
    if not settings.api_keys:
        return {}
    schemes = {"bearer": SecurityScheme(type="http", scheme="bearer"),
               "apiKey": SecurityScheme(type="apiKey", name="x-api-key", security_scheme_in="header")}
    return {"components": Components(security_schemes=schemes), "security": [{"bearer": []}, {"apiKey": []}]}


def create_app_from_env() -> Litestar:
    """Factory for `uvicorn --factory` and multi-worker serving: settings from FASTAPPLY_* variables."""
    return create_app(from_env())
