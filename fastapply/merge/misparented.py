"""Body lines paired into the wrong block: a new header's body lines that coincide with lines of
another original block, while the header itself is the edit of an earlier original header.

jupyter-client rewrote `if encryption_required and km.transport != "tcp":` and its one-line
`msg = "..."` as `if encryption_required and not encryption_supported_transport:` over a
parenthesised `msg = (` ... `)`. The next original `if` (the local-interface check) has a `msg = (`
of its own, the only one in the file: a unique anchor, and with it that block's `)` and `raise`.
The merge then read the old `if` and the local-interface check as deleted and kept the check's
body under the new header. Such pairs are dropped here, before the fuzzy passes, so the new lines
pair with the block they edit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lines import continues_block, opens_block
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
