"""Caps that keep the block matcher's work bounded in the input size (fastapply.formats.matching)."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence

from ..errors import ErrorCode, InputError

Span = tuple[int, int]


def check_edit_count(count: int, limit: int, label: str) -> None:
    """Refuse more than `limit` edits for one file (too_many_edits): every edit is a pass over the
    file, so their number times the file's size is the call's work."""
    if count > limit:
        raise InputError(f"{count} {label}s for one file; at most {limit} are applied in one call (each "
                         f"is a pass over the file). Send them in several calls, or the whole new file",
                         code=ErrorCode.TOO_MANY_EDITS, details={"edits": count, "limit": limit})
# A needle's rarest line with more copies than this is non-unique: only the copies nearest the hint
# are compared (bounds the work per needle at MAX_POSITIONS comparisons of its lines).
MAX_POSITIONS = 64
UNCHECKED = "unchecked"  # the kind of a placeholder Match for the nearest copy that was not compared


def nearest_positions(positions: Sequence[int], lo: int, hi: int, hint: int | None) -> tuple[Sequence[int], int | None]:
    """The positions in [lo, hi), at most MAX_POSITIONS of them (those nearest `hint`, or the first
    ones), and the nearest position left out (None when none is): a line that occurs more often
    than that is non-unique, and only the copies nearest the hint are worth comparing."""
    first, last = bisect_left(positions, lo), bisect_left(positions, hi)
    if last - first <= MAX_POSITIONS:
        return positions[first:last], None
    if hint is None:
        return positions[first:first + MAX_POSITIONS], positions[first + MAX_POSITIONS]
    mid = min(max(bisect_left(positions, hint), first), last)
    a = max(first, mid - MAX_POSITIONS // 2)
    b = min(last, a + MAX_POSITIONS)
    a = max(first, b - MAX_POSITIONS)
    left = positions[a - 1] if a > first else None
    right = positions[b] if b < last else None
    edge = min((p for p in (left, right) if p is not None), key=lambda p: abs(p - hint))
    return positions[a:b], edge


class Spans(list):  # type: ignore[type-arg]
    """Taken spans kept sorted by start, so that an overlap test looks only at the spans that can
    reach the new one (O(log k + spans within the longest span's length)) instead of all k."""

    def __init__(self) -> None:
        super().__init__()
        self.longest = 0

    def append(self, span: Span) -> None:  # type: ignore[override]
        insort(self, span)
        self.longest = max(self.longest, span[1] - span[0])

    def overlaps(self, span: Span) -> bool:
        s, e = span
        at = bisect_right(self, (e, math.inf)) - 1  # spans starting at or before e
        while at >= 0 and self[at][0] >= s - self.longest - 1:
            ts, te = self[at]
            if s < te and ts < e or (s == e and ts <= s < te):
                return True
            at -= 1
        return False
