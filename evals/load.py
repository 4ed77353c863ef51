"""Load test of the HTTP service on loopback: requests/s and p50/p99 latency at N concurrent clients.

    python -m evals.load                          # starts `fastapply serve` itself, 1/8/32 clients
    python -m evals.load --url http://host:8000   # an already running server
    python -m evals.load --executor process --clients 32 --duration 10
    python -m evals.load --sim-upstream --clients 1,8,64,256   # merges proxied to a model server

Each client is a keep-alive HTTP/1.1 connection driven by a minimal asyncio client (pre-encoded
request, Content-Length framing), so the load generator spends little CPU of its own: on a small
machine the generator and the server share the cores, and a heavy client would measure itself.
Cases: `whole` (a ~300-line file, the update is the whole edited file), `lazy` (a ~300-line file and
a lazy snippet with `... existing code ...` markers; needs the structural engine), `tiny` (a one-line
file: measures the HTTP stack and the service around the merge, e.g. `--http h11` against httptools).
Bounded: each level stops after --requests requests or --duration seconds, whichever comes first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import msgspec

from evals import procs


def source_file(version: int) -> str:
    """A realistic ~300-line Python module; `version` changes a few lines in the middle."""
    lines = ['"""Order service: validation, pricing and persistence."""', "",
             "from __future__ import annotations", "", "import dataclasses", "import decimal", ""]
    for i in range(28):
        lines += ["@dataclasses.dataclass", f"class Rule{i}:",
                  f"    name: str = 'rule-{i}'", f"    limit: int = {i * 10}", "",
                  "    def applies(self, order) -> bool:",
                  "        total = sum(item.price * item.quantity for item in order.items)",
                  "        return total > self.limit and order.region in ('eu', 'us')", ""]
        if i == 14 and version:
            lines[-2] = ("        return total >= self.limit and order.region in ('eu', 'us', 'uk')"
                         f"  # v{version}")
        lines += ["    def price(self, amount: decimal.Decimal) -> decimal.Decimal:",
                  f"        return amount * decimal.Decimal('{1 + i / 100:.2f}')", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def lazy_snippet() -> str:
    return ("# ... existing code ...\n"
            "class Rule14:\n"
            "    name: str = 'rule-14'\n"
            "    limit: int = 140\n"
            "\n"
            "    def applies(self, order) -> bool:\n"
            "        total = sum(item.price * item.quantity for item in order.items)\n"
            "        return total >= self.limit and order.region in ('eu', 'us', 'uk')  # v1\n"
            "# ... existing code ...\n")


def payload(case: str) -> tuple[bytes, str]:
    original = source_file(0)
    if case == "tiny":
        original, update, expected = "a = 1\n", "a = 2\n", "a = 2\n"
    elif case == "whole":
        update = expected = source_file(1)
    else:
        update, expected = lazy_snippet(), source_file(1)
    body = {"initial_code": original, "edit_snippet": update, "filename": "orders.py"}
    return msgspec.json.encode(body), expected


class Connection:
    """One keep-alive HTTP/1.1 connection that posts the same request again and again."""

    def __init__(self, host: str, port: int, request: bytes) -> None:
        self.host, self.port, self.request = host, port, request
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        self.writer.write(self.request)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = await self.reader.readexactly(length)
        return status, body

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass


async def run_level(url: str, body: bytes, expected: str, clients: int, max_requests: int,
                    duration: float, api_key: str | None) -> dict:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    auth = f"authorization: Bearer {api_key}\r\n" if api_key else ""
    request = (f"POST /v1/apply HTTP/1.1\r\nhost: {host}:{port}\r\ncontent-type: application/json\r\n"
               f"{auth}content-length: {len(body)}\r\n\r\n").encode() + body
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    wrong = 0
    issued = 0
    stop_at = time.perf_counter() + duration

    async def client() -> None:
        nonlocal issued, wrong
        connection = Connection(host, port, request)
        try:
            while issued < max_requests and time.perf_counter() < stop_at:
                issued += 1
                started = time.perf_counter()
                status, response = await connection.post()
                latencies.append(time.perf_counter() - started)
                statuses[status] = statuses.get(status, 0) + 1
                # Check every 50th answer in full: a fast wrong merge is not a result.
                if status == 200 and len(latencies) % 50 == 1:
                    if msgspec.json.decode(response).get("mergedCode") != expected:
                        wrong += 1
        finally:
            await connection.close()

    # Warm-up: a few requests on one connection so imports and caches are not timed.
    warm = Connection(host, port, request)
    for _ in range(5):
        await warm.post()
    await warm.close()
    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")

    return {"clients": clients, "requests": len(latencies), "seconds": round(elapsed, 2),
            "rps": round(len(latencies) / elapsed, 1), "p50_ms": round(pct(0.50), 2),
            "p90_ms": round(pct(0.90), 2), "p99_ms": round(pct(0.99), 2), "max_ms": round(pct(1.0), 2),
            "mean_ms": round(statistics.fmean(ordered) * 1000, 2) if ordered else None,
            "statuses": {str(k): v for k, v in sorted(statuses.items())}, "wrong_merges": wrong}


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen, str]:
    command = ["--log-level", "warning", "--executor", args.executor, "--workers", str(args.workers),
               "--max-concurrency", str(args.max_concurrency), "--http", args.http, "--loop", args.loop]
    if args.executor_workers:
        command += ["--executor-workers", str(args.executor_workers)]
    return procs.start_service(command)


def plot(results: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    clients = [str(r["clients"]) for r in results]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.bar(clients, [r["rps"] for r in results], color="tab:blue")
    left.set(xlabel="concurrent clients", ylabel="requests/s", title="throughput")
    for key, label in (("p50_ms", "p50"), ("p99_ms", "p99")):
        right.plot(clients, [r[key] for r in results], marker="o", label=label)
    right.set(xlabel="concurrent clients", ylabel="latency (ms)", title="latency")
    right.legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an already running server (default: start `fastapply serve`)")
    parser.add_argument("--api-key", help="API key for --url servers with auth")
    parser.add_argument("--clients", default="1,8,32",
                        help="concurrency levels, comma-separated (default 1,8,32)")
    parser.add_argument("--requests", type=int, default=3000, help="at most this many requests per level")
    parser.add_argument("--duration", type=float, default=8.0, help="at most this many seconds per level")
    parser.add_argument("--case", choices=["whole", "lazy", "tiny"], default="whole",
                        help="merge to send (default whole)")
    parser.add_argument("--executor", choices=["thread", "process"], default="process",
                        help="merge pool of the started server (default process)")
    parser.add_argument("--executor-workers", type=int, default=0, help="pool size of the started server")
    parser.add_argument("--workers", type=int, default=1,
                        help="uvicorn worker processes of the started server")
    parser.add_argument("--http", choices=["auto", "httptools", "h11"], default="auto",
                        help="HTTP parser of the started server (default auto: httptools when installed)")
    parser.add_argument("--loop", choices=["auto", "uvloop", "asyncio"], default="auto",
                        help="event loop of the started server (default auto: uvloop when installed)")
    parser.add_argument("--max-concurrency", type=int, default=64,
                        help="--max-concurrency of the started server")
    parser.add_argument("--upstream", metavar="URL[#MODEL]",
                        help="drive a started front whose model is this OpenAI-compatible server "
                        "(evals/load_upstream.py: direct vs through the front, per level)")
    parser.add_argument("--sim-upstream", action="store_true",
                        help="like --upstream, against the simulated upstream (evals/sim_upstream.py)")
    parser.add_argument("--tokens-per-s", type=float, default=0.0,
                        help="--sim-upstream: streaming speed per request (0 = as fast as it can)")
    parser.add_argument("--latency-s", type=float, default=0.0, help="--sim-upstream: delay to the first event")
    parser.add_argument("--stream", action="store_true", help="--upstream modes: streamed (SSE) merges")
    parser.add_argument("--auto", action="store_true",
                        help="--upstream modes: model `auto` (the structural engine tries first, refuses)")
    parser.add_argument("--max-queue", type=int, default=256, help="--max-queue of the started server")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--plot", type=Path, help="write a PNG: req/s and p50/p99 latency per client count")
    args = parser.parse_args(argv)

    if args.upstream or args.sim_upstream:
        from evals.load_upstream import run

        return run(args)
    levels = [int(part) for part in args.clients.split(",") if part.strip()]
    body, expected = payload(args.case)
    proc = None
    url = args.url
    if url is None:
        proc, url = start_server(args)
    try:
        results = []
        for clients in levels:
            result = asyncio.run(run_level(url, body, expected, clients, args.requests, args.duration,
                                           args.api_key))
            results.append(result)
            print(json.dumps(result), file=sys.stderr)
    finally:
        if proc is not None:
            procs.stop(proc)

    from rich.console import Console
    from rich.table import Table

    lines = source_file(0).count("\n")
    table = Table(title=f"fastapply service load: {args.case} merge of a {lines}-line file, "
                  f"executor={args.executor}, http={args.http}, loop={args.loop}, workers={args.workers}, "
                  f"{os.cpu_count()} CPUs")
    columns = ("clients", "requests", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "statuses", "wrong")
    for column in columns:
        table.add_column(column, justify="right")
    for r in results:
        table.add_row(str(r["clients"]), str(r["requests"]), f"{r['rps']:.0f}", f"{r['p50_ms']:.1f}",
                      f"{r['p90_ms']:.1f}", f"{r['p99_ms']:.1f}", f"{r['max_ms']:.1f}",
                      " ".join(f"{k}:{v}" for k, v in r["statuses"].items()), str(r["wrong_merges"]))
    Console(width=140).print(table)
    if args.out:
        args.out.write_text(json.dumps({"case": args.case, "executor": args.executor, "workers": args.workers,
                                        "http": args.http, "loop": args.loop, "results": results},
                                       indent=2) + "\n")
    if args.plot:
        plot(results, args.plot, f"{args.case} merge, executor={args.executor}, workers={args.workers}")
    failed = any(r["wrong_merges"] or set(r["statuses"]) - {"200"} for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
