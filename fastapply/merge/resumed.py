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

import re
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


# the end of a signature without a body: Python's `) -> str: ...`, TypeScript's overload `): A | B;`
_STUB_END = re.compile(r"^\).*;$")


def _stub_end(norm: str) -> bool:
    return norm.endswith(": ...") or bool(_STUB_END.match(norm)) and "{" not in norm


def later_header_copy(al: Aligner) -> None:
    """A definition header the snippet writes several times (`@overload` stubs above the real
    `def readfrom(`) paired at an early copy, while a later copy, unpaired, is followed by lines
    that pair inside the original block of that header: the later copy is the original definition,
    the early ones new stubs (ubelt's three overloads; the first took the signature's lines and the
    real one read as a second definition; TypeScript's overload declarations, internationalized/date's
    `minDate`). The header pair and the early copy's pairs inside the
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
                    or not any(_stub_end(al.snorm[k]) for k in range(s1, s2)) \
                    or any(_stub_end(al.onorm[k]) for k in range(o, end + 1)):
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


def later_opener_copy(al: Aligner) -> None:
    """A block opener the snippet writes twice (ray's `if self._empty_block is not None:`, once
    inside a new `if additional_blocks:` block that copies it, once at its own depth right above a
    marker): the alignment pairs the early copy, one level too deep, and the marker under the later
    one, inside an unpaired block, stands for nothing, so the block's first lines are lost. When
    the later copy sits right above a marker at the original's depth relative to the paired line
    above both, and the early one does not, the pair moves to the later copy. O(pairs) to find
    the candidates; at most _TRIES of them O(the lines between the copies and above the first)."""
    tries = 0
    for s1, o in sorted(al.pairs.items()):
        norm = al.snorm[s1]
        copies = al.spos.get(norm, ())
        if len(copies) < 2 or copies[-1] <= s1 or not al.s_opens(s1) or al.key_of(norm) is not None:
            continue
        s2 = next((k for k in copies if k > s1 and k not in al.pairs), None)
        if s2 is None or al.code_above(s2 + 1) != s2:
            continue
        below = s2 + 1
        while below < len(al.items) and al.items[below].kind == "blank":
            below += 1
        if below not in al.markers:
            continue  # (the later copy holds a marker for its block's lines)
        tries += 1
        if tries > _TRIES:
            return
        base = next((k for k in range(s1 - 1, -1, -1) if k in al.pairs and al.s_opens(k)), None)
        if base is None or any(k in al.markers for k in range(s1, s2)) \
                or al.owidth[o] - al.owidth[al.pairs[base]] != al.swidth[s2] - al.swidth[base] \
                or al.swidth[s1] - al.swidth[base] == al.owidth[o] - al.owidth[al.pairs[base]]:
            continue  # (the early copy at the right depth may be the original: left as it is)
        if any(k in al.pairs for k in range(s1 + 1, s2)):
            continue  # (lines between them paired: the early copy's block holds original lines)
        # (nothing paired between the two copies: the move keeps the pairs in order)
        del al.pairs[s1]
        al.fuzzy.discard(s1)
        al.pairs[s2] = o


_RUN_MOST = 12  # lines right after a marker that later_run_copy moves a pairing to


def later_run_copy(al: Aligner) -> None:
    """Lines right after a marker, unpaired (two or more, in order), that the file has right
    after a line or two the marker would stand for, while a later copy of them in the snippet
    (new code written like the old: ray's second `return rest_response(status_code=..., message=..., status=...)` under a
    new check) took those original lines, so that the marker stands for nothing and its own line
    is carried off to the copy. The pairs move to the lines after the marker; the later copy is
    new code, and the marker stands for what it skips. O(markers x _RUN_MOST) plus, for the few
    that get that far, the pairs looked at once."""
    for m in al.marker_list:
        if al.items[m].kind != "marker":
            continue
        a = al.code_above(m)
        run: list[int] = []
        s = m + 1
        while s < len(al.items) and s not in al.markers and s not in al.pairs and len(run) <= _RUN_MOST:
            if al.snorm[s]:
                run.append(s)
            s += 1
        if a < 0 or a not in al.pairs or not run or len(run) > _RUN_MOST or al.strivial[run[0]]:
            continue
        b = next((k for k in range(s, len(al.items)) if k in al.pairs), None)
        if b is None:
            continue
        start = al._skip_blank(al.pairs[a] + 1, len(al.onorm), 1)
        if al.pairs[b] != start:
            continue  # (the marker stands for something already)
        targets: list[int] = []
        o = start + 1
        while o < len(al.onorm) and not al.onorm[o]:
            o += 1
        if al.onorm[o:o + 1] != [al.snorm[run[0]]]:
            continue
        for r in run:
            while o < len(al.onorm) and not al.onorm[o]:
                o += 1
            if o >= len(al.onorm) or al.onorm[o] != al.snorm[r]:
                break
            targets.append(o)
            o += 1
        if len(targets) < 2:
            continue  # (the lines of `run` the file has there, in order: two at least)
        run = run[:len(targets)]
        owner = {o2: s2 for s2, o2 in al.pairs.items() if start <= o2 <= targets[-1]}
        if any(o2 not in owner or al.snorm[owner[o2]] != al.onorm[o2] or owner[o2] <= b for o2 in targets):
            continue  # (a later copy of the same lines holds every one of them)
        for s2 in owner.values():
            del al.pairs[s2]
            al.fuzzy.discard(s2)
        for r, o2 in zip(run, targets):
            al.pairs[r] = o2
