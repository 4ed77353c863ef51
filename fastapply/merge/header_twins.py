"""A definition header the snippet shows verbatim, left unpaired while the merge drops its only copy.

Models show a definition twice when they edit it in one class and add it to another (devito's
`base` property: the subclass gains `@property def base(self): return self.args[0]`, the base
class's `base` becomes abstract). The header is then not unique in the snippet, so the alignment
does not anchor on it; the rewritten copy's decorator pairs with the first `@property` above the
next anchor instead, and every definition between that decorator and the anchor is dropped as if
the snippet replaced them. Where the original has the header once in the block that holds the
next anchor of the snippet's copy (no marker between), below the pair above it and as deep
against that anchor as the snippet's line, that copy is the original's definition: pair it, and
its decorators with the original's right above it.

Complexity: O(m log m) to order the pairs and again per header it pairs (rare), plus per unpaired
header a bisect, its decorators, its copies and at most _REACH original lines.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from .lines import header_key, indent_width, opens_block

if TYPE_CHECKING:
    from .anchor import Aligner

_REACH = 400  # original lines looked at above the next anchor


def pair_dropped_twin_headers(al: Aligner) -> None:
    if not al.pairs:
        return
    ordered = sorted(al.pairs.items())
    keys = [s for s, _ in ordered]
    taken = set(al.pairs.values())
    items, snorm, onorm = al.items, al.snorm, al.onorm
    for s, item in enumerate(items):
        norm = snorm[s]
        if item.kind != "code" or s in al.pairs or not norm or header_key(norm) is None or not opens_block(norm):
            continue  # (a definition with a body: `X : numpy array of shape (...)` in a docstring is none)
        at = bisect_left(keys, s)
        if at == len(keys) or any(m in al.markers for m in range(s + 1, keys[at])):
            continue
        s_next, o_next = ordered[at]
        o = _copy_in_block(al, al.opos.get(norm, ()), o_next)
        if o is None or o in taken or al.swidth[s] - al.swidth[s_next] != al.owidth[o] - al.owidth[o_next]:
            continue  # (and it stands as deep against that anchor as the snippet's line)
        first = s  # the decorators right above the header go with it (not CSS's `@media ... {`)
        while first > 0 and items[first - 1].kind == "code" and (snorm[first - 1] or "").startswith("@") \
                and not opens_block(snorm[first - 1]):
            first -= 1
        below = bisect_left(keys, first) - 1
        if o < s - first or below >= 0 and not ordered[below][1] < o - (s - first):
            continue  # (room above for its decorators, and the pair above, in this part or an earlier one, above them)
        moved = [(d, o - (s - d)) for d in range(first, s)]
        if any(od in taken and al.pairs.get(d) != od for d, od in moved):
            continue
        for d, od in moved:
            if onorm[od] == snorm[d]:
                taken.discard(al.pairs.get(d, -1))
                al.pairs[d] = od
                taken.add(od)
            elif d in al.pairs:
                taken.discard(al.pairs.pop(d))
        al.pairs[s] = o
        taken.add(o)
        ordered = sorted(al.pairs.items())
        keys = [k for k, _ in ordered]


def _copy_in_block(al: Aligner, where: list[int] | tuple[int, ...], anchor: int) -> int | None:
    """The one copy of a header above original line `anchor` in the block that holds the anchor
    (no shallower line between the two), or None. Each line between is measured once, walking up
    from the anchor to the copies in turn: O(copies + the lines between)."""
    found = None
    lowest, measured = 1 << 30, anchor + 1  # (the least indentation of the lines [measured, anchor])
    for o in reversed(where):
        if o >= anchor:
            continue
        if anchor - o > _REACH:
            break
        for k in range(o + 1, measured):
            if al.onorm[k]:
                lowest = min(lowest, indent_width(al.orig[k]))
        measured = o + 1
        if lowest < indent_width(al.orig[o]):
            break  # (this copy and every earlier one sit in another block)
        if found is not None:
            return None  # (two copies in the anchor's block: nothing tells them apart)
        found = o
    return found
