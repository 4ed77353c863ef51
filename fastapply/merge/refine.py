"""Passes over a first alignment: drop anchors that contradict the nesting, pair closing lines,
place lone edited lines, and find original lines that complete snippet blocks replace (pairing
edited lines next to anchors: fuzzy_pairs.py)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from rapidfuzz.fuzz import ratio
from rapidfuzz.process import extract

from ..deadline import check_deadline
from .context import edits_dropping_comments, ends_before_whole_blocks
from .lines import DROPPED_STUBS, call_inside_call, code_part, continues_block, indent_width, is_trivial, \
    opens_block
from .fuzzy_pairs import closed_alike
from .similar import FUZZY_MAX_CHARS, FUZZY_MIN, edited_version, long_matches, similarity

if TYPE_CHECKING:
    from .anchor import Aligner
    from .chain import SortedIndices

# Original lines compared, over all straggler searches of one merge (rapidfuzz, ~20 ns each).
STRAGGLER_BUDGET = 2_000_000
_RUN_REACH = 12  # code lines a common line's unbroken run of context is followed to an anchor
_NEW_REACH = 200  # snippet lines walked in all (lines of new definitions in the run included)


def prune_orphans(al: Aligner) -> None:
    """Drop pairs that contradict the nesting: a snippet line inside a block whose opening line is
    paired must pair inside that block of the original, and a line inside a new definition (an
    unpaired header) pairs with nothing: `if order is None:` in a new function is new code, not
    the same line of some other function."""
    parent_of = al.snippet_parents()
    ends: dict[int, int] = {}
    pairs, fuzzy, opos, snorm = al.pairs, al.fuzzy, al.opos, al.snorm  # (once per pair: local names)
    markers, strivial, scloser = al.markers, al.strivial, al.scloser
    for s in sorted(pairs):
        o = pairs[s]
        if s not in fuzzy and len(opos.get(snorm[s], ())) >= 3:
            # Two of the answers isolated_common gives first, without the call (each is one of its
            # own tests, and it answers False as soon as one holds): a closing line whose block
            # is paired, and a distinctive line right above paired right above it.
            above, o2 = s - 1, pairs.get(s - 1)
            if scloser[s] and al._closer_ok(s) \
                    or o2 is not None and o2 < o and above not in markers and snorm[above] \
                    and not strivial[above] and len(opos.get(snorm[above], ())) < 3 \
                    and abs((o2 - o) + al.moved_between(o, o2) + 1) <= 2:
                pass
            elif closed_alike(al, s, o) or s + 1 in pairs and pairs[s + 1] == o + 1 and closed_alike(al, s + 1, o + 1):
                pass  # (a header whose closing line pairs with its original block's, or the line above it)
            elif isolated_common(al, s, o):
                del pairs[s]
                continue
        if parent_of[s] is not None and parent_of[s] not in pairs and _parent_shown_later(al, parent_of[s], s, o):
            del pairs[s]
            continue
        anc = parent_of[s]
        while anc is not None and anc not in pairs and (al.key_of(snorm[anc]) is None or call_inside_call(
                snorm[anc], snorm[parent_of[anc]] if parent_of[anc] is not None else None)):
            anc = parent_of[anc]
        if anc is None:
            continue
        if anc in pairs:
            a = pairs[anc]
            if a not in ends:
                ends[a] = al._orig_end(_header_end(al, anc, a))
            if a < o <= ends[a] or _reseat(al, anc, s, o):
                continue
        del pairs[s]


def _parent_shown_later(al: Aligner, parent: int, s: int, o: int) -> bool:
    """True when snippet line s, in a new block of the snippet (its header `parent` unpaired and
    no edit of the original's), is paired with original line o whose own block header the
    snippet shows after s: a new line that copies a line of that later block (`raise
    ValueError(...)` under a new `if`, then the original's `if value < 0:` with the same
    `raise`). O(_PARENT_REACH)."""
    width = al.owidth[o]
    for k in range(o - 1, max(-1, o - _PARENT_REACH), -1):
        if al.onorm[k] and al.owidth[k] < width:
            return any(c > s for c in al.spos.get(al.onorm[k], ())) \
                and not edited_version(al.snorm[parent], al.onorm[k]) \
                and similarity(al.snorm[parent], al.onorm[k]) < FUZZY_MIN
    return False


_PARENT_REACH = 200


def _header_end(al: Aligner, s: int, a: int) -> int:
    """The original line that ends the header at line a which snippet header s is paired with:
    a itself, or, when the original splits it after its `(` and the snippet writes it on one line
    (`def __init__(self, app) -> None:`), the line at a's depth that closes it (`) -> None:`),
    whose block is the body. O(the header's lines, at most _HEADER_LINES)."""
    if not al.onorm[a].endswith(("(", "[")) or code_part(al.snorm[s])[-1:] == al.onorm[a][-1:]:
        return a
    for k in range(a + 1, min(len(al.orig), a + _HEADER_LINES)):
        if al.onorm[k] and al.owidth[k] <= al.owidth[a]:
            closes = al.o_opens(k) or opens_block(code_part(al.onorm[k]))  # (`):  # pragma: no cover`)
            return k if al.onorm[k].startswith((")", "]")) and closes else a
    return a


_HEADER_LINES = 50


def _reseat(al: Aligner, anc: int, s: int, o: int) -> bool:
    """A common block opener (`/**`, `if err != nil {`) paired with the first copy that came along,
    while a line of its block occurs once in the original, in another copy's block: the unique
    line wins and the opener moves to the copy that encloses it (the nearest one above it at the
    same indentation, right above it with nothing paired in between). O(copies checked)."""
    norm, opener = al.snorm[s], al.snorm[anc]
    a = al.pairs[anc]
    if is_trivial(norm) or len(al.opos.get(norm, ())) != 1 or len(al.opos.get(opener, ())) < 2 \
            or any(anc < k < s for k in al.pairs):
        return False
    before = max((al.pairs[k] for k in al.pairs if k < anc), default=-1)
    taken = set(al.pairs.values())
    for c in reversed(al.opos[opener]):
        if c >= o:
            continue
        if c <= before or c in taken:
            return False
        if indent_width(al.orig[c]) == indent_width(al.orig[a]) and o <= al._orig_end(c):
            if a < c and any(o2 > a and o2 < c for k, o2 in al.pairs.items() if k > s):
                return False  # (a later pair between the two copies would break the order)
            al.pairs[anc] = c
            return True
        return False
    return False


def pair_closers(al: Aligner) -> None:
    """Pair the closing line (`end`, `}`) of every paired block opener whose closer is still
    unpaired: the opener may have been paired in a later step than the one that left its closer
    as a lone trivial line (`end` is too common to pair on its own)."""
    taken = set(al.pairs.values())
    # O(log m) order checks (a scan of every pair per closer was quadratic), the O(m) set-up done
    # when a closer first needs one: usually every closer is paired already
    order: SortedIndices | None = None
    sopens = al.sopens
    for s, o in sorted(al.pairs.items()):
        if not sopens[s]:
            continue  # (what _block_ends tests first, without the call: most pairs open no block)
        ends = al._block_ends(s, o, len(al.items), len(al.orig))
        if ends is None or ends[0] in al.pairs or ends[1] in taken:
            continue
        if al.snorm[s] == al.onorm[o] and len(al.opos.get(al.onorm[o], ())) > 1 \
                and any(map(str.isalnum, al.onorm[o])) and not _body_paired(al, s, o, ends):
            # an unedited opener the file has more than once (`parser.add_argument(`), with
            # nothing of its body paired inside the original block: no evidence that the
            # snippet's block is that one (a new call written above it, whose `)` would take the
            # old call's and replace its arguments); an edited opener was placed by its
            # neighbours (`Self {` -> `Settings {`), a bare `{` by its header above
            continue
        if order is None:
            order = al.pair_order()  # (no pair added before this: the pairs as they came)
        if al._monotone(*ends, order):
            al.pairs[ends[0]] = ends[1]
            taken.add(ends[1])
            order.add(ends[0])


def _body_paired(al: Aligner, s: int, o: int, ends: tuple[int, int]) -> bool:
    """A snippet line between opener s and its closer is paired inside original block o..ends[1].
    O(the snippet block's lines)."""
    pairs = al.pairs
    return any(o < pairs.get(k, -1) < ends[1] for k in range(s + 1, ends[0]))


def covered(al: Aligner) -> set[int]:
    """Original lines that a complete block in the snippet replaces although nothing pairs them.

    When the snippet gives a paired header's whole block (no marker inside it), every line of
    the original block belongs to that block, also those after the snippet's last paired line
    (Python has no closing brace to pair): a marker after the block must not keep them."""
    gone: set[int] = set()
    sopens, swidth, snorm, markers = al.sopens, al.swidth, al.snorm, al.markers  # (per line: local)
    size = len(al.items)
    order: list[int] | None = None  # the paired snippet lines in order (built on first use)
    for s, o in al.pairs.items():
        if not sopens[s] or snorm[s][-1:] != al.onorm[o][-1:]:
            continue  # (a header split after its `(` paired with a one-line one: its "block" is the parameters)
        width = swidth[s]
        body: list[int] = []
        complete = False
        by_marker = False  # (the block ends at a marker, not at a line of the snippet's own)
        for index in range(s + 1, size):
            if index in markers:
                complete = by_marker = swidth[index] <= width
                break
            norm = snorm[index]
            if not norm or continues_block(norm):
                continue
            if swidth[index] <= width:
                # the same header again right after its block: which of the two is the original
                # one is unclear, so the block is not known to be complete
                complete = norm != snorm[s]
                break
            body.append(index)
        else:
            complete = True
        if body and sopens[body[-1]]:
            complete = False  # it ends with a block header whose body the marker after it stands for
        if complete and body and body[-1] not in al.pairs:
            # the lines after the block's last paired line are replaced by its unpaired tail
            start = max((al.pairs[b] for b in body if b in al.pairs), default=o)
            end = al._orig_end(o)
            if order is None:
                order = sorted(al.pairs)
            after = bisect_right(order, body[-1])
            if by_marker and after < len(order) and start < al.pairs[order[after]] <= end:
                continue  # the code after the marker is this block's own: the marker stands inside it
            if by_marker:
                # an `else:` (`except:`) of the original statement after the lines the snippet
                # shows: the marker stands for it (an `elif` added above it leaves it in place)
                shown = {(swidth[i] - width, snorm[i]) for i in range(s + 1, index)}
                end = _before_clause(al, o, start, end, shown)
            if not by_marker and after < len(order) and start < al.pairs[order[after]] <= end:
                # a line after the block pairs inside the original block: the rest of that block
                # went on past the snippet's block (into an `else:` the snippet adds), not away
                end = al.pairs[order[after]] - 1
            gone.update(range(start + 1, end + 1))
    return gone


def _before_clause(al: Aligner, o: int, start: int, end: int, shown: set[tuple[int, str]]) -> int:
    """The last original line before the first clause line (`else:`, `except ...:`) between
    `start` and `end` that continues a statement shown up to `start` (it is less indented than
    every line after `start`) and that the snippet's block under header `o` does not show
    (`shown`: its lines, with their indentation relative to the header's), or `end`. O(end - start)."""
    base = indent_width(al.orig[o])
    lowest = None  # the smallest indentation after `start` so far
    for line in range(start + 1, end + 1):
        norm = al.onorm[line]
        if not norm:
            continue
        width = indent_width(al.orig[line])
        if (lowest is None or width < lowest) and (continues_block(norm) or _PY_CLAUSE.match(norm)):
            return end if (width - base, norm) in shown else line - 1
        lowest = width if lowest is None else min(lowest, width)
    return end


_PY_CLAUSE = re.compile(r"^(?:except|finally)\b")


def place_stragglers(al: Aligner) -> None:
    """A segment with no paired line at all (one edited line between two markers) is matched
    to the one original line, between its neighbours' anchors, that it is an edited version of.

    O(min(S * N, STRAGGLER_BUDGET)) comparisons for S straggler lines and N original lines (each
    searches the range between its neighbours' anchors, the whole file when nothing is paired)."""
    segments = al.segments
    ordered = sorted(al.pairs.items())
    keys = [s for s, _ in ordered]
    budget = STRAGGLER_BUDGET  # line comparisons for the whole snippet: bounded in the input size
    ranges: dict[tuple[int, int], dict[int, str]] = {}  # segments between the same anchors share one
    for seg in segments:
        if not seg or any(s in al.pairs for s in seg):
            continue
        at = bisect_left(keys, seg[0])
        lo = ordered[at - 1][1] + 1 if at > 0 else 0
        hi = ordered[at][1] if at < len(ordered) else len(al.orig)
        for s in seg:
            if is_trivial(al.snorm[s]) or al.in_new_definition(s):
                continue
            budget -= hi - lo
            if budget < 0:
                return  # what is left stays unplaced and is refused by the caller, not guessed
            check_deadline()
            choices = ranges.get((lo, hi))
            if choices is None:
                budget -= hi - lo
                choices = ranges[lo, hi] = {o: al.onorm[o] for o in range(lo, hi) if al.onorm[o]}
            found = extract(al.snorm[s], choices, scorer=ratio, score_cutoff=FUZZY_MIN, limit=3) \
                if len(al.snorm[s]) <= FUZZY_MAX_CHARS else long_matches(al.snorm[s], choices)
            good = [(score, o) for _, score, o in found
                    if edited_version(al.snorm[s], al.onorm[o], assignments=True)]
            if len(good) == 1 or len(good) > 1 and good[0][0] - good[1][0] >= 10:
                o = good[0][1]
                al.pairs[s] = o
                al.fuzzy.add(s)
                al._pair_closer(s, o, len(al.items), hi)
                break  # its neighbours are paired by extend_fuzzy, next to it


def isolated_common(al: Aligner, s: int, o: int) -> bool:
    """A line found all over the file (`if err != nil {`) anchors nothing on its own: keep it
    only when a distinctive line close to it (same segment) is paired close to it too, or it
    closes a paired block."""
    snorm, opos, pairs, markers, strivial = al.snorm, al.opos, al.pairs, al.markers, al.strivial  # (hot: local)
    if len(opos.get(snorm[s], ())) < 3 or al.scloser[s] and al._closer_ok(s):
        return False
    size = len(al.items)
    for step in (-1, 1):
        s2, seen = s + step, 0
        while 0 <= s2 < size and s2 not in markers and seen < 3:
            other = snorm[s2]
            if other:
                seen += 1
                o2 = pairs.get(s2)
                if o2 is not None and not strivial[s2] and len(opos.get(other, ())) < 3 \
                        and (o2 - o) * step > 0 and (abs((o2 - o) - step * al.moved_between(o, o2) - (s2 - s)) <= 2
                                                     or step > 0
                                                     and _before_deleted_blocks(al, s, o, s2, o2)):
                    return False
            s2 += step
    return not any(_runs_to_distinct(al, s, o, step) for step in (-1, 1)) and not _edits_to_anchor(al, s, o)


def _edits_to_anchor(al: Aligner, s: int, o: int) -> bool:
    """The snippet lines after (s, o) up to the next pair, a distinctive line, are the old
    versions' edits with only commented-out lines of the original dropped besides (`for p in
    patterns:`, then `self._exclude(p)` for `found = self._exclude(p)` and the comments under
    it, then the next `elif`): the common line is the edited block's head. O(lines up to the
    next pair)."""
    s2 = s + 1
    while s2 < len(al.items) and s2 not in al.markers and s2 not in al.pairs:
        s2 += 1
    o2 = al.pairs.get(s2)
    if o2 is None or o2 <= o or al.strivial[s2] or len(al.opos.get(al.snorm[s2], ())) >= 3:
        return False
    rest = [k for k in range(s + 1, s2) if al.snorm[k]]
    between = [k for k in range(o + 1, o2) if al.onorm[k]]
    return bool(rest) and edits_dropping_comments(al, rest, between)


def _runs_to_distinct(al: Aligner, s: int, o: int, step: int) -> bool:
    """True when the snippet lines from (s, o) on, towards `step`, stand line for line on the
    original's lines (edited or inserted lines between them allowed, skipped original lines
    not) up to a distinctive paired line, within _RUN_REACH code lines: context that runs
    without a break into an anchor (`GET_DELTA(...)`, `if (!delta) {`, ... above an edited
    line and a unique one). A new definition in the run is inserted there and breaks nothing
    (`}` / new method / `/**`). Further than _RUN_REACH code lines, only a distinctive anchor
    reached straight from the common line counts, when that line is the copy nearest to it, at most
    _NEAR_GAP original code lines away (gevent: `if TRAVIS:` after a 19-line new block that ends
    where the old list did). A distinct original line dropped between two pairs breaks the run
    (_drops_distinct). O(_NEW_REACH) snippet lines, and the original lines between the pairs met
    (at most as many code lines as the snippet has between them)."""
    s2, seen, last_s, last_o = s + step, 0, s, o
    walked = 0
    while 0 <= s2 < len(al.items) and s2 not in al.markers and walked < _NEW_REACH:
        other = al.snorm[s2]
        walked += 1
        if other and not al.in_new_definition(s2):  # (a new definition is inserted in the run)
            seen += 1
            o2 = al.pairs.get(s2)
            if o2 is not None:
                lo, hi = min(o2, last_o), max(o2, last_o)
                code = sum(1 for k in range(min(s2, last_s) + 1, max(s2, last_s))
                           if al.snorm[k] and not al.in_new_definition(k))
                if (o2 - last_o) * step <= 0 or _solid_over(al, lo, hi, code):
                    return False
                distinctive = not al.strivial[s2] and len(al.opos.get(other, ())) < 3
                if not (distinctive and len(al.opos.get(other, ())) == 1) \
                        and _drops_distinct(al, lo, hi, min(s2, last_s), max(s2, last_s)):
                    return False  # (two repeated lines, a distinct one dropped between them)
                if distinctive:
                    # past the usual reach, only straight to the anchor, from the copy next to it
                    return seen <= _RUN_REACH or last_s == s and not _solid_over(al, lo, hi, _NEAR_GAP) \
                        and not any(lo < k < hi for k in al.opos[al.snorm[s]])
                if seen > _RUN_REACH:
                    return False
                last_s, last_o = s2, o2
        s2 += step
    return False


_NEAR_GAP = 2  # original code lines between an anchor and the nearest copy of a common line it reaches


def _drops_distinct(al: Aligner, lo: int, hi: int, s_lo: int, s_hi: int) -> bool:
    """True when an original line strictly between lo and hi that occurs nowhere else in either
    text, and that no snippet line between s_lo and s_hi shares half its words with (an edit, a
    rewrite, the line commented out), would be dropped by pairing across it: the common lines at
    both ends are not where the snippet stands (dnslib: a doctest's `True` and `False` paired with
    the old example's, dropping its distinct `>>> l3.matchGlob(...)` line between them).
    O(original x snippet lines between), each at most _NEW_REACH here (the original side no more
    code lines than the snippet side, or _solid_over stopped the walk); the snippet lines' words
    are read once, when a distinct line is met."""
    shown: list[set[str]] | None = None
    for k in range(lo + 1, hi):
        norm = al.onorm[k]
        if norm and len(al.opos.get(norm, ())) == 1 and norm not in al.spos:
            words = set(_WORDS.findall(norm))
            if shown is None:
                shown = [set(_WORDS.findall(al.snorm[j])) for j in range(s_lo + 1, s_hi) if al.snorm[j]]
            if words and not any(2 * len(words & other) >= len(words) for other in shown):
                return True
    return False


_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")


def _solid_over(al: Aligner, lo: int, hi: int, most: int) -> bool:
    """True when more than `most` original code lines lie strictly between lo and hi (it stops
    counting there: a far pair costs no walk over the lines between). A stub body (`...`,
    `pass`) that an edit folds into the line above it does not count."""
    solid = 0
    for k in range(lo + 1, hi):
        if al.onorm[k] and al.onorm[k] not in DROPPED_STUBS:
            solid += 1
            if solid > most:
                return True
    return False


def _before_deleted_blocks(al: Aligner, s: int, o: int, s2: int, o2: int) -> bool:
    """True when (s, o) is the last line before whole blocks that the snippet deletes up to (s2, o2),
    at the same depth relative to it in both texts."""
    depth = al.swidth[s] - al.swidth[s2]
    return al.owidth[o] - al.owidth[o2] == depth and \
        ends_before_whole_blocks(al, (s, o), o2)
