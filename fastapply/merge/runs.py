"""Parts of a snippet that no single line places: a run of short lines the original holds once.

A part made of lines like `'||',` and `'&&',` (an operator table, a list of short literals) has no
anchor: each line is trivial, so the alignment never pairs it on its own, and the merge refused it
as unplaceable. A run of _RUN or more such lines that stands, line for line and in order (new lines
between them passed over), at exactly one place in the original places the part as well as a unique
line would.

Complexity: O(m x _WORK) run steps for m snippet lines (the search stops when they are spent); a line
with more than _COPIES copies in the original starts no run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .anchor import Aligner

_RUN = 3  # lines of a run, at least
_COPIES = 8  # copies of a run's first line in the original, at most
_WORK = 16  # run steps per line of the part, at most (a long part of unique short lines stays linear)


def pair_trivial_runs(al: Aligner) -> None:
    """Pair, in each part without a single pair, its longest run of lines that stands at one place
    only in the original (and longer than at any other)."""
    for seg in al.segments:
        if not seg or any(s in al.pairs for s in seg):
            continue
        best: list[tuple[int, int]] = []
        ties, work = 0, _WORK * len(seg)
        for k, s in enumerate(seg):
            starts = al.opos.get(al.snorm[s], ())
            if len(starts) > _COPIES or work <= 0:
                continue
            for start in starts:
                run, steps = _run_from(al, seg[k:], start)
                work -= steps
                if len(run) > len(best):
                    best, ties = run, 0
                elif len(run) == len(best):
                    ties += 1
        if len(best) >= _RUN and not ties and _between_pairs(al, best):
            al.pairs.update(best)


def _between_pairs(al: Aligner, run: list[tuple[int, int]]) -> bool:
    """The run keeps the pairs in order: its original lines come after those of the snippet's
    pairs above it and before those below (a part out of file order is file_order's to move, and a
    run that crossed the other pairs would splice the file twice). O(pairs)."""
    first_s, first_o = run[0]
    last_s, last_o = run[-1]
    return all(o < first_o for s, o in al.pairs.items() if s < first_s) \
        and all(o > last_o for s, o in al.pairs.items() if s > last_s)


def _run_from(al: Aligner, lines: list[int], start: int) -> tuple[list[tuple[int, int]], int]:
    """The pairs of `lines` with the original's non-blank lines from `start` on, as far as they
    are the same trivial text; a snippet line the original does not hold anywhere is new, inserted into the
    run, and passed over; also the snippet lines walked. O(those lines)."""
    run: list[tuple[int, int]] = []
    o, steps = start, 1
    for s in lines:
        steps += 1
        while o < len(al.onorm) and not al.onorm[o]:
            o += 1
        if o < len(al.onorm) and al.onorm[o] != al.snorm[s] and al.snorm[s] not in al.opos:
            continue
        if o >= len(al.onorm) or al.onorm[o] != al.snorm[s] or not al.strivial[s] or al.items[s].fresh:
            break  # (a line with a word the alignment has read already, and refused to pair)
        run.append((s, o))
        o += 1
    return run, steps
