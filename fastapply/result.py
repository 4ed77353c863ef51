"""The result every engine returns: a msgspec Struct, so it crosses process and HTTP boundaries as is."""

from __future__ import annotations

import msgspec


class ApplyStats(msgspec.Struct, kw_only=True):
    markers_resolved: int = 0
    segments: int = 0
    lines_added: int = 0
    lines_removed: int = 0
    elapsed_ms: float = 0.0
    # Filled on the model path only.
    prompt_tokens: int = 0
    generated_tokens: int = 0
    forward_passes: int = 0
    mean_accepted_length: float = 0.0
    prefill_s: float = 0.0
    decode_s: float = 0.0
    # Per draft source ("copy", "head", "copy+head", "none"): verify passes and mean accepted length.
    draft_sources: dict[str, dict[str, float]] = msgspec.field(default_factory=dict)


class ApplyResult(msgspec.Struct, kw_only=True):
    merged_code: str
    method: str
    language: str | None = None
    diff: str = ""
    stats: ApplyStats = msgspec.field(default_factory=ApplyStats)
    warnings: list[str] = msgspec.field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.diff)


def make_result(original: str, merged: str, *, method: str, language: str | None, filename: str | None,
                started: float, stats: ApplyStats | None = None,
                warnings: list[str] | None = None) -> ApplyResult:
    """Fill the diff and line counts shared by every engine. `original`/`merged` are as the user sees them."""
    from time import perf_counter

    from .text import unified_diff_counted

    stats = stats or ApplyStats()
    diff, stats.lines_added, stats.lines_removed = unified_diff_counted(original, merged, filename)
    stats.elapsed_ms = round((perf_counter() - started) * 1000.0, 3)
    return ApplyResult(merged_code=merged, method=method, language=language, diff=diff, stats=stats,
                       warnings=list(warnings or []))
