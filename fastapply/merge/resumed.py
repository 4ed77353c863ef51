"""A definition's header right before a marker, after a rewritten body: the snippet rewrites the
end of one function and shows the next one's first lines (`@property`, `def cli(self):`) with a
marker for the rest of it. When the header occurs more than once in the file, no alignment step
pairs it, and read as new code it would define the name a second time (refused). Its copy right
after the rewritten body, past lines that all belong to that body, is the one meant.

Complexity: O(the lines between the segment's anchor and the copy), copies found by bisection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .chain import nearest_above

if TYPE_CHECKING:
    from .anchor import Aligner

_REACH = 60  # original lines between the anchor and the copy, at most


def header_before_marker(al: Aligner, head: list[int], lo: int, hi: int) -> None:
    """Pair the definition header that ends `head` (the unpaired code lines of a segment before a
    marker, lo..hi the original range they fall in) with its first copy in that range, with the
    lines right above it that match the lines above the copy (decorators), when every original
    line between the segment's last anchor (lo - 1) and that copy is deeper than the copy: the
    body the snippet rewrote, nothing of the code around it."""
    if not head or head[-1] in al.pairs or al.key_of(al.snorm[head[-1]]) is None or head[-1] + 1 not in al.markers \
            or lo < 1 or al.pairs.get(head[0] - 1) != lo - 1:
        return
    last, anchor = head[-1], head[0] - 1
    copies = nearest_above(al.opos.get(al.snorm[last], []), lo)
    if not copies or copies[0] >= hi or copies[0] - lo > _REACH:
        return
    o = copies[0]
    width = al.owidth[o]
    if al.swidth[last] != width or al.swidth[anchor] <= width:
        return  # (the same indentation as the copy, and the anchor inside the body above it)
    run = [(last, o)]
    s, k = last - 1, o - 1
    while s >= head[0] and k >= lo and s not in al.pairs and al.snorm[s] and al.onorm[k] == al.snorm[s]:
        run.append((s, k))
        s, k = s - 1, k - 1
    first = run[-1][1]
    if any(al.onorm[j] and al.owidth[j] <= width for j in range(lo, first)):
        return  # code at the header's depth or shallower lies between: not only the rewritten body
    al.pairs.update(run)
