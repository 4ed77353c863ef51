"""Worst-case inputs for every stage, time vs size: no input may make one call run long.

    python -m evals.adversarial                       # every case at 128 KB .. 2 MB
    python -m evals.adversarial --sizes 64k,2m --case merge/repeated-lines
    python -m evals.adversarial --budget-s 2 --timeout-s 20 --json out.json

Each (case, size) runs in a fresh process (spawned) that builds the input, calls the public entry
point once (fastapply.apply, apply_udiff, apply_search_replace, apply_v4a, apply_replacements or
detect_formats) and reports the call's time and outcome (`ok` or the ApplyError's code). Before it,
the process makes the same call on the case's 2 KB input, untimed: a service worker imports the
engine and loads a language's grammar once, not per request (fastapply.service.executor warms its
workers up), and the budget is for the work a request asks for. A call that
runs past --timeout-s is killed and shown as `>T`. The cases are in evals/adversarial_cases.py; they
use only the public API, so the table can be recomputed on any engine. The last column is the time
growth from the second-largest to the largest size divided by the size growth: about 1 for linear
work, about 2 for quadratic. Times are the call's CPU time (time.process_time: steady on a shared
machine, where wall time also counts other processes), with the wall time at the largest size
beside them. Exit status 1 when a case exceeds --budget-s of CPU time at the largest size.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from typing import Any

import msgspec

from .adversarial_cases import CASES


class Row(msgspec.Struct):
    case: str
    stage: str
    size: int
    seconds: float | None  # None: killed at the timeout
    outcome: str
    cpu_seconds: float | None = None  # CPU time of the call: what the budget applies to


_WARM_UP_SIZE = 2_000


def _child(case: str, size: int, conn: Any) -> None:
    import fastapply

    stage, build = CASES[case]
    name, args, kwargs = build(size)
    func = getattr(fastapply, name)
    _, warm_args, warm_kwargs = build(_WARM_UP_SIZE)
    try:
        func(*warm_args, **warm_kwargs)  # imports and grammar loading: once per worker, not per call
    except Exception:  # noqa: BLE001 - only a warm-up: the timed call below reports what goes wrong
        pass
    started, cpu = time.perf_counter(), time.process_time()
    try:
        func(*args, **kwargs)
        outcome = "ok"
    except fastapply.ApplyError as exc:
        outcome = exc.code
    except Exception as exc:  # noqa: BLE001 - a crash is a finding, reported by its type
        outcome = f"CRASH {type(exc).__name__}: {exc}"[:120]
    conn.send((time.perf_counter() - started, time.process_time() - cpu, outcome))
    conn.close()


def run_one(case: str, size: int, timeout_s: float) -> Row:
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(case, size, child), daemon=True)
    proc.start()
    child.close()
    seconds: float | None = None
    cpu: float | None = None
    outcome = "timeout"
    try:
        # Building the input and importing take a moment of their own; the budget is for the call.
        if parent.poll(timeout_s + 10):
            seconds, cpu, outcome = parent.recv()
    except EOFError:
        outcome = f"died (exit {proc.exitcode})"
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
    if seconds is not None and seconds > timeout_s:
        seconds = None
    return Row(case=case, stage=CASES[case][0], size=size, seconds=seconds, outcome=outcome,
               cpu_seconds=cpu if seconds is not None else None)


def parse_size(text: str) -> int:
    text = text.strip().lower()
    scale = {"k": 1000, "m": 1000_000}.get(text[-1:], 1)  # decimal: the file limit is 2_000_000 bytes
    return int(float(text.rstrip("km")) * scale)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.adversarial", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="128k,512k,1m,2m", help="file sizes (default: 128k,512k,1m,2m)")
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="only this case (repeatable)")
    parser.add_argument("--timeout-s", type=float, default=20.0, help="kill a call after this long (default 20)")
    parser.add_argument("--budget-s", type=float, default=2.0, help="allowed seconds at the largest size")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    sizes = sorted(parse_size(s) for s in args.sizes.split(","))
    cases = args.case or list(CASES)

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    console = Console(stderr=True)
    rows: list[Row] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("adversarial", total=len(cases) * len(sizes))
        for case in cases:
            for size in sizes:
                progress.update(task, description=f"{case} {size // 1000} KB")
                rows.append(run_one(case, size, args.timeout_s))
                progress.advance(task)

    table = Table(title=f"CPU seconds per call (killed after {args.timeout_s:g} s of wall time)")
    table.add_column("case", no_wrap=True)
    table.add_column("stage")
    for size in sizes:
        table.add_column(f"{size // 1000} KB", justify="right")
    table.add_column("wall at largest", justify="right")
    table.add_column("growth", justify="right")
    table.add_column("outcome at largest", no_wrap=True)
    failed = []
    for case in cases:
        mine = [r for r in rows if r.case == case]
        cells = [f">{args.timeout_s:g}" if r.cpu_seconds is None else f"{r.cpu_seconds:.3f}" for r in mine]
        growth = "-"
        if len(mine) >= 2 and mine[-1].cpu_seconds and mine[-2].cpu_seconds and mine[-2].cpu_seconds > 0.005:
            import math

            ratio = mine[-1].cpu_seconds / mine[-2].cpu_seconds
            growth = f"{math.log(ratio) / math.log(sizes[-1] / sizes[-2]):.2f}"
        last = mine[-1]
        if last.cpu_seconds is None or last.cpu_seconds > args.budget_s or last.outcome.startswith(("CRASH", "died")):
            failed.append(case)
        wall = f">{args.timeout_s:g}" if last.seconds is None else f"{last.seconds:.3f}"
        table.add_row(case, CASES[case][0], *cells, wall, growth, last.outcome)
    Console(width=200).print(table)
    if args.json:
        with open(args.json, "wb") as handle:
            handle.write(msgspec.json.format(msgspec.json.encode(rows)))
    if failed:
        print(f"over the {args.budget_s:g} s budget (or crashed) at {sizes[-1] // 1000} KB: "
              + ", ".join(failed), file=sys.stderr)
        return 1
    print(f"every case within {args.budget_s:g} s at {sizes[-1] // 1000} KB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
