"""Merge worker processes that can be killed one at a time, and are replaced when they are.

concurrent.futures.ProcessPoolExecutor cannot stop one running call: a merge past its request's
deadline would keep its worker busy until it finished ("in the background"), and a few such
requests would occupy every worker. Here each worker is a spawned process with its own pipe; a call
whose awaiting request is cancelled (timeout, disconnect) kills that worker, and a fresh one is
started in its place, so the pool returns to full size within a process start (~0.5 s).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger("fastapply.service")


# Set by the request middleware to a list; a merge stopped because its request was cancelled adds
# an entry, so that the middleware answers 504 `merge_timeout` rather than a plain `timeout`.
STOPPED_MERGES: ContextVar[list[str] | None] = ContextVar("fastapply_stopped_merges", default=None)


def note_stopped(what: str) -> None:
    stopped = STOPPED_MERGES.get()
    if stopped is not None:
        stopped.append(what)


class WorkerDied(RuntimeError):
    """The worker process ended during a call (killed from outside, or a crash in native code)."""


def _serve(conn: Connection, warm_up: Callable[[], object] | None) -> None:
    """A worker's main loop: (func, args, kwargs) in, (True, result) or (False, exception) out."""
    if warm_up is not None:
        warm_up()
    conn.send(("ready", None))
    while True:
        try:
            func, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return  # the pool closed its end: shut down
        try:
            reply: tuple[bool, Any] = (True, func(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the caller
            reply = (False, exc)
        try:
            conn.send(reply)
        except Exception as exc:  # noqa: BLE001 - e.g. an exception that cannot be pickled
            conn.send((False, RuntimeError(f"the merge result could not be sent back: {exc!r}")))


class _Worker:
    def __init__(self, warm_up: Callable[[], object] | None) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, warm_up), daemon=True, name="fastapply-merge")
        self.proc.start()
        child.close()
        if self.conn.recv()[0] != "ready":  # blocks until imported and warmed up (run in a thread)
            raise WorkerDied("a merge worker did not start")

    def call(self, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            self.conn.send((func, args, kwargs))
            ok, value = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            raise WorkerDied("a merge worker process died") from None
        if ok:
            return value
        raise value

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()

    def stop(self) -> None:
        self.conn.close()  # the worker's recv() ends: it exits by itself
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)


class ProcessWorkers:
    """`size` worker processes; `run` hands a call to an idle one and waits for it off the event loop."""

    def __init__(self, size: int, warm_up: Callable[[], object] | None = None) -> None:
        self.size = size
        self.replaced = 0  # workers killed (deadline, cancellation) or died, and started anew
        self._warm_up = warm_up
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._busy: set[_Worker] = set()
        self._starting = 0
        self._threads = ThreadPoolExecutor(max_workers=2 * size + 2, thread_name_prefix="fastapply-merge")
        self._closed = False
        self._background: set[asyncio.Task[None]] = set()
        # Called after a worker was replaced or a replacement came up (the service's metrics).
        self.on_change: Callable[[], None] | None = None

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    @property
    def alive(self) -> int:
        """Workers started and not killed (idle or busy), not counting those being started."""
        return self._idle.qsize() + len(self._busy)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        started = await asyncio.gather(*(loop.run_in_executor(self._threads, _Worker, self._warm_up)
                                         for _ in range(self.size)), return_exceptions=True)
        workers = [w for w in started if isinstance(w, _Worker)]
        if len(workers) < len(started):
            for worker in workers:
                worker.stop()
            failed = next(w for w in started if not isinstance(w, _Worker))
            raise WorkerDied(f"merge workers could not start: {failed!r}")
        for worker in workers:
            self._idle.put_nowait(worker)

    async def run(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        worker = await self._idle.get()
        self._busy.add(worker)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._threads, worker.call, func, args, kwargs)
        # retrieved here, so that a call abandoned below does not log "exception never retrieved"
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        try:
            result = await asyncio.shield(future)
        except WorkerDied:
            self._replace(worker)
            raise
        except asyncio.CancelledError:
            # The request stopped waiting (its deadline passed, or the client left): stop the merge
            # too, or it would hold this worker for as long as it runs.
            self._replace(worker)
            note_stopped(getattr(func, "__name__", "merge"))
            raise
        except BaseException:
            self._release(worker)
            raise
        self._release(worker)
        return result

    def _release(self, worker: _Worker) -> None:
        self._busy.discard(worker)
        self._idle.put_nowait(worker)

    def _replace(self, worker: _Worker) -> None:
        self._busy.discard(worker)
        self.replaced += 1
        worker.kill()  # its blocked recv() in the call's thread ends with WorkerDied
        self._changed()
        if self._closed:
            return
        task = asyncio.ensure_future(self._start_one())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _start_one(self) -> None:
        self._starting += 1
        try:
            worker = await asyncio.get_running_loop().run_in_executor(self._threads, _Worker, self._warm_up)
        except Exception:  # noqa: BLE001 - logged; the next replacement tries again
            log.exception("could not start a replacement merge worker")
            return
        finally:
            self._starting -= 1
        if self._closed:
            worker.stop()
        else:
            self._idle.put_nowait(worker)
            self._changed()

    def close(self) -> None:
        """Stop every worker and wait for them (merges take milliseconds; a stuck one is killed)."""
        self._closed = True
        for task in list(self._background):
            task.cancel()
        while not self._idle.empty():
            self._idle.get_nowait().stop()
        for worker in list(self._busy):
            worker.kill()
        self._busy.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """Process ids of the live workers (tests check that a killed one was replaced)."""
        return [w.proc.pid for w in [*self._idle._queue, *self._busy] if w.proc.pid]  # type: ignore[attr-defined]
