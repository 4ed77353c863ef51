"""Load of the front when merges go to an upstream model server (`python -m evals.load --sim-upstream`).

    python -m evals.load --sim-upstream --clients 1,8,64,256           # simulated upstream, started here
    python -m evals.load --sim-upstream --tokens-per-s 50 --stream --clients 256 --max-queue 64
    python -m evals.load --upstream http://gpu-box:8000/v1#apply      # a real server (vLLM, SGLang)

Starts `fastapply serve --model openai:UPSTREAM` (one worker) and, with --sim-upstream, the simulated
upstream of evals/sim_upstream.py (canned answers at --tokens-per-s after --latency-s). Every request is
an edit sent to the model (`model` = the upstream model, or `auto` with --auto, where the structural
engine tries first and refuses), so each one is proxied. At each concurrency level every client sends
pairs, one after the other (alternating which goes first): `direct` (the same prompt straight to the
upstream, streamed to its end) and `front` (through fastapply: parse, template, upstream stream,
extraction, validation). The front's own overhead is front minus direct per pair (p50 and p95), so
that a busy moment of a shared machine weighs on both sides. Both use one minimal client
(fastapply.runtime.http1: keep-alive, the body read per network read), so the client's own cost per
streamed token does not hide or inflate the difference. --stream asks the front for SSE and counts a
stream as good only when it ends with `done` and [DONE]; statuses show queueing limits as 429s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx
import msgspec

from evals import procs
from evals.procs import free_port
from fastapply.runtime.http1 import Http1Pool, HttpError

ORIGINAL = "".join(f"def handler_{i}(request):\n    return request.get('field_{i}')\n\n\n" for i in range(20))
# The structural engine refuses this (no anchor for the new function): the model must merge it.
UPDATE = "def handler_99(request):\n    return None\n# ... existing code ...\n# ... existing code ...\n"


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; -1 elsewhere)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return -1.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spawn(command: list[str], url: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    proc = procs.start(command, env={**os.environ, **(env or {})})
    try:
        procs.wait_ready(proc, url, timeout_s=60, ready=lambda status: True)
    except RuntimeError as exc:
        procs.stop(proc)
        raise SystemExit(f"{command[:4]} did not start: {exc}") from None
    return proc


async def one(pool: Http1Pool, url: str, body: bytes, sse: bool) -> tuple[int, bool]:
    """(status, good): good = a complete answer (a JSON merge, or a stream that ended properly).
    The body is read to its end either way, so both paths pay for every byte they send."""
    response = await pool.request("POST", url, body, {"content-type": "application/json"})
    try:
        data = await response.read()
    finally:
        await response.aclose()
    status = response.status_code
    if not sse:
        return status, status == 200
    lines = [line for line in data.decode("utf-8", "replace").splitlines() if line.startswith("data: ")]
    error = any(line.startswith('data: {"error"') for line in lines)
    return status, status == 200 and bool(lines) and lines[-1] == "data: [DONE]" and not error


class Path_(msgspec.Struct):
    """One path's requests at one level: latencies, statuses, incomplete answers."""

    latencies: list[float] = msgspec.field(default_factory=list)
    statuses: dict[str, int] = msgspec.field(default_factory=dict)
    bad: int = 0

    async def timed(self, pool: Http1Pool, url: str, body: bytes, sse: bool) -> float | None:
        started = time.perf_counter()
        status: int | str
        try:
            status, good = await one(pool, url, body, sse)
        except (HttpError, OSError) as exc:  # counted under the exception's name
            status, good = type(exc).__name__, False
        seconds = time.perf_counter() - started
        self.latencies.append(seconds)
        self.statuses[str(status)] = self.statuses.get(str(status), 0) + 1
        self.bad += 0 if good or status == 429 else 1
        return seconds if status == 200 else None

    def summary(self, clients: int, elapsed: float) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        return {"clients": clients, "requests": len(ordered), "rps": round(len(ordered) / elapsed, 1),
                "p50_ms": pct(ordered, 0.5), "p95_ms": pct(ordered, 0.95), "p99_ms": pct(ordered, 0.99),
                "max_ms": pct(ordered, 1.0),
                "mean_ms": round(statistics.fmean(ordered) * 1000, 2) if ordered else None,
                "statuses": dict(sorted(self.statuses.items())), "errors": self.bad}


def pct(ordered: list[float], p: float) -> float:
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2) if ordered else float("nan")


async def level(direct: tuple[str, bytes], front: tuple[str, bytes, bool], clients: int, max_requests: int,
                duration: float) -> dict[str, Any]:
    """`clients` concurrent clients; each sends the same merge straight to the upstream and through the
    front, one after the other (the order alternates), on the same kind of connection from the same
    minimal client. The front's overhead is measured per pair (front minus direct, both answered),
    so a slow moment of the shared machine hits both sides of a pair."""
    paths = {"direct": Path_(), "front": Path_()}
    added: list[float] = []
    issued = 0
    pool = Http1Pool(max_connections=2 * clients, read_timeout_s=300)
    try:
        # Warm-up, not timed: every client opens its connections (to the upstream, and the front's
        # own to the upstream) with one pair at once, so the level measures a running service.
        await asyncio.gather(*(one(pool, *direct, True) for _ in range(clients)),
                             *(one(pool, *front) for _ in range(clients)))
        stop_at = time.perf_counter() + duration  # pairs start until then; running ones finish

        async def client(index: int) -> None:
            nonlocal issued
            turn = index
            while issued < max_requests and time.perf_counter() < stop_at:
                issued += 1
                turn += 1
                order = ("direct", "front") if turn % 2 else ("front", "direct")
                seconds = {}
                for name in order:
                    url, body, sse = (*direct, True) if name == "direct" else front
                    seconds[name] = await paths[name].timed(pool, url, body, sse)
                if seconds["direct"] is not None and seconds["front"] is not None:
                    added.append(seconds["front"] - seconds["direct"])

        started = time.perf_counter()
        await asyncio.gather(*(client(i) for i in range(clients)))
        elapsed = time.perf_counter() - started
    finally:
        await pool.aclose()
    ordered = sorted(added)
    return {"clients": clients, "direct": paths["direct"].summary(clients, elapsed),
            "front": paths["front"].summary(clients, elapsed),
            "added": {"pairs": len(ordered), "p50_ms": pct(ordered, 0.5), "p95_ms": pct(ordered, 0.95)}}


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from fastapply.runtime.remote import load_upstream
    from fastapply.text import Document

    servers: list[subprocess.Popen] = []
    try:
        spec = args.upstream
        if args.sim_upstream:
            port = free_port()
            servers.append(spawn([sys.executable, "-m", "evals.sim_upstream", "--port", str(port),
                                "--tokens-per-s", str(args.tokens_per_s), "--latency-s", str(args.latency_s)],
                               f"http://127.0.0.1:{port}/v1/models"))
            spec = f"http://127.0.0.1:{port}/v1#sim-apply"
        spec = spec if spec.startswith("openai:") else "openai:" + spec
        port = free_port()
        front = f"http://127.0.0.1:{port}"
        servers.append(spawn([sys.executable, "-m", "fastapply", "serve", "--port", str(port), "--model", spec,
                            "--executor", "thread", "--log-level", "error", "--max-concurrency",
                            str(args.max_concurrency), "--max-queue", str(args.max_queue)],
                           front + "/healthz", env={"FASTAPPLY_UPSTREAM_API": "chat", "FASTAPPLY_API_KEY": "",
                                                    "FASTAPPLY_UPSTREAM_CONNECTIONS": str(max(64, args.max_concurrency))}))
        model = load_upstream(spec, api="chat", environ={})
        deadline = time.monotonic() + 60
        while httpx.get(front + "/readyz", timeout=5).status_code != 200:
            if time.monotonic() > deadline:
                raise SystemExit("the front's /readyz did not turn 200 (is the upstream up?)")
            time.sleep(0.2)
        name = model.name if model.model else "auto"
        _, direct_body, _ = model._request(Document.parse(ORIGINAL), UPDATE, None, None, 0.0, 1.0, None)
        direct_body["model"] = model.model or asyncio.run(model._model_id())
        front_body = {"initial_code": ORIGINAL, "edit_snippet": UPDATE, "filename": "handlers.py",
                      "model": "auto" if args.auto else name, "stream": args.stream}
        base = model.pool.endpoints[0].url
        rows = []
        direct = (base + "/chat/completions", msgspec.json.encode(direct_body))
        through = (front + "/v1/apply", msgspec.json.encode(front_body), args.stream)
        for clients in [int(c) for c in args.clients.split(",") if c.strip()]:
            cpu_before = cpu_seconds(servers[-1].pid)
            row = asyncio.run(level(direct, through, clients, args.requests, args.duration))
            cpu = cpu_seconds(servers[-1].pid) - cpu_before
            # The front's own CPU time per request (warm-up included), from /proc: unlike latency, it
            # does not grow when other processes share the cores.
            row["front_cpu_ms"] = round(cpu * 1000 / (row["front"]["requests"] + clients), 3) if cpu >= 0 else None
            rows.append(row)
            print(msgspec.json.encode(row).decode(), file=sys.stderr)
    finally:
        for proc in reversed(servers):
            procs.stop(proc)

    table = Table(title=f"front over {'the simulated upstream' if args.sim_upstream else args.upstream}: "
                  f"{'streamed' if args.stream else 'JSON'} merges, model={'auto' if args.auto else 'upstream'}, "
                  f"max-concurrency {args.max_concurrency}, max-queue {args.max_queue}, {os.cpu_count()} CPUs")
    for column in ("clients", "path", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "statuses", "errors",
                   "added p50 / p95", "front CPU/req"):
        table.add_column(column, justify="right")
    failed = False
    for row in rows:
        added = row["added"]
        for label in ("direct", "front"):
            r = row[label]
            extra = [f"{added['p50_ms']:+.2f} / {added['p95_ms']:+.2f} ms", f"{row['front_cpu_ms']} ms"] \
                if label == "front" else ["", ""]
            table.add_row(str(row["clients"]), label, f"{r['rps']:.0f}", f"{r['p50_ms']:.2f}", f"{r['p95_ms']:.2f}",
                          f"{r['p99_ms']:.2f}", f"{r['max_ms']:.1f}",
                          " ".join(f"{k}:{v}" for k, v in r["statuses"].items()), str(r["errors"]), *extra)
        failed = failed or bool(row["front"]["errors"] or row["direct"]["errors"])
    Console(width=160).print(table)
    print("added = front minus direct per pair (the same client sends the same merge both ways, one after "
          "the other), over pairs where both were answered")
    if args.out:
        args.out.write_text(msgspec.json.encode(
            {"upstream": "sim" if args.sim_upstream else args.upstream, "stream": args.stream, "auto": args.auto,
             "levels": rows}).decode() + "\n")
    return 1 if failed else 0
