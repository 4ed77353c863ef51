"""Cost of one speculative verify step: the verification kernels alone, then a whole target step.

    python -m evals.kernel_bench                 # CUDA if present, else a reduced CPU run
    python -m evals.kernel_bench --mean-accepted 12.5 --out bench.json

Part 1 times verify_greedy / verify_sample on random logits [1, K+1, V] for K = 1, 16, 64: the torch
reference everywhere, the Triton kernels on CUDA. Part 2 times a target step (one forward over
`pending + K draft tokens` on a KV cache holding `--context` tokens, logits for the K+1 verified
positions only, greedy verification, cache rollback) for a model built from the Qwen2.5-Coder-1.5B
config with random weights: bf16 on CUDA; on the CPU a reduced copy (--cpu-layers layers, fp32), since
the full model takes seconds per step on a laptop-class CPU. Step costs combine with a mean accepted
length (from `python -m evals.replay`) into projected tokens/s = (accepted + 1) / step time.
The decode loop itself runs eagerly on a DynamicCache; --static and --compile MODE add the same step
on a StaticCache, eager and through torch.compile (mode reduce-overhead uses CUDA graphs on CUDA), to
show what such a path would gain.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Qwen/Qwen2.5-Coder-1.5B config.json values (written out: nothing is fetched from the hub).
QWEN25_CODER_1_5B: dict[str, Any] = {
    "vocab_size": 151936, "hidden_size": 1536, "intermediate_size": 8960, "num_hidden_layers": 28,
    "num_attention_heads": 12, "num_key_value_heads": 2, "max_position_embeddings": 32768,
    "rope_theta": 1000000.0, "rms_norm_eps": 1e-6, "tie_word_embeddings": True, "hidden_act": "silu",
    "bos_token_id": 151643, "eos_token_id": 151643, "use_sliding_window": False,
}
KS = (1, 16, 64)


def timed(fn: Callable[[], Any], *, device: Any, repeats: int, warmup: int = 2) -> float:
    """Median seconds per call."""
    import torch

    def sync() -> None:
        if device.type == "cuda":
            torch.cuda.synchronize()

    for _ in range(warmup):
        fn()
    sync()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        sync()
        samples.append(time.perf_counter() - start)
    return sorted(samples)[len(samples) // 2]


def bench_verify(device: Any, vocab: int, repeats: int) -> list[dict[str, Any]]:
    import torch

    from fastapply.kernels import reference

    impls: dict[str, Any] = {"torch": reference}
    if device.type == "cuda":
        from fastapply.kernels import verify_triton

        impls["triton"] = verify_triton
    rows = []
    for k in KS:
        logits = torch.randn(1, k + 1, vocab, device=device, dtype=torch.bfloat16 if device.type == "cuda"
                             else torch.float32)
        draft = logits[:, :k].float().argmax(-1)  # all accepted: the longest path through the kernels
        draft_len = torch.tensor([k], device=device)
        uniforms = torch.rand(1, k + 2, device=device)
        for name, impl in impls.items():
            greedy = timed(lambda: impl.verify_greedy(logits, draft, draft_len), device=device,
                           repeats=repeats)
            sample = timed(lambda: impl.verify_sample(logits, draft, draft_len, temperature=0.7, top_p=1.0,
                                                      uniforms=uniforms), device=device, repeats=repeats)
            rows.append({"K": k, "vocab": vocab, "impl": name, "greedy_ms": greedy * 1e3,
                         "sample_ms": sample * 1e3})
    return rows


def build_model(device: Any, layers: int | None) -> Any:
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    values = dict(QWEN25_CODER_1_5B)
    if layers is not None:
        values["num_hidden_layers"] = layers
    config = Qwen2Config(**values)
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device(device):
            model = Qwen2ForCausalLM(config)  # random weights, created directly on the device
    finally:
        torch.set_default_dtype(previous)
    return model.eval()


def bench_step(model: Any, device: Any, context: int, repeats: int) -> list[dict[str, Any]]:
    import torch

    from fastapply.kernels import backend, verify_greedy
    from fastapply.spec.decode import forward_logits, make_cache

    vocab = model.config.vocab_size
    gen = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, vocab, (context,), generator=gen).tolist()
    cache = make_cache(model)
    rows = []
    with torch.inference_mode():
        forward_logits(model, prompt, cache, keep=1)
        for k in KS:
            tokens = torch.randint(0, vocab, (k + 1,), generator=gen).tolist()
            draft = torch.tensor([tokens[1:]], device=device)
            draft_len = torch.tensor([k], device=device)

            def step() -> None:
                logits = forward_logits(model, tokens, cache, keep=k + 1)
                verify_greedy(logits, draft, draft_len)
                cache.crop(-(k + 1))  # roll back, as after a full rejection

            seconds = timed(step, device=device, repeats=repeats)
            rows.append({"K": k, "context": context, "layers": model.config.num_hidden_layers,
                         "kernels": backend(device), "step_ms": seconds * 1e3,
                         "tok_s_all_accepted": (k + 1) / seconds})
    return rows


def bench_step_static(model: Any, device: Any, context: int, repeats: int, compile_mode: str | None
                      ) -> list[dict[str, Any]]:
    """The same step on a position-indexed StaticCache, optionally through torch.compile (on CUDA,
    mode 'reduce-overhead' captures CUDA graphs). Rolling back is free: resetting each layer's length
    counter makes the next step write the same cache positions again, so every timed call verifies at
    position `context`. (transformers 5.x StaticLayer keeps that counter in `cumulative_length`.)"""
    import torch
    from transformers import StaticCache

    from fastapply.kernels import backend, verify_greedy
    from fastapply.spec.decode import _cache_kwarg

    vocab = model.config.vocab_size
    gen = torch.Generator().manual_seed(0)
    cache = StaticCache(config=model.config, max_cache_len=context + max(KS) + 1)
    kwarg = _cache_kwarg(type(model))
    forward = torch.compile(model.forward, mode=compile_mode) if compile_mode else model.forward
    rows = []
    with torch.inference_mode():
        prompt = torch.randint(0, vocab, (1, context), generator=gen).to(device)
        model(input_ids=prompt, use_cache=True, logits_to_keep=1, **{kwarg: cache})
        for k in KS:
            ids = torch.randint(0, vocab, (1, k + 1), generator=gen).to(device)
            draft, draft_len = ids[:, 1:], torch.tensor([k], device=device)

            def step() -> None:
                out = forward(input_ids=ids, use_cache=True, logits_to_keep=k + 1, **{kwarg: cache})
                verify_greedy(out.logits.float(), draft, draft_len)
                for layer in cache.layers:  # roll back: an in-place write keeps the static address
                    layer.cumulative_length.fill_(context)

            seconds = timed(step, device=device, repeats=repeats, warmup=3)
            rows.append({"K": k, "context": context, "layers": model.config.num_hidden_layers,
                         "kernels": backend(device), "mode": f"static+{compile_mode or 'eager'}",
                         "step_ms": seconds * 1e3, "tok_s_all_accepted": (k + 1) / seconds})
    return rows


def progress(console: Any, message: str) -> bool:
    """Print what is being timed (a plain line: no live display thread running beside the timed code)."""
    console.print(f"[dim]{message}...[/dim]")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.kernel_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", help="cuda or cpu (default: cuda when available)")
    parser.add_argument("--context", type=int, default=None, help="tokens in the KV cache (default 1024 "
                        "on CUDA, 256 on CPU)")
    parser.add_argument("--cpu-layers", type=int, default=2, help="layers of the reduced CPU model")
    parser.add_argument("--repeats", type=int, default=None, help="timed calls per cell (median)")
    parser.add_argument("--mean-accepted", type=float, action="append", default=[],
                        help="mean accepted draft length to project tokens/s with (repeatable)")
    parser.add_argument("--skip-model", action="store_true", help="time the verification kernels only")
    parser.add_argument("--static", action="store_true", help="also time the step on a StaticCache")
    parser.add_argument("--compile", metavar="MODE", help="also time the StaticCache step through "
                        "torch.compile with this mode (reduce-overhead = CUDA graphs on CUDA)")
    parser.add_argument("--out", type=Path, help="write the numbers as JSON")
    args = parser.parse_args(argv)

    import torch
    from rich.console import Console
    from rich.table import Table

    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    cuda = device.type == "cuda"
    repeats = args.repeats or (50 if cuda else 5)
    console = Console()
    report: dict[str, Any] = {"device": torch.cuda.get_device_name(device) if cuda else "cpu"}

    vocab = QWEN25_CODER_1_5B["vocab_size"] if cuda else 49152
    if progress(console, "timing verification kernels"):
        report["verify"] = bench_verify(device, vocab, repeats)
    table = Table(title=f"verify step, B=1, vocab {vocab}, {report['device']}")
    for col in ("K", "impl", "greedy ms", "sample ms"):
        table.add_column(col, justify="right")
    for row in report["verify"]:
        table.add_row(str(row["K"]), row["impl"], f"{row['greedy_ms']:.3f}", f"{row['sample_ms']:.3f}")
    console.print(table)

    if not args.skip_model:
        layers = None if cuda else args.cpu_layers
        context = args.context or (1024 if cuda else 256)
        if progress(console, "building the Qwen2.5-Coder-1.5B-shaped model (random weights)"):
            model = build_model(device, layers)
        step_repeats = max(3, repeats // 5)
        if progress(console, "timing target steps (DynamicCache, eager)"):
            report["step"] = [dict(row, mode="dynamic+eager")
                              for row in bench_step(model, device, context, step_repeats)]
        if args.static or args.compile:
            if progress(console, "timing target steps (StaticCache, eager)"):
                report["step"] += bench_step_static(model, device, context, step_repeats, None)
        if args.compile:
            if progress(console, f"compiling and timing target steps (StaticCache, {args.compile})"):
                report["step"] += bench_step_static(model, device, context, step_repeats, args.compile)
        label = "full 28 layers, bf16" if cuda else f"reduced to {layers} layers, fp32"
        table = Table(title=f"target step: Qwen2.5-Coder-1.5B config ({label}), context {context}")
        columns = ["mode", "K", "step ms", "tok/s if all accepted"]
        columns += [f"tok/s @ accepted {a:g}" for a in args.mean_accepted]
        for col in columns:
            table.add_column(col, justify="right")
        for row in report["step"]:
            projected = [(min(a, row["K"]) + 1) / (row["step_ms"] / 1e3) for a in args.mean_accepted]
            row["projected_tok_s"] = dict(zip(map(str, args.mean_accepted), projected, strict=True))
            table.add_row(row["mode"], str(row["K"]), f"{row['step_ms']:.2f}",
                          f"{row['tok_s_all_accepted']:.0f}",
                          *[f"{p:.0f}" for p in projected])
        console.print(table)
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))
        console.print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
