"""Verification kernels for speculative decoding: greedy and lossless sampling acceptance.

Installed as `fastapply.kernels`. `verify_greedy` / `verify_sample` dispatch to fused Triton kernels
on CUDA and to the plain torch reference elsewhere; triton is imported only when its backend is used.
Set FASTAPPLY_KERNELS=torch to force the reference, or FASTAPPLY_KERNELS=triton together with
TRITON_INTERPRET=1 to run the Triton kernels on the CPU through Triton's interpreter (slow; for tests).
"""

from __future__ import annotations

import importlib.util
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch
    from torch import Tensor


def triton_available() -> bool:
    return importlib.util.find_spec("triton") is not None


def backend(device: torch.device | str) -> str:
    """'triton' or 'torch': which implementation verify_* use for tensors on `device`."""
    import torch

    choice = os.environ.get("FASTAPPLY_KERNELS", "").strip().lower()
    if choice == "torch" or not triton_available():
        return "torch"
    if torch.device(device).type == "cuda":
        return "triton"
    if choice == "triton" and os.environ.get("TRITON_INTERPRET") == "1":
        return "triton"
    return "torch"


def verify_greedy(logits: Tensor, draft: Tensor, draft_len: Tensor) -> tuple[Tensor, Tensor]:
    """accepted [B] = longest prefix i < draft_len with argmax(logits[b, i]) == draft[b, i];
    next_token [B] = argmax(logits[b, accepted[b]]). Ties resolve to the first index, like torch.argmax."""
    if backend(logits.device) == "triton":
        from .verify_triton import verify_greedy as impl
    else:
        from .reference import verify_greedy as impl
    return impl(logits, draft, draft_len)


def verify_sample(logits: Tensor, draft: Tensor, draft_len: Tensor, *, temperature: float, top_p: float,
                  uniforms: Tensor) -> tuple[Tensor, Tensor]:
    """Lossless speculative sampling with a point-mass draft; see reference.verify_sample for the
    exact contract (uniforms [B, K+2]: column i tests draft token i, column K+1 samples the last token)."""
    if backend(logits.device) == "triton":
        from .verify_triton import verify_sample as impl
    else:
        from .reference import verify_sample as impl
    return impl(logits, draft, draft_len, temperature=temperature, top_p=top_p, uniforms=uniforms)


__all__ = ["backend", "triton_available", "verify_greedy", "verify_sample"]
