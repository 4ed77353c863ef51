"""Accuracy harness: run `fastapply.apply` on eval cases and count correct, silently wrong, refused, crashed.

    python -m evals.accuracy                                  # the dev corpus (evals/data)
    python -m evals.accuracy --data ../shared/data/continue-lazy --data gen.jsonl
    python -m evals.accuracy --show-failures --fail-under 95
    python -m evals.accuracy --generate llm --split dev --by-tag          # 2,000 generated dev cases
    python -m evals.accuracy --generate llm --split heldout2 --by-tag --fetch  # the held-out figure
    python -m evals.accuracy --generate llm --split heldout --by-tag --fetch   # the older held-out split
    python -m evals.accuracy --generate llm --json > report.json          # machine-readable summary

Outcomes per case:
- correct (exact): merged equals expected after stripping trailing whitespace (`evals.cases.same_code`);
- wrong: a merge came back but differs from expected (silently wrong: the worst outcome), counted
  apart as "whitespace only" (equal after ignoring indentation and blank lines,
  `evals.cases.same_modulo_whitespace`) and "substantive" (everything else); both are wrong;
  "distinct" counts them once per edit (the id without its `llm:SEED:`: a generated split's seeds
  repeat its release pairs' real edits, so one quirk can count many times);
- refused: `fastapply.ApplyError` was raised (its `code` is recorded);
- crashed: any other exception, which is a bug; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import difflib
import math
import re
import signal
import statistics
import sys
import threading
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import fastapply
from fastapply.errors import ApplyError

from .accuracy_tables import plot_report, plot_tags, print_report
from .cases import DATA_DIR, Case, load_cases, same_code, same_modulo_whitespace
from .llmgen.splits import SPLITS, is_heldout_split

DEFAULT_OUT = Path(__file__).parent / "out" / "accuracy.json"
DEFAULT_TIMEOUT_S = 60.0
OUTCOMES = ("correct", "wrong", "refused", "crashed")


class CaseResult(msgspec.Struct, kw_only=True):
    id: str
    language: str
    outcome: str
    ms: float
    code: str | None = None
    message: str | None = None
    line: int | None = None  # refused: the snippet line the refusal names (ApplyError.line)
    diff: str | None = None
    tags: list[str] = msgspec.field(default_factory=list)
    whitespace_only: bool = False  # wrong, but equal after ignoring indentation and blank lines


class Summary(msgspec.Struct, kw_only=True):
    cases: int
    correct: int
    wrong: int
    refused: int
    crashed: int
    correct_pct: float
    wrong_pct: float
    median_ms: float
    p99_ms: float
    wrong_whitespace: int = 0
    wrong_substantive: int = 0
    refused_pct: float = 0.0
    # wrong merges counted once per edit: the seeds of a generated split repeat a release pair's
    # real edits, so one quirk can count ten times (edit_key)
    wrong_distinct: int = 0
    # refusals that name a snippet line (issue 8: every refusal names one)
    refused_with_line: int = 0


class Report(msgspec.Struct, kw_only=True):
    engine: str
    data: list[str]
    overall: Summary
    languages: dict[str, Summary]
    tags: dict[str, Summary]
    refusal_codes: dict[str, int]
    results: list[CaseResult]


class CaseTimeout(Exception):
    """A merge ran past the per-case time limit: a hang is a bug, reported as a crash."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise CaseTimeout in the block after `seconds` (main thread on Unix only; else no limit)."""
    on_main = threading.current_thread() is threading.main_thread()
    usable = seconds > 0 and hasattr(signal, "SIGALRM") and on_main
    if not usable:
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise CaseTimeout(f"no answer within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_case(case: Case, engine: str = "structural", timeout: float = DEFAULT_TIMEOUT_S) -> CaseResult:
    """Merge one case and classify the outcome. Never raises."""
    language = case.lang()
    started = time.perf_counter()
    try:
        with deadline(timeout):
            result = fastapply.apply(case.original, case.update, filename=case.filename,
                                     language=case.language, instruction=case.instruction,
                                     engine=engine)
    except ApplyError as exc:
        ms = (time.perf_counter() - started) * 1000
        return CaseResult(id=case.id, language=language, outcome="refused", ms=ms,
                          code=exc.code, message=exc.message, line=exc.line, tags=case.tags)
    except Exception as exc:  # a bug in fastapply: report it loudly, keep going
        ms = (time.perf_counter() - started) * 1000
        return CaseResult(id=case.id, language=language, outcome="crashed", ms=ms,
                          code=type(exc).__name__, message=traceback.format_exc(), tags=case.tags)
    ms = (time.perf_counter() - started) * 1000
    if same_code(result.merged_code, case.expected):
        return CaseResult(id=case.id, language=language, outcome="correct", ms=ms, tags=case.tags)
    return CaseResult(id=case.id, language=language, outcome="wrong", ms=ms, tags=case.tags,
                      diff=short_diff(case.expected, result.merged_code),
                      whitespace_only=same_modulo_whitespace(result.merged_code, case.expected))


def short_diff(expected: str, merged: str, limit: int = 40) -> str:
    lines = list(difflib.unified_diff(
        expected.replace("\r\n", "\n").splitlines(), merged.replace("\r\n", "\n").splitlines(),
        "expected", "merged", n=1, lineterm=""))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... {len(lines) - limit} more diff lines"]
    return "\n".join(lines)


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(pct / 100 * len(ordered))))
    return ordered[rank - 1]


_SEED = re.compile(r"^llm:\d+:")


def edit_key(case_id: str) -> str:
    """A generated case's id without its seed (`llm:7003:pypi-x-pair:mod.py` -> `pypi-x-pair:mod.py`):
    the same real edit under another seed is the same edit."""
    return _SEED.sub("", case_id)


def summarize(results: list[CaseResult]) -> Summary:
    counts = Counter(r.outcome for r in results)
    total = len(results)
    times = [r.ms for r in results]
    spaces = sum(1 for r in results if r.outcome == "wrong" and r.whitespace_only)
    return Summary(
        wrong_whitespace=spaces, wrong_substantive=counts["wrong"] - spaces,
        wrong_distinct=len({edit_key(r.id) for r in results if r.outcome == "wrong"}),
        refused_pct=round(100 * counts["refused"] / total, 2) if total else 0.0,
        refused_with_line=sum(1 for r in results if r.outcome == "refused" and r.line is not None),
        cases=total, correct=counts["correct"], wrong=counts["wrong"], refused=counts["refused"],
        crashed=counts["crashed"],
        correct_pct=round(100 * counts["correct"] / total, 2) if total else 0.0,
        wrong_pct=round(100 * counts["wrong"] / total, 2) if total else 0.0,
        median_ms=round(statistics.median(times), 3) if times else 0.0,
        p99_ms=round(percentile(times, 99), 3),
    )


def build_report(results: list[CaseResult], engine: str, data: list[str]) -> Report:
    by_language: dict[str, list[CaseResult]] = defaultdict(list)
    by_tag: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        by_language[result.language].append(result)
        for tag in result.tags:
            by_tag[tag].append(result)
    codes = Counter(r.code or "?" for r in results if r.outcome == "refused")
    return Report(engine=engine, data=data, overall=summarize(results),
                  languages={lang: summarize(rs) for lang, rs in sorted(by_language.items())},
                  tags={tag: summarize(rs) for tag, rs in sorted(by_tag.items())},
                  refusal_codes=dict(codes.most_common()), results=results)


def warm_up(cases: list[Case], engine: str = "structural", timeout: float = DEFAULT_TIMEOUT_S) -> None:
    """One untimed merge per language first, so that loading a grammar does not count as latency."""
    seen: set[str] = set()
    for case in cases:
        if case.lang() not in seen:
            seen.add(case.lang())
            run_case(case, engine, timeout)


def run_all(cases: list[Case], engine: str = "structural", console: Console | None = None,
            progress: bool = True, timeout: float = DEFAULT_TIMEOUT_S) -> list[CaseResult]:
    warm_up(cases, engine, timeout)
    results = []
    columns = (TextColumn("[bold]accuracy"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))
    with Progress(*columns, console=console, disable=not progress, transient=True) as bar:
        task = bar.add_task("", total=len(cases))
        for case in cases:
            bar.update(task, description=case.id)
            results.append(run_case(case, engine, timeout))
            bar.advance(task)
    return results


def load_all(paths: list[str]) -> list[Case]:
    cases: list[Case] = []
    for path in paths:
        cases.extend(load_cases(path))
    return cases


def generated(args: argparse.Namespace, console: Console) -> list[Case]:
    """The cases --generate asks for ([] without it)."""
    if args.generate == "llm":
        from .llmgen.cli import llm_cases, parse_seeds

        if args.fetch:
            from . import fetch

            fetch.main(["--split", args.split])

        return llm_cases(args.n, args.split, parse_seeds(args.seeds, args.split),
                         progress=console.is_terminal and not args.no_progress)
    if args.generate == "today":
        from .generate import generate

        return generate(args.n, seed=0)
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.accuracy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", action="append", metavar="PATH",
                        help="corpus folder, continue-lazy style fixture folder, or JSONL file "
                             "(repeatable; default: evals/data)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON report path")
    parser.add_argument("--engine", default="structural", choices=["structural", "model", "auto"],
                        help="merge engine passed to fastapply.apply (default: structural)")
    parser.add_argument("--language", action="append", help="only cases in this language (repeatable)")
    parser.add_argument("--filter", help="only cases whose id contains this text")
    parser.add_argument("--show-failures", action="store_true", help="print a short diff per wrong case")
    parser.add_argument("--by-tag", action="store_true", help="also print a table per case tag")
    parser.add_argument("--fail-under", type=float, metavar="PCT",
                        help="exit 1 if overall correct %% is below PCT")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help="per-case limit in seconds; a merge past it counts as crashed (0: none)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--plot", type=Path, metavar="PNG",
                        help="also draw outcomes per language (matplotlib)")
    parser.add_argument("--plot-tags", type=Path, metavar="PNG",
                        help="also draw exact / wrong / refused per case tag (matplotlib)")
    parser.add_argument("--json", action="store_true",
                        help="print the summary (overall, languages, tags, refusal codes) as JSON on "
                             "stdout instead of the tables")
    parser.add_argument("--generate", choices=["llm", "today"],
                        help="score freshly generated cases (evals.generate) instead of / besides --data")
    parser.add_argument("--split", choices=list(SPLITS), default="dev",
                        help="with --generate llm: the split (default dev; heldout2 = the untuned figure, "
                             "heldout = the older held-out split; see evals/llmgen/splits.py)")
    parser.add_argument("--n", type=int, default=2000, help="with --generate: number of cases (default 2000)")
    parser.add_argument("--seeds", metavar="A-B|A,B,..", help="with --generate llm: seeds (default per split)")
    parser.add_argument("--fetch", action="store_true",
                        help="with --generate llm: first download the split's packages that are not "
                             "cached yet (python -m evals.fetch; a package that fails is skipped)")
    parser.add_argument("--latency", action="store_true",
                        help="measure latency instead (same as python -m evals.latency)")
    args = parser.parse_args(argv)
    if args.latency:
        from . import latency

        return latency.main(sum((["--data", p] for p in (args.data or [])), []))

    console = Console(stderr=args.json)
    if not console.is_terminal:  # logs and CI: wide enough for the table
        console = Console(width=140, stderr=args.json)
    paths = args.data or ([] if args.generate else [str(DATA_DIR)])
    try:
        cases = load_all(paths) + generated(args, console)
    except (OSError, ValueError) as exc:
        console.print(f"[red]cannot load cases: {exc}")
        return 2
    if args.generate:
        paths.append(f"generated:{args.generate}:{args.split if args.generate == 'llm' else 'today'}:{args.n}")
    if args.language:
        wanted = {lang.lower() for lang in args.language}
        cases = [c for c in cases if c.lang() in wanted]
    if args.filter:
        cases = [c for c in cases if args.filter in c.id]
    if not cases:
        console.print("[red]no cases selected")
        return 2
    results = run_all(cases, args.engine, console, progress=not args.no_progress, timeout=args.timeout)
    report = build_report(results, args.engine, paths)
    if args.json:
        summary = {"engine": report.engine, "data": report.data, "overall": report.overall,
                   "languages": report.languages, "tags": report.tags,
                   "refusal_codes": report.refusal_codes}
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(summary)).decode() + "\n")
    else:
        print_report(report, console, show_failures=args.show_failures, by_tag=args.by_tag,
                     list_cases=args.show_failures or not (args.generate == "llm" and is_heldout_split(args.split)))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(msgspec.json.format(msgspec.json.encode(report)))
    console.print(f"report: {args.out}")
    if args.plot:
        plot_report(report, args.plot)
        console.print(f"plot: {args.plot}")
    if args.plot_tags:
        plot_tags(report, args.plot_tags)
        console.print(f"plot: {args.plot_tags}")
    if report.overall.crashed:
        console.print(f"[bold red]{report.overall.crashed} case(s) crashed: that is a bug in fastapply")
        return 1
    if args.fail_under is not None and report.overall.correct_pct < args.fail_under:
        console.print(f"[red]correct {report.overall.correct_pct:.1f}% is under {args.fail_under}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
