"""Tune the hybrid drafter's policy (copy threshold, head confidence, head depth) on dev prompts.

    python -m evals.head_policy --draft-head DIR --data ../shared/data/continue-lazy --data dev.jsonl \\
        --template copy --n 16 --max-new-tokens 96 --max-prompt-tokens 450

Running the real decode loop once per policy would cost minutes per point on a CPU. Greedy decoding
writes the same tokens whatever drafts the policy makes, so this replays it instead:
1. per prompt, the target's greedy answer and its last hidden states (one target pass over prompt +
   answer; cached in --cache by `fastapply.spec.train.distill`, the same files as `train-head`);
2. per position n of the answer, the head's chain of --depth tokens with its confidences, with no copy
   prefix and after the copy drafter's first `head_after` tokens (the only two kinds of head call the
   hybrid makes; neither depends on the policy, so one head pass per prompt serves every policy);
3. per policy, the decode loop's control flow (room, copy drafter with its adaptive K, the hybrid's
   choice, acceptance against the known answer), in pure Python.
Time is then estimated from costs measured here on the real model: the target's verify pass by window
size (interpolated between 1, 2, 4, 8, 16, 32, 64), the head's cost per call and per extra drafted
token, and the copy drafter's own time per step (measured during the replay). The table ranks policies
by estimated decode time; the chosen row is the fastest, and its defaults go to HybridDrafter.
Complexity: one target pass and one head pass per prompt, then O(policies x answer tokens x depth).
The replay's features come from one full pass instead of the verify passes, so a head token can differ
at a near tie; the real benchmark (evals.speed) checks the chosen policy end to end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.cases import load_cases

MIN_COPY_MATCHES = (2, 4, 6, 8, 12, 16, 24)
CONFIDENCES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7)
DEPTHS = (2, 4, 6, 8)
HEAD_AFTER = 4  # HybridDrafter's default: a short copy draft is continued by the head after this many tokens


@dataclass
class Prompt:
    prompt: list[int]
    answer: list[int]
    # chains[n][forced] = (head tokens after `forced`, their confidences), at output length n
    chains: list[dict[tuple[int, ...], tuple[list[int], list[float]]]] = field(default_factory=list)


@dataclass
class Tally:
    steps: int = 0
    tokens: int = 0
    verify_s: float = 0.0
    head_s: float = 0.0
    copy_s: float = 0.0
    accepted: dict[str, list[int]] = field(default_factory=dict)
    trace: list[tuple[str, int]] = field(default_factory=list)  # (source, accepted) per verify step


def head_chains(head: Any, model: Any, prompt: list[int], answer: list[int], features: Any,
                depth: int) -> list[dict[tuple[int, ...], tuple[list[int], list[float]]]]:
    """The head's chains at every output length n, unforced and after the copy drafter's prefix."""
    from fastapply.spec import HeadDrafter, make_drafter

    drafter = HeadDrafter(head, model, prompt, depth=depth, min_confidence=0.0, keep_confidences=True)
    copy = make_drafter("automaton", prompt)
    start = len(prompt)
    drafter.observe(features[:start])
    drafter.accept(answer[:1])
    copy.accept(answer[:1])
    chains: list[dict[tuple[int, ...], tuple[list[int], list[float]]]] = [{}]
    for n in range(1, len(answer)):
        if n > 1:  # the feature of the token that was pending, then the token itself
            drafter.observe(features[start + n - 2:start + n - 1])
            drafter.accept(answer[n - 1:n])
            copy.accept(answer[n - 1:n])
        found = {(): (drafter.propose(depth), list(drafter.confidences))}
        forced = copy.propose(HEAD_AFTER)[:HEAD_AFTER]
        copy._last = []
        if forced:
            chain = drafter.propose(depth + len(forced), forced=forced)
            found[tuple(forced)] = (chain[len(forced):], list(drafter.confidences))
        chains.append(found)
    return chains


def replay(case: Prompt, policy: tuple[str, int, float, int], cost: Any, max_new_tokens: int,
           k_max: int, into: Tally) -> None:
    """The decode loop of spec.decode against the known answer, drafting as `policy` says:
    (mode, min_copy_match, confidence, depth), mode one of copy, head, hybrid."""
    from fastapply.spec import make_drafter

    mode, min_copy_match, confidence, depth = policy
    answer = case.answer
    copy = make_drafter("automaton", case.prompt)
    copy.accept(answer[:1])
    n = 1
    while n < len(answer):
        room = min(k_max, max_new_tokens - n - 1)
        started = time.perf_counter()
        source, head_part, forced = "none", [], []
        draft: list[int] = []
        if room > 0 and mode != "head":
            match = max((s.match_length() for s in copy.sources), default=-1)
            draft = copy.propose(room)
            if draft and (mode == "copy" or match >= min_copy_match):
                source = "copy"
            elif mode == "hybrid":
                forced = draft[:HEAD_AFTER]
                copy._last = []
                draft = []
            else:
                draft = []
        copy_s = time.perf_counter() - started
        if room > 0 and mode != "copy" and source == "none":
            chain, confidences = case.chains[n].get(tuple(forced), ([], []))
            keep = 0
            while keep < min(depth, len(chain)) and confidences[keep] >= confidence:
                keep += 1
            head_part = chain[:keep]
            draft = [*forced, *head_part][:room]
            # One call feeds the new positions and drafts a token; each further token (forced ones are
            # fed through the head too) is one more head step.
            into.head_s += cost.head_call_s + max(0, len(draft) - 1) * cost.head_token_s
            source = "head" if not forced else ("copy+head" if len(draft) > len(forced) else "copy")
        accepted = 0
        while accepted < len(draft) and n + accepted < len(answer) and draft[accepted] == answer[n + accepted]:
            accepted += 1
        new = answer[n:n + accepted + 1]
        started = time.perf_counter()
        copy.accept(new)
        into.copy_s += copy_s + time.perf_counter() - started
        into.verify_s += cost.verify(len(draft) + 1)
        into.accepted.setdefault(source if draft else "none", []).append(accepted)
        into.trace.append((source if draft else "none", accepted))
        into.steps += 1
        n += len(new)
    into.tokens += len(answer)


class Costs:
    """Target verify cost by window (measured, linearly interpolated) and the head's costs."""

    def __init__(self, windows: dict[int, float], head_call_s: float, head_token_s: float) -> None:
        self.windows = dict(sorted(windows.items()))
        self.head_call_s = head_call_s
        self.head_token_s = head_token_s

    def verify(self, window: int) -> float:
        points = list(self.windows.items())
        for (w0, c0), (w1, c1) in zip(points, points[1:]):
            if window <= w1:
                return c0 + (c1 - c0) * (max(window, w0) - w0) / (w1 - w0)
        return points[-1][1]


def measure_head(head: Any, model: Any, prompt: list[int], features: Any, depth: int) -> tuple[float, float]:
    """(seconds of a head call that feeds one new position and drafts one token, seconds per extra token)."""
    from fastapply.spec import HeadDrafter

    def timed(tokens: int) -> float:
        times = []
        for _ in range(9):
            drafter = HeadDrafter(head, model, prompt[:-1], depth=tokens, min_confidence=0.0)
            drafter.observe(features[:len(prompt) - 1])
            drafter.accept(prompt[-1:])
            drafter.propose(tokens)
            drafter.observe(features[len(prompt) - 1:len(prompt)])
            drafter.accept([prompt[0]])
            started = time.perf_counter()
            drafter.propose(tokens)
            times.append(time.perf_counter() - started)
        return min(times)  # the least disturbed by other jobs on a shared CPU

    one, many = timed(1), timed(depth)
    return one, max(0.0, (many - one) / (depth - 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.head_policy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", action="append", required=True, help="dev cases (JSONL or folder); repeatable")
    parser.add_argument("--draft-head", required=True, help="EAGLE head folder (fastapply train-head)")
    parser.add_argument("--model", help="HF model folder (default: SmolLM2-135M-Instruct)")
    parser.add_argument("--template", default="copy", help="prompt template (default copy)")
    parser.add_argument("--n", type=int, default=16, help="dev prompts (default 16)")
    parser.add_argument("--max-new-tokens", type=int, default=96)
    parser.add_argument("--max-prompt-tokens", type=int, default=450)
    parser.add_argument("--k-max", type=int, default=64, help="decode loop's window cap (default 64)")
    parser.add_argument("--cache", default="evals/out/head_policy/cache", help="answers + features cache")
    parser.add_argument("--out", default="evals/out/head_policy", help="folder for policy.json")
    parser.add_argument("--top", type=int, default=25, help="rows of the ranked table to print")
    args = parser.parse_args(argv)

    import torch
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from evals.speed import load_model, pick
    from fastapply.spec import load_head
    from fastapply.spec.train import distill, load_example

    torch.set_num_threads(1)
    model, tokenizer = load_model(args.model)
    head = load_head(args.draft_head, model)
    cases = [case for path in args.data for case in load_cases(path)]
    chosen = pick(cases, tokenizer, args.n, args.max_prompt_tokens, args.template)
    if not chosen:
        print("evals.head_policy: no case fits --max-prompt-tokens", file=sys.stderr)
        return 2
    depth = max(DEPTHS)
    prompts: list[Prompt] = []
    with Progress() as progress:
        task = progress.add_task("answers + head chains", total=len(chosen))
        for _, ids in chosen:
            path, = distill(model, [ids], Path(args.cache), eos_token_ids={tokenizer.eos_token_id},
                            max_new_tokens=args.max_new_tokens)
            tokens, features, start = load_example(path)
            case = Prompt(ids, tokens[start:].tolist())
            with torch.inference_mode():
                case.chains = head_chains(head, model, ids, case.answer, features, depth)
            prompts.append(case)
            progress.advance(task)
    from evals.speed_breakdown import window_costs

    longest = sorted((p.prompt for p in prompts), key=len)[len(prompts) // 2]  # the median prompt
    windows = window_costs(model, longest, (1, 2, 4, 8, 16, 32, 64))
    with torch.inference_mode():
        features = model.get_decoder()(input_ids=torch.tensor([longest])).last_hidden_state[0]
        call_s, token_s = measure_head(head, model, longest, features, depth)
    cost = Costs(windows, call_s, token_s)

    policies = [("copy", 0, 0.0, 0)]
    policies += [("head", 0, c, d) for c in CONFIDENCES for d in DEPTHS]
    policies += [("hybrid", m, c, d) for m in MIN_COPY_MATCHES for c in CONFIDENCES for d in DEPTHS]
    rows = []
    for policy in policies:
        tally = Tally()
        for case in prompts:
            replay(case, policy, cost, args.max_new_tokens, args.k_max, tally)
        head_s = tally.head_s
        decode_s = tally.verify_s + head_s + tally.copy_s
        head_steps = tally.accepted.get("head", [])
        rows.append({"mode": policy[0], "min_copy_match": policy[1], "confidence": policy[2], "depth": policy[3],
                     "decode_s": decode_s, "tokens_per_s": tally.tokens / decode_s, "steps": tally.steps,
                     "passes_per_token": tally.steps / tally.tokens, "verify_s": tally.verify_s, "head_s": head_s,
                     "copy_s": tally.copy_s,
                     "head_mean_accepted": sum(head_steps) / len(head_steps) if head_steps else None,
                     "by_source": {s: {"steps": len(v), "mean_accepted": sum(v) / len(v)}
                                   for s, v in tally.accepted.items() if v}})
    rows.sort(key=lambda r: r["decode_s"])
    copy_row = next(r for r in rows if r["mode"] == "copy")
    table = Table(title=f"{len(prompts)} dev prompts, {sum(len(p.answer) for p in prompts)} answer tokens; "
                        f"estimated decode time (verify by window + head + copy drafter), best first")
    for column in ("mode", "min copy match", "confidence", "depth", "est. decode tok/s", "x copy only",
                   "passes/token", "head steps: mean accepted", "verify s", "head s", "copy s"):
        table.add_column(column, justify="left" if column == "mode" else "right")
    shown = rows[:args.top] + [r for r in rows[args.top:] if r["mode"] == "copy" or
                               (r["mode"] == "hybrid" and r["min_copy_match"] == 8 and r["confidence"] == 0.0
                                and r["depth"] == 6)]
    for row in shown:
        mean = row["head_mean_accepted"]
        table.add_row(row["mode"], str(row["min_copy_match"]) if row["mode"] == "hybrid" else "-",
                      f"{row['confidence']:.1f}" if row["mode"] != "copy" else "-",
                      str(row["depth"]) if row["mode"] != "copy" else "-", f"{row['tokens_per_s']:.1f}",
                      f"{copy_row['decode_s'] / row['decode_s']:.2f}", f"{row['passes_per_token']:.3f}",
                      f"{mean:.2f}" if mean is not None else "-", f"{row['verify_s']:.1f}", f"{row['head_s']:.1f}",
                      f"{row['copy_s']:.2f}")
    console = Console(width=160)
    console.print(table)
    console.print(f"measured costs: verify s by window {({k: round(v, 4) for k, v in windows.items()})}, "
                  f"head call {call_s * 1000:.2f} ms, extra head token {token_s * 1000:.2f} ms")
    best = next(r for r in rows if r["mode"] == "hybrid")
    console.print(f"best hybrid: min_copy_match {best['min_copy_match']}, confidence {best['confidence']}, "
                  f"depth {best['depth']} ({copy_row['decode_s'] / best['decode_s']:.2f}x copy drafts alone)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = {"command": " ".join(["python -m evals.head_policy", *(argv or sys.argv[1:])]),
              "costs": {"verify_s_by_window": windows, "head_call_s": call_s, "head_token_s": token_s},
              "prompts": len(prompts), "rows": rows}
    (out / "policy.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"wrote {out / 'policy.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
