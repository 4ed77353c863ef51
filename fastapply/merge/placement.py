"""Checks that every snippet line stands where only it can stand (precision first, issue 8).

The alignment pairs what it can; these checks refuse a merge where a snippet line was placed by a
guess that another reading of the snippet would contradict:

- lines next to a marker that copy original lines but were not placed (a doc comment's head, the
  end of the previous function), or a line unique in the original shown there and kept twice;
- an unpaired line that reads like a marker (`# ...`) only because the file has such a comment;
- a definition header paired as an edit of one line while the original has it verbatim elsewhere
  (copied_headers.py);
- a marker that stands for nothing while only common lines separate it from a deletion;
- a snippet line paired inside a moved or deleted definition while its kept twin sits next to it;
- a dropped definition whose doc comment or decorators the merge would keep;
- a moved definition put between a kept comment and the code it sits on.

Complexity: O(n + m) for n original and m snippet lines; each marker walks its two neighbouring
segments once, each dropped definition its preamble.
"""

from __future__ import annotations

import re
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .copied_headers import check_headers_elsewhere
from .lines import header_key, indent_width, is_closer, is_comment, is_trivial
from .markers import is_marker
from .similar import substituted
from .segments import SnippetLine
from .splice import Spliced
from .walk import is_ruler

if TYPE_CHECKING:
    from .anchor import Aligner

_NEAR = 3  # code lines looked at on each side for a kept twin


def check_placement(al: Aligner, spliced: Spliced, drop: set[int]) -> None:
    _check_orphaned_preamble(al, spliced, drop)
    _check_moved_under_comment(al, spliced)
    _check_pairs_in_drop(al, spliced, drop)
    _check_empty_marker_beside_deletion(al, spliced, drop)
    _check_unplaced_context(al)
    _check_unplaced_opener(al)
    _check_unplaced_marker_lookalikes(al)
    _check_unique_lines_twice(al, spliced)
    _check_unique_line_kept(al, spliced)
    check_headers_elsewhere(al)


# A doc comment line or a decorator that stands alone above a definition (`#include` and Swift's
# `@Published var x` are not).
_PREAMBLE_LINE = re.compile(r"^(?://|/\*|\*|--|#(?:\s|$|:|!)|#\[.*\]$|@[\w.]+(?:\(.*\))?$)")


def _check_orphaned_preamble(al: Aligner, spliced: Spliced, drop: set[int]) -> None:
    """A definition the merge drops takes its doc comment and decorators along: kept by a marker
    while the definition below them goes, they would describe whatever follows. O(dropped lines
    + their preambles)."""
    dropped = set(drop)
    for start, stop in spliced.deleted:
        dropped.update(range(start, stop))
    if not dropped:
        return
    kept = {o for s, o in spliced.origin if o >= 0 and s < 0}
    for o in sorted(dropped):
        norm = al.onorm[o]
        if not norm or header_key(norm) is None or o - 1 in dropped:
            continue
        width = indent_width(al.orig[o])
        above = o - 1
        while above >= 0 and _PREAMBLE_LINE.match(al.onorm[above]) and \
                indent_width(al.orig[above]) in (width, width + 1):
            if above in kept:
                row = next(r for r, (_, at) in enumerate(spliced.origin) if at == above)
                item = snippet_item_near(al, spliced, row)
                raise ValidationError(
                    f"the merge would drop original line {o + 1} ({al.orig[o].strip()!r}) but keep the comment "
                    f"or decorator above it (line {above + 1}, {al.orig[above].strip()!r}), which would then "
                    f"describe the code that snippet line {item.number} ({item.text.strip()!r}) puts there. "
                    "Show that definition's first line with its comment, or a marker where it stays",
                    code=ErrorCode.CONTENT_LOST, line=item.number)
            above -= 1


def _check_moved_under_comment(al: Aligner, spliced: Spliced) -> None:
    """A moved definition (moves.py) that lands right above a kept line whose comment, glued above
    it in the original and not shown, the merge keeps: the moved code would sit between the two,
    and the comment would describe it (C's `/* ... */` above a function the grammar does not
    attach it to). Where the comment belongs, only the snippet can say. O(merged rows)."""
    origin, items = spliced.origin, al.items
    if not any(item.fresh for item in items):
        return  # (no moved code: most merges)
    kept = {at for by, at in origin if by < 0 and at >= 0}
    for row in range(1, len(origin)):
        s, o = origin[row]
        if o <= 0 or s < 0 or not al.onorm[o - 1] or not is_comment(al.onorm[o - 1]) \
                or indent_width(al.orig[o - 1]) != indent_width(al.orig[o]):
            continue
        above = row - 1
        while above >= 0 and not spliced.lines[above].strip():
            above -= 1
        prev_s, prev_o = origin[above] if above >= 0 else (-1, -1)
        if prev_s < 0 or prev_o >= 0 or not items[prev_s].fresh:
            continue
        if o - 1 in kept:
            item = items[s]
            raise ValidationError(
                f"the snippet puts moved code right above snippet line {item.number} "
                f"({item.text.strip()!r}), below the comment the original has right above that line "
                f"(line {o}, {al.orig[o - 1].strip()!r}), which the merge keeps: the comment would then "
                "describe the moved code. Show that comment where it belongs",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _check_pairs_in_drop(al: Aligner, spliced: Spliced, drop: set[int]) -> None:
    """A snippet line paired with an original line that the merge drops (part of a definition the
    snippet moves or deletes), while a kept copy of the same line sits right next to it in the
    merge: it stood for that copy, and the merge would show the line twice. O(pairs in drop)."""
    if not drop:
        return
    # (the rows of lines in `drop`, picked in C: a long merge has a row per line)
    for row in compress(range(len(spliced.origin)), map(drop.__contains__, map(itemgetter(1), spliced.origin))):
        s, o = spliced.origin[row]
        if s < 0 or o < 0 or is_trivial(al.snorm[s]) or is_closer(al.snorm[s]):
            continue
        twin = _kept_twin(al, spliced, row)
        if twin is None:
            continue
        item = al.items[s]
        raise ValidationError(
            f"snippet line {item.number} ({item.text.strip()!r}) matches original line {o + 1}, which "
            "belongs to code the snippet moves or deletes, but it stands for the copy on original line "
            f"{twin + 1}, which the merge keeps next to it: the line would be there twice. Show one more "
            "unchanged, distinctive line next to it",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _kept_twin(al: Aligner, spliced: Spliced, row: int) -> int | None:
    """A kept original line with the same text as merged row `row`, within _NEAR code lines."""
    norm = " ".join(spliced.lines[row].split())
    for step in (-1, 1):
        index, seen = row + step, 0
        while 0 <= index < len(spliced.lines) and seen < _NEAR:
            if spliced.lines[index].strip():
                seen += 1
                s, o = spliced.origin[index]
                if s < 0 and o >= 0 and al.onorm[o] == norm:
                    return o
            index += step
    return None


def snippet_item_near(al: Aligner, spliced: Spliced, row: int) -> SnippetLine:
    """The snippet line nearest to merged row `row` (the first one after it, else before it)."""
    after = next((s for s, _ in spliced.origin[row:] if s >= 0), None)
    if after is None:
        after = next((s for s, _ in reversed(spliced.origin[:row]) if s >= 0), 0)
    return al.items[after]


def _check_empty_marker_beside_deletion(al: Aligner, spliced: Spliced, drop: set[int]) -> None:
    """An explicit marker that stands for no code, in a segment that deletes original lines
    between two of its anchors, with only common lines between the marker and the deletion:
    models write a marker where code is elided, so the marker more likely stands for those lines
    and the lines next to it sit on a copy (`return;` / `}` end several blocks in a row). Lines
    of a definition the snippet moves elsewhere (`drop`) are no deletion: the snippet shows them.
    O(m + deletions): each marker walks its two neighbouring segments once."""
    empty = [m for m in spliced.empty_markers if al.items[m].kind == "marker"]
    if not empty or not spliced.deleted:
        return
    code_gone = [(start, stop) for start, stop in spliced.deleted
                 if any(al.onorm[o] and o not in drop and o not in al.joined for o in range(start, stop))]
    if not code_gone:
        return  # (blank lines replaced by the snippet's own: no deletion for a marker to stand for)
    at = {o: s for s, o in al.pairs.items()}
    ends: dict[int, tuple[int, int]] = {}  # snippet line next to a deletion -> the deletion
    for start, stop in code_gone:
        for o in (stop, start - 1):
            if o in at:
                ends[at[o]] = (start, stop)
    for m in empty:
        for step in (1, -1):
            k = m + step
            while 0 <= k < len(al.items) and k not in al.markers:
                if k in ends:
                    start, stop = ends[k]
                    item = al.items[m]
                    raise ValidationError(
                        f"the marker on snippet line {item.number} stands for no code where it is, while the "
                        f"lines next to it would delete original lines {start + 1}-{stop}, which it more likely "
                        "stands for: the context next to it fits more than one place. Show one more "
                        "unchanged, distinctive line next to the marker",
                        code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
                norm = al.snorm[k]
                if norm and not is_trivial(norm) and len(al.opos.get(norm, ())) == 1:
                    break  # a distinctive line between them places the marker where it is
                k += step


def _check_unique_lines_twice(al: Aligner, spliced: Spliced) -> None:
    """O(m): right next to a marker, unpaired copies of original lines (up to the first new line or
    paired one) where one of them occurs once in the original and the merge keeps that line too:
    context the alignment could not place (its segment matched another copy of its other lines,
    `#ifdef __cplusplus`), which the merge would hold twice."""
    present = spliced.row_of()  # (its keys: the original lines the merge keeps)
    for m in al.marker_list:
        if al.items[m].kind != "marker":
            continue
        for step in (-1, 1):
            s = m + step
            while 0 <= s < len(al.items) and s not in al.markers and s not in al.pairs:
                norm = al.snorm[s]
                if norm and (not al.opos.get(norm) or al.in_new_definition(s)):
                    break  # new code from here on
                where = al.opos.get(norm, ())
                if norm and not is_trivial(norm) and len(where) == 1 and len(al.spos[norm]) == 1:
                    if where[0] in present:
                        item = al.items[s]
                        raise ValidationError(
                            f"snippet line {item.number} ({item.text.strip()!r}) is original line "
                            f"{where[0] + 1}, but it could not be placed there with the lines around it, so the "
                            "merge would hold it twice. Show the parts of the snippet in file order, or one more "
                            "unchanged line next to it",
                            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
                s += step


def _check_unique_line_kept(al: Aligner, spliced: Spliced) -> None:
    """O(m * _NEAR_WALK): an unpaired snippet line outside a new definition that is, once in each,
    a line of the original the merge keeps, when the snippet lines on both sides of it, out to the
    nearest paired ones, stand on both sides of that original line too (new lines passed over)
    and both paired lines went to other copies of their text: its part was placed at another
    copy of the lines around it (shown out of file order), and the merge would hold it twice."""
    present = spliced.row_of()  # (its keys: the original lines the merge keeps)
    for s in al.unpaired_code():
        item = al.items[s]
        if is_trivial(item.norm):
            continue
        where = al.opos.get(item.norm, ())
        if len(where) != 1 or len(al.spos[item.norm]) != 1 or where[0] not in present \
                or al.in_new_definition(s) or not _context_fits_there(al, s, where[0], -1) \
                or not _context_fits_there(al, s, where[0], +1) or _edit_in_anchored_part(al, s):
            continue
        raise ValidationError(
            f"snippet line {item.number} ({item.text.strip()!r}) is original line {where[0] + 1}, and the "
            "lines around it fit there too, but its part was placed at another copy of them, so the merge "
            "would hold it twice. Show the parts of the snippet in file order, or one more unchanged, "
            "distinctive line next to it",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


_NEAR_WALK = 20  # snippet lines read on each side of an unplaced line for its context


def _edit_in_anchored_part(al: Aligner, s: int) -> bool:
    """s takes the place of the one original line between the pairs right above and below it, an
    edit of it (`val: Buffer,` -> `value: Buffer,`), and its part holds a line unique in both texts,
    paired: the part's place is no guess, and s is an edit there (lmdb's `put` in two classes; the
    part's `async def count` is the one class's). O(_NEAR_WALK * 3)."""
    above, below = al.pairs.get(s - 1), al.pairs.get(s + 1)
    if above is None or below is None or below != above + 2 or not substituted(al.snorm[s], al.onorm[above + 1]):
        return False
    for step in (-1, 1):
        k = s + step
        while 0 <= k < len(al.items) and k not in al.markers and abs(k - s) <= 3 * _NEAR_WALK:
            norm = al.snorm[k]
            if k in al.pairs and norm and not is_trivial(norm) and len(al.opos.get(norm, ())) == 1 \
                    and len(al.spos.get(norm, ())) == 1:
                return True
            k += step
    return False


def _context_fits_there(al: Aligner, s: int, u: int, step: int) -> bool:
    """The snippet's code lines from s in direction `step`, out to its nearest paired line p,
    equal the original lines from u the same way one for one (lines the original has nowhere
    passed over: new code), and p is paired with another original line than the one that fits.
    O(_NEAR_WALK)."""
    o, k = u + step, s + step
    while 0 <= k < len(al.items) and abs(k - s) <= _NEAR_WALK and k not in al.markers:
        norm = al.snorm[k]
        if norm and (k in al.pairs or norm in al.opos):
            while 0 <= o < len(al.onorm) and not al.onorm[o]:
                o += step
            if not 0 <= o < len(al.onorm) or al.onorm[o] != norm:
                return False
            if k in al.pairs:
                return al.pairs[k] != o
            o += step
        k += step
    return False


def _check_unplaced_marker_lookalikes(al: Aligner) -> None:
    """O(m): a snippet line that reads like a marker (`# ...`) is code only because the original
    has such a comment; left unpaired, it is far more likely a marker than a new comment."""
    for s in al.unpaired_code():
        item = al.items[s]
        if not is_marker(item.text):
            continue
        raise ValidationError(
            f"snippet line {item.number} ({item.text.strip()!r}) reads like a '... existing code ...' "
            "marker, but the original has the same line as a comment, and it matches no place where that "
            "comment stands. Write markers with words ('... existing code ...') that the file does not use",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _check_unplaced_context(al: Aligner) -> None:
    """O(m): the unpaired lines between a marker and the nearest paired line of its segment (on
    either side), when every one of them is a copy of an original line, are context the alignment
    could not place (models show a few existing lines next to a marker: a doc comment's head, the
    end of the previous function). Kept as new code, they would repeat those lines."""
    for m in al.marker_list:
        if al.items[m].kind != "marker":
            continue
        for step in (-1, 1):
            run: list[int] = []
            s = m + step
            while 0 <= s < len(al.items) and s not in al.markers and s not in al.pairs:
                if al.snorm[s] and al.in_new_definition(s):
                    break  # new code from here on (a new function and its doc comment)
                if al.snorm[s]:
                    run.append(s)
                s += step
            if not run or any(not al.opos.get(al.snorm[r]) for r in run) \
                    or all(is_trivial(al.snorm[r]) and not _underline(al.snorm[r]) for r in run):
                continue  # (a docstring's `----------` under a section's name is context, not new)
            item = al.items[run[0]]
            raise ValidationError(
                f"snippet line {item.number} ({item.text.strip()!r}) next to the marker on snippet line "
                f"{al.items[m].number} is a line the original already has (line {al.opos[item.norm][0] + 1}), "
                "but it could not be placed, so it would be added a second time. Show one more unchanged, "
                "distinctive line next to it",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _underline(norm: str) -> bool:
    """A line of one punctuation mark, four or more (`----------` under `Parameters`), shorter than
    a ruler (walk.is_ruler: those anchor where they are unique, and are refused elsewhere). O(len)."""
    return len(norm) >= 4 and norm[0] in "-=~*^#" and norm == norm[0] * len(norm) and not is_ruler(norm)


def _check_unplaced_opener(al: Aligner) -> None:
    """O(m): a marker indented under the line above it stands for existing lines of the block
    that line opens, so that line is existing code too; when it is a copy of original lines
    (`disabled_tests += [`, found three times) that the alignment could not place, kept as new
    code it would open a second, empty block and the marker would stand for nothing (definitions
    new to the file are new_definitions.markers_in_new_definitions' case)."""
    for m in al.marker_list:
        if al.items[m].kind != "marker":
            continue
        p = al.code_above(m)
        if p < 0 or p in al.pairs or al.swidth[m] <= al.swidth[p] \
                or not al.opos.get(al.snorm[p]) or not al.s_opens(p) or al.in_new_definition(p) \
                or _paired_copy_above(al, p):
            continue
        item, where = al.items[p], al.opos[al.snorm[p]]
        # (a line the file has once could not go there either: the snippet's lines around it put
        # it elsewhere; saying "which one" of one line would contradict itself)
        found = f"has it once (line {where[0] + 1}), but not where the snippet's lines around it put it" \
            if len(where) == 1 else f"has it {len(where)} times (line {where[0] + 1}, ...) and nothing around it says which"
        raise ValidationError(
            f"snippet line {item.number} ({item.text.strip()!r}) opens the block whose existing lines the "
            f"marker on snippet line {al.items[m].number} stands for, but it could not be placed: the original "
            f"{found}. Show one more unchanged, distinctive line above it",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _paired_copy_above(al: Aligner, p: int) -> bool:
    """True when the nearest paired line above snippet line p, with only new lines between, has
    p's text: a guard written above the line it repeats (`if x is None:` / `raise` / `if x is
    None:`), where pairing either copy gives the same text. O(lines up to that pair)."""
    k = p - 1
    while k >= 0 and k not in al.pairs and k not in al.markers:
        if al.snorm[k] and al.opos.get(al.snorm[k]) and al.snorm[k] != al.snorm[p]:
            return False  # an original line left unpaired between them: the copies differ in place
        k -= 1
    return k in al.pairs and al.snorm[k] == al.snorm[p]
