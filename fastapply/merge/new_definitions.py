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
            if header < 0:
                continue
            if header in al.pairs or header_key(al.snorm[header]) is None:
                # a call left open inside a new definition (lfm2-vl's `self._is_image_too_large(`,
                # the file's copy of it paired, then a column-0 marker): the marker stands for that
                # definition's existing lines, which do not exist
                header = _new_definition_around(al, header)
                if header < 0:
                    continue
        if _ends_with_exit(al, header, m):
            continue
        parent = al.snippet_parents()[header]
        if header_key(al.snorm[header]) is not None and al.in_new_definition(header) \
                and not call_inside_call(al.snorm[header], al.snorm[parent] if parent is not None else None):
            found.append((al.items[header], al.items[m]))
    return found


def _new_definition_around(al: Aligner, s: int) -> int:
    """The nearest enclosing snippet line of s that opens a definition, when it is new (unpaired, a
    name the original lacks), else -1. O(depth)."""
    parents = al.snippet_parents()
    outer = parents[s]
    # (a wrapped signature's `) -> T:` stands for its definition: its body's parent)
    while outer is not None and header_key(al.snorm[outer]) is None \
            and not (al.snorm[outer].startswith(")") and opens_block(al.snorm[outer])):
        outer = parents[outer]
    if outer is not None and al.snorm[outer].startswith(")"):
        k = outer - 1  # (up to the signature's first line, `def _get_split_layout(`)
        while k >= 0 and k not in al.markers and not (al.swidth[k] == al.swidth[outer] and al.snorm[k]):
            k -= 1
        outer = k if k >= 0 and k not in al.markers and header_key(al.snorm[k]) is not None else None
    return outer if outer is not None and outer not in al.pairs and al.in_new_definition(outer) else -1


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
        if s is None or s in al.pairs or s in al.split_heads:
            continue  # (split_heads: a new header over an old body, which the marker stands for: splits.py)
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
