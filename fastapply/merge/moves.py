"""Moved definitions: a model reorders functions or puts a helper above its caller, and shows the
moved definition whole, right next to code that stays where it is.

A single monotone alignment pairs either the moved definition or its neighbours, and loses the
rest. So before aligning, each segment (the code between two markers) is cut into units: the
outermost definitions the segment shows whole (read with tree-sitter, defs.py) that match a
definition of the original (defmatch.py), and the runs of lines between them. Each unit is placed
by its anchors (order.anchor_of). When the units' places are out of order, the order that changes
the fewest lines is kept (a chain over the units: original lines dropped between kept units, plus
the lines of the units it leaves out), and every matched definition outside that chain is a move:
its old lines are dropped and its snippet lines become new code at their place, spaced as its old
siblings were. (A swap of two neighbours is such a move too: left to the line alignment, it kept
whatever blank lines the snippet wrote and paired shared lines such as `where F: FnOnce()` with
the wrong copy.) Across
segments, a whole matched definition whose old copy lies in the stretch another segment covers is
moved too, when its own segment stands apart from the others without it.

Complexity: O(m) to find, from the lines alone, the segments whose anchors are out of order (most
snippets have none, and nothing is parsed); for those, the definition match (defmatch.py), O(n)
for a prefix count of the original's lines and O(k^2) over a segment's k units (k is capped at
_MAX_UNITS); when segments overlap, O(units * m) for the moves across them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from typing import TYPE_CHECKING

from ..deadline import check_deadline
from .lines import is_closer, is_comment, opens_block
from .order import anchor_of, unique_anchors

if TYPE_CHECKING:
    from .anchor import Aligner
    from .defmatch import DefIndex, DefinitionMatch

_MAX_UNITS = 40  # beyond this many units in one segment, leave it to the alignment
_CONTEXT_LINES = 3  # lines of an anchorless edge unit compared with a definition's neighbours


class _Unit:
    __slots__ = ("lines", "where", "old")

    def __init__(self, lines: list[int], old: int | None) -> None:
        self.lines, self.where, self.old = lines, [], old  # old: index of the matched original definition


def find_moves(al: Aligner, defs: DefIndex) -> set[int]:
    """Mark moved definitions in the aligner's items (their lines become `fresh`, new code) and
    return the original lines their old copies occupied (to drop)."""
    counts = Counter(item.norm for item in al.items if item.kind == "code")
    drop: set[int] = set()
    segments = [code for code in al.segments if code]
    hulls: list[tuple[int, int] | None] = []
    for code in segments:
        check_deadline()  # thread mode cannot kill a merge: it stops between steps instead
        where = unique_anchors(al, code, counts)
        hulls.append(_stretch(where))
        if any(a >= b for a, b in zip(where, where[1:])) and _shows_definitions(defs, code):
            # its unique lines stand in the original in another order: something in it moved
            match = defs.match()
            if match is None:
                return drop
            drop |= _segment_moves(al, code, counts, match)
    if _interleaved(hulls):
        match = defs.match()
        if match is not None:
            drop |= _cross_moves(al, segments, counts, match)
    return drop


def _shows_definitions(defs: DefIndex, code: list[int]) -> bool:
    """The snippet shows a whole definition of two lines or more within these lines: without one,
    _units finds nothing that could have moved, and the original is not parsed. O(d)."""
    snippet = defs.snippet()
    return bool(snippet) and any(d.complete and d.last > d.header and code[0] <= d.first and d.last <= code[-1]
                                 for d in snippet)


def _hull(al: Aligner, code: list[int], counts: Counter[str], match: DefinitionMatch | None,
          skip: _Unit | None = None) -> tuple[int, int] | None:
    """The first and last original line the segment's anchors stand for (without `skip`'s lines)."""
    left_out = set(skip.lines) if skip is not None else set()
    lines = [s for s in code if s not in left_out]
    return _stretch([o for s in lines if (o := anchor_of(al, s, counts, match)) is not None])


def _stretch(where: list[int]) -> tuple[int, int] | None:
    """The first and last original line of a segment's anchors (in snippet order), leaving out a
    lone anchor out of order with both its neighbours, which are in order with each other: an
    edited line that now reads like a line elsewhere (absl's `for enum_value in
    self.parser.enum_values:` without its comment, like another class's), not a stretch the
    segment covers. O(anchors)."""
    kept = [o for k, o in enumerate(where)
            if not (0 < k < len(where) - 1 and where[k - 1] < where[k + 1] and not where[k - 1] < o < where[k + 1])]
    return (min(kept), max(kept)) if kept else None


def _interleaved(hulls: list[tuple[int, int] | None]) -> bool:
    spans = sorted(h for h in hulls if h is not None)
    return any(a[1] >= b[0] for a, b in zip(spans, spans[1:]))


def _cross_moves(al: Aligner, segments: list[list[int]], counts: Counter[str],
                 match: DefinitionMatch) -> set[int]:
    """Definitions moved from one segment's stretch into another segment: a whole matched
    definition whose old copy lies inside the stretch another segment covers, in a segment that
    stands apart from every other once it is left out (a helper moved up next to code that stays,
    its old place shown closed up elsewhere). O(segments * units * m) with units capped."""
    hulls = [_hull(al, code, counts, match) for code in segments]
    if not _interleaved(hulls):
        return set()
    drop: set[int] = set()
    for i, code in enumerate(segments):
        check_deadline()
        units = _units(code, match)
        if len(units) > _MAX_UNITS:
            continue
        for unit in units:
            if unit.old is None:
                continue
            unit.where = [o for s in unit.lines if (o := anchor_of(al, s, counts, match)) is not None]
            old = _old_copy(al, unit, match)
            rest = _hull(al, code, counts, match, skip=unit)
            if old is None or rest is None:
                continue
            others = [h for j, h in enumerate(hulls) if j != i and h is not None]
            inside = any(h[0] < old[0] and old[1] - 1 < h[1] for h in others)
            apart = all(rest[1] < h[0] or rest[0] > h[1] for h in others)
            if inside and apart:
                drop.update(range(*old))
                _mark_moved(al, unit, old)
                hulls[i] = rest
    return drop


def _segment_moves(al: Aligner, code: list[int], counts: Counter[str], match: DefinitionMatch) -> set[int]:
    units = _units(code, match)
    if len(units) < 2 or len(units) > _MAX_UNITS or all(u.old is None for u in units):
        return set()
    for unit in units:
        unit.where = [o for s in unit.lines if (o := anchor_of(al, s, counts, match)) is not None]
    _edge_context(al, units, match)
    units = [u for u in units if u.where]
    if len(units) < 2:
        return set()
    keys = [sorted(u.where)[len(u.where) // 2] for u in units]
    if _in_order(keys):
        return set()
    olds = [_old_copy(al, u, match) for u in units]
    _keep_namesakes(units, olds, match)
    copied = _copied_into_other_class(al, units, olds, match)
    elsewhere = _named_like_elsewhere(units, olds, match)
    if elsewhere:
        kept = [j for j in range(len(units)) if j not in elsewhere]
        units, keys, olds = [units[j] for j in kept], [keys[j] for j in kept], [olds[j] for j in kept]
        if len(units) < 2 or _in_order(keys):
            return set()
    chain = _best_chain(al, units, keys, olds)
    drop: set[int] = set()
    for index, unit in enumerate(units):
        old = olds[index]
        if index in chain or old is None:
            continue
        first, stop = old
        _mark_moved(al, unit, old)
        if unit in copied:
            continue  # (new code where it is written; the old copy stays)
        if first > 0 and (not al.onorm[first - 1] or opens_block(al.onorm[first - 1])):
            # one of the two blank runs around it goes with it; the first of its block takes the
            # one below it (the sibling after it becomes the first, right under the header)
            while stop < len(al.orig) and not al.onorm[stop]:
                stop += 1
            if stop == len(al.orig):  # the file's last definition: the run above it would end the file
                while first > 0 and not al.onorm[first - 1]:
                    first -= 1
        drop.update(range(first, stop))
    return drop


def _mark_moved(al: Aligner, unit: _Unit, old: tuple[int, int]) -> None:
    """Make a moved unit's lines new code, and tell its first line the blank lines that separated
    its old copy from its siblings: at its new place it is spaced like them (models drop or double
    the blank line above what they move; splice.py reads it). O(blank runs around it)."""
    for s in unit.lines:
        al.items[s].fresh = True
    above, below = _sibling_gaps(al, *old)
    first = al.items[unit.lines[0]]
    if below >= 0:
        first.gap_above, first.gap_firm = below, above == below
    elif old[1] < len(al.onorm) and is_closer(al.onorm[old[1]]):
        first.gap_above = 0  # it ended its block right at the closing line: shown glued, it stays so


def _sibling_gaps(al: Aligner, first: int, stop: int) -> tuple[int, int]:
    """The blank lines between the original lines [first, stop) and the sibling before them, and
    the one after them; -1 where there is none (the start or end of their block). O(blank runs)."""
    onorm, width = al.onorm, al.owidth[first]
    after = stop
    while after < len(onorm) and not onorm[after]:
        after += 1
    below = after - stop if after < len(onorm) and al.owidth[after] == width and not is_closer(onorm[after]) \
        else -1
    before = first
    while before > 0 and not onorm[before - 1]:
        before -= 1
    above = first - before if before > 0 and al.owidth[before - 1] >= width \
        and not opens_block(onorm[before - 1]) else -1
    return above, below


def _edge_context(al: Aligner, units: list[_Unit], match: DefinitionMatch) -> None:
    """Anchor the segment's first (last) unit when it has no line of its own but is the context
    that stands right before (after) exactly one of the matched definitions in the original
    (`/** {@inheritDoc}` after the method that really sits before it). O(units * _CONTEXT_LINES)."""
    for edge, step in ((0, -1), (len(units) - 1, +1)):
        unit = units[edge]
        if unit.where or unit.old is not None:
            continue
        lines = [al.snorm[s] for s in unit.lines if al.snorm[s]]
        lines = lines[:_CONTEXT_LINES] if step > 0 else lines[::-1][:_CONTEXT_LINES]
        fits = []
        for other in units:
            if other.old is not None and other.where:
                od = match.original[other.old]
                rows = _solid_rows(al, od.last + 1 if step > 0 else od.first - 1, step, len(lines))
                if [al.onorm[r] for r in rows] == lines:
                    fits.append(sorted(rows))
        if len(fits) == 1:
            unit.where = fits[0]


def _solid_rows(al: Aligner, start: int, step: int, count: int) -> list[int]:
    """The first `count` non-blank original lines from `start` on, in direction `step`."""
    rows: list[int] = []
    row = start
    while 0 <= row < len(al.onorm) and len(rows) < count:
        if al.onorm[row]:
            rows.append(row)
        row += step
    return rows


def _in_order(keys: list[int]) -> bool:
    return all(a < b for a, b in zip(keys, keys[1:]))


def _named_like_elsewhere(units: list[_Unit], olds: list[tuple[int, int] | None],
                          match: DefinitionMatch) -> set[int]:
    """Units that only share their name with an original definition in another scope (`closed`
    added to one class, another class's `closed` far below): no move (`olds` has no copy), and
    since all their anchors lie in that other definition, no place of their own either, so they
    must not pin the order of the units around them (which would move the untouched method after
    one onto itself, losing its blank line). In the scope of the other units such a unit is a
    rewrite in place, and does pin the order. O(units + their anchors)."""
    found = {j for j, u in enumerate(units) if olds[j] is None and u.old is not None
             and all(match.original[u.old].first <= o <= match.original[u.old].last for o in u.where)}
    scopes = {match.original[u.old].scope for j, u in enumerate(units) if u.old is not None and j not in found}
    return {j for j in found if scopes and match.original[units[j].old].scope not in scopes}


def _keep_namesakes(units: list[_Unit], olds: list[tuple[int, int] | None], match: DefinitionMatch) -> None:
    """No move for a unit whose old copy sits in another scope than the units around it, when their
    scope defines that name too (lmdb's `put` in two classes, one already with the snippet's new
    parameter name: shown next to the second class's `count`, it is an edit of that class's
    `put`, not the first one's moved). The units around place it by their first anchors, each in
    the scope of the innermost definition holding it. O(units x the original's definitions), only
    when a unit has an old copy."""
    if all(old is None for old in olds):
        return
    scopes = []
    for unit in units:
        innermost = None
        for d in match.original if unit.where else ():
            if d.first <= unit.where[0] <= d.last and (innermost is None or d.first >= innermost.first):
                innermost = d
        scopes.append(innermost.scope if innermost is not None else "")
    for j, unit in enumerate(units):
        if olds[j] is None or unit.old is None:
            continue
        old = match.original[unit.old]
        around = {scope for k, scope in enumerate(scopes) if k != j} - {old.scope}
        if any(d.name == old.name and d.scope in around and not d.first <= old.first <= old.last <= d.last
               for d in match.original):  # (not the class a constructor is named after)
            olds[j] = None


def _copied_into_other_class(al: Aligner, units: list[_Unit], olds: list[tuple[int, int] | None],
                             match: DefinitionMatch) -> list[_Unit]:
    """The units that copy a method rather than move it: each shown, at its old indentation, right
    after lines of another class of the original (a sibling of the method's own class: the last
    anchor of the unit before it, or the last code line above the unit after it). The snippet gives
    that class the same method (scapy's netbios: `default_payload_class` written under
    NBNS_ADD_ENTRY's fields, above the next class, which NBNSNodeStatusResponseService has); moved,
    the other class would lose its own. O(units x the original's definitions), only when a unit
    has an old copy."""
    copied: list[_Unit] = []
    for j, unit in enumerate(units):
        if olds[j] is None or unit.old is None:
            continue
        old = match.original[unit.old]
        if old.parent < 0 or al.swidth[unit.lines[0]] != al.owidth[old.first]:
            continue
        if j > 0 and units[j - 1].where:
            at = max(units[j - 1].where)
        elif j + 1 < len(units) and units[j + 1].where:
            at = min(units[j + 1].where) - 1
            while at > 0 and not al.onorm[at]:
                at -= 1
        else:
            continue
        home = match.original[old.parent]
        if not home.first <= at <= home.last and any(
                d.kind == home.kind and d.scope == home.scope and d.first <= at <= d.last for d in match.original):
            copied.append(unit)
    return copied


def _old_copy(al: Aligner, unit: _Unit, match: DefinitionMatch) -> tuple[int, int] | None:
    """[first, stop) of the original definition a unit may be a moved copy of, when it holds all
    of the unit's anchors and the unit carries most of its lines along."""
    if unit.old is None or match.local_statement(unit.old):
        return None
    od = match.original[unit.old]
    first, stop = od.first, od.last + 1
    if not all(first <= o < stop for o in unit.where):
        return None
    # a move carries its body along: most of the old lines are in the unit (not a setter next to
    # its getter, nor a rewrite that only shares the name)
    old = [norm for norm in al.onorm[first:stop] if norm]
    shown = {al.snorm[s] for s in unit.lines}
    if any(al.onorm[o] and al.onorm[o] not in shown for o in range(first, od.header)):
        return None  # its doc comment or decorators are not all shown: they would be lost
    above = first - 1  # (a comment glued above it that the grammar keeps apart: C's `/* ... */`)
    while above >= 0 and is_comment(al.onorm[above]) and al.owidth[above] == al.owidth[first]:
        if al.onorm[above] not in shown:
            return None  # left behind, it would describe the code that comes next
        above -= 1
    if sum(1 for norm in old if norm in shown) * 2 < len(old):
        return None
    # (and most of its body: a one-line body rewritten under the same header is an override
    # written elsewhere, `def clear(...)` added to a subclass, not the base class's moved)
    body = [norm for norm in al.onorm[od.header + 1:stop] if norm and not is_closer(norm)]
    return (first, stop) if sum(1 for norm in body if norm in shown) * 2 >= len(body) else None


def _units(code: list[int], match: DefinitionMatch) -> list[_Unit]:
    """The segment's lines cut into the outermost matched definitions it shows whole (two lines or
    more: one line that moved is no different from one that merely occurs elsewhere; with their
    comments and decorators) and the runs of lines between them. O(d log m)."""
    lo, hi = code[0], code[-1]
    whole: list[tuple[int, int, int]] = []  # (first, last, original definition)
    for s, d in enumerate(match.snippet):
        if d.complete and d.last > d.header and lo <= d.first and d.last <= hi and s in match.pairs \
                and not (whole and d.first <= whole[-1][1]):  # inside the previous one: not outermost
            whole.append((d.first, d.last, match.pairs[s]))
    units: list[_Unit] = []
    start = 0
    for first, last, old in whole:
        a, b = bisect_left(code, first), bisect_right(code, last)
        if code[start:a]:
            units.append(_Unit(code[start:a], None))
        units.append(_Unit(code[a:b], old))
        start = b
    if code[start:]:
        units.append(_Unit(code[start:], None))
    return units


def _best_chain(al: Aligner, units: list[_Unit], keys: list[int], olds: list[tuple[int, int] | None]) -> set[int]:
    """Indices of the units that stay in place: an increasing chain that holds every unit that
    cannot move and changes the fewest lines, then keeps the most snippet lines. A change is an
    original line dropped between two kept units that no unit stands for (the others move, they
    do not go) or a code line of a unit left out of the chain: a move is no free answer (a chain
    that could start late for free shed the part's first definition only to spare the lines the
    snippet leaves out after it). A unit that is a whole definition (`olds`: its old copy) covers
    its old copy's lines, not only its anchors: an edited body between its header and its end
    drops nothing. Empty when the units that cannot move are out of order themselves. O(n + k^2)."""
    fixed = [j for j, old in enumerate(olds) if old is None]
    spans = [(min(u.where), max(u.where)) if old is None else (min(old[0], *u.where), max(old[1] - 1, *u.where))
             for u, old in zip(units, olds)]
    owned = [0] * (len(al.orig) + 1)  # +1 where a unit's span starts, -1 after it ends
    for first, last in spans:
        owned[first] += 1
        owned[last + 1] -= 1
    solid = [0] * (len(al.orig) + 1)  # non-blank original lines no unit stands for (they move or
    inside = 0                        # stay, never go), before each line
    for o, norm in enumerate(al.onorm):
        inside += owned[o]
        solid[o + 1] = solid[o] + bool(norm and not inside)
    moved = [0] * (len(units) + 1)  # code lines of the units before each unit
    for j, unit in enumerate(units):
        moved[j + 1] = moved[j] + sum(1 for s in unit.lines if al.snorm[s])
    inf = (10**9, 0)
    best: list[tuple[int, int]] = []  # (lines dropped or moved, -snippet lines kept)
    back: list[int] = []
    for j in range(len(units)):
        top, arg = inf, -1
        if not fixed or fixed[0] >= j:
            top = (moved[j], -len(units[j].lines))  # the chain may start here: the units before it move
        for i in range(j):
            if best[i] == inf or keys[i] >= keys[j] or spans[i][1] >= spans[j][0] \
                    or any(i < f < j for f in fixed):
                continue
            lost = solid[spans[j][0]] - solid[spans[i][1] + 1] + moved[j] - moved[i + 1]
            score = (best[i][0] + lost, best[i][1] - len(units[j].lines))
            if score < top:
                top, arg = score, i
        best.append(top)
        back.append(arg)
    ends = [j for j in range(len(units)) if best[j] != inf and (not fixed or fixed[-1] <= j)]
    if not ends:
        return set(range(len(units)))  # nothing sound to move
    index = min(ends, key=lambda j: (best[j][0] + moved[-1] - moved[j + 1], best[j][1]))
    chain: set[int] = set()
    while index >= 0:
        chain.add(index)
        index = back[index]
    return chain if all(f in chain for f in fixed) else set(range(len(units)))
