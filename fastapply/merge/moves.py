"""Moved definitions: a model reorders functions or puts a helper above its caller, and shows the
moved definition whole, right next to code that stays where it is.

A single monotone alignment pairs either the moved definition or its neighbours, and loses the
rest. So before aligning, each segment (the code between two markers) is cut into units at its
top-level definition headers; each unit is placed by its anchors (order.anchor_of). When the
units' places are out of order, the order that drops the fewest original lines is kept (a chain
over the units), and every whole definition outside that chain whose name the original defines
once is a move: its old lines are dropped and its snippet lines become new code at their place.

Complexity: O(m) to cut units; when a segment's units are out of order, O(n) for a prefix count of
the original's lines and O(k^2) over its k units (k is capped at _MAX_UNITS).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .lines import block_extent, continues_block, is_closer
from .order import anchor_of
from .segments import is_gap

if TYPE_CHECKING:
    from .anchor import Aligner

_MAX_UNITS = 40  # beyond this many units in one segment, leave it to the alignment
_PREAMBLE = ("@", "#[", "//", "#", "/*", "*", "///", "--")


class _Unit:
    __slots__ = ("lines", "where", "header")

    def __init__(self, lines: list[int], where: list[int], header: int | None) -> None:
        self.lines, self.where, self.header = lines, where, header


def find_moves(al: Aligner) -> set[int]:
    """Mark moved definitions in the aligner's items (their lines become `fresh`, new code) and
    return the original lines their old copies occupied (to drop)."""
    counts = Counter(item.norm for item in al.items if item.kind == "code")
    drop: set[int] = set()
    segment: list[int] = []
    for index in range(len(al.items) + 1):
        if index == len(al.items) or is_gap(al.items[index]):
            if segment:
                drop |= _segment_moves(al, segment, counts)
            segment = []
        elif al.items[index].kind == "code":
            segment.append(index)
    return drop


def _segment_moves(al: Aligner, code: list[int], counts: Counter[str]) -> set[int]:
    units = _units(al, code)
    if len(units) < 2 or all(u.header is None for u in units):
        return set()  # nothing that could move (most segments): no anchors needed
    anchored: list[_Unit] = []
    for unit in units:
        unit.where = [o for s in unit.lines if (o := anchor_of(al, s, counts)) is not None]
        if unit.where:
            anchored.append(unit)
            if len(anchored) > _MAX_UNITS:
                return set()  # (decided here, before looking up the anchors of every other unit)
    units = anchored
    if len(units) < 2:
        return set()
    keys = [sorted(u.where)[len(u.where) // 2] for u in units]
    if all(a < b for a, b in zip(keys, keys[1:])):
        return set()
    olds = [_old_copy(al, u) for u in units]
    chain = _best_chain(al, units, keys, [old is not None for old in olds])
    drop: set[int] = set()
    for index, unit in enumerate(units):
        old = olds[index]
        if index in chain or old is None:
            continue
        first, stop = old
        if first > 0 and not al.onorm[first - 1]:
            while stop < len(al.orig) and not al.onorm[stop]:
                stop += 1  # one of the two blank runs around it goes with it
        drop.update(range(first, stop))
        for s in unit.lines:
            al.items[s].fresh = True
    return drop


def _old_copy(al: Aligner, unit: _Unit) -> tuple[int, int] | None:
    """[first, stop) of the original definition a unit may be a moved copy of: the one definition
    of its name in both texts, holding all of the unit's anchors."""
    if unit.header is None:
        return None
    key = al.key_of(al.snorm[unit.header])
    if key is None or len(al._skey_index().get(key, ())) != 1:
        return None
    found = al._okeys_for(key)
    if len(found) != 1:
        return None
    first, stop = block_extent(al.orig, al.onorm, found[0])
    if not all(first <= o < stop for o in unit.where):
        return None
    # a move carries its body along: most of the old lines are in the unit (not a setter next to
    # its getter, nor a rewrite that only shares the name)
    old = [norm for norm in al.onorm[first:stop] if norm]
    shown = {al.snorm[s] for s in unit.lines}
    if any(al.onorm[o] and al.onorm[o] not in shown for o in range(first, found[0])):
        return None  # its doc comment or decorators are not all shown: they would be lost
    return (first, stop) if sum(1 for norm in old if norm in shown) * 2 >= len(old) else None


def _units(al: Aligner, code: list[int]) -> list[_Unit]:
    """The segment's lines cut before each header at the segment's smallest indentation (with the
    decorators and comments right above it), and after each definition's end; anchors not yet set."""
    base = min(al.swidth[s] for s in code)
    units: list[_Unit] = []
    current: list[int] = []
    header: int | None = None
    in_body = False  # the current definition's body has begun (a deeper line was seen)
    for s in code:
        norm, width = al.snorm[s], al.swidth[s]
        starts = width == base and al.key_of(norm) is not None \
            and (norm.endswith((":", "{", "(", ")")) or "=>" in norm)
        if starts:
            # decorators and doc comments right above go with the definition
            split = len(current)
            while split > 0 and al.snorm[current[split - 1]].startswith(_PREAMBLE) \
                    and al.swidth[current[split - 1]] == base:
                split -= 1
            if current[:split]:
                units.append(_Unit(current[:split], [], header))
            current, header, in_body = current[split:], s, False
        elif header is not None and in_body and width == base and not is_closer(norm) \
                and not continues_block(norm):
            # past the definition's end: what follows (the next one's doc comment) is not part of it
            units.append(_Unit(current, [], header))
            current, header = [], None
        in_body = in_body or width > base
        current.append(s)
    if current:
        units.append(_Unit(current, [], header))
        after = code[-1] + 1
        while after < len(al.items) and al.items[after].kind == "blank":
            after += 1
        if after < len(al.items) and al.swidth[after] > base:
            units[-1].header = None  # a marker inside its body follows: not shown whole, it cannot move
    return units


def _best_chain(al: Aligner, units: list[_Unit], keys: list[int], movable: list[bool]) -> set[int]:
    """Indices of the units that stay in place: an increasing chain that holds every unit that
    cannot move, drops the fewest original lines between consecutive kept units, and then keeps
    the most snippet lines. Empty when the units that cannot move are out of order themselves."""
    fixed = [j for j, can in enumerate(movable) if not can]
    solid = [0] * (len(al.orig) + 1)  # non-blank original lines before each line
    for o, norm in enumerate(al.onorm):
        solid[o + 1] = solid[o] + bool(norm)
    spans = [(min(u.where), max(u.where)) for u in units]
    inf = (10**9, 0)
    best: list[tuple[int, int]] = []  # (original lines dropped, -snippet lines kept)
    back: list[int] = []
    for j in range(len(units)):
        top, arg = inf, -1
        if not fixed or fixed[0] >= j:
            top = (0, -len(units[j].lines))  # the chain may start here
        for i in range(j):
            if best[i] == inf or keys[i] >= keys[j] or spans[i][1] >= spans[j][0] \
                    or any(i < f < j for f in fixed):
                continue
            lost = solid[spans[j][0]] - solid[spans[i][1] + 1]
            score = (best[i][0] + lost, best[i][1] - len(units[j].lines))
            if score < top:
                top, arg = score, i
        best.append(top)
        back.append(arg)
    ends = [j for j in range(len(units)) if best[j] != inf and (not fixed or fixed[-1] <= j)]
    if not ends:
        return set(range(len(units)))  # nothing sound to move
    index = min(ends, key=best.__getitem__)
    chain: set[int] = set()
    while index >= 0:
        chain.add(index)
        index = back[index]
    return chain if all(f in chain for f in fixed) else set(range(len(units)))
