"""The model runtime: load a fast-apply LM (transformers) and merge with speculative decoding.

Importing this package is cheap; torch and transformers load inside `load_model`.
"""

from __future__ import annotations

from typing import Any

from .templates import TEMPLATES, PromptTemplate, get_template, template_for

_LAZY = {"load_model": ".loader", "ApplyModel": ".model", "UpstreamModel": ".remote"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'fastapply.runtime' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = ["TEMPLATES", "ApplyModel", "PromptTemplate", "UpstreamModel", "get_template", "load_model",
           "template_for"]
