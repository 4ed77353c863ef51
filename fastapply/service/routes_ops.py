"""Operational endpoints: liveness, readiness, Prometheus metrics."""

from __future__ import annotations

from litestar import Response, get
from litestar.datastructures import State

from .metrics import CONTENT_TYPE
from .models import Models
from .schemas import Health


@get("/healthz", tags=["ops"], summary="Liveness: the process answers (no key needed)")
async def healthz() -> Health:
    return Health(status="ok")


@get("/readyz", tags=["ops"], summary="Readiness: every configured model is loaded and every upstream has an endpoint up (else 503)")
async def readyz(state: State) -> Response[Health]:
    models: Models = state.engine.models
    ready = models.ready
    status = models.status()
    upstream_down = await check_upstreams(models, state, status)
    label = "loading" if not ready else "upstream_down" if upstream_down else "ready"
    return Response(Health(status=label, models=status),
                    status_code=200 if ready and not upstream_down else 503)


async def check_upstreams(models: Models, state: State, status: dict[str, str]) -> bool:
    """Health-check every upstream model's servers (GET /models, 2 s at most); True when one of them
    has no endpoint up. Fills `status` with each one's endpoints and the fastapply_upstream_up gauge."""
    down = False
    for name, model in models.loaded.items():
        health = getattr(model, "health", None)
        if health is None:
            continue
        state.engine.watch(model)
        endpoints = await health()
        up = [url for url, text in endpoints.items() if text == "ok"]
        for url, text in endpoints.items():
            state.metrics.upstream_health(url, text == "ok")
        status[name] = f"upstream: {len(up)}/{len(endpoints)} endpoints up" + "".join(
            f"; {url} {text}" for url, text in endpoints.items() if text != "ok")
        down = down or not up
    return down


@get("/metrics", tags=["ops"], summary="Prometheus metrics (text exposition format); with --workers N, "
     "the sum over every worker", media_type=CONTENT_TYPE)
async def metrics(state: State) -> bytes:
    pool = state.engine.pool
    state.metrics.merge_workers(pool.workers_alive, pool.workers_replaced)
    return state.metrics.render()
