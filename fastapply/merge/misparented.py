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

from .lines import continues_block, is_trivial, opens_block
from .similar import FUZZY_MIN, similarity

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
