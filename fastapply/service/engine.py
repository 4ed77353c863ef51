"""Runs one merge for a request: picks the engine from the `model` field and keeps the event loop free.

`fastapply-structural`: the structural engine in the merge pool. A loaded model's name: that model,
one request at a time. `auto`: the structural engine, and when it refuses the edit (an ApplyError that
is not about the input itself) the first loaded model, if any.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.to_thread
import msgspec

from ..errors import ApplyError, ErrorCode, InputError
from ..result import ApplyResult
from .errors import ServiceCode, ServiceError
from .executor import MergePool
from .metrics import Metrics
from .models import AUTO, STRUCTURAL, ApplyModelLike, Models
from ..tracing import span

_END = object()
# Structural results are streamed in pieces of this many characters.
STREAM_PIECE = 4096


class Job(msgspec.Struct, kw_only=True):
    original: str
    update: str
    filename: str | None = None
    language: str | None = None
    instruction: str | None = None
    model: str = AUTO
    temperature: float | None = None
    max_new_tokens: int | None = None

    def model_kwargs(self) -> dict[str, Any]:
        # The keywords of fastapply.runtime.ApplyModel.merge/stream.
        kwargs: dict[str, Any] = {"instruction": self.instruction, "filename": self.filename,
                                  "language": self.language}
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_new_tokens is not None:
            kwargs["max_new_tokens"] = self.max_new_tokens
        return kwargs


# Agent edit formats (fastapply.formats): batch `format` name -> the public function that applies one
# file's edit, `f(original, edit, *, filename=None, ambiguity="refuse") -> ApplyResult`.
FORMAT_FUNCTIONS = {"replacements": "apply_replacements", "search_replace": "apply_search_replace",
                    "udiff": "apply_udiff", "v4a": "apply_v4a", "whole": "apply_whole"}


def format_apply(function: str, original: str, edit: Any, filename: str | None,
                 ambiguity: str = "refuse") -> ApplyResult:
    """Module-level (picklable) so that a process pool can run it."""
    import fastapply

    apply_edit = getattr(fastapply, function, None)
    if apply_edit is None:
        raise InputError(f"this build of fastapply has no {function}; the format is not available",
                         code=ErrorCode.INVALID_ARGUMENT)
    return apply_edit(original, edit, filename=filename, ambiguity=ambiguity)


def structural_apply(job: Job) -> ApplyResult:
    """Module-level (picklable) so that a process pool can run it."""
    from ..api import apply

    return apply(job.original, job.update, filename=job.filename, language=job.language,
                 instruction=job.instruction)


class Engine:
    def __init__(self, pool: MergePool, models: Models, metrics: Metrics, *,
                 max_generation_s: float = 300.0) -> None:
        self.pool, self.models, self.metrics = pool, models, metrics
        self.max_generation_s = max_generation_s
        self._background: set[asyncio.Task[Any]] = set()

    async def apply(self, job: Job) -> ApplyResult:
        job = self._canonical(job)
        model = self.models.resolve(job.model)
        with span("fastapply.apply", **{"fastapply.model": job.model}):
            try:
                if model is None:
                    result = await self._structural(job)
                elif job.model == AUTO:
                    try:
                        result = await self._structural(job)
                    except InputError:
                        raise
                    except ApplyError:
                        with span("fastapply.model_merge", **{"fastapply.model": model.name}):
                            result = await self._model_merge(model, job)
                else:
                    with span("fastapply.model_merge", **{"fastapply.model": model.name}):
                        result = await self._model_merge(model, job)
            except ApplyError as exc:
                self.metrics.refusal(exc.code)
                raise
        self.metrics.merge(result.method)
        return result

    async def _structural(self, job: Job) -> ApplyResult:
        with span("fastapply.structural_merge"):
            return await self.pool.run(structural_apply, job)

    async def apply_format(self, function: str, original: str, edit: Any,
                           filename: str | None, ambiguity: str = "refuse") -> ApplyResult:
        """One file's edit in another agent format (str_replace list, SEARCH/REPLACE, udiff, V4A,
        whole file); `ambiguity`: "refuse" or "first" (fastapply.formats.policy.Policy)."""
        try:
            result = await self.pool.run(format_apply, function, original, edit, filename, ambiguity)
        except ApplyError as exc:
            self.metrics.refusal(exc.code)
            raise
        self.metrics.merge(result.method)
        return result

    async def _model_merge(self, model: ApplyModelLike, job: Job) -> ApplyResult:
        """Queue behind the model's lock, then merge in a thread. A request that times out while
        queued leaves the queue; one whose merge already runs gets its 504 at once while the merge
        finishes in the background (a running forward pass cannot be interrupted) and frees the model.
        An upstream model (one with `amerge`) is awaited here, unlocked: its server batches requests,
        and cancelling the request closes the upstream connection, which stops generation there."""
        if hasattr(model, "amerge"):
            self.watch(model)
            result = await model.amerge(job.original, job.update, **job.model_kwargs())
            self.metrics.generation(model.name, result.stats.generated_tokens, result.stats.decode_s)
            return result
        lock = self.models.lock(model)
        started = False

        async def guarded() -> ApplyResult:
            nonlocal started
            async with lock:
                started = True
                return await anyio.to_thread.run_sync(
                    lambda: model.merge(job.original, job.update, **job.model_kwargs()))

        task = asyncio.ensure_future(guarded())
        self._background.add(task)
        task.add_done_callback(self._forget)
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError:
            if not started:
                task.cancel()
            raise
        self.metrics.generation(model.name, result.stats.generated_tokens, result.stats.decode_s)
        return result

    def _canonical(self, job: Job) -> Job:
        name = self.models.canonical(job.model)
        return job if name == job.model else msgspec.structs.replace(job, model=name)

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: an abandoned merge's error was already the caller's to see

    async def stream(self, job: Job) -> tuple[AsyncIterator[str], ApplyResult | None]:
        """Text chunks of the merged file. Structural merges are computed first (so that a refusal is
        still a proper 422) and returned with the result; model merges stream as tokens are accepted."""
        job = self._canonical(job)
        model = self.models.resolve(job.model)
        if model is None:
            result = await self.apply(job)
            return _pieces(result.merged_code), result
        if job.model == AUTO:
            try:
                result = await self.apply(msgspec.structs.replace(job, model=STRUCTURAL))
                return _pieces(result.merged_code), result
            except InputError:
                raise
            except ApplyError:
                pass  # the structural engine refused: stream the model's merge instead
        return self._model_stream(model, job), None

    def watch(self, model: Any) -> None:
        """Report an upstream model's calls in /metrics (its latency, errors and tokens)."""
        if getattr(model, "observer", False) is None:
            model.observer = self.metrics.upstream

    def _check_limit(self, started: float) -> None:
        """A model stream past `max_generation_s` ends with an in-band generation_timeout error (its
        headers went out long ago, so the request's own time limit no longer applies)."""
        if time.monotonic() - started > self.max_generation_s:
            self.metrics.refusal(ServiceCode.GENERATION_TIMEOUT)
            raise ServiceError(
                504, f"generation stopped after the {self.max_generation_s:g} s limit; the "
                "merged file is incomplete; raise --max-generation-s or send a smaller edit",
                code=ServiceCode.GENERATION_TIMEOUT, details={"max_generation_s": self.max_generation_s})

    async def _upstream_stream(self, model: Any, job: Job) -> AsyncIterator[str]:
        # Closing this generator (client disconnect, time limit) closes the model's stream, whose
        # upstream connection closes with it: vLLM and SGLang abort a request whose client left.
        self.watch(model)
        started = time.monotonic()
        chunks = model.astream(job.original, job.update, **job.model_kwargs())
        try:
            async for chunk in chunks:
                yield chunk
                self._check_limit(started)
            self.metrics.merge(model.name)
        except ApplyError as exc:
            self.metrics.refusal(exc.code)
            raise
        finally:
            with anyio.CancelScope(shield=True):
                await chunks.aclose()

    async def _model_stream(self, model: ApplyModelLike, job: Job) -> AsyncIterator[str]:
        if hasattr(model, "astream"):
            async for chunk in self._upstream_stream(model, job):
                yield chunk
            return
        # Each next() runs in a thread and is awaited to completion, so closing the iterator never
        # races a running step; a disconnect cancels this generator, whose finally closes the
        # model's iterator, which stops generation. The generation time limit is checked between
        # chunks for the same reason (a running forward pass cannot be interrupted).
        async with self.models.lock(model):
            started = time.monotonic()
            iterator = await anyio.to_thread.run_sync(
                lambda: iter(model.stream(job.original, job.update, **job.model_kwargs())))
            try:
                while True:
                    chunk = await anyio.to_thread.run_sync(next, iterator, _END)
                    if chunk is _END:
                        break
                    yield chunk
                    self._check_limit(started)
                self.metrics.merge(model.name)
            finally:
                close = getattr(iterator, "close", None)
                if close is not None:
                    with anyio.CancelScope(shield=True):
                        await anyio.to_thread.run_sync(close)


async def _pieces(text: str) -> AsyncIterator[str]:
    for start in range(0, len(text), STREAM_PIECE):
        yield text[start:start + STREAM_PIECE]
