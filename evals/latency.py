"""Latency of `fastapply.apply` on files up to 2,000 lines: median and p99 over repeated runs.

    python -m evals.latency                       # dev corpus + generated large files, 5 runs each
    python -m evals.latency --data gen.jsonl --repeat 10
    python -m evals.accuracy --latency            # the same

Every call is timed whatever its outcome (merged or refused), after one untimed warm-up call per case
so that loading a grammar once does not count. Large cases are synthesized here: a Python and a
JavaScript file of about 500, 1,000 and 2,000 lines, each edited in the middle through a snippet with
markers, and the same files with four functions spread over them edited through a four-part snippet.
For real edits of real files, point `--data` at a batch generated as in evals/llmgen/batches/README.md
(`--no-synthetic --repeat 3`): their large files cost more than these.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import msgspec
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import fastapply
from fastapply.errors import ApplyError

from .accuracy import percentile
from .cases import DATA_DIR, Case, load_cases

DEFAULT_OUT = Path(__file__).parent / "out" / "latency.json"
BUCKETS = (200, 500, 1000, 2000)

_PY_FUNC = '''def handle_{n}(request, store, *, retries=3):
    """Handle request kind {n}: validate, load, update and answer."""
    payload = request.get("payload") or {{}}
    if "id" not in payload:
        raise KeyError("payload needs an id for handler {n}")
    for attempt in range(retries):
        record = store.get(payload["id"])
        if record is not None:
            break
    else:
        return {{"status": 404, "handler": {n}}}
    record["hits"] = record.get("hits", 0) + {n}
    store.put(payload["id"], record)
    return {{"status": 200, "handler": {n}, "hits": record["hits"]}}

'''
_JS_FUNC = '''export function handle{n}(request, store, retries = 3) {{
  const payload = request.payload || {{}};
  if (!('id' in payload)) {{
    throw new Error('payload needs an id for handler {n}');
  }}
  let record = null;
  for (let attempt = 0; attempt < retries && record === null; attempt += 1) {{
    record = store.get(payload.id);
  }}
  if (record === null) {{
    return {{ status: 404, handler: {n} }};
  }}
  record.hits = (record.hits || 0) + {n};
  store.put(payload.id, record);
  return {{ status: 200, handler: {n}, hits: record.hits }};
}}

'''


def synthetic_cases(sizes: tuple[int, ...] = (500, 1000, 2000), parts: int = 1) -> list[Case]:
    """Large files edited in the middle: one new line in a function body, with markers around it;
    with `parts` > 1, that many functions spread over the file each gain their line, one part of
    the snippet per function (what real agent snippets of long files look like more often: the
    one-edit case alone flatters the engine, whose checks then read little of the file)."""
    cases = []
    for lang, template, ext, marker, old, new in (
        ("python", _PY_FUNC, "py", "# ... existing code ...",
         '    record["hits"] = record.get("hits", 0) + {n}\n',
         '    record["hits"] = record.get("hits", 0) + {n}\n    record["seen_by"] = {n}\n'),
        ("javascript", _JS_FUNC, "js", "// ... existing code ...",
         "  record.hits = (record.hits || 0) + {n};\n",
         "  record.hits = (record.hits || 0) + {n};\n  record.seenBy = {n};\n"),
    ):
        per = template.count("\n")
        for size in sizes:
            count = max(2, size // per)
            funcs = [template.format(n=n) for n in range(count)]
            picked = [count // 2] if parts == 1 else [count * (k + 1) // (parts + 1) for k in range(parts)]
            original = "".join(funcs)
            edited = {n: funcs[n].replace(old.format(n=n), new.format(n=n)) for n in picked}
            expected = "".join(edited.get(n, func) for n, func in enumerate(funcs))
            snippet = "".join(f"{marker}\n{edited[n].rstrip()}\n" for n in picked) + f"{marker}\n"
            name = f"synthetic/{lang}-{count * per}-lines" + (f"-{parts}-parts" if parts > 1 else "")
            cases.append(Case(id=name, original=original, update=snippet, expected=expected,
                              filename=f"big.{ext}", language=lang, tags=["synthetic", "large"]))
    return cases


def time_case(case: Case, repeat: int) -> list[float]:
    def once() -> None:
        try:
            fastapply.apply(case.original, case.update, filename=case.filename,
                            language=case.language, instruction=case.instruction)
        except ApplyError:
            pass  # a refusal costs time too; its latency counts the same

    once()  # warm-up: grammar loading and caches
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        once()
        times.append((time.perf_counter() - started) * 1000)
    return times


def bucket_of(lines: int) -> str:
    for limit in BUCKETS:
        if lines <= limit:
            return f"<= {limit} lines"
    return f"> {BUCKETS[-1]} lines"


class LatencyReport(msgspec.Struct, kw_only=True):
    repeat: int
    calls: int
    median_ms: float
    p99_ms: float
    max_ms: float
    buckets: dict[str, dict[str, float]]
    slowest: list[tuple[str, float]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.latency", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", action="append", metavar="PATH",
                        help="case sources as for evals.accuracy (default: evals/data)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case")
    parser.add_argument("--max-lines", type=int, default=2000, help="skip originals longer than this")
    parser.add_argument("--no-synthetic", action="store_true", help="no generated large files")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON report path")
    args = parser.parse_args(argv)

    console = Console() if sys.stdout.isatty() else Console(width=120)
    cases: list[Case] = []
    for path in args.data or [str(DATA_DIR)]:
        cases += load_cases(path)
    if not args.no_synthetic:
        cases += synthetic_cases() + synthetic_cases(parts=4)
    cases = [c for c in cases if c.original.count("\n") + 1 <= args.max_lines]
    per_bucket: dict[str, list[float]] = {}
    per_case: list[tuple[str, float]] = []
    columns = (TextColumn("[bold]latency"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("", total=len(cases))
        for case in cases:
            times = time_case(case, args.repeat)
            per_bucket.setdefault(bucket_of(case.original.count("\n") + 1), []).extend(times)
            per_case.append((case.id, max(times)))
            bar.advance(task)
    all_times = [t for times in per_bucket.values() for t in times]
    if not all_times:
        console.print("[red]no cases selected")
        return 2
    report = LatencyReport(
        repeat=args.repeat, calls=len(all_times), median_ms=round(statistics.median(all_times), 3),
        p99_ms=round(percentile(all_times, 99), 3), max_ms=round(max(all_times), 3),
        buckets={name: {"calls": len(ts), "median_ms": round(statistics.median(ts), 3),
                        "p99_ms": round(percentile(ts, 99), 3)}
                 for name, ts in sorted(per_bucket.items(), key=lambda kv: _bucket_key(kv[0]))},
        slowest=sorted(per_case, key=lambda kv: -kv[1])[:5])
    table = Table(title=f"fastapply.apply latency ({len(cases)} cases x {args.repeat} runs)")
    for name in ("file size", "calls", "median ms", "p99 ms"):
        table.add_column(name, justify="left" if name == "file size" else "right", no_wrap=True)
    for name, row in report.buckets.items():
        table.add_row(name, str(int(row["calls"])), f"{row['median_ms']:.2f}", f"{row['p99_ms']:.2f}")
    table.add_section()
    table.add_row("all", str(report.calls), f"{report.median_ms:.2f}", f"{report.p99_ms:.2f}", style="bold")
    console.print(table)
    console.print("slowest: " + ", ".join(f"{cid} {ms:.1f} ms" for cid, ms in report.slowest))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(msgspec.json.format(msgspec.json.encode(report)))
    console.print(f"report: {args.out}")
    return 0


def _bucket_key(name: str) -> int:
    digits = "".join(ch for ch in name if ch.isdigit())
    return int(digits) + (1 if name.startswith(">") else 0)


if __name__ == "__main__":
    sys.exit(main())
