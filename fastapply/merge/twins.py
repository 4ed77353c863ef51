"""Near-twins: a new line of the snippet that lands right next to the original line it edits,
which the merge keeps too.

A snippet's edited line that no anchor stands next to (the last line of a part before its marker,
after new lines: knitwork's `export { ... }` list that gained two names, shown after two new
declarations; a compiled file's new `//# sourceMappingURL=` line) is new code to the alignment,
and the marker after it keeps the original line, so the two versions end up one under the other.
Exact repeats are `provenance._check_repeated_lines`' business; this check asks for edits: the same line with words added or changed in place, long
enough that the likeness is no accident. A careful reader would not mean both, so the merge is
refused with the line to show context for. O(new rows) with one similarity test each.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .lines import SOURCE_MAP, header_key, indent_width, is_trivial
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
            if old == norm or norm in al.opos or not _twins(norm, old):
                continue
            item = al.items[s]
            raise ValidationError(
                f"snippet line {item.number} ({_short(item.text)}) reads as an edit of original line {o + 1}, "
                "but it could not be put in that line's place, and the merge would keep both versions side "
                "by side. Show an unchanged line next to it (or the marker's side of it) so that the "
                "line it replaces is clear",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _twins(new: str, old: str) -> bool:
    directive, old_directive = SOURCE_MAP.match(new), SOURCE_MAP.match(old)
    if directive and old_directive and directive.group(1) == old_directive.group(1):
        return True  # a file has one source map: two `//# sourceMappingURL=` lines are an edit kept twice
    return (edited_version(new, old) or edited_version(old, new)) and similarity(new, old) >= _MIN_SIMILARITY


def _short(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "...")


_DECLARED = re.compile(r"^([A-Za-z_]\w*)\s*:\s*(?!\s*$)[^=]*$")  # `name: Type` with no value
_SCOPE_REACH = 400  # merged lines read up and down for the declaration's block


def check_redeclared(al: Aligner, spliced: Spliced, language: str | None) -> None:
    """Python: refuse a new `name: Type` declaration next to a kept declaration of the same name in
    the same block, where the original declares it once there (reportlab's stub: `CMapSearchPath:
    Incomplete` added after the kept `CMapSearchPath: list[str]`, the annotation edit not
    recognised). A name declared twice in one class or module is the edit kept twice. O(new rows
    that declare a name * _SCOPE_REACH)."""
    if language != "python":
        return
    lines, origin = spliced.lines, spliced.origin
    for row in spliced.new_rows():
        s = origin[row][0]
        found = _DECLARED.match(al.snorm[s])
        if found is None or al.snorm[s].endswith(":"):
            continue
        name, width = found.group(1), al.swidth[s]
        for step in (-1, 1):
            k = row + step
            while 0 <= k < len(lines) and abs(k - row) <= _SCOPE_REACH:
                text = lines[k]
                if text.strip():
                    depth = indent_width(text)
                    if depth < width:
                        break  # the block's header: the scope ends
                    o = origin[k][1]
                    other = _DECLARED.match(text.strip()) if depth == width else None
                    if other and other.group(1) == name and origin[k][0] < 0 <= o \
                            and _declared_once(al, o, name, width):
                        item = al.items[s]
                        raise ValidationError(
                            f"snippet line {item.number} ({_short(item.text)}) declares {name!r}, which original "
                            f"line {o + 1} declares in the same block and the merge keeps: the name would be "
                            "declared twice. If it edits that line, show a line next to the old one",
                            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
                k += step


def _declared_once(al: Aligner, o: int, name: str, width: int) -> bool:
    """True when no other line of original line o's block declares `name` at its depth."""
    for step in (-1, 1):
        k = o + step
        while 0 <= k < len(al.orig) and abs(k - o) <= _SCOPE_REACH:
            if al.onorm[k]:
                depth = al.owidth[k]
                if depth < width:
                    break
                other = _DECLARED.match(al.onorm[k]) if depth == width else None
                if other and other.group(1) == name:
                    return False
            k += step
    return True
