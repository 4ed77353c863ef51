"""Where CPU-bound merges run, so that they never block the event loop, and how they are stopped.

`process` (default): spawned worker processes (fastapply.service.workers), which use every core at
the cost of pickling the texts both ways. A merge whose request is cancelled (its deadline passed,
or the client left) is stopped by killing its worker, which is replaced at once: a pathological
input cannot keep workers busy after its request is gone. `thread`: anyio worker threads behind a
capacity limit; cheap to hand work to, but merges share one GIL with the event loop and a thread
cannot be killed, so the merge runs under the request's deadline (fastapply.deadline) and stops at
its next check. evals/load.py measures both (`--executor`).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from ..deadline import MergeTimeout, deadline
from .workers import STOPPED_MERGES, ProcessWorkers, WorkerDied, note_stopped

__all__ = ["STOPPED_MERGES", "MergePool"]

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


class _Busy:
    """How many merge threads are running, abandoned ones included (a thread cannot be killed: a
    cancelled merge runs on until its next deadline check)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0
        self.timed_out = 0  # merges that stopped at a deadline check

    def add(self, step: int) -> None:
        with self._lock:
            self.count += step


def _within(seconds: float | None, started: threading.Event, busy: _Busy, call: Callable[[], T]) -> T:
    started.set()
    busy.add(1)
    try:
        with deadline(seconds):
            return call()
    except MergeTimeout:
        with busy._lock:
            busy.timed_out += 1
        raise
    finally:
        busy.add(-1)


class MergePool:
    def __init__(self, kind: str, size: int) -> None:
        self.kind, self.size = kind, size
        self._limiter: anyio.CapacityLimiter | None = None
        self._processes: ProcessWorkers | None = None
        self._busy = _Busy()
        # Called when workers_alive or workers_replaced changed (set before start()).
        self.on_change: Callable[[], None] = lambda: None

    @property
    def workers_alive(self) -> int:
        return self._processes.alive if self._processes is not None else self.size

    @property
    def threads_running(self) -> int:
        """Merge threads still running (thread mode; 0 with processes)."""
        return self._busy.count

    @property
    def threads_timed_out(self) -> int:
        """Merge threads that stopped at a deadline check (thread mode)."""
        return self._busy.timed_out

    @property
    def workers_replaced(self) -> int:
        return self._processes.replaced if self._processes is not None else 0

    async def start(self) -> None:
        if self.kind == "process":
            self._processes = ProcessWorkers(self.size, warm_up=_ready)
            self._processes.on_change = lambda: self.on_change()
            try:
                await self._processes.start()
                return
            except (WorkerDied, OSError, EOFError):
                # Spawned workers re-import __main__; that fails when the app is embedded in a script
                # read from stdin or an interactive session. Serve from threads rather than not at all.
                log.warning("merge worker processes could not start; running merges in threads instead")
                self._processes.close()
                self._processes = None
                self.kind = "thread"
        self._limiter = anyio.CapacityLimiter(self.size)
        await anyio.to_thread.run_sync(_ready, limiter=self._limiter)

    async def run(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run func(*args, **kwargs) off the event loop, stopped when the caller is cancelled (a worker
        process is killed and replaced; a thread stops at the merge's next deadline check)."""
        if self._processes is not None:
            try:
                return await self._processes.run(func, *args, **kwargs)
            except WorkerDied:
                raise RuntimeError("a merge worker process died; it was replaced") from None
        if self._limiter is None:
            raise RuntimeError("MergePool.start() was not awaited")
        left = anyio.current_effective_deadline() - anyio.current_time()
        started = threading.Event()
        call = functools.partial(_within, left if left != float("inf") else None, started, self._busy,
                                 functools.partial(func, *args, **kwargs))
        try:
            return await anyio.to_thread.run_sync(call, limiter=self._limiter, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            if started.is_set():  # it stops at its next deadline check (a queued one never starts)
                note_stopped(getattr(func, "__name__", "merge"))
            raise

    def close(self) -> None:
        """Stop the worker processes and wait for them. Not waiting left them orphaned when uvicorn
        re-raised SIGTERM right after shutdown: they kept the server's stdout and stderr open, so a
        supervisor reading those never saw the server exit."""
        if self._processes is not None:
            self._processes.close()
            self._processes = None
