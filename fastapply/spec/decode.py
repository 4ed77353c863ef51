"""Draft-and-verify decoding with a transformers causal LM (plain functions, in the spirit of gpt-fast).

Invariant between steps: the KV cache holds every token of the sequence but the last one (`pending`).
A step feeds `[pending] + draft` in one forward pass, so the logits at position i score the token after
draft token i-1; the verification kernel keeps the longest agreeing draft prefix plus the target's own
next token, and the cache is cropped back to the kept tokens. The output is exactly what plain decoding
produces: token-identical for greedy, identically distributed for sampling.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Iterator
from functools import cache as memoize
from typing import Any

import torch

from fastapply.kernels import verify_greedy, verify_sample

from .drafters import Drafter
from .stats import DecodeStats


CACHE_KINDS = ("dynamic", "static")


def make_cache(model: Any, kind: str = "dynamic", max_len: int = 0) -> Any:
    """A KV cache whose `crop(-n)` drops the last n positions.

    "dynamic" grows by concatenation (best on a CPU: attention only over real positions). "static" is
    preallocated and position-indexed, so a rollback only moves the write position (free, and the fixed
    addresses are what CUDA graphs need); it attends over all `max_len` slots, masking the unused ones."""
    from transformers import DynamicCache, StaticCache

    if kind == "static":
        return StaticCache(config=model.config, max_cache_len=max_len)
    if kind != "dynamic":
        raise ValueError(f"unknown cache kind {kind!r}; expected one of {', '.join(CACHE_KINDS)}")
    return DynamicCache(config=model.config)


@memoize
def _cache_kwarg(model_class: type) -> str:
    # transformers 5.2x renamed `past_key_values` to `cache` (the old name warns); older ones lack `cache`.
    return "cache" if "cache" in inspect.signature(model_class.forward).parameters else "past_key_values"


def forward_logits(model: Any, token_ids: list[int], cache: Any, keep: int) -> torch.Tensor:
    """One target forward over `token_ids` appended to the cache; float logits [1, keep, V] of the last
    `keep` positions only (the LM head, a V x hidden matmul, runs on just those hidden states)."""
    ids = torch.tensor([token_ids], dtype=torch.long, device=model.device)
    kwargs = {_cache_kwarg(type(model)): cache}
    out = model(input_ids=ids, use_cache=True, logits_to_keep=keep, **kwargs)
    return out.logits[:, -keep:].float()


def forward_with_features(model: Any, token_ids: list[int], cache: Any, keep: int) -> tuple[torch.Tensor,
                                                                                         torch.Tensor]:
    """forward_logits plus the target's last hidden states [n, H] (after its final norm) of all
    `token_ids`, for feature drafters (EAGLE heads). Same pass, same LM head on the same rows."""
    decoder = model.get_decoder()
    ids = torch.tensor([token_ids], dtype=torch.long, device=model.device)
    out = decoder(input_ids=ids, use_cache=True, **{_cache_kwarg(type(decoder)): cache})
    hidden = out.last_hidden_state
    logits = model.get_output_embeddings()(hidden[:, -keep:])
    return logits.float(), hidden[0]


def choose(logits: torch.Tensor, draft: list[int], *, temperature: float, top_p: float,
           generator: torch.Generator | None) -> tuple[int, int]:
    """(accepted draft tokens, next token) for one row of logits [1, len(draft)+1, V]."""
    device = logits.device
    draft_t = torch.tensor([draft], dtype=torch.long, device=device).reshape(1, len(draft))
    draft_len = torch.tensor([len(draft)], dtype=torch.long, device=device)
    if temperature <= 0:
        accepted, token = verify_greedy(logits, draft_t, draft_len)
    else:
        # Drawn on the CPU from our own generator: reproducible for a seed whatever the device.
        uniforms = torch.rand(1, len(draft) + 2, generator=generator).to(device)
        accepted, token = verify_sample(logits, draft_t, draft_len, temperature=temperature, top_p=top_p,
                                        uniforms=uniforms)
    return int(accepted[0]), int(token[0])


def _cut_at_eos(tokens: list[int], eos_token_ids: set[int]) -> tuple[list[int], bool]:
    for i, token in enumerate(tokens):
        if token in eos_token_ids:
            return tokens[:i + 1], True
    return tokens, False


def iter_decode(model: Any, prompt_ids: list[int], *, max_new_tokens: int, eos_token_ids: set[int],
                drafter: Drafter | None, k_max: int = 64, temperature: float = 0.0, top_p: float = 1.0,
                seed: int | None = None, stats: DecodeStats, cache: str = "dynamic") -> Iterator[list[int]]:
    """Yield the tokens accepted at each verify step (the first yield is the prefill's token).

    The output ends with an eos token when the model emits one, and never exceeds max_new_tokens.
    Closing the generator stops decoding and frees the cache.
    """
    started = time.perf_counter()
    stats.prompt_tokens = len(prompt_ids)
    if max_new_tokens <= 0 or not prompt_ids:
        return
    generator = None
    if temperature > 0:
        generator = torch.Generator()
        if seed is None:
            generator.seed()
        else:
            generator.manual_seed(seed)
    sample = {"temperature": temperature, "top_p": top_p, "generator": generator}
    kv = make_cache(model, cache, len(prompt_ids) + max_new_tokens + k_max + 1)
    # A feature drafter (an EAGLE head) gets the target's hidden states of every kept position.
    observe = getattr(drafter, "observe", None) if getattr(drafter, "wants_features", False) else None
    try:
        with torch.inference_mode():
            if observe is not None:
                logits, hidden = forward_with_features(model, prompt_ids, kv, keep=1)
                observe(hidden)
            else:
                logits = forward_logits(model, prompt_ids, kv, keep=1)
            _, pending = choose(logits, [], **sample)
        stats.prefill_s = time.perf_counter() - started
        stats.forward_passes = 1
        stats.generated_tokens = 1
        done = pending in eos_token_ids or max_new_tokens == 1
        if drafter is not None:
            drafter.accept([pending])
        stats.ttft_s = time.perf_counter() - started
        yield [pending]

        while not done:
            step_started = time.perf_counter()
            # Each step adds len(draft) + 1 tokens at most: leave room for the target's own token.
            room = min(k_max, max_new_tokens - stats.generated_tokens - 1)
            draft = drafter.propose(room) if drafter is not None and room > 0 else []
            draft = draft[:max(room, 0)]
            source = getattr(drafter, "source", "copy") if draft else "none"
            with torch.inference_mode():
                if observe is not None:
                    logits, hidden = forward_with_features(model, [pending, *draft], kv, keep=len(draft) + 1)
                else:
                    logits = forward_logits(model, [pending, *draft], kv, keep=len(draft) + 1)
                accepted, token = choose(logits, draft, **sample)
                if observe is not None:  # pending and the accepted drafts: the positions kept in the cache
                    observe(hidden[:accepted + 1])
                # Keep pending and the accepted draft tokens; drop the rejected ones from the cache.
                rejected = len(draft) - accepted
                if rejected:
                    kv.crop(-rejected)
            new, hit_eos = _cut_at_eos([*draft[:accepted], token], eos_token_ids)
            pending = token
            stats.forward_passes += 1
            stats.accepted_lengths.append(accepted)
            stats.draft_sources.append(source)
            stats.generated_tokens += len(new)
            done = hit_eos or stats.generated_tokens >= max_new_tokens
            if drafter is not None:
                drafter.accept(new)
            stats.decode_s += time.perf_counter() - step_started
            yield new
    finally:
        del kv


def generate(model: Any, prompt_ids: list[int], *, max_new_tokens: int, eos_token_ids: set[int],
             drafter: Drafter | None, k_max: int = 64, temperature: float = 0.0, top_p: float = 1.0,
             seed: int | None = None, stats: DecodeStats | None = None,
             cache: str = "dynamic") -> tuple[list[int], DecodeStats]:
    """Run iter_decode to the end; returns the generated tokens and the filled stats."""
    stats = stats if stats is not None else DecodeStats()
    out: list[int] = []
    for chunk in iter_decode(model, prompt_ids, max_new_tokens=max_new_tokens, eos_token_ids=eos_token_ids,
                             drafter=drafter, k_max=k_max, temperature=temperature, top_p=top_p, seed=seed,
                             stats=stats, cache=cache):
        out.extend(chunk)
    return out, stats
