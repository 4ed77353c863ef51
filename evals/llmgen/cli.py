"""`python -m evals.generate --style llm`: collect the split's sources, generate, write JSONL."""

from __future__ import annotations

import argparse
from collections import Counter

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..cases import Case, write_jsonl
from ..fetch import missing
from .build import generate_llm
from .evolution import evolution_cases
from .sources import cached_sources, folder_sources, local_sources
from .splits import SPLITS, check_seed, seeds_for


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `python -m evals.generate` that choose the style, split and seeds."""
    parser.add_argument("--style", choices=["today", "llm", "real"], default="today",
                        help="today: the original edit kinds (default); llm: frontier-model habits; "
                             "real: only real edits, from every release pair of the split (up to --n)")
    parser.add_argument("--split", choices=list(SPLITS), default="dev",
                        help="--style llm only: which seeds and sources (default dev)")
    parser.add_argument("--seeds", metavar="A-B|A,B,..",
                        help="--style llm only: seeds to use (default: dev 0-9, heldout 7001-7010, heldout2 7011-7020)")
    parser.add_argument("--no-cache", action="store_true",
                        help="--style llm only: ignore downloaded packages (stdlib and site-packages only)")


def parse_seeds(text: str | None, split: str) -> list[int]:
    if not text:
        return seeds_for(split)
    seeds: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        seeds += list(range(int(low), int(high) + 1)) if high else [int(low)]
    return seeds


def llm_cases(n: int, split: str, seeds: list[int] | None = None, use_cache: bool = True,
              paths: list | None = None, per_file: int = 2, progress: bool = False) -> list[Case]:
    """The cases of `split` (the function evals.accuracy --generate calls too)."""
    if paths:
        sources = folder_sources(paths, None)
    else:
        sources = local_sources(split) + (cached_sources(split) if use_cache else [])
        if use_cache and (absent := missing(split)):
            # Without them the split has fewer languages; say so rather than report a smaller set.
            Console(stderr=True).print(
                f"[yellow]{len(absent)} package(s) of the {split} split are not downloaded "
                f"(e.g. {absent[0]}): run `python -m evals.fetch --split {split}` first")
    columns = (TextColumn("[bold]generate"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, disable=not progress, transient=True) as bar:
        task = bar.add_task("", total=n)
        return generate_llm(n, split, sources, seeds, per_file,
                            progress=lambda k: bar.advance(task, k), evolution=use_cache and not paths)


def real_cases(n: int, split: str, seeds: list[int]) -> list[Case]:
    """Up to `n` real edits of `split`, seed after seed, from every release pair in the cache (an
    llm run takes a tenth of each seed's cases from them, in pair name order: mostly the first
    pairs). Cost: one difflib pass per changed file and seed."""
    cases: list[Case] = []
    for seed in seeds:
        check_seed(split, seed)
        cases += evolution_cases(split, seed, n - len(cases))
        if len(cases) >= n:
            break
    return cases


def run_llm(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    try:
        seeds = parse_seeds(args.seeds, args.split)
        if args.style == "real":
            cases = real_cases(args.n, args.split, seeds)
        else:
            cases = llm_cases(args.n, args.split, seeds, not args.no_cache, args.source, args.per_file,
                              progress=console.is_terminal)
    except ValueError as exc:
        console.print(f"[red]generate: {exc}")
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl(cases, args.out)
    langs = Counter(c.language or "?" for c in cases)
    counts = ", ".join(f"{lang}: {k}" for lang, k in sorted(langs.items()))
    print(f"wrote {len(cases)} {args.split} cases to {args.out} ({counts})")
    return 0
