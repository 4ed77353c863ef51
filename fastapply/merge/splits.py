"""A definition cut in two: its header, new lines, a closing line, then a new definition whose
first lines are the old body's, and a marker.

A release that turns `lowerInfo` into a wrapper around a new `lowerInfoRemapped` (fuzzysort) moves
the old body under the new header; a snippet shows the old header with its new body and closing
line, the new header, the first lines of the old body and a marker for the rest of it. The
alignment pairs the closing line with the old definition's own, so the lines under the new header
are new code and the marker inside it stands for nothing (refused by new_definitions). Read as the
split, the closing line is new, the lines under the new header pair with the old body's, and the
marker stands for the rest of that body, up to the old closing line, which now closes the new
definition. Nothing is lost and nothing is written twice. A Python definition has no closing
line: there the old header's block in the snippet ends where the new header dedents (galpy's
`_dens`, rewritten to call a new `_dens_body` that starts with its old body's first lines and a
marker). The new header is recorded in
`al.split_heads`, which refine.prune_orphans and new_definitions read: lines under it pair with
the old body, and the marker under it stands for that body's rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lines import header_key, is_closer, opens_block
from .similar import FUZZY_MIN, similarity

if TYPE_CHECKING:
    from .anchor import Aligner

_MAX_LINES = 8  # lines of the old body shown under the new header


def pair_split_definitions(al: Aligner) -> None:
    """For each marker right under a new definition's first lines, the pairing above when it fits:
    the new header's key defined nowhere in the original, the line above it a closing line paired
    with the end of a definition whose header the snippet shows above, and the lines under the new
    header equal, in order and at the same depth, to consecutive original lines of that body after
    everything the snippet pairs in it, or, fewer than half of them, edited versions of them (npm's
    arborist: `nameFromEdges` split into itself and `nameFromEdgeSet(edgesIn)`, whose old body reads
    `edgesIn` where it read `node.edgesIn`). O(markers x _MAX_LINES) plus the body lines compared."""
    for m in al.marker_list:
        if al.items[m].kind == "marker":
            _split_above(al, m)


def _split_above(al: Aligner, m: int) -> None:
    body: list[int] = []
    k = al.code_above(m)
    # (up to a line that opens a block around all of them: blocks inside the body are its own)
    while k >= 0 and k not in al.pairs and len(body) < _MAX_LINES \
            and not (al.s_opens(k) and (not body or al.swidth[k] < min(al.swidth[b] for b in body))
                     and al.key_of(al.snorm[k]) is not None):
        body.append(k)
        k = al.code_above(k)
    if not body or k < 0 or k in al.pairs or not opens_block(al.snorm[k]):
        return
    key = al.key_of(al.snorm[k])
    if key is None or al._okeys_for(key):
        return
    header, body = k, body[::-1]
    closer = al.code_above(header)
    if closer < 0:
        return
    if closer in al.pairs and is_closer(al.snorm[closer]):
        width = al.swidth[closer]
    elif closer not in al.pairs and al.swidth[closer] > al.swidth[header]:
        width = al.swidth[header]  # (a block that ends where the code dedents: Python's)
    else:
        return
    old_header = closer - 1
    while old_header >= 0 and old_header not in al.markers and not (
            old_header in al.pairs and al.swidth[old_header] == width and al.s_opens(old_header)):
        if al.snorm[old_header] and al.swidth[old_header] <= width:
            return  # (another statement at the header's depth between: the old block ends above it)
        old_header -= 1
    if old_header < 0 or old_header in al.markers or header_key(al.snorm[old_header]) is None:
        return
    start = al.pairs[old_header]
    end = al.pairs[closer] if closer in al.pairs else al._orig_end(start)
    if al._orig_end(start) != end:
        return
    shown = [al.pairs[s] for s in range(old_header + 1, closer) if s in al.pairs]
    first = max([start, *shown]) + 1
    o = first
    while o < end and al.onorm[o] != al.snorm[body[0]]:
        o += 1
    if o >= end:
        o = first  # (the body's first line edited: it starts right after what the snippet shows)
    rows: list[int] = []
    for s in body:
        while o < end and not al.onorm[o]:
            o += 1
        if o >= end or al.swidth[s] - al.swidth[header] != al.owidth[o] - al.owidth[start] \
                or al.onorm[o] != al.snorm[s] and similarity(al.snorm[s], al.onorm[o]) < FUZZY_MIN:
            return
        rows.append(o)
        o += 1
    edited = [s for s, row in zip(body, rows) if al.snorm[s] != al.onorm[row]]
    if 2 * len(edited) > len(body):
        return  # (mostly other lines: a new body, not the old one under a new name)
    if closer in al.pairs:
        del al.pairs[closer]
        al.fuzzy.discard(closer)
    for s, row in zip(body, rows):
        al.pairs[s] = row
    al.fuzzy.update(edited)
    al.split_heads.add(header)
