"""Filters over one alignment step's candidate anchors (steps.align_range): a later branch paired
with the old first one it was (first_branch), a unique line inside new code weighed down
(amid_new_code), and a candidate that would leave the context above it nowhere to go
(context_below). Each reads a few lines around one candidate; complexity in each docstring.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from .branches import first_branch_text
from .chain import count_in, span

if TYPE_CHECKING:
    from .anchor import Aligner


def first_branch(al: Aligner, norm: str, lo: int, hi: int, s_lo: int, s_hi: int) -> int | None:
    """The original line `if A:` (`if (A) {`) for a snippet line `elif A:` (`} else if (A) {`,
    `elsif A`) the original does not have, when it occurs once in range and the snippet's range
    does not show it: the snippet put a new branch above the old first one (prowler's
    `if client.policies.off_for_everyone:` above `elif sharing == "EXTERNAL_FREE_BUSY_ONLY":`),
    and the old line's body follows it. O(log n)."""
    old = first_branch_text(norm)
    where = al.opos.get(old) if old is not None else None
    if not where or count_in(al.spos.get(old, []), s_lo, s_hi):
        return None
    first, last = span(where, lo, hi)
    return where[first] if last - first == 1 else None


def amid_new_code(al: Aligner, s: int) -> bool:
    """The nearest code lines on both sides of s (blank lines skipped, no marker between) are lines
    the original has nowhere: s reads as a line inside new code that happens to match an old one
    (magic-bytes' new test with `const result = index_1.filetypename(bytes);`, like the old test
    two lines above the context that a marker's part gives from that test's end). O(the blank
    lines skipped)."""
    snorm, markers = al.snorm, al.markers
    for step in (-1, 1):
        t = s + step
        while 0 <= t < len(snorm) and not snorm[t] and t not in markers:
            t += step
        if not 0 <= t < len(snorm) or t in markers or snorm[t] in al.opos:
            return False
    return True


NEW_CODE_SHARE = 0.5  # of its weight, a unique line amid new code keeps (amid_new_code)


def context_below(al: Aligner, s: int, o: int, s_lo: int, o_lo: int, o_hi: int) -> bool:
    """True when one of the few code lines right above s in its part (no marker between) is context
    that must stand below o: a line the original has more than once, every copy in range after o,
    in the part's leading run of lines that the original has (context, not new code that happens to
    read like a later line). Paired at o, s would leave that context nowhere to go but new code
    (bleak's new `except BaseException:` clause copies `del self._disconnect_callbacks[...]` from the
    clause above, under the context `finally:` / `del self._disconnect_futures[...]` that the
    original has only below that clause). O(_LOOK_UP x log n)."""
    seen, t, crossing = 0, s - 1, False
    while t >= s_lo and seen < _LOOK_UP and t not in al.markers:
        norm = al.snorm[t]
        if norm and not al.strivial[t] and not al.items[t].fresh:
            seen += 1
            where = al.opos.get(norm)
            if where and not crossing:
                first, mid, last = bisect_left(where, o_lo), bisect_left(where, o), bisect_left(where, o_hi)
                crossing = last - first > 1 and mid == first and last > mid
            elif crossing and not where:
                return False  # new code above it: it is no leading context
        t -= 1
    return crossing and (t < 0 or t in al.markers)


_LOOK_UP = 6  # code lines above a candidate checked by context_below
_FAR_DELETION = 30  # original lines a candidate would leave unmarked (far_above_end)


def far_above_end(al: Aligner, s: int, o: int, s_lo: int, s_hi: int, o_hi: int) -> bool:
    """A candidate that opens no range below it: after a marker, s and the lines from it down to the
    range's lower anchor (no marker between) would pair so far above that anchor that a long stretch
    of the original between them goes with no marker to keep it, while the snippet's last code
    line above the anchor is the original's line right above it (telegraf's `help(` signature
    rewritten into the same three lines as `command(`'s: its middle line, unique in range, paired
    with `command(`'s 140 lines up and the methods between went). Such an s is an edited line; the
    part is context that ends at the anchor. Only where the stretch that would go is no run of
    whole statements: it leaves the block it starts in (nemo's parsers: from inside one class's
    `_normalize` to the end of the next class). O(lines to the anchor)."""
    if al.pairs.get(s_hi) != o_hi or (o_hi - o) - (s_hi - s) <= _FAR_DELETION:
        return False
    t = s_hi - 1
    while t > s and not al.snorm[t]:
        t -= 1
    if t <= s or any(u in al.markers for u in range(s, s_hi)):
        return False
    above = o_hi - 1
    while above > o and not al.onorm[above]:
        above -= 1
    if al.snorm[t] != al.onorm[above] or not any(u in al.markers for u in range(s_lo, s)):
        return False
    # the stretch that would go (the original lines between whose text the part does not show)
    # leaves a block and enters another (whole statements deleted between two anchors are no such
    # thing: dataform's version checks under its import list; nor is a body rewritten down to the
    # comment the part shows above its anchor: Pillow's `_save`)
    shown = {al.snorm[u] for u in range(s, s_hi)}
    widths = [al.owidth[u] for u in range(o + 1, o_hi) if al.onorm[u] and al.onorm[u] not in shown]
    return bool(widths) and min(widths) < widths[0]
