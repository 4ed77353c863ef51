"""Offline acceptance replay: how many target forward passes each drafter would need, with no model run.

For each case the prompt and the expected answer are tokenized; a simulated target emits exactly the
expected answer, and every drafter proposes against it the way the decode loop would (same room, same
K policy, same accept calls). Reported per drafter and K: forward passes per output token (the prefill
counted, so no speculation gives 1.0), mean accepted draft tokens per verify step, and tokens fed to the
target per output token (what long windows cost on a compute-bound CPU).

    python -m evals.replay --data evals/data
    python -m evals.replay --data cases.jsonl --tokenizer path/to/tokenizer --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import msgspec

from evals.cases import DATA_DIR, Case, load_cases
from evals.prompting import answer_ids, expected_ids, load_tokenizer, prompt_ids
from fastapply.spec import Drafter, make_drafter

FIXED_KS = (1, 4, 16, 64)
DRAFTERS = ("none", "automaton", "predicted", "auto")


class Replay(msgspec.Struct):
    forward_passes: int = 0
    output_tokens: int = 0
    fed_tokens: int = 0  # tokens through the target in verify steps: sum of (draft + 1)
    accepted: list[int] = msgspec.field(default_factory=list)


def simulate(drafter: Drafter | None, target: list[int], k_max: int, into: Replay) -> None:
    """Mirror of spec.decode.iter_decode's control flow against a target that writes `target`."""
    if not target:
        return
    into.forward_passes += 1  # the prefill yields the first token
    into.output_tokens += len(target)
    if drafter is not None:
        drafter.accept(target[:1])
    n = 1
    while n < len(target):
        room = min(k_max, len(target) - n - 1)
        draft = drafter.propose(room)[:room] if drafter is not None and room > 0 else []
        accepted = 0
        while accepted < len(draft) and draft[accepted] == target[n + accepted]:
            accepted += 1
        new = target[n:n + accepted + 1]
        if drafter is not None:
            drafter.accept(new)
        n += len(new)
        into.forward_passes += 1
        into.fed_tokens += len(draft) + 1
        into.accepted.append(accepted)


def settings() -> list[tuple[str, int, bool]]:
    """(label, k_max, adaptive) for every K setting replayed."""
    return [*((f"K={k}", k, False) for k in FIXED_KS), ("adaptive<=64", 64, True)]


def predicted_for(case: Case, source: str) -> str | None:
    if source == "expected":
        return case.expected
    from fastapply.errors import FastApplyError
    from fastapply.merge import merge_snippet

    try:
        return merge_snippet(case.original, case.update, case.lang()).text
    except FastApplyError:
        return None


def run(cases: list[Case], tokenizer, *, prediction: str, min_match: int, template: str) -> dict:
    totals: dict[tuple[str, str], Replay] = {}
    for case in cases:
        prompt = prompt_ids(tokenizer, case, template)
        target = expected_ids(tokenizer, case, template)
        merged = predicted_for(case, prediction)
        predicted = answer_ids(tokenizer, merged, template) if merged is not None else None
        for kind in DRAFTERS:
            for label, k_max, adaptive in settings():
                if kind == "none" and label != "K=1":
                    continue
                if kind == "predicted" and predicted is None:
                    drafter = make_drafter("automaton", [], min_match=min_match)  # drafts nothing
                else:
                    drafter = make_drafter(kind, prompt, predicted_ids=predicted, min_match=min_match,
                                           adaptive=adaptive)
                simulate(drafter, target, k_max, totals.setdefault((kind, label), Replay()))
    rows = {}
    for (kind, label), r in totals.items():
        steps = len(r.accepted)
        rows[f"{kind} {label}" if kind != "none" else "none"] = {
            "drafter": kind, "k": label if kind != "none" else "-",
            "passes_per_token": r.forward_passes / max(r.output_tokens, 1),
            "mean_accepted": sum(r.accepted) / steps if steps else 0.0,
            "fed_per_token": r.fed_tokens / max(r.output_tokens, 1),
            "forward_passes": r.forward_passes, "output_tokens": r.output_tokens,
        }
    return {"cases": len(cases), "prediction": prediction, "min_match": min_match, "rows": rows}


def print_table(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Acceptance replay: {report['cases']} cases, prediction = {report['prediction']}, "
                        f"min match {report['min_match']}")
    for column in ("drafter", "K", "passes/token", "mean accepted", "fed tokens/token"):
        table.add_column(column, justify="right" if column != "drafter" else "left")
    for row in report["rows"].values():
        table.add_row(row["drafter"], row["k"], f"{row['passes_per_token']:.3f}",
                      f"{row['mean_accepted']:.2f}", f"{row['fed_per_token']:.2f}")
    Console(width=120).print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.replay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(DATA_DIR), help="JSONL file, corpus folder or fixture folder")
    parser.add_argument("--tokenizer", help="tokenizer folder (default: SmolLM2-135M's)")
    parser.add_argument("--template", default="morph", help="prompt template name (runtime registry)")
    parser.add_argument("--prediction", choices=("expected", "engine"), default="expected",
                        help="predicted output: the expected merge, or the structural engine's merge")
    parser.add_argument("--min-match", type=int, default=2, help="minimum suffix match before drafting")
    parser.add_argument("--limit", type=int, help="replay only the first N cases")
    parser.add_argument("--json", help="also write the report as JSON to this file")
    args = parser.parse_args(argv)
    try:
        cases = load_cases(args.data)
    except (FileNotFoundError, ValueError) as exc:
        print(f"evals.replay: {exc}", file=sys.stderr)
        return 2
    if args.limit:
        cases = cases[:args.limit]
    if not cases:
        print(f"evals.replay: no cases in {args.data}", file=sys.stderr)
        return 2
    report = run(cases, load_tokenizer(args.tokenizer), prediction=args.prediction, min_match=args.min_match,
                 template=args.template)
    print_table(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
