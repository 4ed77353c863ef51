"""evals.procs: a stopped child takes its whole process group with it, also children that ignore
SIGTERM and outlived the leader (the orphaned merge workers the brief warns about)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from evals import procs

# The leader starts a grandchild that ignores SIGTERM, prints its pid and exits at once.
LEADER = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-c",
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(child.pid, flush=True)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie waiting for init to reap it is dead


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_stop_kills_the_group_even_after_the_leader_exited() -> None:
    proc = procs.start([sys.executable, "-c", LEADER], stdout=subprocess.PIPE)
    grandchild = int(proc.stdout.readline())  # type: ignore[union-attr]
    proc.wait(30)
    assert _alive(grandchild)  # the leader is gone, its child is not
    procs.stop(proc, grace_s=1)
    deadline = time.monotonic() + 10
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)
    procs.stop(proc)  # a second stop is harmless


def test_stop_returns_what_the_child_wrote_to_stderr() -> None:
    proc = procs.start([sys.executable, "-c", "import sys, time; sys.stderr.write('boom'); sys.stderr.flush(); "
                        "time.sleep(60)"], stderr=subprocess.PIPE)
    time.sleep(0.3)
    assert procs.stop(proc, grace_s=5) == "boom"
    assert proc.returncode is not None


def test_wait_ready_reports_a_child_that_exits_while_starting() -> None:
    proc = procs.start([sys.executable, "-c", "import sys; sys.stderr.write('no such flag'); sys.exit(2)"],
                       stderr=subprocess.PIPE)
    try:
        with pytest.raises(RuntimeError, match="no such flag"):
            procs.wait_ready(proc, f"http://127.0.0.1:{procs.free_port()}/healthz", timeout_s=30)
    finally:
        procs.stop(proc)
