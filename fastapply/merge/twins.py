"""Near-twins: a new line of the snippet that lands right next to the original line it edits,
which the merge keeps too.

A snippet's edited line that no anchor stands next to (the last line of a part before its marker,
after new lines: knitwork's `export { ... }` list that gained two names, shown after two new
declarations) is new code to the alignment, and the marker after it keeps the original line, so
the two versions end up one under the other. Exact repeats are `provenance._check_repeated_lines`'
business; this check asks for edits: the same line with words added or changed in place, long
enough that the likeness is no accident. A careful reader would not mean both, so the merge is
refused with the line to show context for. O(new rows) with one similarity test each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .lines import header_key, is_trivial
from .similar import edited_version, similarity
from .splice import Spliced

if TYPE_CHECKING:
    from .anchor import Aligner

_MIN_CHARS = 40  # shorter lines (`x = 1`, `foo(a)`) are too alike by chance to tell an edit
_MIN_SIMILARITY = 85.0


def check_near_twins(al: Aligner, spliced: Spliced) -> None:
    lines, origin = spliced.lines, spliced.origin
    for row in spliced.new_rows():
        s = origin[row][0]
        norm = al.snorm[s]
        if len(norm) < _MIN_CHARS or is_trivial(norm) or header_key(norm) is not None:
            continue  # (definition headers: an overload added next to another is an insertion)
        for step in (-1, 1):
            k = row + step
            while 0 <= k < len(lines) and not lines[k].strip():
                k += step
            if not 0 <= k < len(lines) or origin[k][0] >= 0 or origin[k][1] < 0:
                continue  # (only a kept original line, no snippet line, can be the old version)
            o = origin[k][1]
            old = al.onorm[o]
            if old == norm or norm in al.opos or not (edited_version(norm, old) or edited_version(old, norm)) \
                    or similarity(norm, old) < _MIN_SIMILARITY:
                continue
            item = al.items[s]
            raise ValidationError(
                f"snippet line {item.number} ({_short(item.text)}) reads as an edit of original line {o + 1}, "
                "but it could not be put in that line's place, and the merge would keep both versions side "
                "by side. Show an unchanged line next to it (or the marker's side of it) so that the "
                "line it replaces is clear",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _short(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "...")
