"""A segment that fits two places equally well, one of them by an edit.

Two renderers alike but for one line each (`) -> List[...]:` over an annotated assignment in the
first, `) -> RenderedAtomicContent:` over a plain one in the second): a snippet that shows the
second's return type over the first's annotated assignment matches each place with one line
changed. The alignment keeps one chain and reads the other unique line as an edit of its
neighbour there; the merge would change the wrong copy as readily as the right one. Refused: the
snippet must show one more line that tells them apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ambiguity import telling_code
from .lines import header_key

if TYPE_CHECKING:
    from .anchor import Aligner

_TIED_MIN = 4  # telling lines the other place must hold unchanged, the edited one included: fewer fit by chance


def tied_copy(al: Aligner) -> int | None:
    """A snippet line paired as an edit of another line although its text occurs once in the
    original, unpaired, where the segment's lines, read one for one around that copy (blank
    lines aside), hold as many of its telling lines unchanged as the merge's place does (_TIED_MIN
    at least), and no definition header the segment shows unchanged names that place. Returns
    the snippet line, or None. O(segment lines) per edited line."""
    placed = set(al.pairs.values())
    bounds = [-1, *al.marker_list, len(al.items)]
    for lo, hi in zip(bounds, bounds[1:]):
        code = [s for s in range(lo + 1, hi) if al.items[s].kind == "code" and al.snorm[s]]
        telling = set(telling_code(al, code))
        exact = [s for s in telling if s in al.pairs and al.snorm[s] == al.onorm[al.pairs[s]]]
        if any(header_key(al.snorm[s]) is not None for s in exact):
            continue  # (a definition the part shows unchanged names its place)
        here = len(exact)
        for k, s in enumerate(code):
            norm = al.snorm[s]
            if s not in telling or s not in al.pairs or norm == al.onorm[al.pairs[s]] \
                    or _split(norm, al.onorm[al.pairs[s]]):
                continue  # (only a telling line read as an edit, not one a formatter split or joined)
            copies = al.opos.get(norm, ())
            if len(copies) != 1 or len(al.spos[norm]) != 1 or copies[0] in placed:
                continue
            there = _one_for_one(al, code[k + 1:], telling, copies[0], +1)
            up = _one_for_one(al, code[:k][::-1], telling, copies[0], -1)
            if there is not None and up is not None and 1 + there + up >= max(here, _TIED_MIN):
                return s
    return None


def _split(new: str, old: str) -> bool:
    """One text, without whitespace, starts the other: a line a formatter split (`def stack(`
    for `def stack(transforms: ...) -> T:`) or joined. O(len)."""
    a, b = "".join(new.split()), "".join(old.split())
    return a.startswith(b) or b.startswith(a)


def _one_for_one(al: Aligner, lines: list[int], telling: set[int], o: int, step: int) -> int | None:
    """Walk the snippet `lines` and the original from o (exclusive) in `step`'s direction, one
    code line for one, blank lines aside: how many telling lines are equal, or None when the
    original ends first. O(len(lines) + the blank lines passed)."""
    equal = 0
    for s in lines:
        o += step
        while 0 <= o < len(al.onorm) and not al.onorm[o]:
            o += step
        if not 0 <= o < len(al.onorm):
            return None
        equal += s in telling and al.onorm[o] == al.snorm[s]
    return equal
