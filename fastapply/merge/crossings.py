"""Context lines that the alignment turned into a move: the first line of a part, right under its
marker, whose original lies in a stretch that anchors further down the part delete.

Models put unchanged context right under a marker and the edit after it. When the edit holds a
line the file also has a little higher up (a guard copied into a new block: yaspin's `if
self._hide_spin ...: continue` under `with self._stream_lock:`; bashlex's `index += 1` added after
`self._line_number += 1`), the heaviest chain may anchor on that copy: the context under the marker
becomes new code, and the stretch between the copy and the next anchor, the context's own original
lines among them, is deleted, with no marker to say so. The merge then moves the context line down
and drops what lay between, a silent loss.

`release_context` finds such a part and asks the alignment again with the crossing anchors read as new
code (they are what the edit adds); it keeps the new alignment only when the context line then
pairs with its original. O(code lines + pairs) to find the parts, plus one alignment when any has
the shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .anchor import Aligner

_MAX_CROSSING = 2  # anchors set aside per part: more than a guard's header and closer is another edit


def release_context(al: Aligner) -> None:
    """One more alignment at most, whatever the number of parts with the shape: all their
    crossing anchors are read as new code at once, and the new alignment is kept only when every
    context line then pairs with its original (else the first alignment stands)."""
    found = list(_crossings(al))
    if not found:
        return
    saved = dict(al.pairs)
    crossing = [s for _, anchors, _ in found for s in anchors]
    for s in crossing:
        al.items[s].fresh = True
    al.pairs = {}
    al.align()
    if any(al.pairs.get(context) != place for context, _, place in found):
        for s in crossing:
            al.items[s].fresh = False
        al.pairs = saved


def _crossings(al: Aligner) -> Iterator[tuple[int, list[int], int]]:
    """(context line, crossing anchors, the context's original line) of each part with the shape."""
    for part in al.segments:
        code = [s for s in part if al.snorm[s]]
        if len(code) < 3:
            continue
        context = code[0]
        if not al.beside_marker(context, -1) or context in al.pairs or al.strivial[context] \
                or al.in_new_definition(context):
            continue
        copies = al.opos.get(al.snorm[context], [])
        if not copies or len(al.spos[al.snorm[context]]) != 1:
            continue
        anchors = sorted((s, al.pairs[s]) for s in code if s in al.pairs)
        if not anchors or any(o1 >= o2 for (_, o1), (_, o2) in zip(anchors, anchors[1:])):
            continue
        for index in range(min(len(anchors) - 1, _MAX_CROSSING)):
            o_a, o_b = anchors[index][1], anchors[index + 1][1]
            found = [o for o in copies if o_a < o < o_b]
            if len(found) == 1:
                yield context, [s for s, _ in anchors[:index + 1]], found[0]
                break

