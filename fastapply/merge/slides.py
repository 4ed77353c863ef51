"""New lines that repeat the context they were written above: the part's last line is the context.

include-all added a documented option above another one's `@default false` and ` *`: the snippet
shows `TODO: ...`, then the new `@default false`, ` *`, `@optional {Boolean} allowDuplicateKeys`,
`When set, ...`, then the old `@default false`, then a marker. The alignment pairs the first
`@default false` and ` *` with the file's (the earliest match), which leaves the last `@default
false` unpaired: a new line right before the marker, and the ` *` it was written above lost. A
snippet's line right before a marker is the context the marker continues from; the same lines
paired earlier in the part are then the new ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lines import is_closer, is_trivial

if TYPE_CHECKING:
    from .anchor import Aligner

_RUN = 3  # most consecutive pairs that give up their original lines to the part's last line


def slide_to_markers(al: Aligner) -> None:
    """For each explicit marker whose part's last code line is unpaired, not trivial, and the same
    text as an earlier line of the part paired with original line o, where that pair starts the
    part's last run of consecutive pairs (at most _RUN, nothing paired after it), with new lines
    between, and the file has no other copy of the line in the stretch the marker stands for: the
    last line pairs with o and the run's lines are new. O(snippet lines + pairs per slide)."""
    for marker in sorted(al.markers):
        if al.items[marker].kind != "marker":
            continue
        last = marker - 1
        while last >= 0 and al.items[last].kind == "blank":
            last -= 1
        if last < 0 or al.items[last].kind != "code" or last in al.pairs:
            continue
        norm = al.snorm[last]
        if is_trivial(norm) or is_closer(norm):
            continue
        run: list[int] = []  # the part's last pairs, walking up from its last line
        k = last - 1
        while k >= 0 and k not in al.markers and len(run) <= _RUN:
            if k in al.pairs:
                if run and (al.pairs[k] >= al.pairs[run[-1]]
                            or any(al.onorm[o] for o in range(al.pairs[k] + 1, al.pairs[run[-1]]))):
                    break  # (consecutive on the original side too, but for blank lines)
                run.append(k)
                if al.snorm[k] == norm and al.swidth[k] == al.swidth[last]:
                    _slide(al, run, last)
                    break
            elif run:
                if al.items[k].kind == "code":
                    break  # (a new line inside the run: not one stretch of context)
            k -= 1


def _slide(al: Aligner, run: list[int], last: int) -> None:
    first = run[-1]  # the earlier copy of the last line, the run's start
    if not any(al.items[k].kind == "code" and k not in al.pairs for k in range(run[0] + 1, last)):
        return  # (no new line between: nothing to slide past)
    if any(al.snorm[k] and al.swidth[k] < al.swidth[first] for k in range(first + 1, last)):
        return  # (the lines between leave the block the two copies stand in: no one stretch of new lines)
    o, end = al.pairs[first], al.pairs[run[0]]
    later = min((al.pairs[k] for k in al.pairs if k > last), default=len(al.orig))
    if any(end < copy < later for copy in al.opos.get(al.snorm[last], ())):
        return  # (a later copy the marker would skip: the context may be that one; timers-ext)
    for k in run:
        del al.pairs[k]
    al.pairs[last] = o
