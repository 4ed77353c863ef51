"""Operational endpoints: liveness, readiness, Prometheus metrics."""

from __future__ import annotations

from litestar import Response, get
from litestar.datastructures import State

from .models import Models
from .schemas import Health


@get("/healthz", tags=["ops"], summary="Liveness: the process answers (no key needed)")
async def healthz() -> Health:
    return Health(status="ok")


@get("/readyz", tags=["ops"], summary="Readiness: every configured model is loaded (503 until then)")
async def readyz(state: State) -> Response[Health]:
    models: Models = state.engine.models
    ready = models.ready
    return Response(Health(status="ready" if ready else "loading", models=models.status()),
                    status_code=200 if ready else 503)


@get("/metrics", tags=["ops"], summary="Prometheus metrics (text exposition format)",
     media_type="text/plain; version=0.0.4; charset=utf-8")
async def metrics(state: State) -> str:
    pool = state.engine.pool
    state.metrics.workers.set(pool.workers_alive)
    state.metrics.workers_replaced.set(pool.workers_replaced)
    return state.metrics.render()
