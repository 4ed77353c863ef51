"""Common lines (`if err != nil {`, `return res`): when one paired on its own anchors nothing.
prune_orphans (refine.py) asks isolated_common of every pair whose line the original has three
times or more."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .context import edits_dropping_comments, ends_before_whole_blocks
from .lines import DROPPED_STUBS

if TYPE_CHECKING:
    from .anchor import Aligner

_RUN_REACH = 12  # code lines a common line's unbroken run of context is followed to an anchor
_NEW_REACH = 200  # snippet lines walked in all (lines of new definitions in the run included)


def isolated_common(al: Aligner, s: int, o: int) -> bool:
    """A line found all over the file (`if err != nil {`) anchors nothing on its own: keep it
    only when a distinctive line close to it (same segment) is paired close to it too, or it
    closes a paired block."""
    snorm, opos, pairs, markers, strivial = al.snorm, al.opos, al.pairs, al.markers, al.strivial  # (hot: local)
    if len(opos.get(snorm[s], ())) < 3 or al.scloser[s] and al._closer_ok(s) or _ends_paired_block(al, s, o):
        return False
    size = len(al.items)
    for step in (-1, 1):
        s2, seen = s + step, 0
        while 0 <= s2 < size and s2 not in markers and seen < 3:
            other = snorm[s2]
            if other:
                seen += 1
                o2 = pairs.get(s2)
                if o2 is not None and not strivial[s2] and len(opos.get(other, ())) < 3 \
                        and (o2 - o) * step > 0 and (abs((o2 - o) - step * al.moved_between(o, o2) - (s2 - s)) <= 2
                                                     or step > 0
                                                     and _before_deleted_blocks(al, s, o, s2, o2)):
                    return False
            s2 += step
    return not any(_runs_to_distinct(al, s, o, step) for step in (-1, 1)) and not _edits_to_anchor(al, s, o)


def _ends_paired_block(al: Aligner, s: int, o: int) -> bool:
    """s is the last line of its part's block before a marker (or the snippet's end), o the last
    line of the original block it sits in, and the part's paired line above s lies in that block
    too: `return res` ending a rewritten body is that body's end wherever else the file returns
    `res`. O(the lines up to the pair above, the block's end cached)."""
    k = s + 1
    while k < len(al.items) and not al.snorm[k] and k not in al.markers:
        k += 1
    if k < len(al.items) and k not in al.markers and al.swidth[k] >= al.swidth[s]:
        return False  # (more of the block follows)
    h = al._header_of(o)
    if h < 0:
        return False
    end = al._orig_end(h)
    while end > o and not al.onorm[end]:
        end -= 1
    if end != o:
        return False
    above = s - 1
    while above >= 0 and above not in al.pairs and above not in al.markers:
        above -= 1
    if above < 0 or above not in al.pairs or not h <= al.pairs[above] < o:
        return False
    # (lines dropped and nothing new in their place: a deletion, or a new exit)
    return not any(al.onorm[k] for k in range(al.pairs[above] + 1, o)) or any(al.snorm[j] for j in range(above + 1, s))


def _edits_to_anchor(al: Aligner, s: int, o: int) -> bool:
    """The snippet lines after (s, o) up to the next pair, a distinctive line, are the old
    versions' edits with only commented-out lines of the original dropped besides (`for p in
    patterns:`, then `self._exclude(p)` for `found = self._exclude(p)` and the comments under
    it, then the next `elif`): the common line is the edited block's head. O(lines up to the
    next pair)."""
    s2 = s + 1
    while s2 < len(al.items) and s2 not in al.markers and s2 not in al.pairs:
        s2 += 1
    o2 = al.pairs.get(s2)
    if o2 is None or o2 <= o or al.strivial[s2] or len(al.opos.get(al.snorm[s2], ())) >= 3:
        return False
    rest = [k for k in range(s + 1, s2) if al.snorm[k]]
    between = [k for k in range(o + 1, o2) if al.onorm[k]]
    return bool(rest) and edits_dropping_comments(al, rest, between)


def _runs_to_distinct(al: Aligner, s: int, o: int, step: int) -> bool:
    """True when the snippet lines from (s, o) on, towards `step`, stand line for line on the
    original's lines (edited or inserted lines between them allowed, skipped original lines
    not) up to a distinctive paired line, within _RUN_REACH code lines: context that runs
    without a break into an anchor (`GET_DELTA(...)`, `if (!delta) {`, ... above an edited
    line and a unique one). A new definition in the run is inserted there and breaks nothing
    (`}` / new method / `/**`). Further than _RUN_REACH code lines, only a distinctive anchor
    reached straight from the common line counts, when that line is the copy nearest to it, at most
    _NEAR_GAP original code lines away (gevent: `if TRAVIS:` after a 19-line new block that ends
    where the old list did). A distinct original line dropped between two pairs breaks the run
    (_drops_distinct). O(_NEW_REACH) snippet lines, and the original lines between the pairs met
    (at most as many code lines as the snippet has between them)."""
    s2, seen, last_s, last_o = s + step, 0, s, o
    walked = 0
    while 0 <= s2 < len(al.items) and s2 not in al.markers and walked < _NEW_REACH:
        other = al.snorm[s2]
        walked += 1
        if other and not al.in_new_definition(s2):  # (a new definition is inserted in the run)
            seen += 1
            o2 = al.pairs.get(s2)
            if o2 is not None:
                lo, hi = min(o2, last_o), max(o2, last_o)
                code = sum(1 for k in range(min(s2, last_s) + 1, max(s2, last_s))
                           if al.snorm[k] and not al.in_new_definition(k))
                if (o2 - last_o) * step <= 0 or _solid_over(al, lo, hi, code):
                    return False
                distinctive = not al.strivial[s2] and len(al.opos.get(other, ())) < 3
                if not (distinctive and len(al.opos.get(other, ())) == 1) \
                        and _drops_distinct(al, lo, hi, min(s2, last_s), max(s2, last_s)):
                    return False  # (two repeated lines, a distinct one dropped between them)
                if distinctive:
                    # past the usual reach, only straight to the anchor, from the copy next to it
                    return seen <= _RUN_REACH or last_s == s and not _solid_over(al, lo, hi, _NEAR_GAP) \
                        and not any(lo < k < hi for k in al.opos[al.snorm[s]])
                if seen > _RUN_REACH:
                    return False
                last_s, last_o = s2, o2
        s2 += step
    return False


_NEAR_GAP = 2  # original code lines between an anchor and the nearest copy of a common line it reaches


def _drops_distinct(al: Aligner, lo: int, hi: int, s_lo: int, s_hi: int) -> bool:
    """True when an original line strictly between lo and hi that occurs nowhere else in either
    text, and that no snippet line between s_lo and s_hi shares half its words with (an edit, a
    rewrite, the line commented out), would be dropped by pairing across it: the common lines at
    both ends are not where the snippet stands (dnslib: a doctest's `True` and `False` paired with
    the old example's, dropping its distinct `>>> l3.matchGlob(...)` line between them).
    O(original x snippet lines between), each at most _NEW_REACH here (the original side no more
    code lines than the snippet side, or _solid_over stopped the walk); the snippet lines' words
    are read once, when a distinct line is met."""
    shown: list[set[str]] | None = None
    for k in range(lo + 1, hi):
        norm = al.onorm[k]
        if norm and len(al.opos.get(norm, ())) == 1 and norm not in al.spos:
            words = set(_WORDS.findall(norm))
            if shown is None:
                shown = [set(_WORDS.findall(al.snorm[j])) for j in range(s_lo + 1, s_hi) if al.snorm[j]]
            if words and not any(2 * len(words & other) >= len(words) for other in shown):
                return True
    return False


_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")


def _solid_over(al: Aligner, lo: int, hi: int, most: int) -> bool:
    """True when more than `most` original code lines lie strictly between lo and hi (it stops
    counting there: a far pair costs no walk over the lines between). A stub body (`...`,
    `pass`) that an edit folds into the line above it does not count."""
    solid = 0
    for k in range(lo + 1, hi):
        if al.onorm[k] and al.onorm[k] not in DROPPED_STUBS:
            solid += 1
            if solid > most:
                return True
    return False


def _before_deleted_blocks(al: Aligner, s: int, o: int, s2: int, o2: int) -> bool:
    """True when (s, o) is the last line before whole blocks that the snippet deletes up to (s2, o2),
    at the same depth relative to it in both texts."""
    depth = al.swidth[s] - al.swidth[s2]
    return al.owidth[o] - al.owidth[o2] == depth and \
        ends_before_whole_blocks(al, (s, o), o2)
