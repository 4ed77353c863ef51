"""Helpers shared by the decode tests: the reference (transformers' plain greedy generate) and a
perturbed copy of it that makes drafts accepted for a while, then rejected."""

from __future__ import annotations


def hf_greedy(model, prompt: list[int], max_new_tokens: int, eos: int | None = None) -> list[int]:
    import torch

    ids = torch.tensor([prompt])
    out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                         max_new_tokens=max_new_tokens, eos_token_id=eos, pad_token_id=0)
    return out[0, len(prompt):].tolist()


def perturb(tokens: list[int], every: int, vocab: int) -> list[int]:
    """A copy with every `every`-th token replaced: drafts that are accepted for a while, then rejected."""
    return [(t + 1) % vocab if i % every == every - 1 else t for i, t in enumerate(tokens)]
