"""Passes over a segment's last anchor, after the first alignment and its refinements.

A segment ends where its marker starts. Two things go wrong there: the segment's last anchor is a
new line that happens to repeat an original line a little further down (a guard), so the line
the file has right there is read as new and dropped; and the walk down from the last anchor
stopped at a closing line that a later pass paired, leaving the context under it unpaired.

Complexity: O(segment lines) per segment (uncross also looks at up to _UNCROSS_REACH original
lines between two anchors).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from .lines import is_comment

if TYPE_CHECKING:
    from .anchor import Aligner
    from .chain import SortedIndices

_UNCROSS_REACH = 50  # original lines between two anchors that uncross looks through


def uncross(al: Aligner) -> None:
    """A segment's last anchor (s, o) read as the new line it is: an unpaired line t after it, up
    to the marker that ends the segment, equals an original line o2 between the anchor before s
    and o, so pairing s drops o2 (and all between) with no marker there while pairing t instead
    drops less. Models add a guard (`if selector is None:`) that repeats a line a little further
    down; the line after it (`super().__init__()`) is the one the file has right there, and the
    marker after it keeps the rest, the repeated line included. O(segment lines + _UNCROSS_REACH)
    per segment."""
    markers = al.markers
    for seg in al.segments:
        paired = [s for s in seg if s in al.pairs]
        if len(paired) < 2 or seg[-1] + 1 not in markers:
            continue
        s, before = paired[-1], paired[-2]
        o, lo = al.pairs[s], al.pairs[before]
        if s in al.fuzzy or al.scloser[s] or al.snorm[s] != al.onorm[o] or o - lo > _UNCROSS_REACH:
            continue
        # (lines moved elsewhere by the snippet are not dropped: moves.py placed them)
        dropped = [k for k in range(lo + 1, o) if al.onorm[k] and k not in al._moved]
        if not dropped:
            continue
        for t in seg[seg.index(s) + 1:]:
            norm = al.snorm[t]
            if not norm or al.strivial[t] or al.in_new_definition(t):
                continue
            o2 = next((k for k in dropped if al.onorm[k] == norm), None)
            if o2 is not None:
                # (the new reading drops the lines above o2, fewer than the old one, which dropped them all)
                del al.pairs[s]
                al.pairs[t] = o2
                break


def extend_tails(al: Aligner) -> None:
    """Walk on down from a segment's last pair over the lines after it, up to the marker that ends
    the segment, while they are the original's next lines (refine passes pair a closing line
    that the first walk stopped at: `}` of a block whose opener the walk had not paired yet, so
    the context under it, `}` and `return {`, was left as new code). Line for line only, from an
    unedited pair: skipping lines, as the first walk may, read an edited line's neighbours as
    deleted (a Go statement) or repeated a line (a Ruby one). O(segment lines) each."""
    order = sorted(al.pairs)
    for seg in al.segments:
        if not seg or seg[-1] + 1 not in al.markers:
            continue
        last = next((s for s in reversed(seg) if s in al.pairs), None)
        if last is None or last == seg[-1]:
            continue
        rest = [s for s in seg if s > last and al.snorm[s]]
        if not rest or any(s in al.pairs for s in rest):
            continue
        if last in al.fuzzy or al.snorm[last] != al.onorm[al.pairs[last]]:
            continue  # (an edited line says less about what follows it)
        at = bisect_right(order, last)
        o_hi = al.pairs[order[at]] if at < len(order) else len(al.orig)
        o = al.pairs[last]
        for s in rest:  # line for line: no new line between, no original line skipped
            o = al._skip_blank(o + 1, o_hi, +1)
            if o >= o_hi or al.onorm[o] != al.snorm[s]:
                break
            al.pairs[s] = o


_REPLACED = 3  # new lines before a segment's trailing trivial lines that may replace original ones


def close_replaced_tails(al: Aligner) -> None:
    """A segment that ends, before its marker, with new lines and then trivial ones (a doc
    comment's fence ` * ```, `}`, `end`) right after an unedited anchor, where the original has
    as many lines or fewer (at the new lines' indentation) and then the same trivial lines: the
    new lines replace those, and the trivial lines are the file's own, not a second
    copy before the marker's (the marker would keep the old lines and repeat the fence).
    O(segment lines) per segment."""
    order = sorted(al.pairs)
    for seg in al.segments:
        if not seg or seg[-1] + 1 not in al.markers:
            continue
        last = next((s for s in reversed(seg) if s in al.pairs), None)
        if last is None or last in al.fuzzy or al.snorm[last] != al.onorm[al.pairs[last]]:
            continue
        rest = [s for s in seg if s > last and al.snorm[s]]
        if any(s in al.pairs for s in rest):
            continue
        tail = len(rest)
        while tail > 0 and (al.strivial[rest[tail - 1]] or al.scloser[rest[tail - 1]]):
            tail -= 1
        # the longest run of trivial lines the original has there, down to the last line alone
        # (graphql-http's doc example ends `*   return true;`, ` * }`, ` * ````: only the fence is the file's)
        for cut in range(tail, len(rest) if tail else 0):
            if _close_tail(al, order, last, rest[:cut], rest[cut:]):
                break


def _close_tail(al: Aligner, order: list[int], last: int, new: list[int], trivial: list[int]) -> bool:
    """Pair the trivial lines after `new` with the original's own, when the lines after `last`'s
    pair are as many old ones as new or fewer and then those trivial lines; True when paired."""
    # (more new lines may replace old ones where all are comment text: a doc comment's example
    # rewritten at length, graphql-http's `console.log(...)` line gone from under it)
    comment_only = all(is_comment(al.snorm[s]) for s in new)
    if len(new) > _REPLACED and not comment_only:
        return False
    at = bisect_right(order, last)
    o_hi = al.pairs[order[at]] if at < len(order) else len(al.orig)
    rows: list[int] = []
    o = al.pairs[last]
    while len(rows) < len(new) + len(trivial):
        o = al._skip_blank(o + 1, o_hi, +1)
        if o >= o_hi:
            break
        rows.append(o)
    # as many old lines as new ones, or fewer (two new lines for one): the fewest that fit; an
    # old line the snippet writes elsewhere (al.spos) is kept, not replaced
    for count in range(1, len(new) + 1):
        old, ends = rows[:count], rows[count:count + len(trivial)]
        if len(ends) == len(trivial) and all(al.onorm[r] == al.snorm[s] for s, r in zip(trivial, ends)):
            if all(al.owidth[r] == al.swidth[new[0]] and al.onorm[r] not in al.spos
                   and (len(new) <= _REPLACED or is_comment(al.onorm[r])) for r in old):
                for s, r in zip(trivial, ends):
                    al.pairs[s] = r
                return True
            return False
    return False


_CONTEXT_MOST = 8  # unpaired lines right after a marker that pair_resumed_context reads as one run


def pair_resumed_context(al: Aligner) -> None:
    """The unpaired lines right after a marker, up to a blank line, that close blocks (the last
    one less indented than the first: `"value": True,`, `},`, `}`) and occur as a run of
    consecutive lines exactly once between the pairs around them: the context where the file
    resumes, too common line by line to anchor, then new code under it (platformio's
    DEFAULT_SETTINGS end, a new `if` block after it; read as new, the lines the marker stood
    for were replaced). O(markers x run) plus, per marker, the copies of the run's first line in
    its gap (found by bisection in the aligner's line index)."""
    order: SortedIndices | None = None
    for m in al.marker_list:
        if al.items[m].kind != "marker":
            continue
        a = al.code_above(m)
        run: list[int] = []
        s = m + 1
        while s < len(al.items) and s not in al.markers and s not in al.pairs and al.snorm[s] \
                and len(run) <= _CONTEXT_MOST:
            run.append(s)
            s += 1
        if a < 0 or a not in al.pairs or not 2 <= len(run) <= _CONTEXT_MOST \
                or not al.scloser[run[-1]] or al.swidth[run[-1]] >= al.swidth[run[0]]:
            continue
        # the next pair, past those of lines inside new blocks (platformio's `"value": False,` in
        # the new `if` block paired the file's one copy, above the run's)
        lone: list[int] = []
        b = s
        while b < len(al.items) and b not in al.markers and (b not in al.pairs or _in_new_block(al, b)):
            if b in al.pairs:
                lone.append(b)
            b += 1
        if b >= len(al.items) or b not in al.pairs or al.pairs[b] <= al.pairs[a]:
            continue
        want = [al.snorm[t] for t in run]
        lo, hi = al.pairs[a] + 1, al.pairs[b] - len(want) + 1
        copies = al.opos.get(want[0], [])  # (in file order: the copies of the run's first line in the gap)
        hits = [o for o in copies[bisect_left(copies, lo):bisect_left(copies, hi)] if al.onorm[o:o + len(want)] == want]
        if len(hits) != 1:
            continue
        # lines inside new blocks below the run that paired above its copy: read as new, the code
        # they are (platformio's `"value": False,`)
        crossing = {t: al.pairs.pop(t) for t in lone if al.pairs[t] < hits[0] + len(run)}
        if order is None or crossing:
            order = al.pair_order()
        if all(al._monotone(t, hits[0] + k, order) for k, t in enumerate(run)):
            for k, t in enumerate(run):
                al.pairs[t] = hits[0] + k
                order.add(t)
        elif crossing:
            al.pairs.update(crossing)
            order = None


def _in_new_block(al: Aligner, s: int) -> bool:
    """Snippet line s lies inside a block whose opener the snippet writes unpaired (new code). O(depth)."""
    parents = al.snippet_parents()
    up = parents[s]
    while up is not None:
        if up not in al.pairs:
            return True
        up = parents[up]
    return False


def pair_unique_openers(al: Aligner) -> None:
    """A block opener right above a marker indented under it (the marker stands for the block's
    existing lines), unpaired because it is a common line (`try:`), pairs with its original when
    the file has it once, there and in order, opening a block too (pyogrio's `try:` under an
    edited docstring, the first line of a snippet without a first marker). O(markers)."""
    taken = set(al.pairs.values())
    order = None
    for m in al.marker_list:
        if al.items[m].kind != "marker":
            continue
        p = al.code_above(m)
        if p < 0 or p in al.pairs or al.swidth[m] <= al.swidth[p] or not al.s_opens(p) or al.in_new_definition(p):
            continue
        where = al.opos.get(al.snorm[p], ())
        if len(where) != 1 or where[0] in taken or not al.o_opens(where[0]):
            continue
        order = order or al.pair_order()
        if al._monotone(p, where[0], order) and not _drops_more(al, p, where[0], order):
            al.pairs[p] = where[0]
            taken.add(where[0])
            order.add(p)


def _drops_more(al: Aligner, p: int, o: int, order: SortedIndices) -> bool:
    """Pairing (p, o) would drop more original code lines, between the pair above p in its part
    and o, than the snippet writes between them: it would delete code, not place an opener (d3-shape's
    `} else {`, the file's only one, under a line the file has twice: paired, a class went). O(lines)."""
    above = order.below(p)
    if above is None or any(k in al.markers for k in range(above + 1, p)):
        return False
    new = sum(1 for k in range(above + 1, p) if al.snorm[k])
    return sum(1 for k in range(al.pairs[above] + 1, o) if al.onorm[k]) > new
