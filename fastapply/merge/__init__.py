"""The structural lazy-snippet merge engine."""

from __future__ import annotations

import msgspec

from ..errors import ErrorCode, MergeError


class MergeOutcome(msgspec.Struct, kw_only=True):
    text: str
    method: str
    markers_resolved: int = 0
    segments: int = 0
    warnings: list[str] = msgspec.field(default_factory=list)


def merge_snippet(original: str, update: str, language: str | None) -> MergeOutcome:
    """Merge `update` (a lazy snippet) into `original`. Both use '\\n' line endings, no BOM."""
    # Placeholder until the engine lands: only whole-file replacement is safe without anchoring.
    if "..." in update:
        raise MergeError("the structural engine is not built yet", code=ErrorCode.ANCHOR_NOT_FOUND)
    return MergeOutcome(text=update, method="whole_file", segments=1)
