"""Which block a closing line (`}`, `end`) closes, where the alignment cannot take it on trust.

A closing line is the same text at the end of every block, so the aligner pairs it through the
block it closes: its opening line. These checks decide the cases where that line is edited,
hidden behind a marker, or not reached yet (walking up from an anchor, a closing line comes
before its opening line). Each is O(length of the block or of the lines up to a marker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .anchor import Aligner


def end_in_doubt(al: Aligner, s: int, sc: int, oc: int) -> bool:
    """For a block opened at snippet line s and closed at sc (original oc), a marker between:
    True when a line found once in the original stands between the marker and sc (it may sit
    in a later block), or the first such line after sc in its segment sits further down the
    original than the lines between them account for (the `}` would anchor a deletion).
    O(lines up to the markers around sc)."""
    k = sc - 1
    while k > s and k not in al.markers:
        if len(al.opos.get(al.snorm[k], ())) == 1:
            return True
        k -= 1
    for k in range(sc + 1, len(al.items)):
        if k in al.markers:
            return False
        where = al.opos.get(al.snorm[k], ())
        if len(where) == 1 and not al.in_new_definition(k):
            return where[0] > oc and al.deletes(sc, oc, k, where[0])
    return False


def edited_opener(al: Aligner, s: int, target: int) -> bool:
    """For the closing line s matched at original line `target`: True when the block it closes
    opens with an unpaired (edited) line while every code line of its body is paired inside
    the original block that `target` closes (`for (auto& element : chunks) {` for
    `for (auto& tensor : chunks) {`, its body and `}` unchanged): the same block, its first
    line edited. O(block length)."""
    width, body = al.swidth[s], []
    for index in range(s - 1, -1, -1):
        if index in al.markers:
            return False
        if not al.snorm[index]:
            continue
        if al.swidth[index] <= width:
            if al.swidth[index] < width or index in al.pairs or not al.s_opens(index):
                return False
            break
        body.append(index)
    else:
        return False
    opener = next((o for o in range(target - 1, -1, -1)
                   if al.onorm[o] and al.owidth[o] <= al.owidth[target]), -1)
    if opener < 0 or al.owidth[opener] != al.owidth[target] or not al.o_opens(opener):
        return False
    return bool(body) and all(opener < al.pairs.get(b, -1) < target for b in body)


def whole_block_up(al: Aligner, lines: list[int], at: int, target: int, stop: int) -> list[tuple[int, int]]:
    """For the closing line `lines[at]` (lines walked upwards) matched at original line
    `target`: the pairs of its whole block, closing line up to opening line, when every line
    of it equals the original lines right above `target` (blank lines aside); else none.
    O(block length)."""
    closer = lines[at]
    width, opener = al.swidth[closer], None
    for s in range(closer - 1, -1, -1):
        if s in al.markers:
            return []
        if not al.snorm[s]:
            continue
        if al.swidth[s] < width:
            return []
        if al.swidth[s] == width:
            if not al.s_opens(s):
                return []
            opener = s
            break
    if opener is None:
        return []
    found, o = [], target
    for s in lines[at:]:
        if s < opener:
            break
        o = al._skip_blank(o, stop, -1)
        if o <= stop or al.onorm[o] != al.snorm[s] or al.in_new_definition(s):
            return []
        found.append((s, o))
        o -= 1
    return found if found and found[-1][0] == opener else []


def block_shell_up(al: Aligner, lines: list[int], at: int, target: int, stop: int) -> list[tuple[int, int]]:
    """For the closing line `lines[at]` (lines walked upwards) whose block whole_block_up could not
    pair line by line: its closing and opening lines, when the original block that ends at
    `target` opens with the same text and every line between is deeper in both (the body
    rewritten, the block the same: `fn size_hint(&self)` shown whole right above the anchor,
    while another impl has the same method further up). The body is left to the lines
    between. O(block length)."""
    closer = lines[at]
    width = al.swidth[closer]
    opener = None
    for s in range(closer - 1, -1, -1):
        if s in al.markers or al.in_new_definition(s):
            return []
        if al.snorm[s] and al.swidth[s] <= width:
            opener = s if al.swidth[s] == width and al.s_opens(s) else None
            break
    if opener is None or opener not in lines[at:]:
        return []
    base = al.owidth[target]
    for o in range(target - 1, stop, -1):
        if al.onorm[o] and al.owidth[o] <= base:
            if al.owidth[o] == base and al.onorm[o] == al.snorm[opener] and al.o_opens(o):
                return [(closer, target), (opener, o)]
            return []
    return []
