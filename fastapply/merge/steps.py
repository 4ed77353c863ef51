"""One step of the alignment (anchor.Aligner.align): inside a pair of ranges, the candidate anchors
(lines unique on both sides, definition headers by name, the closing lines of their blocks), the
heaviest increasing chain of them (_best_chain: dropping original lines between two links that no
marker separates costs a little, and no link may orphan a block's body), and, where no candidate
is left, the lines next to the range's fixed ends matched in order from those ends (_edges,
walk.greedy). Complexity: O(range lines * log n) per step, plus the chain search (quadratic in up to
_DP_LIMIT candidates, heaviest_chain's O(k log k) above); align bounds the steps' total work.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import islice
from typing import TYPE_CHECKING

from ..deadline import check_deadline
from .blocks import shallower_before
from .candidates import NEW_CODE_SHARE, amid_new_code, context_below, far_above_end, first_branch
from .chain import best_chain_end, count_in, heaviest_chain, span
from .closers import end_in_doubt
from .context import context_block
from .context_ends import context_before_deletion, context_before_marker, edit_before_marker, later_run_before_marker
from .joined import split_piece
from .lines import header_key
from .resumed import header_before_marker
from .walk import greedy, is_ruler

if TYPE_CHECKING:
    from .anchor import Aligner

_AFTER_MARKER = 3.0  # extra weight of a line right after a marker: where models put their context
_DP_LIMIT = 300  # candidates up to which the chain search weighs deletions (quadratic in this)
_DROP_COST = 0.1
_DROP_CAP = 6.0
_FAR_DROP = 10  # deleted code lines from which a link across disagreeing depths is a wrong copy (_breaks)
_ORPHAN_MIN = 3  # deleted lines from which a dropped block header means a misplaced anchor
_WORDS = re.compile(r"\w")
_HIDDEN_END = 0.5  # weight of a block's closing line paired through a marker (below any unique line)


def align_range(al: Aligner, s_lo: int, s_hi: int, o_lo: int, o_hi: int) -> list[tuple[int, int, int, int]]:
    if s_lo >= s_hi or o_lo >= o_hi:
        return []
    check_deadline()
    al._work_left -= s_hi - s_lo
    if al._code_upto[s_hi] == al._code_upto[s_lo]:
        return []  # no code line (blank lines between two anchors): nothing to pair, nor to _edges
    if al._work_left < 0:  # a pathological recursion (one anchor per level): stop refining
        _edges(al, s_lo, s_hi, o_lo, o_hi)
        return []
    cands: list[tuple[int, int, float]] = []
    snorm, opos, spos, items = al.snorm, al.opos, al.spos, al.items
    trivial, fresh, weights = al.strivial, al._fresh or al.fresh_flags(), al._weights
    ranges = al.def_range
    for s in range(s_lo, s_hi):
        norm = snorm[s]
        if not norm or fresh[s] or items[s].fresh or trivial[s] and not is_ruler(norm):
            continue  # (fresh: in_new_definition, inline)
        lo, hi = o_lo, o_hi
        if ranges and s in ranges:  # inside a matched definition: its copy is one in the old one
            lo, hi = max(o_lo, ranges[s][0]), min(o_hi, ranges[s][1] + 1)
        where = opos.get(norm)
        if where:
            # (chain.span and count_in, inlined: once per code line of every step; a text the
            # snippet has once is there once in any range around it)
            first, last = bisect_left(where, lo), bisect_left(where, hi)
            if last - first == 1 and (len(copies := spos[norm]) == 1
                                      or bisect_left(copies, s_hi) - bisect_left(copies, s_lo) == 1):
                weight = weights.get(norm)
                if weight is None:  # (per text: a common line is a candidate in many small steps)
                    weight = weights[norm] = 1.0 + min(len(_WORDS.findall(norm)), 40) / 10
                if s - 1 in al.markers:
                    weight += _AFTER_MARKER
                if split_piece(al, s, where[first], o_lo, o_hi):
                    continue  # (a piece of a line the snippet split: the joined line is its place)
                cands.append((s, where[first], weight * NEW_CODE_SHARE if amid_new_code(al, s) else weight))
            if last > first:
                continue
        elif norm[0] in "e}" and (o := first_branch(al, norm, lo, hi, s_lo, s_hi)) is not None:
            cands.append((s, o, 1.0))
            continue
        key = al._skey(s)
        if key is not None:
            okeys = al._okeys_for(key)
            first, last = span(okeys, lo, hi)
            if last - first == 1 and count_in(al._skey_index()[key], s_lo, s_hi) == 1:
                o = okeys[first]
                if not _paired_exactly(al, o, s_lo, s_hi):
                    cands.append((s, o, 1.0))
    if len(cands) > 1:
        cands = [c for c in cands if not context_below(al, c[0], c[1], s_lo, o_lo, o_hi)]
    if cands:
        cands = [c for c in cands if not far_above_end(al, c[0], c[1], s_lo, s_hi, o_hi)]
    several = al._code_upto[s_hi] - al._code_upto[s_lo] > 1
    if several:  # (with one code line there is one candidate at most: _best_chain reads no set)
        al._hidden_ends = set()
    # (with one code line in the range no block can end inside it: _block_ends finds nothing)
    for s, o, weight in list(cands) if several else ():
        ends = al._block_ends(s, o, s_hi, o_hi)
        if ends is not None and not al._marker_between(s, ends[0]):
            cands.append((*ends, weight))
        elif ends is not None:
            # A marker inside the snippet's block may hide where the original's block ends: it
            # may stand for the rest of this block and more, up to another block's end. Such
            # a closing line never anchors a deletion right after it (_best_chain: the `}`
            # before the next anchor is meant), and it yields to the lines that say so.
            cands.append((*ends, _HIDDEN_END if end_in_doubt(al, s, *ends) else weight))
            al._hidden_ends.add(ends)
    chain = heaviest_chain(cands) if len(cands) > _DP_LIMIT else \
        _best_chain(al, cands, (s_lo - 1, o_lo - 1), (s_hi, o_hi))
    if not chain:
        _edges(al, s_lo, s_hi, o_lo, o_hi)
        return []
    chain = _resume_above(al, chain, s_lo, s_hi, o_hi)
    gaps = []
    prev_s, prev_o = s_lo - 1, o_lo - 1
    for s, o in chain:
        al.pairs[s] = o
        if prev_s + 1 < s and prev_o + 1 < o:  # (an empty range is a step that does nothing)
            gaps.append((prev_s + 1, s, prev_o + 1, o))
        prev_s, prev_o = s, o
    if prev_s + 1 < s_hi and prev_o + 1 < o_hi:
        gaps.append((prev_s + 1, s_hi, prev_o + 1, o_hi))
    return gaps


def _resume_above(al: Aligner, chain: list[tuple[int, int]], s_lo: int, s_hi: int,
                  o_hi: int) -> list[tuple[int, int]]:
    """The chain's last line, when a marker stands right before it and only blank lines follow it
    up to the range's right anchor, pairs with its copy right above that anchor rather than an
    earlier one: the marker stands for everything up to where the context resumes (pyzmq's
    `for evt in self.events:`, a marker, `return False`, `return True`: paired with the `for`
    block's own `return False`, the next loop was dropped). O(log m + the lines between)."""
    s, o = chain[-1]
    prev = chain[-2][0] if len(chain) > 1 else s_lo - 1
    if al.pairs.get(s_hi) != o_hi or not any(m in al.markers for m in range(prev + 1, s)) \
            or any(al.snorm[t] or t in al.markers for t in range(s + 1, s_hi)):
        return chain
    last = o_hi - 1
    while last > o and not al.onorm[last]:
        last -= 1
    if last == o or al.onorm[last] != al.snorm[s] or al.owidth[last] != al.owidth[o]:
        return chain
    return [*chain[:-1], (s, last)]


def _best_chain(al: Aligner, cands: list[tuple[int, int, float]], left: tuple[int, int],
                right: tuple[int, int]) -> list[tuple[int, int]]:
    """Heaviest increasing chain where dropping original lines between two links that no marker
    separates costs a little per line: anchors that would delete a stretch of code the snippet
    says nothing about must earn it. No link may orphan a block's body (see _orphans), also
    not the links to the anchors around the range (`left`, `right`) when they are pairs."""
    if not cands:
        return []  # (most steps of a long snippet: skip the set-up below)
    if len(cands) == 1:  # (and most others: one candidate, a chain of itself unless it orphans a body)
        s2, o2, _ = cands[0]
        if left[0] >= 0 and al.pairs.get(left[0]) == left[1] and not al._marker_between(left[0], s2) \
                and _breaks(al, *left, s2, o2) or al.pairs.get(right[0]) == right[1] \
                and not al._marker_between(s2, right[0]) and _breaks(al, s2, o2, *right):
            return []
        return [(s2, o2)]
    cands = sorted(set(cands))
    best = [0.0] * len(cands)
    back = [-1] * len(cands)
    fixed_left = al.pairs.get(left[0]) == left[1] and left[0] >= 0
    fixed_right = al.pairs.get(right[0]) == right[1]
    for j, (s2, o2, w2) in enumerate(cands):
        top, arg = 0.0, -1
        if fixed_left and not al._marker_between(left[0], s2) and _breaks(al, *left, s2, o2):
            top = float("-inf")  # it cannot be the chain's first link
        for i in range(j):
            s1, o1, _ = cands[i]
            if s1 >= s2 or o1 >= o2:
                continue
            score = best[i]
            if not al._marker_between(s1, s2):
                if _breaks(al, s1, o1, s2, o2) or (s1, o1) in al._hidden_ends \
                        and al.deletes(s1, o1, s2, o2):
                    continue
                gone = al.moved_between(o1, o2)
                score -= min(max(0, (o2 - o1) - (s2 - s1) - gone) * _DROP_COST, _DROP_CAP)
            if score > top:
                top, arg = score, i
        best[j], back[j] = top + w2, arg
    if fixed_right:
        for j, (s1, o1, _) in enumerate(cands):
            if not al._marker_between(s1, right[0]) and _breaks(al, s1, o1, *right):
                best[j] = float("-inf")  # it cannot be the chain's last link
    if not cands or max(best) == float("-inf"):
        return []
    return best_chain_end(cands, best, back)


def _breaks(al: Aligner, s1: int, o1: int, s2: int, o2: int) -> bool:
    """True when linking (s1, o1) to (s2, o2) with no marker between them orphans a block's body
    (_orphans) or deletes a stretch of code while the two lines stand at depths that disagree:
    the snippet line sits deeper (or shallower) below its neighbour than the original line does
    below its own (fluent-logger's `self._sender = None` in a new `if` of `close()`, linked to the
    same line in `__init__`, sixty lines up). Lines moved into or out of a block keep their
    neighbours' depth relation or delete nothing; a stretch deleted across such a jump is an
    anchor on the wrong copy. O(_FAR_DROP) lines read plus _orphans."""
    if _orphans(al, s1, o1, s2, o2):
        return True
    if (o2 - o1) - (s2 - s1) - al.moved_between(o1, o2) < _FAR_DROP:
        return False
    if al.swidth[s2] - al.swidth[s1] == al.owidth[o2] - al.owidth[o1] or _unwraps(al, s1, o1, o2):
        return False
    return _code_between(al, o1, o2, _FAR_DROP)


def _unwraps(al: Aligner, s1: int, o1: int, o2: int) -> bool:
    """The snippet dedents s1 by one block step against o1, and an unpaired block header above o1,
    whose body is indented by that step, ends before o2: the snippet unwrapped that block (pudb's
    `if sys.version_info >= (3, 10):`, its body kept, its `else:` branch dropped), and the lines
    between o1 and o2 are the rest of it. O(o1's enclosing headers + pairs)."""
    shift = al.owidth[o1] - al.swidth[s1]
    if shift <= 0:
        return False
    h = al._header_of(o1)
    while h >= 0 and al.owidth[h] >= al.owidth[o2]:
        body = next((k for k in range(h + 1, o1 + 1) if al.onorm[k]), o1)
        if al.owidth[body] - al.owidth[h] == shift:
            return h not in set(al.pairs.values())
        h = al._header_of(h)
    return False


def _code_between(al: Aligner, o1: int, o2: int, count: int) -> bool:
    """True when at least `count` non-blank original lines lie strictly between o1 and o2.
    O(lines read until the count is reached)."""
    solid = (o for o in range(o1 + 1, o2) if al.onorm[o])
    return next(islice(solid, count - 1, None), None) is not None


def _orphans(al: Aligner, s1: int, o1: int, s2: int, o2: int) -> bool:
    """True when linking (s1, o1) to (s2, o2) with no marker between them would delete the
    header of the block that o2 sits in (a line with less indentation between o1 and o2) and
    keep its body, while the snippet gives no header of its own for s2 there (or one that
    stands for blocks inside a definition the link drops) and does not dedent s2 (unwrapping a
    block), and the stretch is more than a line or two: an anchor on a copy of the line
    somewhere else. O(o2's enclosing blocks), memoised."""
    if al._header_of(o2) <= o1:
        return False  # (the cheap test of the two below first)
    if not _code_between(al, o1, o2, _ORPHAN_MIN):
        return False  # a header or two dropped on purpose (an unwrapped `try:`) is no sign
    if al._sparent is None:
        al._sparent = shallower_before(al.stext, al.snorm, al.swidth)
    own = al._sparent[s2]
    if own > s1:
        # the snippet's own headers for s2 stand for o2's enclosing blocks down to the depth of
        # the shallowest of them only: a definition shallower still that opens between o1 and
        # o2 is dropped, its body kept (an `} else {` of the snippet paired across another
        # class's method)
        while al._sparent[own] > s1:
            own = al._sparent[own]
        depth = al.owidth[o2] - (al.swidth[s2] - al.swidth[own])
        above = al._header_of(o2)
        while above > o1 and al.owidth[above] >= depth:
            above = al._header_of(above)
        return above > o1 and header_key(al.onorm[above]) is not None
    snip_step = al.swidth[s2] - al.swidth[s1]
    return snip_step >= al.owidth[o2] - al.owidth[o1]


def _paired_exactly(al: Aligner, o: int, s_lo: int, s_hi: int) -> bool:
    """True when the original line `o` also occurs verbatim in the snippet range (keep that one)."""
    return count_in(al.spos.get(al.onorm[o], []), s_lo, s_hi) > 0


def _edges(al: Aligner, s_lo: int, s_hi: int, o_lo: int, o_hi: int) -> None:
    code = [s for s in range(s_lo, s_hi) if al.snorm[s]]
    if not code:
        return
    gaps = [s for s in range(s_lo, s_hi) if s in al.markers]
    head = [s for s in code if not gaps or s < gaps[0]]
    tail = [s for s in code if gaps and s > gaps[-1]]
    stop = greedy(al, head, o_lo, o_hi, +1)
    if not gaps and al.pairs.get(s_hi) == o_hi:
        # no marker up to the next anchor: what the walk down left unpaired is matched up
        # from that anchor (context right above it, after new code)
        rest = head[next((i for i in range(len(head) - 1, -1, -1) if head[i] in al.pairs), -1) + 1:]
        greedy(al, rest[::-1], o_hi - 1, stop - 1, -1)
    greedy(al, tail[::-1], o_hi - 1, stop - 1, -1)
    if tail and tail[0] not in al.pairs and not (
            al.pairs.get(s_hi) == o_hi and context_before_deletion(al, tail, stop, o_hi, s_hi)):
        context_block(al, tail, stop, o_hi)
    if gaps and head and head[-1] not in al.pairs:
        upto = min((al.pairs[s] for s in tail if s in al.pairs), default=o_hi)
        later_run_before_marker(al, head, upto)
        if head[-1] not in al.pairs:
            context_before_marker(al, head, o_lo, upto)
        if head[-1] not in al.pairs:
            edit_before_marker(al, head, upto)
        if head[-1] not in al.pairs:
            header_before_marker(al, head, o_lo, upto)
