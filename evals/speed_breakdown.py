"""Where the decode time goes, for evals.speed: prefill, the target's verify cost by window size, the
head's cost per drafted token (with its draft vocabulary and with the target's whole one), the copy
drafter's cost per step, each method's time split into those parts, and what a GPU would change.

Measured with the same model and prompts as the speed run; a table on the console and breakdown.png.
"""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path
from typing import Any

HEAD_METHODS = ("ours_head", "ours_copy_head")


def by_source(runs: list[dict]) -> dict[str, dict]:
    """Verify steps and mean accepted draft tokens per draft source, over all runs of one method."""
    acc: dict[str, list[int]] = defaultdict(list)
    for run in runs:
        for source, accepted in zip(run.get("sources") or [], run["accepted"] or []):
            acc[source].append(accepted)
    return {s: {"steps": len(v), "mean_accepted": sum(v) / len(v)} for s, v in acc.items() if v}


def window_costs(model: Any, prompt: list[int], windows: tuple[int, ...] = (1, 4, 16, 64),
                 repeats: int = 9) -> dict[int, float]:
    """Seconds of one target verify pass feeding `window` tokens after `prompt`. One prefill, then the
    windows in turn, `repeats` rounds, the cache cropped back after each pass; the minimum per window,
    the least disturbed by the other jobs of a shared CPU (a median still carries their load)."""
    import torch

    from fastapply.spec.decode import forward_logits, make_cache

    times: dict[int, list[float]] = {window: [] for window in windows}
    cache = make_cache(model)
    with torch.inference_mode():
        forward_logits(model, prompt, cache, keep=1)
        for _ in range(repeats):
            for window in windows:
                tokens = prompt[-window:] if window <= len(prompt) else (prompt * window)[:window]
                started = time.perf_counter()
                forward_logits(model, tokens, cache, keep=window)
                times[window].append(time.perf_counter() - started)
                cache.crop(-window)
    return {window: min(values) for window, values in times.items()}


class WholeVocab:
    """The same head drafting over the target's whole vocabulary (its own LM head ignored): the cost of a
    drafted token before EAGLE-3's reduced vocabulary, with everything else equal."""

    def __init__(self, head: Any) -> None:
        self.head = head
        self.parameters = head.parameters

    def __call__(self, *args: Any) -> Any:
        return self.head(*args)

    def logits(self, features: Any, target_lm_head: Any) -> Any:
        return target_lm_head(features)

    def to_target(self, index: int) -> int:
        return index


def head_costs(model: Any, head: Any, prompt: list[int]) -> dict[str, float]:
    """ms per head call (feed one position, draft one token) and per extra drafted token, for the loaded
    head and, when it has a draft vocabulary, for the same head over the target's whole vocabulary."""
    import torch

    from evals.head_policy import measure_head

    with torch.inference_mode():
        features = model.get_decoder()(input_ids=torch.tensor([prompt])).last_hidden_state[0]
        out = {}
        variants = {"loaded": head, **({"full_vocab": WholeVocab(head)} if head.lm_head is not None else {})}
        for name, variant in variants.items():
            call_s, token_s = measure_head(variant, model, prompt, features, 8)
            out[f"{name}_call_ms"], out[f"{name}_token_ms"] = call_s * 1000, token_s * 1000
    out["draft_vocab"] = head.draft_vocab_size or model.config.vocab_size
    return out


def breakdown(results: dict[str, list[dict]]) -> dict[str, dict[str, float]]:
    """Per method, seconds per generated token split into prefill, target verify passes, head and copy
    drafter (ours: measured inside the decode loop; HF: prefill = TTFT, the rest is its decode loop)."""
    rows = {}
    for method, runs in results.items():
        tokens = sum(len(r["tokens"]) for r in runs)
        total = sum(r["seconds"] for r in runs)
        if method.startswith("hf_"):
            prefill = sum(r["ttft_s"] or 0.0 for r in runs)
            head = copy = 0.0
        else:
            prefill = sum(r["prefill_s"] for r in runs)
            head = sum(r["head_s"] for r in runs)
            copy = sum(r["copy_s"] for r in runs)
        verify = total - prefill - head - copy  # target passes and the loop around them
        rows[method] = {"ms_per_token": 1000 * total / tokens,
                        **{f"{k}_ms_per_token": 1000 * v / tokens for k, v in
                           (("prefill", prefill), ("verify", verify), ("head", head), ("copy", copy))}}
    return rows


def gpu_projection(results: dict[str, list[dict]], layers: int) -> dict[str, float]:
    """x HF greedy per method if a target pass cost the same whatever its window (true on a GPU for a
    small model at batch 1: the pass is bound by weight reads and kernel launches, not by the window's
    FLOPs) and a drafted head token cost 1/layers of a pass (one decoder layer of the target's kind; the
    N-row LM head is small next to it). Measured: passes and head tokens of this run; assumed: those two.
    Prefill is one pass too."""
    out = {}
    for method, runs in results.items():
        tokens = sum(len(r["tokens"]) for r in runs)
        passes = sum(r["forward_passes"] for r in runs)
        head_tokens = sum(r.get("head_tokens", 0) for r in runs)
        out[method] = tokens / (passes + head_tokens / layers)
    base = out.get("hf_greedy") or 1.0
    return {method: value / base for method, value in out.items()}


def where_time_goes(model: Any, head: Any, results: dict[str, list[dict]], chosen: list, out_dir: Path) -> dict:
    """Prefill, head cost per drafted token, verify cost by window, copy drafter cost, accepted length
    per source; a table, a plot (breakdown.png) and the GPU projection."""
    import statistics

    from rich.console import Console
    from rich.table import Table

    prompts = sorted((p for _, p in chosen), key=len)
    prompt = prompts[len(prompts) // 2]  # the median prompt: a typical context for the costs
    costs = window_costs(model, prompt, (1, 4, 16, 64))
    report: dict[str, Any] = {"context_tokens": len(prompt),
                              "verify_ms_by_window": {str(k): round(1000 * v, 2) for k, v in costs.items()},
                              "methods": breakdown(results),
                              "gpu_projection_x_hf_greedy": gpu_projection(results, model.config.num_hidden_layers)}
    if head is not None:
        report["head"] = head_costs(model, head, prompt)
    copy_steps = sum(len(r["accepted"] or []) for m in ("ours_automaton", "ours_copy_head") for r in results.get(m, []))
    copy_s = sum(r["copy_s"] for m in ("ours_automaton", "ours_copy_head") for r in results.get(m, []))
    report["copy_ms_per_step"] = 1000 * copy_s / copy_steps if copy_steps else None
    for method in HEAD_METHODS:
        runs = results.get(method)
        if runs:
            tokens = sum(r["head_tokens"] for r in runs)
            report[method] = {"head_ms_per_drafted_token_in_run": 1000 * sum(r["head_s"] for r in runs) / tokens
                              if tokens else None, "by_source": by_source(runs)}
    report["median_prompt_tokens"] = statistics.median(len(p) for p in prompts)
    report["mean_prefill_s"] = statistics.mean(r["prefill_s"] for m, rs in results.items() if m.startswith("ours")
                                               for r in rs) if any(m.startswith("ours") for m in results) else None

    console = Console(width=140)
    one = costs[1]
    table = Table(title=f"where the time goes (verify cost at a {len(prompt)}-token context)")
    for column in ("stage", "cost", "relative to a 1-token target pass"):
        table.add_column(column, justify="left" if column == "stage" else "right")
    if report["mean_prefill_s"] is not None:
        table.add_row("prefill (mean per prompt)", f"{report['mean_prefill_s'] * 1000:.0f} ms",
                      f"{report['mean_prefill_s'] / one:.1f}x")
    for window, cost in costs.items():
        table.add_row(f"target verify pass, window {window}", f"{cost * 1000:.1f} ms", f"{cost / one:.2f}x")
    measured = report.get("head")
    if measured:
        for name, label in (("full_vocab", f"head, whole vocabulary ({model.config.vocab_size})"),
                            ("loaded", f"head, draft vocabulary ({measured['draft_vocab']})")):
            if f"{name}_call_ms" in measured:
                table.add_row(f"{label}: call / extra token", f"{measured[name + '_call_ms']:.2f} / "
                              f"{measured[name + '_token_ms']:.2f} ms",
                              f"{measured[name + '_token_ms'] / 1000 / one:.3f}x")
    if report["copy_ms_per_step"] is not None:
        table.add_row("copy drafter (suffix automaton), per step", f"{report['copy_ms_per_step']:.3f} ms",
                      f"{report['copy_ms_per_step'] / 1000 / one:.4f}x")
    console.print(table)
    split = Table(title="per method: ms per generated token, and x HF greedy projected for a GPU")
    for column in ("method", "total", "prefill", "verify passes", "head", "copy drafter", "GPU proj. x greedy"):
        split.add_column(column, justify="left" if column == "method" else "right")
    for method, row in report["methods"].items():
        split.add_row(method, *(f"{row[k]:.2f}" for k in ("ms_per_token", "prefill_ms_per_token",
                                                           "verify_ms_per_token", "head_ms_per_token",
                                                           "copy_ms_per_token")),
                      f"{report['gpu_projection_x_hf_greedy'][method]:.2f}")
    console.print(split)
    plot_breakdown(report, costs, out_dir / "breakdown.png")
    return report


def plot_breakdown(report: dict, costs: dict[int, float], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    labels = [f"verify w={w}" for w in costs] + [label for label, key in
                                                 (("head token (full V)", "full_vocab_token_ms"),
                                                  ("head token (draft V)", "loaded_token_ms"))
                                                 if key in (report.get("head") or {})]
    values = [1000 * c for c in costs.values()] + [report["head"][key] for key in
                                                     ("full_vocab_token_ms", "loaded_token_ms")
                                                     if key in (report.get("head") or {})]
    if report.get("copy_ms_per_step") is not None:
        labels.append("copy drafter step")
        values.append(report["copy_ms_per_step"])
    left.bar(labels, values, color="#4c72b0")
    left.set_ylabel("ms")
    left.set_title(f"unit costs ({report['context_tokens']}-token context, CPU)")
    left.tick_params(axis="x", rotation=30)
    for x, y in enumerate(values):
        left.text(x, y, f"{y:.1f}", ha="center", va="bottom")
    methods = list(report["methods"])
    bottom = [0.0] * len(methods)
    for key, color in (("prefill", "#999999"), ("verify", "#55a868"), ("head", "#8172b2"), ("copy", "#ccb974")):
        heights = [report["methods"][m][f"{key}_ms_per_token"] for m in methods]
        right.bar(methods, heights, bottom=bottom, label=key, color=color)
        bottom = [b + h for b, h in zip(bottom, heights)]
    right.set_ylabel("ms per generated token")
    right.set_title("where each method's time goes")
    right.tick_params(axis="x", rotation=30)
    right.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


