"""A merge past its request's deadline is stopped: 504 merge_timeout, the worker killed and replaced."""

from __future__ import annotations

import asyncio
import time

import anyio
from svc_support import LiveServer, scrape

from fastapply.service import Settings
from fastapply.service.workers import ProcessWorkers, WorkerDied


def _slow_body() -> dict[str, str]:
    # A ~2 MB file and a ~1 MB snippet that edits every seventh line: seconds of honest work on
    # any machine, far past the 0.2 s limit these servers get.
    lines = []
    for i in range(40_000):
        lines += [f"function f{i:07d}() {{", "  return 1;", "}", ""]
    original = "\n".join(lines) + "\n"
    snippet = ["// ... existing code ..."]
    for i, line in enumerate(lines[:45_000]):
        snippet.append(line.replace("return 1", "return 2") if i % 7 == 0 else line)
    snippet.append("// ... existing code ...")
    return {"initial_code": original, "edit_snippet": "\n".join(snippet) + "\n", "filename": "a.js"}


def test_pool_kills_a_cancelled_call_and_returns_to_full_size():
    async def main() -> tuple[list[int], list[int], int, float]:
        pool = ProcessWorkers(2)
        await pool.start()
        try:
            before = sorted(pool.pids())
            with anyio.move_on_after(0.5):
                await pool.run(time.sleep, 60)  # a call that would hold its worker for a minute
            for _ in range(200):  # the replacement starts in the background
                if pool.alive == 2:
                    break
                await asyncio.sleep(0.05)
            after = sorted(pool.pids())
            # every worker answers again, the new one included
            results = await asyncio.gather(pool.run(pow, 2, 10), pool.run(pow, 3, 2))
            return before, after, pool.replaced, sum(results)
        finally:
            pool.close()

    before, after, replaced, total = asyncio.run(main())
    assert replaced == 1 and len(after) == 2
    assert len(set(before) & set(after)) == 1  # exactly one worker is new
    assert total == 1024 + 9


def test_pool_reports_a_worker_that_died_and_replaces_it():
    import os
    import signal

    async def main() -> tuple[bool, int]:
        pool = ProcessWorkers(1)
        await pool.start()
        try:
            os.kill(pool.pids()[0], signal.SIGKILL)
            try:
                await pool.run(pow, 2, 3)
                died = False
            except WorkerDied:
                died = True
            return died, await pool.run(pow, 2, 3)
        finally:
            pool.close()

    assert asyncio.run(main()) == (True, 8)


def _wait_full(server: LiveServer) -> None:
    """Until the killed worker's replacement has started (a process start: about a second), or in
    thread mode until the stopped merge's thread has reached its next deadline check and ended (on
    a loaded machine that can take longer than the quick request's own 0.2 s)."""
    pool = server.app.state.engine.pool
    for _ in range(400):
        if pool.workers_alive == pool.size and pool.threads_running == 0:
            return
        time.sleep(0.05)
    raise AssertionError(f"the pool did not recover: {pool.workers_alive} alive, {pool.threads_running} running")


def _check_server(executor: str) -> None:
    server = LiveServer(Settings(executor=executor, executor_workers=1, timeout_s=0.2, log_level="error")).start()
    try:
        with server.client(timeout=60) as http:
            slow = http.post("/v1/apply", json=_slow_body())
            _wait_full(server)
            quick = http.post("/v1/apply", json={"initial_code": "a = 1\n", "edit_snippet": "a = 2\n"})
            metrics = http.get("/metrics").text
            health = http.get("/healthz")
            stopped = server.app.state.engine.pool.threads_timed_out
    finally:
        server.stop()
    assert slow.status_code == 504, slow.text
    assert slow.json()["error"]["code"] == "merge_timeout"
    assert quick.status_code == 200 and quick.json()["mergedCode"] == "a = 2\n"
    assert health.status_code == 200
    samples = scrape(metrics)
    assert samples["fastapply_merge_workers"] == 1
    assert samples['fastapply_refusals_total{code="merge_timeout"}'] == 1
    if executor == "process":
        assert samples["fastapply_merge_workers_replaced_total"] == 1
    else:  # the merge stopped at a deadline check; it did not run to its end
        assert stopped == 1


def test_a_merge_past_the_deadline_is_504_merge_timeout_and_the_worker_is_replaced():
    _check_server("process")


def test_thread_mode_stops_the_merge_at_its_deadline():
    _check_server("thread")
