"""Load of the front when merges go to an upstream model server (`python -m evals.load --sim-upstream`).

    python -m evals.load --sim-upstream --clients 1,8,64,256           # simulated upstream, started here
    python -m evals.load --sim-upstream --tokens-per-s 50 --stream --clients 256 --max-queue 64
    python -m evals.load --upstream http://gpu-box:8000/v1#apply      # a real server (vLLM, SGLang)

Starts `fastapply serve --model openai:UPSTREAM` (one worker) and, with --sim-upstream, the simulated
upstream of evals/sim_upstream.py (canned answers at --tokens-per-s after --latency-s). Every request is
an edit sent to the model (`model` = the upstream model, or `auto` with --auto, where the structural
engine tries first and refuses), so each one is proxied. Side by side at each concurrency level:
`direct` (the same prompt straight to the upstream, streamed to its end) and `front` (through fastapply:
parse, template, upstream stream, extraction, validation); the difference of their p50 is the front's
own overhead per proxied request. --stream asks the front for SSE and counts a stream as good only when
it ends with `done` and [DONE]; statuses show queueing limits as 429s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx
import msgspec

ORIGINAL = "".join(f"def handler_{i}(request):\n    return request.get('field_{i}')\n\n\n" for i in range(20))
# The structural engine refuses this (no anchor for the new function): the model must merge it.
UPDATE = "def handler_99(request):\n    return None\n# ... existing code ...\n# ... existing code ...\n"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def spawn(command: list[str], url: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    proc = subprocess.Popen(command, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{command[:4]} exited during startup")
        try:
            httpx.get(url, timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.2)
    stop(proc)
    raise SystemExit(f"{command[:4]} did not answer within 60 s")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


async def one(client: httpx.AsyncClient, url: str, body: dict[str, Any], sse: bool) -> tuple[int, bool]:
    """(status, good): good = a complete answer (JSON merge, or a stream that ended properly)."""
    if not sse:
        response = await client.post(url, json=body)
        return response.status_code, response.status_code == 200
    async with client.stream("POST", url, json=body) as response:
        last, error = "", False
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                last = line[6:]
                error = error or last.startswith('{"error"')
        return response.status_code, response.status_code == 200 and last == "[DONE]" and not error


async def level(url: str, body: dict[str, Any], sse: bool, clients: int, max_requests: int,
                duration: float) -> dict[str, Any]:
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    bad = 0
    issued = 0
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(timeout=300, limits=limits) as client:
        await one(client, url, body, sse)  # warm-up
        stop_at = time.perf_counter() + duration  # requests start until then; running ones finish

        async def worker() -> None:
            nonlocal issued, bad
            while issued < max_requests and time.perf_counter() < stop_at:
                issued += 1
                started = time.perf_counter()
                status: int | str
                try:
                    status, good = await one(client, url, body, sse)
                except httpx.HTTPError as exc:  # counted under the exception's name
                    status, good = type(exc).__name__, False
                latencies.append(time.perf_counter() - started)
                statuses[str(status)] = statuses.get(str(status), 0) + 1
                bad += 0 if good or status == 429 else 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        elapsed = time.perf_counter() - started
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2) if ordered else float("nan")

    return {"clients": clients, "requests": len(ordered), "rps": round(len(ordered) / elapsed, 1),
            "p50_ms": pct(0.5), "p99_ms": pct(0.99), "max_ms": pct(1.0),
            "mean_ms": round(statistics.fmean(ordered) * 1000, 2) if ordered else None,
            "statuses": dict(sorted(statuses.items())), "errors": bad}


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from fastapply.runtime.remote import load_upstream
    from fastapply.text import Document

    procs: list[subprocess.Popen] = []
    try:
        spec = args.upstream
        if args.sim_upstream:
            port = free_port()
            procs.append(spawn([sys.executable, "-m", "evals.sim_upstream", "--port", str(port),
                                "--tokens-per-s", str(args.tokens_per_s), "--latency-s", str(args.latency_s)],
                               f"http://127.0.0.1:{port}/v1/models"))
            spec = f"http://127.0.0.1:{port}/v1#sim-apply"
        spec = spec if spec.startswith("openai:") else "openai:" + spec
        port = free_port()
        front = f"http://127.0.0.1:{port}"
        procs.append(spawn([sys.executable, "-m", "fastapply", "serve", "--port", str(port), "--model", spec,
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
        for clients in [int(c) for c in args.clients.split(",") if c.strip()]:
            direct = asyncio.run(level(base + "/chat/completions", direct_body, True, clients, args.requests,
                                       args.duration))
            proxied = asyncio.run(level(front + "/v1/apply", front_body, args.stream, clients, args.requests,
                                        args.duration))
            rows.append((clients, direct, proxied))
            print(msgspec.json.encode({"direct": direct, "front": proxied}).decode(), file=sys.stderr)
    finally:
        for proc in reversed(procs):
            stop(proc)

    table = Table(title=f"front over {'the simulated upstream' if args.sim_upstream else args.upstream}: "
                  f"{'streamed' if args.stream else 'JSON'} merges, model={'auto' if args.auto else 'upstream'}, "
                  f"max-concurrency {args.max_concurrency}, max-queue {args.max_queue}, {os.cpu_count()} CPUs")
    for column in ("clients", "path", "req/s", "p50 ms", "p99 ms", "max ms", "statuses", "errors", "added p50"):
        table.add_column(column, justify="right")
    failed = False
    for clients, direct, proxied in rows:
        added = proxied["p50_ms"] - direct["p50_ms"]
        for label, r, extra in (("direct", direct, ""), ("front", proxied, f"{added:+.2f} ms")):
            table.add_row(str(clients), label, f"{r['rps']:.0f}", f"{r['p50_ms']:.2f}", f"{r['p99_ms']:.2f}",
                          f"{r['max_ms']:.1f}", " ".join(f"{k}:{v}" for k, v in r["statuses"].items()),
                          str(r["errors"]), extra)
        failed = failed or bool(proxied["errors"] or direct["errors"])
    Console(width=150).print(table)
    if args.out:
        args.out.write_text(msgspec.json.encode(
            {"upstream": "sim" if args.sim_upstream else args.upstream, "stream": args.stream, "auto": args.auto,
             "levels": [{"clients": c, "direct": d, "front": f} for c, d, f in rows]}).decode() + "\n")
    return 1 if failed else 0
