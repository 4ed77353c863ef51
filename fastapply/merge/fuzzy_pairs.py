"""Pairing edited lines with the original lines they replace, next to the anchors of a first
alignment: a segment's changed first or last line (`extend_fuzzy`, `walk_fuzzy`) and runs of
edited lines (`pair_edit_run`). Moved out of refine.py, whose other passes prune and complete the
alignment; each walk is bounded by its reach, said in its docstring."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING

from .context_ends import condition_over_body
from .lines import header_key, is_closer
from .segments import GAP_KINDS, is_gap
from .similar import FUZZY_MIN, edited_version, rewrites, similarity, substituted

if TYPE_CHECKING:
    from .anchor import Aligner


def extend_fuzzy(al: Aligner) -> None:
    """Pair changed lines at a segment's edge with the original line they replace.

    A segment whose first line was edited (a new signature) leaves that line unpaired, and the
    marker before it would keep the old line too. When the unpaired snippet line and the original
    line just before the segment's first anchor look alike, they are paired (same for the end).
    """
    ordered = sorted(al.pairs.items())
    al._taken = set(al.pairs.values())
    al._order = None  # the pairs in order, built by walk_fuzzy when it first pairs a line (most never do)
    if al.items and al.items[0].kind == "code":
        walk_fuzzy(al, -1, -1, +1)
    if al.items and al.items[-1].kind == "code":
        walk_fuzzy(al, len(al.items), len(al.orig), -1)
    pairs, items, markers = al.pairs, al.items, al.markers
    last = len(items) - 1
    # (a paired neighbour ends either walk at once: most anchors sit between two, and skip the calls;
    # so does, next to the others, what each function tests first, inlined: blank lines up to a
    # pair or a marker, the usual end of a long snippet's function)
    for s, o in ordered:
        if s - 1 not in pairs:
            first = s - 1
            while first >= 0 and first not in pairs and items[first].kind == "blank":
                first -= 1
            if first >= 0 and first not in pairs and items[first].kind not in GAP_KINDS:
                walk_fuzzy(al, s, o, -1)
        if s + 1 not in pairs:
            first = s + 1
            while first <= last and first not in pairs and items[first].kind == "blank":
                first += 1
            if first <= last and first not in pairs and items[first].kind not in GAP_KINDS:
                walk_fuzzy(al, s, o, +1)
    for s, o in sorted(al.pairs.items()):
        if s + 1 not in pairs or items[s + 1].kind == "blank":
            first = s + 1
            while first <= last and items[first].kind == "blank":
                first += 1
            if first <= last and first not in markers and first not in pairs:
                pair_edit_run(al, s, o, +1)
        if s - 1 not in pairs or items[s - 1].kind == "blank":
            first = s - 1
            while first >= 0 and items[first].kind == "blank":
                first -= 1
            if first >= 0 and first not in markers and first not in pairs:
                pair_edit_run(al, s, o, -1)
    _pair_sandwiched(al)


def _pair_sandwiched(al: Aligner) -> None:
    """One unpaired snippet line between two adjacent pairs, one unpaired original line between
    theirs, at the same depth relative to them, both opening a block or neither, and alike
    (similarity FUZZY_MIN) or openers of the same body: the line is edited in place (ionic's `kill(pid, signal, err => {` now
    `(0, tree_kill_1.default)(pid, signal, err => {`; left apart, the old header went and its body,
    paired, stayed: refused). Paired, the lines after it may align otherwise than they did around
    an insertion (google-cloud's transports: an empty block, which check_empty_blocks refuses).
    O(pairs)."""
    order = sorted(al.pairs.items())
    for (a, oa), (b, ob) in pairwise(order):
        news = [k for k in range(a + 1, b) if al.snorm[k] or al.items[k].kind != "blank"]
        olds = [k for k in range(oa + 1, ob) if al.onorm[k]]
        if len(news) != 1 or len(olds) != 1 or al.items[news[0]].kind != "code":
            continue
        s, o = news[0], olds[0]
        if al.swidth[s] - al.swidth[a] != al.owidth[o] - al.owidth[oa] or al.s_opens(s) != al.o_opens(o) \
                or s - a != o - oa or b - s != ob - o:
            continue  # (blank lines around it as the original has them: paired, the original's would stay)
        # (a block opener whose body, shown deeper right below it, pairs inside the old one's block
        # wraps the same code, however its own text changed)
        wraps = al.s_opens(s) and al.swidth[b] > al.swidth[s] and o < ob <= al._orig_end(o)
        if not wraps and similarity(al.snorm[s], al.onorm[o]) < FUZZY_MIN:
            continue
        al.pairs[s] = o
        al.fuzzy.add(s)


_EDIT_REACH = 12  # lines an edit run may span from its anchor


def pair_edit_run(al: Aligner, s: int, o: int, step: int) -> None:
    """Several edited lines in a row next to the anchor (s, o): walking away from it, the snippet
    and original lines are compared position by position; where they differ each snippet line
    must be the original line with a few tokens swapped (a one-word edit, a named constant, an
    annotation), at the same indentation relative to the anchor. The run counts only when it is
    closed on its far side the same way on both sides: by a line equal to the original one at the
    same position (`return 1;`, `[observer],`, even a common `return None`) or by the next
    anchor at the same position. Line for line replacements between fixed ends are edits, not
    insertions next to the old lines.
    A definition header among the edits (a rename) needs more: everything the snippet shows up
    to the next marker or anchor goes on in lock-step, since a new sibling written like an old
    one (`get` before `create`) starts the same way and then differs. O(_EDIT_REACH) per anchor."""
    first = s + step
    while 0 <= first < len(al.items) and al.items[first].kind == "blank":
        first += step
    if not 0 <= first < len(al.items) or first in al.markers or first in al.pairs:
        return  # the walk below would stop at its first line (most anchors): nothing to pair
    taken = al._taken
    s2, o2 = s, o
    found: list[tuple[int, int, bool]] = []  # (snippet line, original line, edited)
    closed = 0  # how many of `found` a closing line or anchor confirms
    clean = True  # the walk ended at a marker, an anchor, an end or its reach, not at a difference
    while len(found) < _EDIT_REACH:
        s2 += step
        while 0 <= s2 < len(al.items) and al.items[s2].kind == "blank":
            s2 += step
        o2 = al._skip_blank(o2 + step, len(al.orig) if step > 0 else -1, step)
        if not (0 <= s2 < len(al.items) and 0 <= o2 < len(al.orig)) or s2 in al.markers:
            break
        if s2 in al.pairs or o2 in taken:
            if al.pairs.get(s2) == o2:
                closed = len(found)  # the next anchor sits at the same position
            else:
                clean = False
            break
        if al.snorm[s2] == al.onorm[o2]:
            found.append((s2, o2, False))
            if any(edited for _, _, edited in found):
                closed = len(found)
            continue
        shifted = al.swidth[s2] - al.swidth[s] != al.owidth[o2] - al.owidth[o]
        if shifted or not _bracket_swap(al.snorm[s2], al.onorm[o2]) and (
                al.snorm[s2] in al.opos or al.onorm[o2] in al.spos or not substituted(al.snorm[s2], al.onorm[o2])):
            clean = False  # (a line the other side has verbatim elsewhere is that line, not an edit)
            break
        found.append((s2, o2, True))
    edits = [s3 for s3, _, edited in found[:closed] if edited]
    if not edits or not clean and any(header_key(al.snorm[s3]) is not None for s3 in edits):
        return
    for s3, o3, edited in found[:closed]:
        al.pairs[s3] = o3
        taken.add(o3)
        if edited:
            al.fuzzy.add(s3)


# a line that only opens a bracket (`set(`, `{`, `[`) or only closes one (`)`, `}`, `],`)
_OPENER_ONLY = re.compile(r"^(?:[\w.]+)?[\[({]$")
_CLOSER_ONLY = re.compile(r"^[\]})]+[,;]?$")


def _bracket_swap(new: str, old: str) -> bool:
    """Two different lines that each only open a bracket, or each only close one: cirq's `set(`
    turned `{` around a comprehension (its `)` turned `}`), an edit in place however common the
    lines are elsewhere. O(len)."""
    return new != old and (bool(_OPENER_ONLY.match(new)) and bool(_OPENER_ONLY.match(old))
                           or bool(_CLOSER_ONLY.match(new)) and bool(_CLOSER_ONLY.match(old)))


def walk_fuzzy(al: Aligner, s: int, o: int, step: int) -> None:
    """From the anchor (s, o), pair the unpaired snippet lines next to it (up to a marker) with
    the unpaired original lines next to it that they are edited versions of, in order."""
    first = s + step
    while 0 <= first < len(al.items) and first not in al.pairs and al.items[first].kind == "blank":
        first += step
    if not 0 <= first < len(al.items) or first in al.pairs or is_gap(al.items[first]):
        return  # no unpaired code line next to the anchor (most anchors): nothing to pair
    taken = al._taken
    run: list[int] = []
    s2 = s + step
    while 0 <= s2 < len(al.items) and s2 not in al.pairs and not is_gap(al.items[s2]):
        if al.items[s2].kind == "code":
            run.append(s2)
        s2 += step
    if not run:
        return
    olines: list[int] = []
    o2 = o + step
    moved = al._moved  # code the snippet moves elsewhere is passed over like blank lines
    while 0 <= o2 < len(al.orig) and o2 not in taken and len(olines) < len(run) + 2:
        if al.onorm[o2] and o2 not in moved:
            olines.append(o2)
        o2 += step
    base_s = al.swidth[s] if 0 <= s < len(al.items) else None
    base_o = al.owidth[o] if 0 <= o < len(al.orig) else None
    cursor = misses = 0
    for index, s2 in enumerate(run):
        # an unchanged line must be the very next one; an edited line may replace two
        reach = 1 if al.snorm[s2] in al.opos else 2
        for k in range(cursor, min(cursor + reach, len(olines))):
            o2 = olines[k]
            same = al.snorm[s2] == al.onorm[o2] and not is_closer(al.snorm[s2])
            # the lines right next to the anchor on both sides may also be a rewrite of each other
            adjacent = k == 0 and s2 == run[0] and al.onorm[o2] not in al.spos
            if not same and not _edited(al, al.snorm[s2], al.onorm[o2]) and \
                    not (adjacent and (_rewrites(al, al.snorm[s2], al.onorm[o2])
                                       or condition_over_body(al, s2, o2))) and \
                    not (k == cursor and _bridged(al, run, index, olines, k)):
                continue
            if base_s is not None and base_o is not None and \
                    al.swidth[s2] - base_s != al.owidth[o2] - base_o:
                continue
            al.pairs[s2] = o2
            if al._order is None:
                # (only walk_fuzzy adds pairs before this in the pass, and it keeps the order up to date
                # once it exists: built now, it holds what the one built at the start would)
                al._order = al.pair_order()
            else:
                al._order.add(s2)
            taken.add(o2)
            al.fuzzy.add(s2)
            al.fuzzy.add(s)
            closer = al._block_ends(s2, o2, len(al.items), len(al.orig))
            if closer is not None and closer[0] not in al.pairs and closer[1] not in taken \
                    and al._monotone(*closer, al._order):
                al.pairs[closer[0]] = closer[1]
                al._order.add(closer[0])
                taken.add(closer[1])
                al.fuzzy.add(closer[0])
            cursor, misses = k + 1, -1
            break
        misses += 1
        if misses > 3:
            return


_BRIDGE = 2  # unchanged lines, right after a line and its original, that make the two a substitution


def _bridged(al: Aligner, run: list[int], index: int, olines: list[int], k: int) -> bool:
    """Snippet line run[index] replaces original line olines[k] because the _BRIDGE lines after
    each are the same, line for line (or the run ends after one), at the same indentation and with
    the same leading name: `id=None,` for `id: Incomplete | None = None,` in a parameter list
    whose next lines are repeated ones (`name: str,`), which no other test pairs; unpaired, they
    were new code, and the marker after them, less indented, was read as the end of the list.
    Definition headers never: a new function above one whose body starts alike is no edit of it.
    O(_BRIDGE)."""
    new, old = al.snorm[run[index]], al.onorm[olines[k]]
    if new in al.opos or old in al.spos or al.swidth[run[index]] != al.owidth[olines[k]] \
            or header_key(new) is not None or header_key(old) is not None:
        return False  # (a new definition is no edit of the one it precedes: `func get` above `func create`)
    lead_new, lead_old = _LEAD.match(new), _LEAD.match(old)
    if lead_new is None or lead_old is None or lead_new.group() != lead_old.group():
        return False
    after = run[index + 1:index + 1 + _BRIDGE]
    if not after:  # (fewer than _BRIDGE when the run ends)
        return False
    follow = olines[k + 1:k + 1 + len(after)]
    return len(follow) == len(after) and all(
        al.snorm[s] == al.onorm[o] and al.swidth[s] - al.swidth[run[index]] == al.owidth[o] - al.owidth[olines[k]]
        for s, o in zip(after, follow)) and any(not al.strivial[s] for s in after)


# a name right before punctuation (`id=`, `id:`, `self.x`): not a keyword, which a space follows
_LEAD = re.compile(r"[A-Za-z_$][\w$]*(?=[^\w\s$])")


def _edited(al: Aligner, new: str, old: str) -> bool:
    """similar.edited_version, remembered per pair of texts for the call (a pure function of the two:
    a file of repeated functions with the same edit asks it of the same two lines thousands of
    times). O(1) for a pair asked before."""
    found = al.edited_memo.get((new, old))
    if found is None:
        found = al.edited_memo[new, old] = edited_version(new, old)
    return found


def _rewrites(al: Aligner, new: str, old: str) -> bool:
    """similar.rewrites, remembered per pair of texts for the call like _edited."""
    found = al.rewrites_memo.get((new, old))
    if found is None:
        found = al.rewrites_memo[new, old] = rewrites(new, old)
    return found


def pair_rewritten_headers(al: Aligner) -> None:
    """A block whose body the snippet rewrote, its header one the file has more than once
    (`fn into_iter(self) -> Self::IntoIter {` in three impls): its closing line was paired by the
    lines after it, but no walk reached the header across the new body. The header pairs with the
    original header of the block that closing line ends, when the two are written alike, only
    deeper lines lie between each header and its closer, and a distinctive line right after the
    closing lines placed them (closed_alike); so do equal lines right above them (`#[inline]`).
    Unpaired, the header was new code and the old one stayed: a second definition.
    O(the block's lines) per paired closing line whose line above is unpaired."""
    order = None
    taken = set(al.pairs.values())
    for s_end, o_end in sorted(al.pairs.items()):
        if not al.scloser[s_end] or s_end - 1 in al.pairs or s_end == 0:
            continue
        s = _header_above(al.snorm, al.swidth, s_end, al.markers)
        if s is None or s in al.pairs or not al.sopens[s]:
            continue
        o = _header_above(al.onorm, al.owidth, o_end, frozenset())
        if o is None or al.onorm[o] != al.snorm[s] or o in taken or not closed_alike(al, s, o):
            continue
        if order is None:
            order = al.pair_order()
        if not al._monotone(s, o, order):
            continue
        while s >= 0 and o >= 0 and s not in al.pairs and o not in taken and al.snorm[s] == al.onorm[o] \
                and al.snorm[s] and s not in al.markers and al._monotone(s, o, order):
            al.pairs[s] = o
            taken.add(o)
            order.add(s)
            s, o = s - 1, o - 1


def _header_above(norms: list[str], widths: list[int], end: int, stops: frozenset[int] | set[int]) -> int | None:
    """The nearest line above `end` at its indentation, passing over deeper and blank lines (None at
    a marker or the file's start). O(the lines passed)."""
    k = end - 1
    while k >= 0 and k not in stops and (not norms[k] or widths[k] > widths[end]):
        k -= 1
    return k if k >= 0 and k not in stops and norms[k] and widths[k] == widths[end] else None


def closed_alike(al: Aligner, s: int, o: int) -> bool:
    """Snippet line s opens a block whose closing line is paired with the closing line of the block
    original line o opens: the two blocks are one, body rewritten or not, however often the
    header occurs. O(the two blocks' lines)."""
    ends = al._block_ends(s, o, len(al.items), len(al.orig))
    if ends is None or not al.scloser[ends[0]] or al.pairs.get(ends[0]) != ends[1]:
        return False
    s_end, o_end = ends
    # the closing line is placed by a distinctive line right after it (past other closing lines), not
    # by being one more `)` (a call the file repeats, `parser.add_argument(`, paired with another)
    k = s_end + 1
    while k < len(al.items) and k not in al.markers and (not al.snorm[k] or al.scloser[k]):
        k += 1
    return k in al.pairs and len(al.opos.get(al.snorm[k], ())) == 1 and 0 < al.pairs[k] - o_end <= k - s_end + 2

