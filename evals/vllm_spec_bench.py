"""GPU benchmark: vLLM with our proposer against its own `ngram` and `suffix` methods, same prompts.

    python -m evals.vllm_spec_bench --model /models/FastApply-1.5B --n 40 --out evals/out/vllm_spec
    python -m evals.vllm_spec_bench --model DIR --dry-run     # CPU: perfect-model replay of the drafters

Needs a CUDA GPU, `pip install vllm` (a build with vllm/v1/spec_decode/custom_class_proposer.py, for
`custom_proposer_backend`; `suffix` also needs arctic-inference) and a local model folder (no hub).
Each method runs in its own process (a fresh engine, GPU memory released between them), greedy, on the
same merge prompts (the eval corpus rendered with --template), all requests submitted at once (vLLM
batches them) and then one at a time (--sequential, latency). Methods:
  none              no speculation (the reference output)
  ngram             vLLM prompt lookup: {"method": "ngram", prompt_lookup_min 2, prompt_lookup_max 5}
  suffix            vLLM suffix decoding: {"method": "suffix"}
  fastapply         our proposer: prompt suffix automaton + structural candidate
  fastapply_prompt  our proposer without the candidate (FASTAPPLY_VLLM_CANDIDATE=0)
Reported per method: output tokens/s, mean accepted tokens per draft (from vLLM's spec-decode counters)
and whether every output equals the `none` output token for token (greedy speculation must not change
it). Prints ratios against ngram and writes results.json (+ a PNG with --plot).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from evals import procs

METHODS = ("none", "ngram", "suffix", "fastapply", "fastapply_prompt")
PROPOSER = "fastapply.integrations.vllm.FastApplyProposer"


def speculative_config(method: str, k: int) -> dict[str, Any] | None:
    if method == "none":
        return None
    if method == "ngram":
        return {"method": "ngram", "num_speculative_tokens": k, "prompt_lookup_min": 2, "prompt_lookup_max": 5}
    if method == "suffix":
        return {"method": "suffix", "num_speculative_tokens": k}
    return {"num_speculative_tokens": k, "custom_proposer_backend": PROPOSER}


def build_prompts(model: str, template: str, n: int, max_prompt_tokens: int) -> list[list[int]]:
    from transformers import AutoTokenizer

    from evals.speed import default_cases, pick

    tokenizer = AutoTokenizer.from_pretrained(model)
    return [ids for _, ids in pick(default_cases(), tokenizer, n, max_prompt_tokens, template)]


def spec_counters(llm: Any) -> dict[str, float]:
    """vLLM's spec-decode counters (drafts, draft tokens, accepted tokens), summed."""
    totals: dict[str, float] = {}
    try:
        metrics = llm.get_metrics()
    except Exception:  # older vLLM: no metrics API; the throughput numbers still stand
        return totals
    for metric in metrics:
        name = getattr(metric, "name", "")
        if name.startswith("vllm:spec_decode_num_"):
            value = getattr(metric, "value", None)
            if value is None:
                value = sum(getattr(metric, "values", []) or [0])
            totals[name.removeprefix("vllm:spec_decode_")] = totals.get(name, 0.0) + float(value)
    return totals


def run_one(args: argparse.Namespace, method: str) -> dict[str, Any]:
    """In this process: one engine, one method, all prompts. Returns the measurements."""
    from vllm import LLM, SamplingParams
    from vllm.inputs import TokensPrompt

    if method == "fastapply_prompt":
        os.environ["FASTAPPLY_VLLM_CANDIDATE"] = "0"
    prompts = build_prompts(args.model, args.template, args.n, args.max_prompt_tokens)
    llm = LLM(model=args.model, speculative_config=speculative_config(method, args.k), enforce_eager=args.eager,
              gpu_memory_utilization=args.gpu_memory_utilization, max_model_len=args.max_model_len,
              disable_log_stats=False, seed=0)
    params = [SamplingParams(temperature=0.0, max_tokens=min(len(p) + 64, args.max_model_len - len(p) - 1))
              for p in prompts]
    inputs = [TokensPrompt(prompt_token_ids=p) for p in prompts]
    llm.generate(inputs[:1], params[:1], use_tqdm=False)  # warm-up (compilation, graphs)
    started = time.perf_counter()
    outputs = llm.generate(inputs, params, use_tqdm=False)
    batch_s = time.perf_counter() - started
    tokens = [list(o.outputs[0].token_ids) for o in outputs]
    sequential_s = 0.0
    if args.sequential:
        started = time.perf_counter()
        for single, param in zip(inputs, params):
            llm.generate([single], [param], use_tqdm=False)
        sequential_s = time.perf_counter() - started
    generated = sum(len(t) for t in tokens)
    counters = spec_counters(llm)
    drafts = counters.get("num_drafts", 0.0)
    accepted = counters.get("num_accepted_tokens", 0.0)
    return {"method": method, "prompts": len(prompts), "generated": generated, "batch_s": batch_s,
            "batch_tokens_per_s": generated / batch_s, "sequential_s": sequential_s,
            "sequential_tokens_per_s": generated / sequential_s if sequential_s else None,
            "mean_accepted_per_draft": accepted / drafts if drafts else None,
            "acceptance_rate": accepted / counters["num_draft_tokens"] if counters.get("num_draft_tokens") else None,
            "counters": counters, "tokens": tokens}


def ngram_draft(context: list[int], k: int, low: int = 2, high: int = 5) -> list[int]:
    """vLLM's `ngram` method in plain Python: the k tokens after the latest earlier occurrence of the
    longest suffix n-gram (high down to low). O(context) per step, as there."""
    for n in range(high, low - 1, -1):
        if len(context) <= n:
            continue
        tail = context[-n:]
        for start in range(len(context) - n - 1, -1, -1):
            if context[start:start + n] == tail:
                return context[start + n:start + n + k]
    return []


def replay(args: argparse.Namespace) -> int:
    """CPU stand-in for the GPU run: a perfect model (each case's expected answer) verified greedily,
    drafts from our proposer (with and without the candidate) and from an ngram proposer. Reports
    tokens accepted per verify step; the real tokens/s need the GPU run."""
    import numpy as np
    from transformers import AutoTokenizer

    from evals.speed import default_cases, pick
    from fastapply.integrations.vllm import CopyProposals, structural_candidate
    from fastapply.runtime.templates import get_template

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    template = get_template(args.template)
    chosen = pick(default_cases(), tokenizer, args.n, args.max_prompt_tokens, args.template)
    totals = {"fastapply": [0, 0], "fastapply_prompt": [0, 0], "ngram": [0, 0]}
    for case, prompt in chosen:
        answer = list(tokenizer(template.predicted_answer(case.expected), add_special_tokens=False)["input_ids"])
        for method in totals:
            candidate = structural_candidate(tokenizer) if method == "fastapply" else None
            proposals = CopyProposals(args.k, 1 << 30, candidate=candidate)
            context, produced, steps, sampled = list(prompt) + answer[:1], 1, 1, answer[:1]
            while produced < len(answer):
                if method == "ngram":
                    draft = ngram_draft(context, args.k)
                else:
                    draft = proposals.propose([sampled], np.array([len(context)]), np.array([context]))[0]
                accepted = 0
                while (accepted < len(draft) and produced + accepted < len(answer)
                       and draft[accepted] == answer[produced + accepted]):
                    accepted += 1
                sampled = answer[produced:produced + accepted + 1]
                context += sampled
                produced += len(sampled)
                steps += 1
            totals[method][0] += len(answer)
            totals[method][1] += steps
    print(f"{len(chosen)} prompts ({args.template} template), perfect-model replay, k={args.k}:")
    for method, (tokens, steps) in totals.items():
        print(f"  {method:17} {tokens} tokens in {steps} verify steps: {tokens / steps:.2f} tokens/step")
    return 0 if chosen else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.vllm_spec_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True, help="local model folder (the GPU machine has no hub access)")
    parser.add_argument("--template", default="copy", help="prompt template (copy, fastapply, morph)")
    parser.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated, from {', '.join(METHODS)}")
    parser.add_argument("--n", type=int, default=40, help="merge prompts")
    parser.add_argument("--k", type=int, default=32, help="num_speculative_tokens")
    parser.add_argument("--max-prompt-tokens", type=int, default=3000)
    parser.add_argument("--max-model-len", type=int, default=8192)
    parser.add_argument("--gpu-memory-utilization", type=float, default=0.6)
    parser.add_argument("--eager", action="store_true", help="no CUDA graphs (faster start, slower steps)")
    parser.add_argument("--sequential", action="store_true", help="also time the prompts one at a time")
    parser.add_argument("--timeout-s", type=float, default=900, help="per method")
    parser.add_argument("--out", type=Path, default=Path("evals/out/vllm_spec"))
    parser.add_argument("--plot", action="store_true", help="write tokens_per_s.png next to results.json")
    parser.add_argument("--dry-run", action="store_true",
                        help="no GPU: replay each case's expected answer against our drafts and ngram's")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: run one method in this process
    args = parser.parse_args(argv)

    if args.one:
        result = run_one(args, args.one)
        print("RESULT " + json.dumps(result))
        return 0
    if args.dry_run:
        return replay(args)

    methods = [m for m in args.methods.split(",") if m]
    results: dict[str, dict[str, Any]] = {}
    for method in methods:
        command = [sys.executable, "-m", "evals.vllm_spec_bench", *(sys.argv[1:] if argv is None else argv),
                   "--one", method]
        started = time.monotonic()
        # Its own process group: vLLM's engine processes go with it on a timeout.
        child = procs.start(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = (part.decode("utf-8", "replace") for part in child.communicate(timeout=args.timeout_s))
        except subprocess.TimeoutExpired:
            print(f"{method}: timed out after {args.timeout_s:g} s")
            continue
        finally:
            procs.stop(child, grace_s=10)
        lines = [line for line in out.splitlines() if line.startswith("RESULT ")]
        if child.returncode or not lines:
            print(f"{method}: failed (exit {child.returncode}); last output:\n{err[-2000:]}")
            continue
        results[method] = json.loads(lines[-1][len("RESULT "):])
        print(f"{method}: done in {time.monotonic() - started:.0f} s")

    reference = results.get("none", {}).get("tokens")
    base = results.get("ngram", {}).get("batch_tokens_per_s")
    print(f"\n{'method':18} {'tok/s batch':>12} {'tok/s seq':>10} {'acc/draft':>10} {'accept%':>8} "
          f"{'vs ngram':>9} {'same as none':>13}")
    for method, r in results.items():
        same = "-" if reference is None else str(r["tokens"] == reference)
        ratio = f"{r['batch_tokens_per_s'] / base:.2f}x" if base else "-"
        seq = f"{r['sequential_tokens_per_s']:.0f}" if r["sequential_tokens_per_s"] else "-"
        acc = f"{r['mean_accepted_per_draft']:.2f}" if r["mean_accepted_per_draft"] is not None else "-"
        rate = f"{100 * r['acceptance_rate']:.0f}" if r["acceptance_rate"] is not None else "-"
        print(f"{method:18} {r['batch_tokens_per_s']:12.0f} {seq:>10} {acc:>10} {rate:>8} {ratio:>9} {same:>13}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(
        {m: {k: v for k, v in r.items() if k != "tokens"} for m, r in results.items()}, indent=2))
    if args.plot and results:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 3.5))
        ax.bar(list(results), [r["batch_tokens_per_s"] for r in results.values()])
        ax.set_ylabel("output tokens/s (batch)")
        ax.set_title(f"vLLM speculation on merge prompts ({Path(args.model).name})")
        fig.tight_layout()
        fig.savefig(args.out / "tokens_per_s.png", dpi=120)
    mismatched = reference is not None and any(r["tokens"] != reference for r in results.values())
    return 1 if mismatched or len(results) < len(methods) else 0


if __name__ == "__main__":
    raise SystemExit(main())
