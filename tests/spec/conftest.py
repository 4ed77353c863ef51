"""Models for the decode tests: tiny randomly initialised Llama / Qwen2 built from a config, and the
real SmolLM2-135M from the session fixture `smollm2_dir`."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="module")
def one_torch_thread():
    """The CI box has 2 shared cores: a second intra-op thread mostly waits and makes small models ~5x
    slower, so the decode tests run single-threaded."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def tiny_model(arch: str, *, vocab: int = 512, seed: int = 0, init: float = 0.2):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    common = dict(vocab_size=vocab, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                  num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                  # A wide init makes logits peaked, so no argmax is a near tie that rounding could flip.
                  initializer_range=init, bos_token_id=1, eos_token_id=2, pad_token_id=0)
    if arch == "llama":
        model = LlamaForCausalLM(LlamaConfig(**common))
    else:
        model = Qwen2ForCausalLM(Qwen2Config(**common))
    return model.eval()


@pytest.fixture(scope="session")
def make_tiny():
    return tiny_model


@pytest.fixture(scope="session")
def smollm2(smollm2_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(smollm2_dir)
    model = AutoModelForCausalLM.from_pretrained(smollm2_dir).eval()
    return model, tokenizer
