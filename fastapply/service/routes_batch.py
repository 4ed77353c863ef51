"""POST /v1/apply/batch: many edits over many files in one call, each with its own result or error.

Items run concurrently (bounded by the merge pool). With `stream: true` the response is NDJSON: one
line per item as it completes (in completion order; `index` says which item), then a summary line.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import anyio
import msgspec
from litestar import Response, post
from litestar.datastructures import State
from litestar.response import Stream

from ..errors import ErrorCode, FastApplyError
from ..result import ApplyResult
from .engine import FORMAT_FUNCTIONS, Engine, Job
from .errors import ServiceCode, ServiceError, status_for
from .routes_apply import ERROR_RESPONSES, shape, usage_for
from .schemas import BatchItem, BatchItemResult, BatchRequest, BatchResponse, BatchSummary, ErrorInfo, pick

log = logging.getLogger("fastapply.service")

Runner = Callable[[Engine, BatchItem, BatchRequest], Awaitable[tuple[ApplyResult, Job]]]


async def run_lazy(engine: Engine, item: BatchItem, batch: BatchRequest) -> tuple[ApplyResult, Job]:
    job = Job(original=pick(item, "initial_code", "initialCode") or "",
              update=pick(item, "edit_snippet", "editSnippet") or "",
              filename=item.path or item.filename, language=item.language, instruction=item.instruction,
              model=batch.model)
    return await engine.apply(job), job


def format_runner(function: str) -> Runner:
    async def run(engine: Engine, item: BatchItem, batch: BatchRequest) -> tuple[ApplyResult, Job]:
        original = pick(item, "initial_code", "initialCode") or ""
        path = item.path or item.filename
        if function == "apply_replacements":
            if item.edits is None:
                raise ServiceError(400, "format 'replacements' needs `edits`: a list of {old, new}",
                                   code=ErrorCode.INVALID_ARGUMENT, details={"field": "edits"})
            edit: str | list = item.edits
        else:
            edit = pick(item, "edit_snippet", "editSnippet") or ""
        result = await engine.apply_format(function, original, edit, path,
                                           item.ambiguity or batch.ambiguity)
        return result, Job(original=original, update=edit if isinstance(edit, str) else "", filename=path)

    return run


# Edit formats by name: lazy snippets (the structural engine or a model), and the other agent formats
# of fastapply.formats. An unknown name is that item's error, not the batch's.
FORMATS: dict[str, Runner] = {"lazy": run_lazy}
FORMATS.update({name: format_runner(function) for name, function in FORMAT_FUNCTIONS.items()})


async def run_item(engine: Engine, index: int, item: BatchItem, batch: BatchRequest) -> BatchItemResult:
    base = {"index": index, "id": item.id, "path": item.path or item.filename}
    runner = FORMATS.get(item.format)
    try:
        if runner is None:
            raise ServiceError(400, f"items[{index}].format {item.format!r} is not supported; "
                               f"use one of {', '.join(FORMATS)}", code=ErrorCode.INVALID_ARGUMENT,
                               details={"field": f"items[{index}].format"})
        result, job = await runner(engine, item, batch)
    except ServiceError as exc:
        if exc.status in (404, 503):  # unknown or loading model: the whole batch is wrong, not this item
            raise
        return BatchItemResult(**base, ok=False, error=_error(exc))
    except FastApplyError as exc:
        return BatchItemResult(**base, ok=False, error=_error(exc))
    except Exception:  # a bug must cost one item, not the batch
        log.exception("batch item %d failed", index)
        return BatchItemResult(**base, ok=False, error=ErrorInfo(
            code=ServiceCode.INTERNAL, message="internal error; it was logged", details={"status": 500}))
    return BatchItemResult(**base, ok=True, method=result.method, timing_ms=result.stats.elapsed_ms,
                           usage=usage_for(result, job.original, job.update, job.instruction),
                           warnings=result.warnings, **shape(result, batch.output))


def _error(exc: FastApplyError) -> ErrorInfo:
    details = {**exc.details, "status": status_for(exc)}
    return ErrorInfo(code=exc.code, message=exc.message, details=details)


def _summary(results: list[BatchItemResult]) -> BatchSummary:
    ok = sum(result.ok for result in results)
    return BatchSummary(total=len(results), ok=ok, failed=len(results) - ok)


@post("/v1/apply/batch", status_code=200, responses=ERROR_RESPONSES, tags=["apply"],
      summary="Apply many edits over many files; per-item result or error",
      description="With `stream: true`: NDJSON, one BatchItemResult per line as each item completes, "
      "then `{\"summary\": {...}, \"timing_ms\": ...}`.")
async def apply_batch(data: BatchRequest, state: State) -> Response[BatchResponse]:
    engine: Engine = state.engine
    started = time.perf_counter()
    engine.models.resolve(data.model)  # an unknown model fails the request up front
    if data.stream:
        return Stream(_ndjson(engine, data, started), media_type="application/x-ndjson")
    results: list[BatchItemResult | None] = [None] * len(data.items)

    async def one(index: int, item: BatchItem) -> None:
        results[index] = await run_item(engine, index, item, data)

    async with anyio.create_task_group() as group:
        for index, item in enumerate(data.items):
            group.start_soon(one, index, item)
    done = [result for result in results if result is not None]
    return Response(BatchResponse(results=done, summary=_summary(done),
                                  timing_ms=round((time.perf_counter() - started) * 1000, 3)))


async def _ndjson(engine: Engine, data: BatchRequest, started: float) -> AsyncIterator[bytes]:
    # Plain asyncio tasks rather than a task group: a generator must not yield inside a cancel scope.
    async def one(index: int, item: BatchItem) -> BatchItemResult:
        try:
            return await run_item(engine, index, item, data)
        except FastApplyError as exc:
            return BatchItemResult(index=index, id=item.id, ok=False, error=_error(exc))

    tasks = [asyncio.ensure_future(one(index, item)) for index, item in enumerate(data.items)]
    done: list[BatchItemResult] = []
    try:
        for next_done in asyncio.as_completed(tasks):
            result = await next_done
            done.append(result)
            yield msgspec.json.encode(result) + b"\n"
    finally:
        for task in tasks:  # the client went away: stop the items not started yet
            task.cancel()
    summary = {"summary": _summary(done), "timing_ms": round((time.perf_counter() - started) * 1000, 3)}
    yield msgspec.json.encode(summary) + b"\n"
