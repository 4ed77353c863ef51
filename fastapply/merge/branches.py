"""A new branch written above an old one that starts alike.

Models add a case in front of a chain (`if off_for_everyone:` above `if enabled is False:`, now an
`elif`): the new branch's first body lines (`report.status = "PASS"`) are the old branch's too, and
the snippet's trailing context under the old header repeats them. Paired line for line from the
top, the new header reads as an edit of the old one, the old header as an edit of the next
branch's, and the lines between are dropped. The old header, edited, is the one whose text is
nearer; the new branch is new code.

Complexity: O(fuzzy pairs x _BRANCH_LINES).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .similar import FUZZY_MIN, similarity

if TYPE_CHECKING:
    from .anchor import Aligner

_BRANCH_LINES = 6  # context lines under the old header that pair_inserted_branch moves
_ELSE_IF = re.compile(r"(?:elif|elsif|}?\s*else\s+if)\s+")


def first_branch_text(norm: str) -> str | None:
    """The line a later branch was as the first one: `if A:` for `elif A:`, `if (A) {` for
    `} else if (A) {`, `if a` for Ruby's `elsif a`. O(len(norm))."""
    match = _ELSE_IF.match(norm) if norm[:1] in "e}" else None
    return None if match is None else "if " + norm[match.end():]


def new_first_branches(al: Aligner, fresh: list[bool]) -> None:
    """Mark as new code a snippet branch `if B:` (and its body) whose next branch is `elif A:` when
    the original has `if A:` once, the snippet not at all, and not `if B:`: the new first branch
    of a chain whose old first branch went on as the `elif` (flashinfer's new `if config.variant
    == ...:` above `elif (numel // shards) ...`). Its lines may read like the old branch's
    (`return False`); they are not its context. O(m + the lines walked back over)."""
    snorm, swidth, markers, opos, spos = al.snorm, al.swidth, al.markers, al.opos, al.spos
    for index, norm in enumerate(snorm):
        old = first_branch_text(norm) if norm else None
        if old is None or len(opos.get(old, ())) != 1 or old in spos:
            continue
        back = index - 1
        while back >= 0 and back not in markers and (not snorm[back] or swidth[back] > swidth[index]):
            back -= 1
        if back < 0 or back in markers or swidth[back] != swidth[index] or snorm[back] in opos \
                or not snorm[back].startswith(("if ", "if(")):
            continue
        for line in range(back, index):
            fresh[line] = fresh[line] or bool(snorm[line])


def pair_inserted_branch(al: Aligner) -> None:
    """For a fuzzy pair (c, oc) followed by pairs d of equal text (consecutive on both sides) and
    then a marker, where the same lines as d, paired alike, open the body of a fuzzy pair (a, oa)
    above c at its depth, with more body lines after them: when c reads closer to oa's text than a
    does, c edits oa, d pairs with the lines under oa, and a with its body is new code (prowler's
    googleworkspace checks; the marker after d keeps the branches below)."""
    items, pairs, fuzzy, snorm, onorm = al.items, al.pairs, al.fuzzy, al.snorm, al.onorm
    for c in sorted(fuzzy):
        if c not in pairs:
            continue
        oc = pairs[c]
        d: list[int] = []
        k = c + 1
        while k < len(items) and k in pairs and snorm[k] and pairs[k] == oc + len(d) + 1 and snorm[k] == onorm[pairs[k]] \
                and len(d) <= _BRANCH_LINES:
            d.append(k)
            k += 1
        while k < len(items) and items[k].kind == "blank":
            k += 1
        if not d or len(d) > _BRANCH_LINES or k >= len(items) or k not in al.markers:
            continue
        # the new branch's header: the nearest line above c at c's depth, all between deeper (its body)
        a = c - 1
        while a >= 0 and a not in al.markers and (not snorm[a] or al.swidth[a] > al.swidth[c]):
            a -= 1
        if a < 0 or a in al.markers or a not in pairs or a not in fuzzy or al.swidth[a] != al.swidth[c]:
            continue
        oa = pairs[a]
        body = [x for x in range(a + 1, c) if snorm[x]]
        b = body[:len(d)]
        if oa >= oc or len(body) <= len(d) or any(
                pairs.get(x) != oa + 1 + i or snorm[x] != snorm[y] or snorm[x] != onorm[oa + 1 + i]
                for i, (x, y) in enumerate(zip(b, d))):
            continue
        near = similarity(snorm[c], onorm[oa])
        if near < FUZZY_MIN or near <= similarity(snorm[a], onorm[oa]):
            continue
        for x in (a, *body):
            pairs.pop(x, None)
            fuzzy.discard(x)
        pairs[c] = oa
        for i, y in enumerate(d):
            pairs[y] = oa + 1 + i
