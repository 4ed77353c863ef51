"""Checks on where every merged line came from (the splice's provenance, `Spliced.origin`).

The splice records, for each merged line, the snippet line it came from and the original line it
stands for (a kept line has only the latter), and which markers stood for no original line. A
merge is refused, with the snippet or original line named, when:

- an original line is gone although nothing explains it: it is neither between two adjacent
  anchors with no marker (`Spliced.deleted`) nor in a definition the snippet replaces or deletes
  (`drop`);
- a code line of the snippet is missing from the merge;
- the merge defines a name twice in one scope where the original defined it once (a renamed or
  moved definition kept next to its old copy), or a new line repeats exactly a definition header
  the original has once and the merge keeps (also `name(args)` with its `{` on the next line), or
  a new JavaScript/TypeScript import or re-export binds a name a kept top-level definition binds
  (bindings.py);
- a marker stands for nothing while a line next to it, unpaired, occurs exactly once in the
  original (the snippet shows code the alignment could not place: it would appear twice);
- a marker sits inside a definition the original does not have (an unpaired header): it stands
  for that definition's existing body, which does not exist (a rename that was not recognised);
  also a column-0 marker after a braced or `end` block still open, and a marker noted before
  segments were put back in file order (`new_definitions.markers_in_new_definitions`);
- a new decorator or attribute line (`@property`, `#[inline]`) is followed by a marker: what it
  decorates is hidden, so it is context the alignment could not place (or an edit that cannot be);
- new lines of the snippet repeat the original lines right next to them (a block of up to three
  lines, twice in a row) where the original has no such repetition: edited or context lines that
  were not recognised, kept and inserted both (one-word lines, `Returns:`, only next to a marker);
- a new line lands right next to a kept original line that it reads as an edit of, long and alike
  (twins.py): the edit was not put in the old line's place, and both versions would stand;
- and the placement checks (placement.py): snippet lines placed by a guess that another reading of
  the snippet contradicts.

Complexity: O(n + m) plus, per new definition header, one lookup of the original headers with
the same name (cached by the aligner) and a walk back to its enclosing line (capped).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from itertools import compress
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .bindings import check_import_bindings
from .lines import header_key, indent_width, is_trivial, opens_block
from .segments import SnippetLine
from .placement import check_placement, snippet_item_near
from .splice import Spliced
from .twins import check_near_twins
from .new_definitions import check_markers_in_new_definitions, markers_in_new_definitions
from .alignment_checks import check_half_deleted_definitions, check_invisible_deletions, check_repeated_block, \
    check_unreachable

if TYPE_CHECKING:
    from .anchor import Aligner

_WORDS = re.compile(r"\w+")
# Headers of languages without overloading by arity: the same name defined again replaces the first.
_NO_OVERLOADS = ("def ", "async def ", "function ", "async function ")
# Decorators under which one name is legitimately defined twice in a scope.
_REDEFINES = re.compile(r"^@(?:\w+\.(?:setter|deleter|getter|register)|(?:typing\.)?overload)\b")


def check_provenance(al: Aligner, spliced: Spliced, drop: set[int],
                     suspects: Sequence[tuple[SnippetLine, SnippetLine]] = ()) -> None:
    """`suspects`: markers_in_new_definitions() of the snippet before its segments were reordered."""
    _check_kept_once(al, spliced)
    _check_accounted(al, spliced, drop)
    _check_snippet_kept(al, spliced)
    _check_empty_markers(al, spliced)
    _check_duplicates(al, spliced)
    check_import_bindings(al, spliced)
    _check_repeated_lines(al, spliced)
    check_placement(al, spliced, drop)
    check_markers_in_new_definitions(al, [*suspects, *markers_in_new_definitions(al)])
    _check_decorators_before_markers(al)
    check_invisible_deletions(al, spliced)
    check_unreachable(al, spliced)
    check_repeated_block(al, spliced)
    check_half_deleted_definitions(al, spliced)
    check_near_twins(al, spliced)


def _check_kept_once(al: Aligner, spliced: Spliced) -> None:
    """Every original line stands at most once in the merge. Pairs that cross (a part placed above
    one that comes before it in the file) would have the splice keep a stretch of the file twice,
    where no other check looks: each asks about new lines, not about kept ones. O(merged lines)."""
    # (none twice when the rows of original lines are as many as the distinct lines they stand for,
    # row_of's keys, which the checks below read too: the rows are read one by one, with a set,
    # only to name the first repeated line)
    if len(spliced.row_of()) == spliced.rows_kept():
        return
    seen: set[int] = set()
    for row, (_, o) in enumerate(spliced.origin):
        if o < 0:
            continue
        if o in seen:
            item = snippet_item_near(al, spliced, row)
            raise ValidationError(
                f"the merge would hold original line {o + 1} ({al.orig[o].strip()!r}) twice: the part of the "
                f"snippet around line {item.number} could not be placed in file order. Show the parts of the "
                "snippet in file order, each with an unchanged line of its own",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
        seen.add(o)


def _check_accounted(al: Aligner, spliced: Spliced, drop: set[int]) -> None:
    present = spliced.row_of()
    deleted = [False] * len(al.orig)
    for start, stop in spliced.deleted:
        deleted[start:stop] = [True] * (stop - start)
    # (the original lines the merge does not show, found with set operations in C and read in
    # order: a long merge shows most of them)
    for o in sorted(set(range(len(al.onorm))).difference(present)):
        norm = al.onorm[o]
        if norm and not deleted[o] and o not in drop:
            # name the snippet line where the lost line would stand (the first one after it)
            row = next((r for r, (_, at) in enumerate(spliced.origin) if at > o), len(spliced.origin) - 1)
            item = snippet_item_near(al, spliced, max(row, 0)) if spliced.origin else None
            near = f", near snippet line {item.number} ({item.text.strip()!r})," if item is not None else ""
            raise ValidationError(
                f"the merge would lose original line {o + 1} ({al.orig[o].strip()!r}){near} although no "
                "part of the snippet replaces or deletes it. Put a '... existing code ...' marker where "
                "it is, or show the lines around it",
                code=ErrorCode.CONTENT_LOST, line=o + 1)


def _check_snippet_kept(al: Aligner, spliced: Spliced) -> None:
    shown = {spliced.origin[row][0] for row in spliced.from_snippet()}  # (the snippet lines the merge shows)
    for s in sorted(set().union(*al.segments).difference(shown)):  # (the code lines)
        item = al.items[s]
        if item.kind == "code":
            raise ValidationError(
                f"snippet line {item.number} ({item.text.strip()!r}) would be missing from the merge. "
                "Show one unchanged line above and below it",
                code=ErrorCode.CONTENT_LOST, line=item.number)


def _check_empty_markers(al: Aligner, spliced: Spliced) -> None:
    for m in spliced.empty_markers:
        if al.items[m].kind != "marker":
            continue
        for step in (-1, 1):
            s = m + step
            while 0 <= s < len(al.items) and al.items[s].kind == "blank":
                s += step
            if not (0 <= s < len(al.items)) or al.items[s].kind != "code" or s in al.pairs:
                continue
            norm = al.snorm[s]
            where = al.opos.get(norm, ())
            if is_trivial(norm) or len(where) != 1 or len(al.spos.get(norm, ())) != 1 \
                    or al.in_new_definition(s):
                continue
            item = al.items[s]
            raise ValidationError(
                f"snippet line {item.number} ({item.text.strip()!r}) occurs once in the original "
                f"(line {where[0] + 1}) but could not be placed there, and the marker on snippet line "
                f"{al.items[m].number} next to it stands for no code. Show the unchanged lines between "
                "them, or send the whole function",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _check_duplicates(al: Aligner, spliced: Spliced) -> None:
    """Refuse a merge that defines a name twice in one scope where the original defines it once:
    a new header, or a paired header edited into another definition's name. O(new rows + pairs),
    plus a scan of the merged rows when a header was renamed."""
    present = spliced.row_of()  # (its keys: the original lines the merge keeps)
    for row in spliced.new_rows():
        s = spliced.origin[row][0]
        if _copies_kept_header(al, spliced, row, s):
            twin = al.opos[al.snorm[s]][0]
            if twin in present and _merged_scope(spliced.lines, row) == _original_scope(al, twin):
                item = al.items[s]
                name = header_key(al.snorm[s]) or al.snorm[s].split("(", 1)[0].split()[-1]
                raise ValidationError(
                    f"snippet line {item.number} ({item.text.strip()!r}) would define {name!r} a second time: "
                    f"it repeats the definition header on original line {twin + 1}, which the merge also "
                    "keeps. If it replaces that definition, show the line before or after the old one; if "
                    "it moves it, delete the old copy explicitly",
                    code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
        _check_defined_again(al, spliced, row, s, present)
    # a header edited into another definition's name (`_make_f` renamed to `f`, the old `f`
    # deleted in the tail of the file that a marker keeps)
    renamed = {s for s, o in al.pairs.items() if al.snorm[s] != al.onorm[o] and opens_block(al.snorm[s])
               and header_key(al.snorm[s]) != header_key(al.onorm[o])}
    if renamed:
        for row, (s, _) in enumerate(spliced.origin):
            if s in renamed:
                _check_defined_again(al, spliced, row, s, present)


def _check_defined_again(al: Aligner, spliced: Spliced, row: int, s: int, present: dict[int, int]) -> None:
    """Refuse when snippet line s (merged row `row`) defines a name that an original definition
    kept in the same scope defines too, where the original defines it once. O(the name's
    definitions in the original, and the scope walks of _merged_scope/_original_scope)."""
    norm = al.snorm[s]
    if not opens_block(norm):
        return
    key = header_key(norm)
    if key is None or key.startswith(("key:", "css:", "<")):
        return
    if _redefinition(al, s):
        return
    scope = _merged_scope(spliced.lines, row)
    same_scope = [c for c in al._okeys_for(key) if _original_scope(al, c) == scope and not al.o_in_string(c)]
    survivors = [c for c in same_scope if c in present and present[c] != row]
    if not survivors or len(same_scope) > 1 or scope is None:
        return
    old = al.onorm[survivors[0]]
    if old != norm and _arity(old) != _arity(norm) and not norm.startswith(_NO_OVERLOADS):
        return  # another overload (where a language has them: a second Python `def` replaces the first)
    item = al.items[s]
    raise ValidationError(
        f"snippet line {item.number} ({item.text.strip()!r}) would define {key!r} a second time next "
        f"to original line {survivors[0] + 1}, where the original defines it once. If it replaces that "
        "definition, show the line before or after the old one; if it moves it, delete the old copy "
        "explicitly",
        code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _redefinition(al: Aligner, s: int) -> bool:
    """One of the decorators right above snippet line s says the name is defined again on purpose
    (`@overload` over `@classmethod`, sympy's `make_args` stubs; a property's `@x.setter`), or the
    signature s opens ends without a body (TypeScript's overload declarations, `): A | B;`).
    O(those decorators + _SIGNATURE_LINES)."""
    for k in range(s, min(s + _SIGNATURE_LINES, len(al.items))):
        norm = al.snorm[k]
        if norm.endswith("{") or al.items[k].kind != "code":
            break
        if norm.endswith(";") and (k == s or norm.startswith(")")):
            return True
    k = s - 1
    while k >= 0 and (al.snorm[k] or "").startswith("@"):
        if _REDEFINES.match(al.snorm[k]):
            return True
        k -= 1
    return False


_SIGNATURE_LINES = 12  # lines a signature may span


# `name(args)` on its own line with the body's `{` on the next (C, C++, PHP, Allman style)
_ALLMAN_HEADER = re.compile(r"^(?:[\w:*&<>~,]+\s+)*[*&]*[A-Za-z_~][\w:~]*\s*\(.*\)\s*(?:const\s*)?$")


def _copies_kept_header(al: Aligner, spliced: Spliced, row: int, s: int) -> bool:
    """True when new snippet line s is a definition header written exactly like one that occurs
    once in the original (a moved or renamed definition whose old copy may still be there)."""
    norm = al.snorm[s]
    if len(al.opos.get(norm, ())) != 1 or _redefinition(al, s) or al.o_in_string(al.opos[norm][0]):
        return False  # (a docstring's `filepath (str):` under `Args:` defines nothing)
    following = next((al.snorm[k] for k in range(s + 1, min(s + 3, len(al.items))) if al.snorm[k]), "")
    key = header_key(norm)
    if key is not None and (opens_block(norm) or following == "{"):
        return not key.startswith(("key:", "css:", "<"))
    return following == "{" and bool(_ALLMAN_HEADER.match(norm))


_SCOPE_WALK = 5000  # lines walked back to find a new header's enclosing line


def _merged_scope(lines: list[str], row: int) -> str | None:
    """The nearest earlier merged line with less indentation ("" at the top level; None when it is
    further back than _SCOPE_WALK lines: unknown)."""
    width = indent_width(lines[row])
    if width == 0:
        return ""
    for index in range(row - 1, max(-1, row - _SCOPE_WALK), -1):
        if lines[index].strip() and indent_width(lines[index]) < width:
            return " ".join(lines[index].split())
    return None if row >= _SCOPE_WALK else ""


def _original_scope(al: Aligner, o: int) -> str:
    header = al._header_of(o)
    return al.onorm[header] if header >= 0 else ""


def _arity(header: str) -> int:
    inside = header.split("(", 1)[1].rsplit(")", 1)[0] if "(" in header else ""
    return 0 if not inside.strip() else inside.count(",") + 1


_NEAR = 3  # the longest block of lines whose repetition is looked for


def _check_repeated_lines(al: Aligner, spliced: Spliced) -> None:
    """O(k) per new snippet line (k = _NEAR): only the merged lines around new lines are read."""
    new = [r for r in spliced.new_rows() if spliced.lines[r].strip()]
    if not new:
        return
    rows = list(compress(range(len(spliced.lines)), map(str.strip, spliced.lines)))  # (the non-blank ones)
    norms: dict[int, str] = {}

    def norm_at(position: int) -> str:
        if position not in norms:
            norms[position] = " ".join(spliced.lines[rows[position]].split())
        return norms[position]

    for row in new:
        s = spliced.origin[row][0]
        position = bisect_left(rows, row)  # (rows is sorted and holds every non-blank row)
        if is_trivial(al.snorm[s]) or len(_WORDS.findall(al.snorm[s])) < 2 \
                and not (al.beside_marker(s, -1) or al.beside_marker(s, 1)):
            continue  # (a one-word line, `Returns:`, counts next to a marker: context left unplaced)
        for distance in range(1, _NEAR + 1):
            for start in (position - distance, position + distance):
                if not 0 <= start < len(rows) or spliced.origin[rows[start]][1] < 0 \
                        or norm_at(start) != al.snorm[s]:
                    continue
                first, second = sorted((start, position))
                # the whole block between the twins repeats: [A, B] kept, then [A, B] new; or the
                # new line is the context line next to a marker and its twin, at its depth, is
                # among the lines that marker keeps (sympy's `if rv is not None:` before a
                # marker, written again above the `break` and the old `if rv is not None:`)
                if (second + distance > len(rows) or any(norm_at(first + k) != norm_at(second + k)
                                                         for k in range(distance))) \
                        and not _kept_twin(al, spliced, s, rows[start], start < position):
                    continue
                if _repeated_in_original(al, spliced.origin[rows[start]][1]):
                    continue
                item = al.items[s]
                raise ValidationError(
                    f"snippet line {item.number} ({item.text.strip()!r}) would land next to the same line "
                    f"of the original (line {spliced.origin[rows[start]][1] + 1}), which the merge also keeps: "
                    "the line would be repeated. If it is an edited line, show one unchanged line above and "
                    "below it; if it is new, show where it goes with the lines around it",
                    code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _kept_twin(al: Aligner, spliced: Spliced, s: int, row: int, above: bool) -> bool:
    """The merged row `row`, a copy of snippet line s, is an original line that a marker on that
    side of s keeps (no snippet line pairs it), at s's indentation: s, next to that marker, was
    context for it. O(1)."""
    source, o = spliced.origin[row]
    return source < 0 and o >= 0 and al.beside_marker(s, -1 if above else 1) \
        and al.owidth[o] == al.swidth[s] and not is_trivial(al.snorm[s])


def _repeated_in_original(al: Aligner, o: int) -> bool:
    """True when the original itself has the line at o again within a few lines."""
    norm = al.onorm[o]
    for step in (-1, 1):
        index, seen = o + step, 0
        while 0 <= index < len(al.orig) and seen < _NEAR:
            if al.onorm[index]:
                if al.onorm[index] == norm:
                    return True
                seen += 1
            index += step
    return False


_DECORATOR = ("@", "#[")


def _check_decorators_before_markers(al: Aligner) -> None:
    """O(markers): a decorator needs the definition below it; behind a marker it cannot be placed."""
    for m in al.marker_list:
        if al.items[m].kind != "marker":
            continue
        before = m - 1
        while before >= 0 and not al.snorm[before]:
            before -= 1
        if before < 0 or before in al.pairs or before in al.markers or al.items[before].kind != "code" \
                or not al.snorm[before].startswith(_DECORATOR):
            continue
        above = al.code_above(before)
        if above >= 0 and opens_block(al.snorm[above]) \
                and indent_width(al.stext[above]) < indent_width(al.stext[before]):
            continue  # the first line of a block's body (Ruby's `@pile.first`), not a decorator
        item = al.items[before]
        raise ValidationError(
            f"snippet line {item.number} ({item.text.strip()!r}) decorates a definition that the marker on "
            f"snippet line {al.items[m].number} hides, and it matches no line it could stand for there. Show "
            "the decorated definition's first line below it",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
