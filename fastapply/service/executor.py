"""Where CPU-bound merges run, so that they never block the event loop.

`thread`: anyio worker threads behind a capacity limit. Cheap to hand work to, but merges are Python
and share one GIL with the event loop. `process`: a pool of worker processes (spawned, so no fork of a
threaded server), which uses every core at the cost of pickling the texts both ways. evals/load.py
measures both (`--executor`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")
log = logging.getLogger("fastapply.service")


def _ready() -> bool:
    # One tiny merge up front, through the function the requests use, keeps the first real merge
    # fast: the engine imports its parts lazily, and unpickling engine.structural_apply imports the
    # service package; together ~0.15 s per process (more on a loaded machine), enough to time out.
    from . import engine

    try:
        engine.structural_apply(engine.Job(original="a = 1\n", update="a = 2\n", filename="warm.py"))
    except Exception:  # only a warm-up: whatever is wrong, the requests themselves will report it
        log.warning("the merge warm-up failed", exc_info=True)
    return True


class MergePool:
    def __init__(self, kind: str, size: int) -> None:
        self.kind, self.size = kind, size
        self._limiter: anyio.CapacityLimiter | None = None
        self._processes: ProcessPoolExecutor | None = None

    async def start(self) -> None:
        if self.kind == "process":
            self._processes = self._new_processes()
            loop = asyncio.get_running_loop()
            try:
                pool = self._processes
                await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(self.size)))
                return
            except BrokenProcessPool:
                # Spawned workers re-import __main__; that fails when the app is embedded in a script
                # read from stdin or an interactive session. Serve from threads rather than not at all.
                log.warning("merge worker processes could not start; running merges in threads instead")
                self._processes.shutdown(wait=False, cancel_futures=True)
                self._processes = None
                self.kind = "thread"
        self._limiter = anyio.CapacityLimiter(self.size)
        await anyio.to_thread.run_sync(_ready, limiter=self._limiter)

    async def run(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run func(*args, **kwargs) off the event loop. On cancellation (timeout, disconnect) the
        request stops waiting; a merge already running finishes in the background, bounded by the pool."""
        call = functools.partial(func, *args, **kwargs)
        if self._processes is not None:
            pool = self._processes
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, call)
            except BrokenProcessPool:
                # A worker died (killed, or a crash in native code): replace the pool so that one bad
                # input does not take the service down, and fail this request as an internal error.
                if self._processes is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._processes = self._new_processes()
                raise RuntimeError("a merge worker process died; the pool was restarted") from None
        if self._limiter is None:
            raise RuntimeError("MergePool.start() was not awaited")
        return await anyio.to_thread.run_sync(call, limiter=self._limiter, abandon_on_cancel=True)

    def _new_processes(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"))

    def close(self) -> None:
        """Stop the worker processes and wait for them (merges take milliseconds). Not waiting left
        them orphaned when uvicorn re-raised SIGTERM right after shutdown: they kept the server's
        stdout and stderr open, so a supervisor reading those never saw the server exit."""
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)
            self._processes = None
