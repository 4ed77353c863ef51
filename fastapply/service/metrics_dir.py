"""The folder where `fastapply serve --workers N` keeps its workers' metrics, so /metrics sums them.

uvicorn starts the N server workers as spawned processes (and restarts one that dies); each of them
starts its own merge worker processes (fastapply.service.workers), which never touch metrics. The
server workers inherit PROMETHEUS_MULTIPROC_DIR from the `fastapply serve` process, which creates a
fresh private folder for the run (stale files from another run would add old counts) and removes it
at exit. A supervisor killed with SIGKILL cannot remove its folder, so the folder names its owner's
pid and the next `fastapply serve` removes folders whose owner no longer runs. A worker that stops cleanly marks itself dead (Metrics.process_exit); one that was killed is
marked by a reaper thread in the supervising process, so its live gauges (requests in flight, queued)
leave the sums within a second, while its counters and histograms stay counted.

Reaping is O(files in the folder) per second; the stale-folder sweep at start is O(entries in the
temporary folder). Without --workers (one process) no folder is used.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

ENV = "PROMETHEUS_MULTIPROC_DIR"
# prometheus_client names a process's live gauge files gauge_live<mode>_<pid>.db.
_LIVE_FILE = re.compile(r"^gauge_live[a-z]+_(\d+)\.db$")
PREFIX = "fastapply-metrics-"
OWNER = "owner.pid"


@contextmanager
def shared_metrics(workers: int, *, reap_every_s: float = 1.0) -> Iterator[str | None]:
    """Set up the metrics folder for `workers` server processes (None for one: nothing to share).
    Must run before prometheus_client is first imported by a process that should share its metrics."""
    if workers <= 1:
        yield None
        return
    remove_stale(tempfile.gettempdir())
    path = tempfile.mkdtemp(prefix=PREFIX)
    with open(os.path.join(path, OWNER), "w", encoding="ascii") as handle:
        handle.write(str(os.getpid()))
    previous = os.environ.get(ENV)
    os.environ[ENV] = path
    stop = threading.Event()
    reaper = threading.Thread(target=_reap_forever, args=(path, stop, reap_every_s), daemon=True,
                              name="fastapply-metrics-reaper")
    reaper.start()
    try:
        yield path
    finally:
        stop.set()
        reaper.join(5)
        if previous is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = previous
        shutil.rmtree(path, ignore_errors=True)


def remove_stale(parent: str) -> list[str]:
    """Remove the metrics folders in `parent` whose owning `fastapply serve` no longer runs (it was
    killed before it could clean up); the removed paths. A folder without an owner file (one being
    set up right now, or not ours) and another user's folder are left alone."""
    removed = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            with open(os.path.join(entry.path, OWNER), encoding="ascii") as handle:
                owner = int(handle.read().strip())
        except (OSError, ValueError):
            continue
        if not _running(owner):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    return removed


def _reap_forever(path: str, stop: threading.Event, every_s: float) -> None:
    while not stop.wait(every_s):
        reap(path)


def reap(path: str) -> list[int]:
    """Mark every process that left live gauge files in `path` and no longer runs as dead; their pids."""
    from prometheus_client import multiprocess

    dead = sorted({pid for pid in (_live_pid(name) for name in os.listdir(path)) if pid and not _running(pid)})
    for pid in dead:
        multiprocess.mark_process_dead(pid, path)
    return dead


def _live_pid(filename: str) -> int | None:
    match = _LIVE_FILE.match(filename)
    return int(match.group(1)) if match else None


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # another user's process holds the pid now: ours (same user) is gone
    return True

