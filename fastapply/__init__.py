"""fastapply: merge AI-written code edits into files, fast and safely.

The public API is re-exported here. Heavy parts (the model runtime, the service) are imported only
when first used, so `import fastapply` stays light and never imports torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ApplyError, ErrorCode, FastApplyError
from .result import ApplyResult, ApplyStats
from .text import Limits

__version__ = "0.1.0"

# name -> module that defines it, imported on first access.
_LAZY = {
    "apply": ".api",
    "apply_replacements": ".formats.replacements",
    "apply_search_replace": ".formats.search_replace",
    "apply_udiff": ".formats.udiff",
    "apply_v4a": ".formats.v4a",
    "apply_whole": ".formats.whole",
    "Policy": ".formats.policy",
    "apply_batch": ".formats.batch",
    "BatchResult": ".formats.batch",
    "BatchSummary": ".formats.batch",
    "FileResult": ".formats.batch",
    "FileError": ".formats.batch",
    "detect_formats": ".formats.detect",
    "load_model": ".runtime.loader",
    "ApplyModel": ".runtime.model",
}

if TYPE_CHECKING:
    from .api import apply
    from .formats.batch import BatchResult, BatchSummary, FileError, FileResult, apply_batch
    from .formats.detect import detect_formats
    from .formats.replacements import apply_replacements
    from .formats.search_replace import apply_search_replace
    from .formats.udiff import apply_udiff
    from .formats.policy import Policy
    from .formats.v4a import apply_v4a
    from .formats.whole import apply_whole
    from .runtime.loader import load_model
    from .runtime.model import ApplyModel


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'fastapply' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "ApplyError",
    "ApplyResult",
    "ApplyStats",
    "ErrorCode",
    "FastApplyError",
    "Limits",
    "__version__",
    *_LAZY,
]
