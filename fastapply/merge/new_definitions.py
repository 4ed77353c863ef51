"""Markers inside definitions the original does not have: such a marker stands for that
definition's existing body, which does not exist (a rename that was not recognised; a header
rewritten in place is paired by renames.rewritten_in_place before these checks run). Moved out of
provenance.py, which runs them; complexity per function below.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .lines import call_inside_call, header_key, opens_block
from .segments import SnippetLine

if TYPE_CHECKING:
    from .anchor import Aligner


def markers_in_new_definitions(al: Aligner) -> list[tuple[SnippetLine, SnippetLine]]:
    """(header, marker) for each marker inside a definition the original does not have and that
    is not paired (yet). O(m) over markers, each walking back through its own segment. Also
    taken before segments are put back in file order (order.py keeps only the marker before
    each segment, so a marker that ended a segment inside a new definition would be lost)."""
    found: list[tuple[SnippetLine, SnippetLine]] = []
    for m in al.marker_list:
        if al.items[m].kind != "marker":
            continue
        header = _open_header(al, m, al.swidth[m])
        if header < 0 or header in al.pairs or not opens_block(al.snorm[header]) \
                or header_key(al.snorm[header]) is None:
            # a marker written less indented than the code before it (at column 0) says little
            # about where it is: a block still open before it is the one it sits in
            header = _open_braced_block(al, m)
            if header < 0 or header in al.pairs:
                continue
        if _ends_with_exit(al, header, m):
            continue
        parent = al.snippet_parents()[header]
        if header_key(al.snorm[header]) is not None and al.in_new_definition(header) \
                and not call_inside_call(al.snorm[header], al.snorm[parent] if parent is not None else None):
            found.append((al.items[header], al.items[m]))
    return found


_EXIT = re.compile(r"^(?:return|raise|throw)\b")


def _ends_with_exit(al: Aligner, header: int, m: int) -> bool:
    """True when the definition opened at `header` ends, before marker m, with a `return` or
    `raise` at its body's own depth, and the next code line after the marker is no deeper than
    the header: nothing of the body can follow that exit, so the marker (indented like the body)
    stands for code after the definition. Only for blocks that end where the code dedents
    (Python's `:`): a braced block the snippet leaves open holds the marker, whatever precedes it.
    O(the lines between header and the next code line)."""
    if _closed_by_a_line(al.snorm[header]):
        return False
    body = next((k for k in range(header + 1, m) if al.snorm[k]), None)
    last = next((k for k in range(m - 1, header, -1) if al.snorm[k]), None)
    if body is None or last is None or al.swidth[last] != al.swidth[body] or not _EXIT.match(al.snorm[last]):
        return False
    after = next((k for k in range(m + 1, len(al.items)) if al.snorm[k] or k in al.markers), None)
    return after is None or after not in al.markers and al.swidth[after] <= al.swidth[header]


def check_markers_in_new_definitions(al: Aligner, suspects: list[tuple[SnippetLine, SnippetLine]]) -> None:
    """Refuse the suspects whose header the alignment left unpaired (an edit run may pair a
    renamed header line for line). O(m)."""
    if not suspects:
        return
    index_of = {id(item): s for s, item in enumerate(al.items)}
    for header, marker in suspects:
        s = index_of.get(id(header))
        if s is None or s in al.pairs:
            continue
        raise ValidationError(
            f"snippet line {header.number} ({header.text.strip()!r}) starts a definition the original does "
            f"not have, but the marker on snippet line {marker.number} inside it stands for existing code "
            "of it. If it renames a definition, keep the old name or show the whole definition",
            code=ErrorCode.ANCHOR_NOT_FOUND, line=header.number)


def _open_header(al: Aligner, m: int, width: int) -> int:
    """The nearest snippet line before marker m, in its segment, indented less than `width` (-1)."""
    if width <= 0:
        return -1  # (nothing is indented less: the walk below would reach the segment's start)
    header = m - 1
    while header >= 0 and (not al.snorm[header] or al.swidth[header] >= width):
        if header in al.markers:
            return -1
        header -= 1
    return header if header >= 0 and header not in al.markers else -1


def _open_braced_block(al: Aligner, m: int) -> int:
    """The header of the innermost block still open at marker m, judged from the code line right
    before it, when the block ends with a closing line (`}`, `end`; not Python's `:` blocks,
    which end where the code dedents): -1 when there is none."""
    prev = al.code_above(m)
    if prev < 0:
        return -1
    if _closed_by_a_line(al.snorm[prev]):
        return prev
    header = _open_header(al, m, al.swidth[prev])
    return header if header >= 0 and _closed_by_a_line(al.snorm[header]) else -1


def _closed_by_a_line(norm: str) -> bool:
    return opens_block(norm) and not norm.endswith(":")
