"""Segments out of file order: models show a helper after its caller although the helper sits
earlier in the file. A single monotone alignment cannot pair such a segment, so before aligning,
segments (the code between two markers) are put back in file order when every one of them is
placed by its own anchors: lines that occur exactly once in the original and once in the snippet,
and lines that a definition match stands for (defmatch.py: the header of a matched definition,
every line of one matched identically).

The definitions are read (tree-sitter) only when the line anchors alone leave a segment unplaced
or out of order: most snippets are in order and never pay for a parse.

Complexity: O(n + m log m) for n original and m snippet lines (one pass to count, one sort of the
segments), plus the definition match when it is asked for (defmatch.py).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import TYPE_CHECKING

from ..deadline import check_deadline
from .ambiguity import bare_opener, best_copy, telling_code
from .lines import header_key, indent_width, name_count, next_code, opens_block
from .segments import SnippetLine, is_gap
from .similar import one_token_apart

if TYPE_CHECKING:
    from .anchor import Aligner
    from .defmatch import DefIndex, DefinitionMatch

# Segments are moved only when each has this many anchors of its own (one line can be new code
# that happens to equal a line elsewhere), in the order of their snippet lines, ...
_MIN_ANCHORS = 2
# ... unless its one anchor is a telling line (this many names) at its edge, where context sits
_EDGE_WORDS = 3
# ... or is followed by this many closing lines as the original has them, the last at column 0
_CLOSERS = 2


def file_order(al: Aligner, defs: DefIndex) -> list[SnippetLine]:
    """The aligner's items with their segments in the order their anchors have in the original,
    or the items as they are when they are in order already or when a segment has too few anchors
    of its own (its place would be a guess: the alignment then decides, or refuses)."""
    items = al.items
    segments: list[list[int]] = [[]]
    markers: list[SnippetLine] = []
    for index, item in enumerate(items):
        if is_gap(item):
            markers.append(item)
            segments.append([])
        else:
            segments[-1].append(index)
    if len(markers) < 2:
        return items
    check_deadline()  # thread mode cannot kill a merge: it stops between steps instead
    if sum(1 for seg in segments if any(items[s].kind == "code" for s in seg)) < 2:
        return items  # a single part with code is in file order, whatever its lines say (the answer below)
    counts = Counter(item.norm for item in items if item.kind == "code")
    spans, moved = _spans(al, segments, counts, None)
    _mark_new(al, moved)
    if spans is not None and [s[2] for s in sorted(spans)] == [s[2] for s in spans]:
        return items  # in file order (most snippets: nothing is parsed)
    if spans is None:
        lines = [o for s in range(len(items))
                 if (o := anchor_of(al, s, counts, None)) is not None]
        if all(a < b for a, b in zip(lines, lines[1:])):
            return items  # a segment has too few anchors, but all lines are in file order
    match: DefinitionMatch | None = None
    if spans is None or [s[2] for s in sorted(spans)] != [s[2] for s in spans]:
        match = defs.match()  # the lines alone do not settle it: ask the definitions
        if match is not None:
            # (when the definitions leave a part without anchors of its own, the lines' answer
            # stands: package.json's keys, a part per object, each placed by its unique lines)
            found, moved = _spans(al, segments, counts, match)
            _mark_new(al, moved)
            spans = found or spans
    if spans is None:
        return items
    ordered = sorted(spans)
    if [s[2] for s in ordered] == [s[2] for s in spans]:
        return items
    if any(a[1] >= b[0] for a, b in zip(ordered, ordered[1:])):
        return items  # interleaved segments: not a plain reordering
    # a segment without a marker before it is the file's head and must stay first; likewise the
    # tail, or the segment before a tail of closing lines only (placed by no anchor: it stays last,
    # after the segment it followed)
    last = len(segments) - 1
    closing_tail = _closing_tail(al, segments)
    if segments[0] and ordered[0][2] != 0 or segments[-1] and ordered[-1][2] != last - closing_tail:
        return items
    result: list[SnippetLine] = []
    if not segments[0] and any(al.onorm[:ordered[0][0]]):
        result.append(markers[0])  # (none before the file's first line: it would stand for nothing)
    for position, (_, _, index) in enumerate(ordered):
        if position:
            # the marker that stood before this segment describes where it starts
            marker = markers[index - 1] if index > 0 else markers[0]
            if _unplaced(al, marker, result, [items[s] for s in segments[index]]):
                return items
            result.append(marker)
        result.extend(items[s] for s in segments[index])
    if not segments[-1] or closing_tail:
        result.append(markers[-1])
    if closing_tail:
        result.extend(items[s] for s in segments[-1])
    return result


def _unplaced(al: Aligner, marker: SnippetLine, before: list[SnippetLine], after: list[SnippetLine]) -> bool:
    """True for a marker written at column 0 that would now stand right after a block's header and
    before a deeper line that is new code: whether the new line goes at the start of that block's
    body or after more of it (the marker standing for the rest of the block) is a guess, and the
    merge would rest on it. A deeper line the original has is placed by the alignment, which
    pairs it with its line wherever that is. O(1)."""
    if marker.text[:1].isspace():
        return False
    above = next((i for i in reversed(before) if i.kind == "code"), None)
    below = next((i for i in after if i.kind == "code"), None)
    return above is not None and below is not None and opens_block(above.norm) \
        and indent_width(below.text) > indent_width(above.text) and below.norm not in al.opos


def _mark_new(al: Aligner, lines: list[int]) -> None:
    """Lines moved out of another part's place (_without_moved) are new code where they stand now."""
    for s in lines:
        al.items[s].fresh = True


def _spans(al: Aligner, segments: list[list[int]], counts: Counter[str], match: DefinitionMatch | None
           ) -> tuple[list[tuple[int, int, int]] | None, list[int]]:
    """(first anchor, last anchor, segment index) of every segment with code, or None when a
    segment has no anchor, or too few in the order of its lines (a deletion may lie between);
    and, with the spans, the snippet lines moved out of another part's place (_without_moved).
    Lines of a moved definition (moves.py: fresh) do not count."""
    parts: list[tuple[int, list[int], list[tuple[int, int]]]] = []
    for index, seg in enumerate(segments):
        code = [s for s in seg if al.items[s].kind == "code"]
        if not code or index == len(segments) - 1 and _closing_tail(al, segments):
            continue
        found = _without_far_twin(al, _nested([(s, o) for s in code
                                               if (o := anchor_of(al, s, counts, match)) is not None], al))
        if len(found) < _MIN_ANCHORS:
            # the body lines a renamed definition shows as they are (its header is new, so they
            # count as new code elsewhere) still say where the part stands, two in a row at least
            kept = _kept_body_run(al, code, counts)
            if kept:
                found = _nested(sorted(found + kept), al)
        if len(found) < _MIN_ANCHORS:
            # too few lines of its own: the copy of its lines that holds the most of them
            # unchanged, when one holds more than any other and its own anchor too (two retry
            # loops alike but for `raise e`)
            best = best_copy(al, telling_code(al, code))
            if best is not None and set(found) <= set(best):
                found = best
        parts.append((index, code, found))
    # the places of the parts whose anchors are in order: lines another part moved out of one of
    # them lie between its anchors, where the alignment drops them
    # a part whose first and last lines anchor it, in order, with anchors between them elsewhere in
    # the file: the lines between are new code that equals lines elsewhere (azure's new set of
    # header names, each name also in a list 800 lines below), not a place of their own
    coincidences: list[int] = []
    for k, (index, code, found) in enumerate(parts):
        inner = _outside_edges(al, code, found)
        if inner:
            coincidences += inner
            parts[k] = (index, code, [found[0], found[-1]])
    places = [(where[0], where[-1]) for _, _, found in parts
              if (where := [o for _, o in found]) and all(a < b for a, b in zip(where, where[1:]))]
    spans: list[tuple[int, int, int]] = []
    moved_out: list[int] = []
    for index, code, found in parts:
        found, moved = _without_moved(al, found, places)
        moved_out += moved
        where = [o for _, o in found]
        if any(a >= b for a, b in zip(where, where[1:])):
            # a wrapped definition line unique only by its wrapping (`def __new__(`) stands for no place
            found = [(s, o) for s, o in found if not bare_opener(al, al.snorm[s])]
            where = [o for _, o in found]
        if any(a >= b for a, b in zip(where, where[1:])) or not where:
            return None, []
        # (the file's head, no marker above it, stays first: one anchor there is enough)
        if len(where) < _MIN_ANCHORS and index > 0 and not (found[0][0] in (code[0], code[-1])
                                                            and name_count(al.snorm[found[0][0]]) >= _EDGE_WORDS) \
                and not _context_next_to(al, code, *found[0]):
            return None, []
        spans.append((min(where), max(where), index))
    return spans, moved_out + coincidences


def _outside_edges(al: Aligner, code: list[int], found: list[tuple[int, int]]) -> list[int]:
    """The snippet lines of the anchors between a part's first and last code line that lie outside
    the original range those two lines span, when both are anchors, in order, telling lines
    (_EDGE_WORDS names), and none of the anchors between lies inside it; else []. Between two lines
    with no marker between them the snippet shows all the code there is, so the anchors elsewhere
    are coincidences. O(len(found))."""
    if len(found) < 3 or found[0][0] != code[0] or found[-1][0] != code[-1]:
        return []
    lo, hi = found[0][1], found[-1][1]
    if lo >= hi or any(name_count(al.snorm[s]) < _EDGE_WORDS for s in (code[0], code[-1])) \
            or any(lo < o < hi for _, o in found[1:-1]):
        return []
    return [s for s, _ in found[1:-1]]


def _without_moved(al: Aligner, found: list[tuple[int, int]], places: list[tuple[int, int]]
                   ) -> tuple[list[tuple[int, int]], list[int]]:
    """`found` without the one anchor, or two neighbours, that break its file order, when the rest
    are in order, at least _MIN_ANCHORS + 1 and twice as many: lines the edit moved within their
    part (pygments' `from importlib.metadata import entry_points`, out of a function's `try` to the
    module's head) are unique in both texts but stand for no place; the part's other anchors place
    it. Or without the anchors that lie between two anchors of another part in order (`places`:
    its first and last), when some are left, in order: lines moved out of that part's place
    (httpcore's comment on a server-side disconnect, from `has_expired` into the request
    handler, both parts shown); a part has no marker between its anchors, so the other part
    cannot stand there; their snippet lines are returned too, new code where they stand. Or
    without the anchors that are lines edited in place (_edited_between), when the rest are in
    order. O(len(found) * len(places))."""
    where = [o for _, o in found]
    bad = next((k for k in range(len(where) - 1) if where[k] >= where[k + 1]), None)
    if bad is None:
        return found, []
    edited = _edited_between(al, found)
    if edited:
        rest = [anchor for k, anchor in enumerate(found) if k not in edited]
        if all(a[1] < b[1] for a, b in pairwise(rest)):
            return rest, []
    rest = [(s, o) for s, o in found if not any(a < o < b for a, b in places)]
    if rest and all(a[1] < b[1] for a, b in zip(rest, rest[1:])):  # (one left: _spans asks more of it)
        return rest, [s for s, o in found if any(a < o < b for a, b in places)]
    for lo, hi in ((bad, bad + 1), (bad + 1, bad + 2), (bad - 1, bad + 1), (bad + 1, bad + 3), (bad, bad + 2)):
        rest = where[:max(lo, 0)] + where[hi:]
        if lo < 0 or hi > len(where) or len(rest) < _MIN_ANCHORS + 1 or len(rest) < 2 * (hi - lo):
            continue
        # (its original lines within the part's other lines: the alignment drops them there, between
        # two anchors; ones outside would stay under a marker, and the moved lines come twice)
        if all(a < b for a, b in zip(rest, rest[1:])) and all(rest[0] < o < rest[-1] for o in where[lo:hi]):
            return found[:lo] + found[hi:], []
    return found, []


def _edited_between(al: Aligner, found: list[tuple[int, int]]) -> set[int]:
    """The indices of anchors whose neighbours in `found` stand as far apart in the original as in
    the snippet, around a line that is not theirs, in another block: the line between those two
    is edited in place into a copy of a line elsewhere (msal's `tagLength: tagLengthBits,` ->
    `tagLength: 128,` between `iv: iv,` and `additionalData: header,`, with `tagLength: 128,` once
    in another call). Both neighbours must be kept anchors. A copy in the same block is a line
    moved there (fdir's `exports.build = build;` from the file's end to its head: the part has
    too few anchors then, and the merge is refused). O(len(found) x depth)."""
    edited: set[int] = set()
    for k in range(1, len(found) - 1):
        (s1, o1), (_, o), (s2, o2) = found[k - 1], found[k], found[k + 1]
        if k - 1 not in edited and o2 - o1 == s2 - s1 and not o1 < o < o2 \
                and al._header_of(o) != al._header_of(o1 + 1):
            edited.add(k)
    return edited


def _without_far_twin(al: Aligner, found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`found` without a definition header whose name the original defines more than once, when
    its neighbour anchor in the part stands more than _FAR_APART lines further from it in the
    original than in the snippet: a part shows its lines together, and such a header (coqui's
    `def __init__(`, in two classes, its text unique only because the other one carries a
    comment) is the other class's copy, not the place the part's telling line names. O(anchors)."""
    far = set()
    for (s1, o1), (s2, o2) in pairwise(found):
        if abs(o2 - o1) - (s2 - s1) > _FAR_APART:
            far.update(k for k in ((s1, o1), (s2, o2)) if _twin_header(al, al.snorm[k[0]]))
    return [anchor for anchor in found if anchor not in far] if len(far) == 1 else found


_FAR_APART = 20


def _twin_header(al: Aligner, norm: str) -> bool:
    key = header_key(norm)
    return key is not None and len(al._okeys_for(key)) > 1


def _nested(found: list[tuple[int, int]], al: Aligner) -> list[tuple[int, int]]:
    """The anchors of a segment without those outside the original block of an anchored snippet
    line they are nested in: `def __init__(...)` written under `class A:` is A's, even where its
    edited text equals the header of another class's `__init__`. O(anchors + their parents)."""
    if len(found) < 2:
        return found
    at = dict(found)
    parents = al.snippet_parents()
    kept: list[tuple[int, int]] = []
    for s, o in found:
        p = parents[s]
        while p is not None and p not in at:
            p = parents[p]
        if p is None or at[p] < o <= al._orig_end(at[p]):
            kept.append((s, o))
    return kept


def _closing_tail(al: Aligner, segments: list[list[int]]) -> bool:
    """True when the code after the last marker is closing lines only (`}`, `end`): placed by no
    anchor, they end whatever the segment before them ends, and move with it. O(those lines)."""
    code = [s for s in segments[-1] if al.items[s].kind == "code"]
    return len(segments) > 1 and bool(code) and all(al.scloser[s] for s in code)


def _context_next_to(al: Aligner, code: list[int], s: int, o: int) -> bool:
    """True when the code lines next to the anchor (s, o) in its segment are the original's lines
    next to o: the anchor and a telling line stand together in the original, a block that occurs
    once, as good as a second anchor (`from email.parser import BytesParser`, found twice in the
    file, above the one `return BytesParser(...).parse(fp)`). Walking away from the anchor, new
    lines (not in the original, or in a new definition) are passed over, being inserted there, and
    trivial lines (`}`, a closing docstring quote) must match to go on but prove nothing. O(the
    lines walked)."""
    at = code.index(s)
    for step in (-1, 1):
        k, o2, closers = at + step, o, 0
        while 0 <= k < len(code):
            s2 = code[k]
            k += step
            if al.in_new_definition(s2) or not al.opos.get(al.snorm[s2]):
                # new code next to the anchor: inserted there, or the edit of the original's next
                # line (`[LIMIT, {` for `[403, {`), which it replaces
                edited = o2 + step
                while 0 <= edited < len(al.onorm) and not al.onorm[edited]:
                    edited += step
                if 0 <= edited < len(al.onorm) and not al.in_new_definition(s2) \
                        and one_token_apart(al.snorm[s2], al.onorm[edited]):
                    o2 = edited
                continue
            o2 += step
            while 0 <= o2 < len(al.onorm) and not al.onorm[o2]:
                o2 += step
            if not 0 <= o2 < len(al.onorm) or al.onorm[o2] != al.snorm[s2]:
                break
            if not al.strivial[s2]:
                return True
            # closing lines that close the anchor's blocks one by one, indentation and all, down
            # to the file's top level (`})`, `);`, `});`, `}`): the anchor ends that definition
            closers += al.scloser[s2] and al.stext[s2].rstrip() == al.orig[o2].rstrip()
            if closers >= _CLOSERS and al.owidth[o2] == 0:
                return True
    return False


def _kept_body_run(al: Aligner, code: list[int], counts: Counter[str]) -> list[tuple[int, int]]:
    """The lines of `code` inside a definition the original lacks that stand, two or more in a row,
    as a run of the original's lines that occur once (a renamed definition's body shown as it
    was); a lone such line may be new code that copies one. O(len(code))."""
    run: list[tuple[int, int]] = []
    best: list[tuple[int, int]] = []
    for s in code:
        o = _kept_body_line(al, s, counts)
        if o is not None and run and o == next_code(al.onorm, run[-1][1]):
            run.append((s, o))
        else:
            run = [(s, o)] if o is not None else []
        if len(run) > len(best):
            best = list(run)
    if len(best) < 2 or not _renamed_above(al, *best[0]):
        return []
    return best


def _renamed_above(al: Aligner, s: int, o: int) -> bool:
    """The snippet line above s and the original line above o (blank lines and a lone `{`
    skipped) differ in one token only: a header with a new name over the old body's first lines,
    not new code that copies lines from elsewhere. O(the skipped lines)."""
    def above(norms: list[str], k: int) -> str:
        k -= 1
        while k >= 0 and norms[k] in ("", "{"):
            k -= 1
        return norms[k] if k >= 0 else ""

    return one_token_apart(above(al.snorm, s), above(al.onorm, o))


def _kept_body_line(al: Aligner, s: int, counts: Counter[str]) -> int | None:
    """The original line of snippet line s when s is a telling line inside a definition the
    original lacks (fresh) that the original has once, and the snippet too. O(1)."""
    norm = al.snorm[s]
    if not norm or al.strivial[s] or counts[norm] != 1 or not al.fresh_flags()[s] or al.items[s].fresh:
        return None
    where = al.opos.get(norm, ())
    return where[0] if len(where) == 1 else None


def anchor_of(al: Aligner, s: int, counts: Counter[str], match: DefinitionMatch | None) -> int | None:
    """The original line that snippet line s certainly stands for, or None: a line unique in both
    texts, or (with a definition match) a line a matched definition stands for."""
    norm = al.snorm[s]
    if not norm or al.items[s].fresh:
        return None
    if not al.strivial[s] and counts[norm] == 1 and not al.fresh_flags()[s]:  # (in_new_definition)
        where = al.opos.get(norm, ())
        if len(where) == 1:
            return where[0]
    return match.anchor(s) if match is not None else None


def unique_anchors(al: Aligner, lines: list[int], counts: Counter[str]) -> list[int]:
    """anchor_of(al, s, counts, None) of every snippet line s in `lines` that has one, in one pass
    (inlined: moves.py asks it of every code line of the snippet). O(len(lines))."""
    snorm, strivial, fresh, items, opos = al.snorm, al.strivial, al.fresh_flags(), al.items, al.opos
    return [found[0] for s in lines
            if snorm[s] and not items[s].fresh and not strivial[s] and counts[snorm[s]] == 1
            and not fresh[s] and len(found := opos.get(snorm[s], ())) == 1]
