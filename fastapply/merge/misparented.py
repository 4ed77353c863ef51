"""Body lines paired into the wrong block: a new header's body lines that coincide with lines of
another original block, while the header itself is the edit of an earlier original header.

jupyter-client rewrote `if encryption_required and km.transport != "tcp":` and its one-line
`msg = "..."` as `if encryption_required and not encryption_supported_transport:` over a
parenthesised `msg = (` ... `)`. The next original `if` (the local-interface check) has a `msg = (`
of its own, the only one in the file: a unique anchor, and with it that block's `)` and `raise`.
The merge then read the old `if` and the local-interface check as deleted and kept the check's
body under the new header. Such pairs are dropped here, before the fuzzy passes, so the new lines
pair with the block they edit.

unpair_lone_body_lines drops a pair of the same kind with no edited header to go to: the one
paired line inside a new block, at another depth than its original, that deletes the original code
between it and the pair above (pycryptodome's new fast path ends `if result:` /
`self._check(result, what)`, a line the file has once, further down: paired, it deleted the
`if output is None:` block the snippet goes on with after a marker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .copy_choice import next_pair
from .lines import continues_block, is_trivial, opens_block
from .similar import FUZZY_MIN, replaces, similarity

if TYPE_CHECKING:
    from .anchor import Aligner

_REACH = 12  # original lines looked at above the block the body lines were paired into
_MARGIN = 20.0  # how much more alike the header must be to the earlier original header


def unpair_misparented(al: Aligner) -> None:
    """Drop the pairs of an unpaired snippet header's body lines that lie in the block of one
    unpaired original header, when an unpaired original header at that one's indentation, above it
    (within _REACH lines, none of them paired) and below the original of the code line right above
    the snippet header, is far more alike to the snippet header (FUZZY_MIN, and _MARGIN points above
    the other); the snippet header then pairs with that one.
    O(pairs + _REACH similarities per such header)."""
    parents = al.snippet_parents()
    taken = set(al.pairs.values())
    by_header: dict[int, list[int]] = {}
    for s in al.pairs:
        ps = parents[s]
        if ps is not None and ps not in al.pairs and al.items[ps].kind == "code":
            by_header.setdefault(ps, []).append(s)
    for ps, children in by_header.items():
        if not opens_block(al.snorm[ps]):
            continue
        heads = {al._header_of(al.pairs[s]) for s in children}
        if len(heads) != 1:
            continue
        po = heads.pop()
        if po < 0 or po in taken or continues_block(al.onorm[po]):
            continue  # (an `else:` goes on the statement above it: execnet folded `if x is None: ...
            # else: ...` into `if x is not None:` over the else branch's body)
        edited = _earlier_header(al, ps, po, taken)
        above = _code_above(al, ps)
        if edited is None or above is None or not al.pairs.get(above, edited) < edited:
            continue  # (the line above the header must sit above the edited one: no crossing)
        end = al._orig_end(po)
        for s in [s for s in al.pairs if s > ps and po < al.pairs[s] <= end and _inside(parents, s, ps)]:
            taken.discard(al.pairs.pop(s))
        if al._monotone(ps, edited):
            al.pairs[ps] = edited  # (the header's edit: its body's lines align inside that block again)
            al.fuzzy.add(ps)
            taken.add(edited)


def unpair_lone_body_lines(al: Aligner) -> None:
    """Drop the pair (s, o) of a body line s of an unpaired snippet block opener (new code), when
    s is the block's only paired line, stands at another depth relative to the pair above it than
    o does, original code lies unpaired between that pair and o, and the snippet's next lines, up
    to its marker, have copies in that code: they move there, and the code stays (a rewritten
    body's lone pair with nothing after it, prance's `if key == "$ref":`, still ends the old body).
    O(pairs + the original lines between each such pair and the one above)."""
    parents = al.snippet_parents()
    pairs = sorted(al.pairs.items())
    under: dict[int, int] = {}  # new opener -> how many of its lines are paired
    for s, _ in pairs:
        up = parents[s]
        while up is not None:
            if up not in al.pairs and opens_block(al.snorm[up]):
                under[up] = under.get(up, 0) + 1
            up = parents[up]
    for index, (s, o) in enumerate(pairs):
        ps = parents[s]
        if index == 0 or ps is None or under.get(ps) != 1:
            continue
        s_prev, o_prev = pairs[index - 1]
        if s_prev > ps or o_prev >= o or al.swidth[s] - al.swidth[s_prev] == al.owidth[o] - al.owidth[o_prev]:
            continue  # (the pair above lies inside the block, or the depths agree: code re-indented)
        if not any(al.onorm[k] for k in range(o_prev + 1, o)):
            continue
        moves = _renear(al, pairs[index + 1:], o_prev, s)
        if any(not is_trivial(al.snorm[k]) for k in moves):
            # (the snippet's next lines have copies above o: the code between stays; a `}` alone
            # says nothing: Swift's `default:` body over a rewritten `if` chain keeps its pair)
            del al.pairs[s]
            al.pairs.update(moves)


_LATER = 60  # snippet lines looked at after a body run for the lines its pairs cross
_LATER_MIN = 2  # such lines, each once in the snippet and once in the original, that undo it
_LATER_CHARS = 40  # or one such line this long (a whole comment sentence)


def unpair_crossed_body_runs(al: Aligner) -> None:
    """Drop the pairs of a new block's body lines when original code lies unpaired between the
    pair above and theirs, and the snippet, after the block, goes on with lines whose place is in
    that code: they pair there, in order, and the old code stays. Either the body lines stand at
    another depth than their originals (relative to the pair above) and the lines after the block
    occur once in the original and once in the snippet, _LATER_MIN of them (or one _LATER_CHARS
    long) with copies in that code (sqlfluff's crawler gained a fast path for leaf children, `if not child.segments:` /
    `context.segment = child` ..., then the loop's old comment and a marker: read by the body
    lines, the comment and the old loop body were deleted); or the body lines' originals stand in
    another branch (an `else:` the alignment leaves unpaired, inside that code) and the lines
    after the block read one for one from a line of that code, the first equal or edited and
    the next equal (prowler's new first branch, `report.status = "PASS"` like the old `else:`,
    then `elif enabled is False:` and its `report.status = "FAIL"`, the old first branch).
    O(pairs + _LATER lines after each such run, x the lines equal from each for the second kind)."""
    parents = al.snippet_parents()
    pairs = sorted(al.pairs.items())
    taken = set(al.pairs.values())
    for index in range(1, len(pairs)):
        s, o = pairs[index]
        s_prev, o_prev = pairs[index - 1]
        ps = parents[s]
        if ps is None or ps in al.pairs or s_prev >= ps or not opens_block(al.snorm[ps]) or o_prev >= o \
                or not any(al.onorm[k] for k in range(o_prev + 1, o)):
            continue
        run = [s2 for s2, _ in pairs[index:] if _inside(parents, s2, ps)]
        if al.swidth[s] - al.swidth[s_prev] != al.owidth[o] - al.owidth[o_prev]:
            later = _unique_after(al, run[-1], o_prev, o, taken)
        elif o_prev < al._header_of(o) < o and al._header_of(o) not in taken:
            later = _resumed_after(al, run[-1], (s_prev, o_prev), al._header_of(o), taken)
        else:
            continue
        if later and not any(_inside(parents, k, ps) for k, _ in later):
            for s2 in run:
                del al.pairs[s2]
            al.pairs.update(later)
            al.fuzzy.update(k for k, c in later if al.snorm[k] != al.onorm[c])
            return  # (once: the pairs changed under the loop)


def _unique_after(al: Aligner, end: int, o_prev: int, o: int, taken: set[int]) -> list[tuple[int, int]]:
    """The unpaired snippet lines after `end` (up to a marker or a pair, _LATER lines at most) that
    occur once in the snippet and once in the original, between o_prev and o, in order, paired with
    those copies; [] when fewer than _LATER_MIN, but for one _LATER_CHARS long. O(_LATER)."""
    later: list[tuple[int, int]] = []
    for s2 in range(end + 1, min(len(al.items), end + 1 + _LATER)):
        if s2 in al.markers or s2 in al.pairs:
            break
        norm = al.snorm[s2]
        copies = al.opos.get(norm, ())
        if norm and len(copies) == 1 and len(al.spos[norm]) == 1 and copies[0] not in taken \
                and o_prev < copies[0] < o and (not later or copies[0] > later[-1][1]):
            later.append((s2, copies[0]))
    enough = len(later) >= _LATER_MIN or len(later) == 1 and len(al.snorm[later[0][0]]) >= _LATER_CHARS
    return later if enough else []


def _resumed_after(al: Aligner, end: int, prev: tuple[int, int], o: int, taken: set[int]) -> list[tuple[int, int]]:
    """The snippet's code lines right after `end` read one for one from the first unpaired
    original line c between the pair above, `prev`, and o, at the same depth relative to it, where
    the first is equal to c or an edit of it (replaces) and the next code line equal to the next:
    those pairs, as long as the lines stay equal (the first may be the edit); [] when there is no
    such c among the _LATER lines below o_prev. O(_LATER x the lines equal from each)."""
    s_prev, o_prev = prev
    s1 = next((k for k in range(end + 1, min(len(al.items), end + 1 + _LATER))
               if al.items[k].kind != "blank"), None)
    if s1 is None or al.items[s1].kind != "code" or s1 in al.pairs:
        return []
    for c in range(o_prev + 1, min(o, o_prev + 1 + _LATER)):
        if not al.onorm[c] or c in taken or al.owidth[c] - al.owidth[o_prev] != al.swidth[s1] - al.swidth[s_prev] \
                or al.snorm[s1] != al.onorm[c] and not replaces(al.snorm[s1], al.onorm[c]):
            continue
        run, k, oc = [(s1, c)], s1, c
        while True:
            k, oc = next_pair(al, k, oc, len(al.items), o, +1)
            if k >= len(al.items) or oc >= o or al.items[k].kind != "code" or k in al.pairs or oc in taken \
                    or al.snorm[k] != al.onorm[oc]:
                break
            run.append((k, oc))
        if len(run) >= 2:
            return run
    return []


def _renear(al: Aligner, after: list[tuple[int, int]], o_prev: int, s: int) -> dict[int, int]:
    """New places for the pairs that follow the pair of s up to the next marker, lines the file
    has more than once (`if output is None:`): their first free copies after o_prev, in order, as
    long as there are such; {} when the first has none. O(those pairs x their copies)."""
    taken = set(al.pairs.values())
    moves: dict[int, int] = {}
    last = s
    for s2, o2 in after:
        if any(k in al.markers for k in range(last, s2)) or len(al.opos.get(al.snorm[s2], ())) < 2:
            break
        copies = [c for c in al.opos[al.snorm[s2]] if o_prev < c < o2 and c not in taken]
        if not copies:
            break
        moves[s2] = o_prev = copies[0]
        taken.add(o_prev)
        last = s2
    return moves


def _code_above(al: Aligner, s: int) -> int | None:
    """The nearest code line above snippet line s, past blank lines only (None at a marker)."""
    k = s - 1
    while k >= 0 and al.items[k].kind == "blank":
        k -= 1
    return k if k >= 0 and al.items[k].kind == "code" else None


def _earlier_header(al: Aligner, ps: int, po: int, taken: set[int]) -> int | None:
    """The unpaired original header above po that snippet header ps edits, or None."""
    near = similarity(al.snorm[ps], al.onorm[po])
    for o in range(po - 1, max(po - 1 - _REACH, -1), -1):
        if o in taken:
            return None
        if al.onorm[o] and al.owidth[o] == al.owidth[po] and opens_block(al.onorm[o]):
            score = similarity(al.snorm[ps], al.onorm[o])
            if score >= FUZZY_MIN and score >= near + _MARGIN:
                return o
    return None


def _inside(parents: list[int | None], s: int, ps: int) -> bool:
    """Snippet line s lies in the block snippet line ps opens. O(depth)."""
    up = parents[s]
    while up is not None and up > ps:
        up = parents[up]
    return up == ps
