"""The service under abuse: memory stays bounded, workers stay alive, health checks keep answering.

    python -m evals.abuse                    # every scenario against a fresh `fastapply serve`
    python -m evals.abuse --scale 0.2        # smaller numbers (a quick look)

Starts `fastapply serve` on a loopback port (process executor, 2 workers, --timeout-s 5,
--header-timeout-s 5) in its own process group and runs, one after the other: thousands of idle
connections (the server must close every one of them: they never send a request head); slow
request heads (a header line every second: closed too); slow request bodies (a few bytes a
second: 504); oversized headers; malformed JSON, invalid UTF-8 and deeply nested JSON; a flood of
small requests from many keep-alive clients. During and after each it checks /healthz (answer and
latency), the merge workers alive (/metrics), 5xx answers (none allowed) and the RSS of the server
and its workers together (from /proc). Everything is bounded (counts and seconds) and talks to
127.0.0.1 only; the server's process group is killed at the end, also on failure.

Status counts: an HTTP status, 0 for no answer (still open when the client gave up), -1 for a
connection the server closed without answering (what the idle and slow-head scenarios expect).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from evals import procs

HEADER_TIMEOUT_S = 5


class Server:
    """`fastapply serve` on a free loopback port, in its own process group."""

    def __init__(self, *extra: str, header_timeout_s: float = HEADER_TIMEOUT_S) -> None:
        self.port = procs.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.cmd = [sys.executable, "-m", "fastapply", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                    "--executor", "process", "--executor-workers", "2", "--timeout-s", "5",
                    "--header-timeout-s", str(header_timeout_s), "--log-level", "error", *extra]
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        self.proc = procs.start(self.cmd)
        try:
            procs.wait_ready(self.proc, f"{self.url}/healthz", timeout_s=60)
        except RuntimeError:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            procs.stop(self.proc, grace_s=10)

    def rss_mb(self) -> float:
        """RSS of every process in the server's group (the server and its merge workers)."""
        assert self.proc is not None
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == self.proc.pid:  # the process group id
                    total += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, IndexError, ValueError):
                continue
        return total / 2**20

    def workers(self) -> int:
        ok, _, body = request(self.port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        for line in body.decode(errors="replace").splitlines():
            if line.startswith("fastapply_merge_workers "):
                return int(float(line.split()[-1]))
        return -1


def request(port: int, raw: bytes, timeout: float = 5.0) -> tuple[bool, int, bytes]:
    """One raw HTTP/1.1 exchange on a new connection: (answered, status, body)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(raw)
            data = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
    except OSError:
        return False, 0, b""
    head, _, body = data.partition(b"\r\n\r\n")
    try:
        return True, int(head.split(b" ", 2)[1]), body
    except (IndexError, ValueError):
        return False, 0, b""


def health(port: int) -> tuple[bool, float]:
    started = time.perf_counter()
    ok, status, _ = request(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout=5)
    return ok and status == 200, time.perf_counter() - started


def post(body: bytes, path: str = "/v1/apply", extra: bytes = b"") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n").encode() + extra + b"\r\n" + body


async def _exchange(port: int, raw: bytes, keep: float = 0.0) -> int:
    """Send `raw` (optionally dribbled over `keep` seconds) and return the status (0: none)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return 0
    try:
        if keep:
            step = max(1, len(raw) // max(1, int(keep * 2)))
            for at in range(0, len(raw), step):
                writer.write(raw[at:at + step])
                await writer.drain()
                await asyncio.sleep(0.5)
        else:
            writer.write(raw)
            await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 30)
        return int(line.split()[1]) if line.startswith(b"HTTP/") else 0
    except (OSError, asyncio.TimeoutError, ValueError, IndexError):
        return 0
    finally:
        writer.close()


class Report:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.rows: list[dict[str, Any]] = []

    async def scenario(self, name: str, work: Any) -> None:
        """Run `work` (a coroutine returning status counts) while checking health every 0.5 s."""
        before = self.server.rss_mb()
        peak, worst, failed = before, 0.0, 0
        task = asyncio.ensure_future(work)
        while not task.done():
            ok, took = await asyncio.to_thread(health, self.server.port)
            failed += not ok
            worst = max(worst, took)
            peak = max(peak, self.server.rss_mb())
            await asyncio.sleep(0.5)
        statuses: dict[int, int] = task.result()
        await asyncio.sleep(1.0)
        ok_after, _ = health(self.server.port)
        row = {"scenario": name, "statuses": dict(sorted(statuses.items())),
               "5xx": sum(n for s, n in statuses.items() if s >= 500 and s != 503 and s != 504),
               "health_failed_during": failed, "health_worst_s": round(worst, 3), "health_after": ok_after,
               "workers_after": self.server.workers(), "rss_before_mb": round(before, 1),
               "rss_peak_mb": round(peak, 1), "rss_after_mb": round(self.server.rss_mb(), 1)}
        self.rows.append(row)
        print(row, flush=True)


def _count(results: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for status in results:
        out[status] = out.get(status, 0) + 1
    return out


async def _closed_by_server(reader: asyncio.StreamReader, wait_s: float) -> int:
    """-1 when the server closes the connection without a byte of answer within wait_s, else 0."""
    try:
        data = await asyncio.wait_for(reader.read(1), wait_s)
    except (OSError, asyncio.TimeoutError):
        return 0
    return -1 if not data else 0


async def idle_connections(port: int, count: int, wait_s: float) -> dict[int, int]:
    """Open `count` connections that send nothing; the server must close each (header timeout)."""
    conns = []
    for _ in range(count):
        try:
            conns.append(await asyncio.open_connection("127.0.0.1", port))
        except OSError:
            break
    results = await asyncio.gather(*(_closed_by_server(reader, wait_s) for reader, _ in conns))
    for _, writer in conns:
        writer.close()
    return _count(list(results)) if results else {0: 0}


async def slow_heads(port: int, count: int, wait_s: float) -> dict[int, int]:
    """Connections that dribble header lines (one a second, never the blank line that ends the head)."""

    async def one() -> int:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return 0
        try:
            writer.write(b"POST /v1/apply HTTP/1.1\r\nHost: x\r\n")
            started = time.monotonic()
            line = 0
            while time.monotonic() - started < wait_s:
                if reader.at_eof():
                    return -1
                writer.write(f"X-Slow-{line}: v\r\n".encode())
                await writer.drain()
                line += 1
                status = await _closed_by_server(reader, 1.0)
                if status:
                    return status
            return 0
        except OSError:  # (a write to the closed connection)
            return -1
        finally:
            writer.close()

    return _count(list(await asyncio.gather(*(one() for _ in range(count)))))


async def slow_bodies(port: int, count: int, seconds: float) -> dict[int, int]:
    body = b'{"initial_code": "a = 1\\n", "edit_snippet": "a = 2\\n"}' + b" " * 200
    raw = post(body)
    return _count(list(await asyncio.gather(*(_exchange(port, raw, keep=seconds) for _ in range(count)))))


async def big_headers(port: int, count: int) -> dict[int, int]:
    raw = post(b"{}", extra=b"X-Big: " + b"a" * 1_000_000 + b"\r\n")
    many = post(b"{}", extra=b"".join(f"X-H{i}: v\r\n".encode() for i in range(20_000)))
    return _count(list(await asyncio.gather(*(_exchange(port, raw if i % 2 else many) for i in range(count)))))


async def malformed(port: int, count: int) -> dict[int, int]:
    bodies = [b"{", b"\xff\xfe\x00garbage", b'{"initial_code": "\xc3\x28", "edit_snippet": "x"}',
              b"[" * 100_000 + b"]" * 100_000, b'{"initial_code": ' + b"[" * 50_000, b"null", b'"x"',
              b'{"initial_code": 1, "edit_snippet": {}}', b'{"initial_code": "\\ud800", "edit_snippet": "x"}']
    paths = ["/v1/apply", "/v1/apply/batch", "/v1/chat/completions"]
    sem = asyncio.Semaphore(50)

    async def one(i: int) -> int:
        async with sem:
            return await _exchange(port, post(bodies[i % len(bodies)], paths[i % len(paths)]))

    return _count(list(await asyncio.gather(*(one(i) for i in range(count)))))


async def flood(port: int, clients: int, total: int) -> dict[int, int]:
    raw = post(b'{"initial_code": "a = 1\\n", "edit_snippet": "a = 2\\n"}')
    statuses: list[int] = []

    async def client(n: int) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            statuses.extend([0] * n)
            return
        try:
            for _ in range(n):
                writer.write(raw)
                await writer.drain()
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
                status = int(head.split(b" ", 2)[1])
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                await reader.readexactly(length)
                statuses.append(status)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
            statuses.append(0)
        finally:
            writer.close()

    await asyncio.gather(*(client(total // clients) for _ in range(clients)))
    return _count(statuses)


async def run_all(server: Server, scale: float) -> list[dict[str, Any]]:
    report = Report(server)
    port = server.port
    await report.scenario("idle connections", idle_connections(port, int(3000 * scale), HEADER_TIMEOUT_S * 3))
    await report.scenario("slow request heads", slow_heads(port, int(200 * scale), HEADER_TIMEOUT_S * 3))
    await report.scenario("slow bodies", slow_bodies(port, int(200 * scale), 12))
    await report.scenario("oversized headers", big_headers(port, max(2, int(40 * scale))))
    await report.scenario("malformed bodies", malformed(port, int(2000 * scale)))
    await report.scenario("flood of small requests", flood(port, max(2, int(100 * scale)), int(20000 * scale)))
    return report.rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.abuse", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every count (default 1)")
    args = parser.parse_args(argv)
    with Server() as server:
        workers = server.workers()
        rows = asyncio.run(run_all(server, args.scale))
    bad = [r["scenario"] for r in rows if r["5xx"] or not r["health_after"] or r["workers_after"] != workers]
    # connections that never send a complete request head must all be closed by the server
    bad += [r["scenario"] for r in rows if r["scenario"] in ("idle connections", "slow request heads")
            and set(r["statuses"]) != {-1}]
    print(f"merge workers at start {workers}; scenarios failing (5xx, health after, dead workers, "
          f"connections left open): {bad or 'none'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
