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
from .lines import bracket_balance, call_inside_call, code_part, continues_block, header_key, indent_width, \
    is_trivial, opens_block
from .common_lines import isolated_common
from .fuzzy_pairs import closed_alike
from .renames import rewritten_in_place
from .similar import FUZZY_MAX_CHARS, FUZZY_MIN, edited_version, long_matches, similarity

if TYPE_CHECKING:
    from .anchor import Aligner
    from .chain import SortedIndices

# Original lines compared, over all straggler searches of one merge (rapidfuzz, ~20 ns each).
STRAGGLER_BUDGET = 2_000_000


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
        if anc is None or anc in al.split_heads:
            continue  # (a new header that took an old body: its lines are that body's, splits.py)
        if anc in pairs:
            a = pairs[anc]
            if a not in ends:
                ends[a] = al._orig_end(_header_end(al, anc, a))
            if a < o <= ends[a] or _reseat(al, anc, s, o):
                continue
        elif anc == parent_of[s] and _rewritten_header(al, anc, s, o):
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


def _rewritten_header(al: Aligner, anc: int, s: int, o: int) -> bool:
    """Snippet line s's own header `anc` is unpaired, and original line o's header, unpaired too, is
    the same definition written otherwise (`def remove(self, ..., *, p: int)` given `p: int | None =
    None` under two new `@overload` stubs; or one renames.rewritten_in_place finds) with only new
    lines between it and the previous pair: the header was rewritten, and pairs with the old one
    rather than making s new code and the old header a second definition. O(lines between the
    previous pair and o)."""
    outer = al.snippet_parents()[anc]
    if outer is not None and outer not in al.pairs and not continues_block(al.snorm[outer]) \
            and not ((key := al.key_of(al.snorm[outer])) is not None and al._okeys_for(key)):
        return False  # (inside a new block itself: `asyncRoute(async (req, res) => {` of a new route;
        # an `else:` not paired yet is no new block: python-statemachine's `def getter` under one;
        # nor is a class whose header was edited: pythran's `class FixedSizeList(FunctionAnalysis[...])`)
    h = al._header_of(o)
    if h > 0 and al.onorm[h].startswith(")"):
        # (a wrapped signature's `):` closes the header it continues: azure's `def _configure(`,
        # `self, **kwargs  # type: Any`, `):`, written on one line)
        k = h - 1
        while k > 0 and not (al.onorm[k] and al.owidth[k] == al.owidth[h]):
            k -= 1
        h = k if al.key_of(al.onorm[k]) is not None else h
    key = al.key_of(al.snorm[anc])
    if h < 0 or key is None or al.key_of(al.onorm[h]) != key and not rewritten_in_place(al, anc) \
            or any(al.onorm[k] and al.owidth[k] <= al.owidth[h] and not al.onorm[k].startswith(")")
                   for k in range(h + 1, o)):
        return False  # (o outside h's block; a wrapped signature's `):` is no end of it)
    before = max((al.pairs[k] for k in al.pairs if k < anc), default=-1)
    if not before < h or any(h <= al.pairs[k] < o for k in al.pairs if k != s):
        return False  # (the old header or a line of its block paired already, or out of order)
    al.pairs[anc] = h
    return True


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
        if _tail_above_next(al, s, ends):
            continue
        if order is None:
            order = al.pair_order()  # (no pair added before this: the pairs as they came)
        if al._monotone(*ends, order):
            al.pairs[ends[0]] = ends[1]
            taken.add(ends[1])
            order.add(ends[0])


def _tail_above_next(al: Aligner, s: int, ends: tuple[int, int]) -> bool:
    """True when a marker inside the snippet block s..ends[0] may reach past the block's end: the
    lines after the last such marker are the original lines right above the next paired line, which
    only new lines separate from the closer, and closing the block here would drop original code
    (pg-protocol's `public addInt32(...) {`, a marker, `return this`, `}`, a new method, then the
    method after it in the file; closed at addInt32's own `}`, the methods between were dropped).
    O(the block's tail + the new lines after it)."""
    sc, oc = ends
    last = next((t for t in range(sc - 1, s, -1) if t in al.markers), None)
    if last is None:
        return False
    nxt = sc + 1
    while nxt < len(al.items) and nxt not in al.pairs:
        if nxt in al.markers:
            return False
        nxt += 1
    if nxt >= len(al.items) or nxt == sc + 1 or not al.deletes(sc, oc, nxt, al.pairs[nxt]):
        return False
    tail = [al.snorm[t] for t in range(last + 1, sc + 1) if al.snorm[t]]
    above: list[str] = []
    o = al.pairs[nxt] - 1
    while o > oc and len(above) < len(tail):
        if al.onorm[o]:
            above.append(al.onorm[o])
        o -= 1
    return above[::-1] == tail


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
        head = _wrapped_head(al, o)
        if head is not None:
            # the last line of a wrapped header (`optionflags, checker):` hung deep under `def
            # _run_test(`): its block is the header's, at the header's first line's depth
            width, o = width - al.owidth[o] + al.owidth[head], head
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
    gone |= _rewritten_statements(al)
    return gone


_STATEMENT_LINES = 40  # lines of a bracketed statement that an edited one-line version replaces


def _rewritten_statements(al: Aligner) -> set[int]:
    """The rest of a bracketed statement that the snippet edited into a line of its own: an edited
    pair whose snippet line closes every bracket it opens, its original line opening one that the
    lines below close (kv-asset-handler's `export {` and five names under it, now `export {
    MethodNotAllowedError, NotFoundError, InternalError };` at the file's end). The original lines
    up to the one that balances it go with the edit, when none of them is paired and they are fewer
    than _STATEMENT_LINES; a marker or the file's kept tail would have kept them. O(fuzzy pairs x
    _STATEMENT_LINES)."""
    gone: set[int] = set()
    taken: set[int] | None = None
    for s in al.fuzzy:
        o = al.pairs.get(s)
        if o is None or bracket_balance(al.snorm[s]) != 0 or (level := bracket_balance(al.onorm[o])) <= 0:
            continue
        end = o
        while level > 0 and end + 1 < min(len(al.onorm), o + _STATEMENT_LINES):
            end += 1
            level += bracket_balance(al.onorm[end])
        if level != 0:
            continue
        if taken is None:
            taken = set(al.pairs.values())
        if not taken.isdisjoint(range(o + 1, end + 1)):
            continue
        gone.update(range(o + 1, end + 1))
    return gone


_WRAP_LINES = 12  # lines a wrapped header may span


def _wrapped_head(al: Aligner, o: int) -> int | None:
    """The first line of the header that original line o ends, when o continues one wrapped over
    several lines (every line from the header's first to o deeper than it, the first a definition
    header, o the first line after it to end with `:`): None for a header of its own. O(_WRAP_LINES)."""
    if al.onorm[o][-1:] != ":" or header_key(al.onorm[o]) is not None:
        return None
    width = al.owidth[o]
    for k in range(o - 1, max(-1, o - _WRAP_LINES), -1):
        norm = al.onorm[k]
        if not norm:
            return None
        if norm.endswith(":"):
            return None  # (another block's header: o is a line of its own)
        if al.owidth[k] < width:
            return k if header_key(norm) is not None and all(al.owidth[j] > al.owidth[k] for j in range(k + 1, o + 1)) \
                else None
    return None


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
