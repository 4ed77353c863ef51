"""A definition's header right before a marker, after a rewritten body: the snippet rewrites the
end of one function and shows the next one's first lines (`@property`, `def cli(self):`) with a
marker for the rest of it. When the header occurs more than once in the file, no alignment step
pairs it, and read as new code it would define the name a second time (refused). Its copy right
after the rewritten body, past lines that all belong to that body, is the one meant. And a header
the snippet writes several times, new `@overload` stubs above the definition they describe: the
last copy is the original definition (later_header_copy).

Complexity: O(the lines between the segment's anchor and the copy), copies found by bisection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .chain import nearest_above

if TYPE_CHECKING:
    from .anchor import Aligner

_REACH = 60  # original lines between the anchor and the copy, at most
_TRIES = 8  # headers written several times that later_header_copy looks into, per merge


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


def later_header_copy(al: Aligner) -> None:
    """A definition header the snippet writes several times (`@overload` stubs above the real
    `def readfrom(`) paired at an early copy, while a later copy, unpaired, is followed by lines
    that pair inside the original block of that header: the later copy is the original definition,
    the early ones new stubs (ubelt's three overloads; the first took the signature's lines and the
    real one read as a second definition). The header pair and the early copy's pairs inside the
    original's signature move to the later copy, line for line. O(pairs) to find the candidates,
    then O(m + n) for each of at most _TRIES of them."""
    tries = 0
    for s1, o in sorted(al.pairs.items()):
        norm = al.snorm[s1]
        copies = al.spos.get(norm, ())
        if len(copies) < 2 or copies[-1] <= s1 or copies[-1] in al.pairs or not al.s_opens(s1) \
                or al.key_of(norm) is None:
            continue
        tries += 1
        if tries > _TRIES:
            return
        s2 = copies[-1]
        end = _definition_end(al, o)
        after = next((k for k in range(s2 + 1, len(al.items)) if k in al.pairs), None)
        if after is None or not o < al.pairs[after] <= end:
            # (the later copy's lines go on into no paired line of the original's block: they do only
            # when they end at a marker, the early copy is a stub (`) -> str: ...`) and the original no stub)
            stop = next((k for k in range(s2 + 1, len(al.items)) if k in al.markers), None)
            if stop is None or any(k in al.pairs for k in range(s2, stop)) \
                    or not any(al.snorm[k].endswith(": ...") for k in range(s1, s2)) \
                    or any(al.onorm[k].endswith(": ...") for k in range(o, end + 1)):
                continue
            after = stop
        moved = [k for k in range(s1, s2) if k in al.pairs]
        if any(not o <= al.pairs[k] <= end for k in moved) or after in al.pairs and any(
                al.pairs[k] >= al.pairs[after] for k in moved):
            continue  # (the early copy reaches past the signature: it is the original after all)
        for k in moved:
            del al.pairs[k]
        limit = al.pairs[after] if after in al.pairs else end + 1
        s, k = s2, o
        while s < after and k < limit and s not in al.markers and al.snorm[s] == al.onorm[k]:
            al.pairs[s] = k
            s, k = s + 1, k + 1
        if after not in al.pairs:
            return
        low = s  # (and up from the lines that go on into the block, past a marker in the signature)
        s, k = after - 1, al.pairs[after] - 1
        while s > low and k > o and s not in al.markers and al.snorm[s] and al.snorm[s] == al.onorm[k]:
            al.pairs[s] = k
            s, k = s - 1, k - 1
        return  # (one per merge: the pairs changed under the loop)


def _definition_end(al: Aligner, o: int) -> int:
    """The last line of the definition whose header opens at original line o: up to the next line at
    its depth or shallower, a signature's closing `) -> T:` excepted. O(its lines)."""
    width, k = al.owidth[o], o + 1
    while k < len(al.onorm) and (not al.onorm[k] or al.owidth[k] > width or al.onorm[k].startswith(")")):
        k += 1
    return k - 1
