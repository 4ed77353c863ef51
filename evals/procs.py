"""Servers and tools that tests and eval scripts start: one process group each, always stopped whole.

Why a group: `fastapply serve` forks merge workers and uvicorn workers; stopping only the leader
left them running (orphaned merge workers were found burning CPU after a killed server). So every
child starts a new session, and `stop` signals the whole group even when the leader has already
exited, then waits for it. One place for this, so no script or test forgets a step.

    with serving([sys.executable, "-m", "fastapply", "serve", "--port", str(port)],
                 f"http://127.0.0.1:{port}/healthz") as proc:
        ...
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any


def free_port() -> int:
    """A loopback port that was free a moment ago (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(command: list[str], *, env: dict[str, str] | None = None, stdout: int | IO[Any] | None = subprocess.DEVNULL,
          stderr: int | IO[Any] | None = subprocess.DEVNULL, cwd: str | None = None) -> subprocess.Popen[bytes]:
    """Start `command` as the leader of a new process group (stop it with `stop`)."""
    return subprocess.Popen(command, env=env, stdout=stdout, stderr=stderr, cwd=cwd, start_new_session=True)


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already


def stop(proc: subprocess.Popen[bytes], grace_s: float = 15.0) -> str:
    """SIGTERM to the whole group, SIGKILL after `grace_s`; reaps the leader. Returns what the
    process wrote to a piped stderr (decoded, "" when stderr was not piped). Safe to call twice."""
    _signal_group(proc, signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=grace_s)
    except subprocess.TimeoutExpired:
        _signal_group(proc, signal.SIGKILL)
        _, err = proc.communicate()
    except ValueError:  # communicate() after the pipes were read and closed
        proc.wait()
        err = None
    # Children that ignored SIGTERM and outlived the leader still belong to the group.
    _signal_group(proc, signal.SIGKILL)
    return err.decode("utf-8", "replace") if isinstance(err, bytes) else (err or "")


def _stderr_tail(proc: subprocess.Popen[bytes]) -> str:
    if proc.stderr is None or proc.poll() is None:
        return ""
    return proc.stderr.read().decode("utf-8", "replace")[-3000:]


def wait_ready(proc: subprocess.Popen[bytes], url: str, *, timeout_s: float = 60.0,
               ready: Callable[[int], bool] = lambda status: status == 200) -> None:
    """Poll `url` until `ready(status)`; RuntimeError (with the child's stderr tail) if the child
    exits or `timeout_s` passes. The caller still owns `proc` and must `stop` it."""
    import httpx

    deadline = time.monotonic() + timeout_s
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited with status {proc.returncode} while starting\n"
                               + _stderr_tail(proc))
        try:
            if ready(httpx.get(url, timeout=2).status_code):
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer within {timeout_s:g} s")
        time.sleep(0.2)


@contextmanager
def serving(command: list[str], url: str, *, timeout_s: float = 60.0, env: dict[str, str] | None = None,
            stderr: int | IO[Any] | None = subprocess.DEVNULL, grace_s: float = 15.0,
            ready: Callable[[int], bool] = lambda status: status == 200) -> Iterator[subprocess.Popen[bytes]]:
    """Start a server, wait until `url` is ready, yield it; stop its whole group on the way out,
    also when the start fails or the body raises."""
    proc = start(command, env=env, stderr=stderr)
    try:
        wait_ready(proc, url, timeout_s=timeout_s, ready=ready)
        yield proc
    finally:
        stop(proc, grace_s)


def start_service(args: list[str], *, stdout: int | IO[Any] | None = subprocess.DEVNULL,
                  timeout_s: float = 60.0) -> tuple[subprocess.Popen[bytes], str]:
    """`fastapply serve` on a free loopback port with `args` and no API key, ready on /healthz:
    (process, base URL). SystemExit, with the reason, when it does not start. Stop it with `stop`."""
    import sys

    port = free_port()
    proc = start([sys.executable, "-m", "fastapply", "serve", "--port", str(port), *args],
                 env={**os.environ, "FASTAPPLY_API_KEY": ""}, stdout=stdout)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, url + "/healthz", timeout_s=timeout_s)
    except RuntimeError as exc:
        stop(proc)
        raise SystemExit(f"fastapply serve did not start: {exc}") from None
    return proc, url
