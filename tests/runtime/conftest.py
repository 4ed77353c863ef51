"""Tiny randomly initialised Llama and Qwen2 models with the real SmolLM2 tokenizer, built once a session."""

from __future__ import annotations

from pathlib import Path

import pytest


def build_tiny(kind: str, tokenizer_dir: Path, out: Path) -> Path:
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    llama = kind == "llama"
    config_cls, model_cls = (LlamaConfig, LlamaForCausalLM) if llama else (Qwen2Config, Qwen2ForCausalLM)
    config = config_cls(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                        tie_word_embeddings=False, initializer_range=0.2)
    # initializer_range 0.2 (not 0.02): sharper logits, so greedy output varies instead of repeating one
    # token, and near-ties between logits (where batched and single-token passes could disagree) are rare.
    torch.manual_seed(0 if kind == "llama" else 1)
    model = model_cls(config)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def tiny_llama_dir(smollm2_dir, tmp_path_factory) -> Path:
    return build_tiny("llama", smollm2_dir, tmp_path_factory.mktemp("tiny-llama"))


@pytest.fixture(scope="session")
def tiny_qwen2_dir(smollm2_dir, tmp_path_factory) -> Path:
    return build_tiny("qwen2", smollm2_dir, tmp_path_factory.mktemp("tiny-qwen2"))


@pytest.fixture(scope="session")
def tiny_model(tiny_llama_dir):
    import fastapply

    return fastapply.load_model(tiny_llama_dir)


@pytest.fixture(scope="session")
def eos_at():
    return with_eos_at


def with_eos_at(apply_model, original: str, update: str, *, steps: int = 24, earliest: int = 6):
    """A copy of `apply_model` whose EOS is a token its greedy answer emits after `earliest` tokens.

    Random models never choose to stop; picking a token the model is known to produce (at a position
    where it occurs for the first time) makes both plain HF decoding and ours finish at that point.
    Returns (model copy, expected ids including that EOS).
    """
    import torch

    from fastapply.runtime import ApplyModel

    ids = apply_model.template.encode(apply_model.tokenizer, original, update, None)
    with torch.inference_mode():
        out = apply_model.model.generate(torch.tensor([ids]), max_new_tokens=steps, do_sample=False,
                                         eos_token_id=None, pad_token_id=0)
    new = out[0, len(ids):].tolist()
    for j in range(earliest, len(new)):
        if new[j] not in new[:j]:
            copy = ApplyModel(apply_model.model, apply_model.tokenizer, template=apply_model.template,
                              name=apply_model.name)
            copy.eos_token_ids = {new[j]}
            return copy, new[:j + 1]
    raise AssertionError(f"no fresh token in the greedy answer {new}")
