"""Speculative decoding for fast apply: copy drafts (suffix automaton over the prompt, predicted outputs)
and EAGLE draft heads (on the target's own features), verified losslessly by the target model.

`drafters`, `automaton` and `stats` are pure Python; `decode`, `eagle` and `head_drafter` need torch and
are imported on first use.
"""

from __future__ import annotations

from typing import Any

from .drafters import DRAFTER_KINDS, AdaptiveK, CopyDrafter, CopySource, Drafter, make_drafter
from .stats import DecodeStats

_LAZY = {"iter_decode": ".decode", "generate": ".decode", "EagleHead": ".eagle", "new_head": ".eagle",
         "load_head": ".eagle", "save_head": ".eagle", "HeadDrafter": ".head_drafter",
         "HybridDrafter": ".head_drafter"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'fastapply.spec' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = ["DRAFTER_KINDS", "AdaptiveK", "CopyDrafter", "CopySource", "DecodeStats", "Drafter", "EagleHead",
           "HeadDrafter", "HybridDrafter", "generate", "iter_decode", "load_head", "make_drafter", "new_head",
           "save_head"]
