"""Micro-benchmark (and profile) of the structural merge on three fixed workloads.

    python -m evals.profile_merge                 # median / p99 ms per workload
    python -m evals.profile_merge --profile lazy  # cProfile of one workload, sorted by cumulative time

Workloads: `lazy` (the ~300-line module of evals/load.py and its lazy snippet), `whole` (the same
file replaced by its whole edited version) and `large` (a ~2,000-line Python file from
evals/latency.py edited in the middle through a snippet with markers). Numbers are noisy on a shared
machine: compare runs made side by side.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time

import fastapply

from .accuracy import percentile
from .cases import same_code
from .latency import synthetic_cases
from .load import lazy_snippet, source_file


def workloads() -> dict[str, tuple[str, str, str, str]]:
    """name -> (original, update, expected, filename)."""
    big = next(c for c in synthetic_cases((2000,)) if c.language == "python")
    return {
        "lazy": (source_file(0), lazy_snippet(), source_file(1), "orders.py"),
        "whole": (source_file(0), source_file(1), source_file(1), "orders.py"),
        "large": (big.original, big.update, big.expected, "big.py"),
    }


def time_workload(original: str, update: str, expected: str, filename: str, runs: int) -> list[float]:
    result = fastapply.apply(original, update, filename=filename)  # warm-up, and a correctness check
    if not same_code(result.merged_code, expected):
        raise SystemExit(f"{filename}: the merge is not the expected file")
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fastapply.apply(original, update, filename=filename)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.profile_merge", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=200, help="timed calls per workload")
    parser.add_argument("--profile", choices=("lazy", "whole", "large"), help="cProfile this workload")
    parser.add_argument("--top", type=int, default=25, help="rows of the profile to print")
    args = parser.parse_args(argv)
    loads = workloads()
    if args.profile:
        original, update, expected, filename = loads[args.profile]
        time_workload(original, update, expected, filename, 1)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.runs):
            fastapply.apply(original, update, filename=filename)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.top)
        return 0
    print(f"{'workload':10} {'lines':>6} {'median ms':>10} {'p99 ms':>8}")
    for name, (original, update, expected, filename) in loads.items():
        times = time_workload(original, update, expected, filename, args.runs)
        lines = original.count("\n")
        print(f"{name:10} {lines:6d} {statistics.median(times):10.2f} {percentile(times, 99):8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
