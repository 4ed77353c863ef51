"""`load_model`: a transformers causal LM from a hub id, a local folder or a local GGUF file.

Nothing is fetched when the model is already in the local Hugging Face cache, and nothing at all when
HF_HUB_OFFLINE is set; a model that cannot be found is a ModelError, never a hang or a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ErrorCode, InputError, ModelError
from .templates import PromptTemplate, resolve_template

if TYPE_CHECKING:
    import torch

    from .model import ApplyModel
    from .remote import UpstreamModel

DTYPES = {"bf16": "bfloat16", "bfloat16": "bfloat16", "fp16": "float16", "float16": "float16",
          "half": "float16", "fp32": "float32", "float32": "float32", "float": "float32"}


def hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def pick_device(device: str | torch.device | None) -> torch.device:
    import torch

    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        return torch.device(device)
    except (RuntimeError, TypeError) as exc:
        raise ModelError(f"unknown device {device!r}", code=ErrorCode.INVALID_ARGUMENT) from exc


def pick_dtype(dtype: str | torch.dtype | None, device: torch.device) -> torch.dtype:
    import torch

    if dtype is None:
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    if isinstance(dtype, torch.dtype):
        return dtype
    name = DTYPES.get(str(dtype).lower().removeprefix("torch."))
    if name is None:
        raise ModelError(f"unknown dtype {dtype!r}; use bfloat16, float16 or float32",
                         code=ErrorCode.INVALID_ARGUMENT)
    return getattr(torch, name)


def locate(spec: str | os.PathLike[str]) -> tuple[str, str | None, bool]:
    """(source for from_pretrained, gguf file name or None, whether source is a hub id)."""
    text = os.fspath(spec)
    path = Path(text).expanduser()
    if path.is_file():
        if path.suffix.lower() != ".gguf":
            raise ModelError(f"{text!r} is a file but not a .gguf model; pass a model folder, a .gguf file "
                             "or a hub id", code=ErrorCode.MODEL_NOT_FOUND)
        return str(path.parent), path.name, False
    if path.is_dir():
        if not (path / "config.json").exists():
            raise ModelError(f"{text!r} has no config.json: not a Hugging Face model folder",
                             code=ErrorCode.MODEL_NOT_FOUND)
        return str(path), None, False
    if text.lower().endswith(".gguf") or text.startswith((".", "/", "~")) or text.count("/") > 1:
        raise ModelError(f"model path {text!r} does not exist", code=ErrorCode.MODEL_NOT_FOUND)
    return text, None, True


def from_pretrained(factory: Any, source: str, *, hub: bool, **kwargs: Any) -> Any:
    """Cache first; download only when allowed, and turn every failure into a clear ModelError."""
    try:
        return factory.from_pretrained(source, local_files_only=True, **kwargs)
    except Exception as exc:  # missing files, a corrupt or unsupported checkpoint, a missing gguf package
        if not hub:
            raise ModelError(f"cannot load model from {source!r}: {exc}",
                             code=ErrorCode.MODEL_FAILED) from exc
        if hub_offline():
            raise ModelError(f"{source!r} is not in the local Hugging Face cache and HF_HUB_OFFLINE is set; "
                             "download it first or pass a local folder or .gguf file",
                             code=ErrorCode.MODEL_NOT_FOUND) from exc
    try:
        return factory.from_pretrained(source, **kwargs)
    except Exception as exc:  # network errors come in many types; all mean the same to the caller
        raise ModelError(f"{source!r} is not in the local Hugging Face cache and could not be downloaded: "
                         f"{exc}", code=ErrorCode.MODEL_NOT_FOUND) from exc


def load_model(spec: str | os.PathLike[str], *, device: str | torch.device | None = None,
               dtype: str | torch.dtype | None = None, template: str | PromptTemplate | None = None,
               name: str | None = None,
               draft_head: str | os.PathLike[str] | None = None) -> ApplyModel | UpstreamModel:
    """Load a fast-apply model. `spec`: a hub id, a local Hugging Face folder, or a local .gguf file
    (dequantized on load). Default device: cuda with bfloat16 when available, else cpu with float32.
    `template` names the prompt template (default: guessed from the model name). `draft_head`: a folder
    holding an EAGLE draft head for this model (from `fastapply train-head`, or EAGLE-1/2's layout);
    one that does not fit the model is refused with `head_incompatible`.
    `openai:URL[,URL...][#MODEL]` instead serves the model from OpenAI-compatible servers (vLLM, SGLang,
    `transformers serve`, llama.cpp): see fastapply.runtime.remote (no torch needed)."""
    if isinstance(spec, str) and spec.startswith("openai:"):
        if draft_head is not None:
            raise InputError("a draft head runs next to an in-process model; an openai: upstream drafts on "
                             "its own server (drop --draft-head)", code=ErrorCode.INVALID_ARGUMENT)
        from .remote import load_upstream

        return load_upstream(spec, template=template, name=name)  # type: ignore[return-value]
    try:
        import torch  # noqa: F401
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:
        raise ModelError("the model engine needs torch and transformers: pip install 'fastapply[model]'",
                         code=ErrorCode.MODEL_NOT_CONFIGURED) from exc
    from .model import ApplyModel

    source, gguf_file, hub = locate(spec)
    dev = pick_device(device)
    dt = pick_dtype(dtype, dev)
    extra: dict[str, Any] = {"gguf_file": gguf_file} if gguf_file else {}
    tokenizer = from_pretrained(AutoTokenizer, source, hub=hub, **extra)
    model = from_pretrained(AutoModelForCausalLM, source, hub=hub, dtype=dt, **extra)
    model.to(dev).eval()
    head = None
    if draft_head is not None:
        from ..spec.eagle import load_head

        head = load_head(draft_head, model)
    label = name or (Path(gguf_file).stem if gguf_file else Path(source).name if not hub else source)
    return ApplyModel(model, tokenizer, template=resolve_template(template, label), name=label, draft_head=head)
