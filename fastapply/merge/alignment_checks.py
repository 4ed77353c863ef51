"""Safety checks that read the alignment with the merged rows: a deletion the snippet's context does
not show (check_invisible_deletions), code placed after an exit it cannot follow (check_unreachable),
a block the merge repeats next to its copy (check_repeated_block), a definition whose header is
deleted and body kept (check_half_deleted_definitions). A merge that fails one is refused, never
returned; checks on the merged text alone live in validate.py. Each says its complexity."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .lines import header_key, indent_width, is_closer, is_trivial, next_code
from .placement import snippet_item_near
from .segments import is_gap
from .splice import Spliced

if TYPE_CHECKING:
    from .anchor import Aligner


def check_invisible_deletions(al: Aligner, spliced: Spliced) -> None:
    """Refuse a deletion that the snippet's context does not show.

    Code dropped between two anchors is a deletion only when the snippet shows the code around it.
    Take the snippet lines between a marker and the first line after it that occurs once in the
    original (its anchor). When the merge drops a definition among them (a header and its block;
    a line or two replaced by an edited one is an edit, not a deletion), but their context lines
    (the paired ones) also stand, in order and at the same relative depth, right before that anchor
    with nothing between them but blank lines, the same snippet reads as well with the context
    there and nothing deleted (two functions that end alike). A careful reader cannot tell which is
    meant: refused. The same for the lines before a marker, back to the anchor before them.
    Context of closing lines alone (`}`, `end`) is the usual way to show a deletion and passes.
    (The generator, evals/llmgen, never writes such a deletion: `_invisible_deletion`.)
    O(snippet lines + deleted lines)."""
    gone = [False] * len(al.orig)
    for start, stop in spliced.deleted:
        for o in range(start, stop):
            # (a definition the snippet moves elsewhere is not deleted: moves.py placed it)
            gone[o] = bool(al.onorm[o]) and not al.moved_between(o - 1, o + 1)
    if not any(gone):
        return
    for m in al.marker_list:
        for step in (1, -1):
            block = _context_block(al, m, step)
            if block is None:
                continue
            context, anchor = block
            first = next(c for c in context if c in al.pairs)
            ends = sorted((al.pairs[first], al.pairs[anchor]))
            if not any(gone[o] and _defines(al.onorm[o]) for o in range(ends[0] + 1, ends[1])) \
                    or not _fits_next_to(al, context, anchor, step):
                continue
            item = al.items[first]
            raise ValidationError(
                f"the context lines from snippet line {item.number} ({item.text.strip()!r}) next to a marker "
                f"fit two places: where the merge puts them, deleting original lines between "
                f"{ends[0] + 1} and {ends[1] + 1}, and right {'before' if step > 0 else 'after'} original line "
                f"{al.pairs[anchor] + 1}, deleting nothing. Show a line that occurs once in the file next "
                "to that context, or the lines on both sides of the code to delete",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def _defines(norm: str) -> bool:
    key = header_key(norm)
    return key is not None and not key.startswith(("key:", "css:", "<"))


def _context_block(al: Aligner, m: int, step: int) -> tuple[list[int], int] | None:
    """From marker m walking by `step`: the snippet code lines (nearest the marker first) up to
    the first paired line that occurs once in the original (the anchor); None when a marker or
    the end comes first, when none of them is paired, or when they are only closing lines."""
    context: list[int] = []
    s = m + step
    while 0 <= s < len(al.items) and not is_gap(al.items[s]):
        if al.snorm[s]:
            if s in al.pairs and len(al.opos.get(al.snorm[s], ())) == 1:
                if not any(c in al.pairs for c in context) or all(is_closer(al.snorm[c]) for c in context):
                    return None
                return context, s
            context.append(s)
        s += step
    return None


def _fits_next_to(al: Aligner, context: list[int], anchor: int, step: int) -> bool:
    """True when the context, read from the anchor back towards the marker, equals the original's
    non-blank lines next to the anchor one for one, at the same depth relative to it. Unpaired
    snippet lines are new code there, or context the alignment missed: both readings are tried
    (passed over; or taken when equal to the next original line, greedily)."""
    return _fits(al, context, anchor, step, False) or _fits(al, context, anchor, step, True)


def _fits(al: Aligner, context: list[int], anchor: int, step: int, take_unpaired: bool) -> bool:
    a = al.pairs[anchor]
    o = a - step
    for s in reversed(context):
        if s not in al.pairs and not take_unpaired:
            continue
        while 0 <= o < len(al.orig) and not al.onorm[o]:
            o -= step
        same = 0 <= o < len(al.orig) and al.onorm[o] == al.snorm[s] \
            and al.swidth[s] - al.swidth[anchor] == al.owidth[o] - al.owidth[a]
        if same:
            o -= step
        elif s in al.pairs:
            return False
    return True


# A statement that leaves its block: whatever follows it in the same block never runs.
_EXIT = re.compile(r"^(?:return\b|raise\b|throw\b|panic\(|exit\b|break\b|continue\b)")
# Lines that may follow an exit at its own indentation: labels and the branches of a switch,
# closing lines, comments, preprocessor lines.
_AFTER_EXIT = re.compile(r"^(?:case\b|default\b|when\b|else\b|elif\b|elsif\b|except\b|finally\b|catch\b|"
                         r"rescue\b|ensure\b|end\b|fi\b|done\b|esac\b|[\w.]+:$|#|//|/\*|\*|--|;;)")


_COMMENT = re.compile(r"^(?:#|//|/\*|\*|--)")
_COMMENT_RUN = 20  # comment lines looked past after a new exit


def _past_comments(spliced: Spliced, row: int, o: int) -> int | None:
    """The original line of merged row `row` (`o`), or, when it is a comment, of the first code
    line after it in the same run of kept original lines (a comment may follow an exit; the code
    under it cannot run either); None when the run ends first. O(_COMMENT_RUN)."""
    lines, origin = spliced.lines, spliced.origin
    for r in range(row, min(len(lines), row + _COMMENT_RUN)):
        text = lines[r].strip()
        if not text:
            continue
        s, at = origin[r]
        if s >= 0 or at < 0:
            return None
        if not _COMMENT.match(text):
            return at
    return o if not _COMMENT.match(lines[row].strip()) else None


def check_unreachable(al: Aligner, spliced: Spliced) -> None:
    """Refuse a merge that puts code where it can never run, where the original has none there:
    original code kept right after a new exit statement of the snippet (`return None`, `raise`,
    `panic(...)`) at the same indentation (the snippet rewrote a body and a marker after it kept
    the old body as well: a marker at column 0 read as inside the function), or new code right
    after a kept exit statement (context such as `return False` not recognised and inserted
    again). Definitions are not counted (JavaScript hoists a function written after `return`).
    O(merged lines): only the two neighbours of each new line can meet the conditions below."""
    lines, origin = spliced.lines, spliced.origin
    for row, after in _around_new_rows(spliced):
        (s, o), (s2, o2) = origin[row], origin[after]
        exit_norm = al.snorm[s] if s >= 0 else al.onorm[o] if o >= 0 else ""
        width = indent_width(lines[row])
        if s < 0 <= o and s2 >= 0 > o2 and not _EXIT.match(exit_norm) \
                and (start := _statement_start(al, o, indent_width(lines[after]))) is not None:
            exit_norm, width = al.onorm[start], al.owidth[start]  # (the last line of a long `return`)
        if not _EXIT.match(exit_norm) or is_closer(exit_norm) or indent_width(lines[after]) != width:
            continue
        if s >= 0 and o < 0 and s2 < 0 and o2 >= 0:
            kept, new = _past_comments(spliced, after, o2), None  # a new exit, then kept original code
            if kept is None:
                continue
        elif s < 0 and o >= 0 and s2 >= 0 and o2 < 0:
            kept, new = None, s2  # a kept exit, then new code
        else:
            continue
        norm = al.onorm[kept] if kept is not None else al.snorm[new]
        if is_closer(norm) or _AFTER_EXIT.match(norm) or header_key(norm) is not None:
            continue
        if kept is not None:
            before = next((k for k in range(kept - 1, -1, -1) if al.onorm[k]), None)
            if before is not None and _EXIT.match(al.onorm[before]) and al.owidth[before] == al.owidth[kept]:
                continue  # the original has the same unreachable line (or the exit was edited)
            item = al.items[s]
            raise ValidationError(
                f"snippet line {item.number} ({item.text.strip()!r}) would be followed by original line "
                f"{kept + 1} ({al.orig[kept].strip()!r}), kept by a marker, in the same block: code that can "
                "never run. If the snippet replaces the whole body, end it with the block's closing line (or "
                "the next definition) before the marker; if the old code stays, show where the new lines go",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
        following = next_code(al.onorm, o)
        if following < len(al.orig) and al.owidth[following] == width \
                and not is_closer(al.onorm[following]) and not _AFTER_EXIT.match(al.onorm[following]):
            continue  # the original has code that never runs there too
        item = al.items[new]
        raise ValidationError(
            f"snippet line {item.number} ({item.text.strip()!r}) would come right after original line {o + 1} "
            f"({al.orig[o].strip()!r}), in the same block: code that can never run. If it is context, show "
            "one more unchanged line around it; if it is new, show the lines around the place it goes",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


_STATEMENT_REACH = 30  # lines of one statement that _statement_start walks back over
_OPEN_ENDS = ("\\", "(", "[", "{", "'''", '"""')


def _statement_start(al: Aligner, o: int, width: int) -> int | None:
    """The first line of the statement that original line o continues, when o is indented less
    than `width` (the text of a multi-line string at column 0) and the nearest line above at
    `width` ends open (a backslash, a bracket, triple quotes): else None. O(_STATEMENT_REACH)."""
    if al.owidth[o] >= width:
        return None
    for k in range(o - 1, max(-1, o - _STATEMENT_REACH), -1):
        if al.onorm[k] and al.owidth[k] == width:
            return k if al.onorm[k].endswith(_OPEN_ENDS) else None
        if al.onorm[k] and al.owidth[k] > width:
            return None
    return None


def _around_new_rows(spliced: Spliced) -> list[tuple[int, int]]:
    """(row, next non-blank row) for each new snippet line and the non-blank row before it, in
    merged order: the consecutive non-blank rows of which one is new code (a pair of two new lines
    comes once). O(new lines + the blank rows around them)."""
    lines, found = spliced.lines, []
    for row in spliced.new_rows():
        before = row - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        if before >= 0 and (not found or found[-1] != (before, row)):
            found.append((before, row))
        after = row + 1
        while after < len(lines) and not lines[after].strip():
            after += 1
        if after < len(lines):
            found.append((row, after))
    return found


_COPY_MIN = 2  # lines that occur once in the original
_COPY_REACH = 60  # merged lines between a block and its copy: further apart, it is new code like old


def check_repeated_block(al: Aligner, spliced: Spliced) -> None:
    """Refuse a merge in which new snippet lines repeat a block of the original, line for line,
    that the merge also keeps: consecutive new snippet lines equal to consecutive original lines
    (blank lines aside), at least two of them occurring once in the original, inserted while their
    original copies stay close by (_COPY_REACH), next to a new definition header. The snippet
    showed those lines as they are (context, or a renamed definition's body) and the alignment
    could not place them: kept and inserted both. O(new lines): a row of other code only ends a run."""
    row_of, origin = spliced.row_of(), spliced.origin
    present = row_of.keys()
    run: list[tuple[int, int]] = []  # (snippet line, its original copy)
    unique = 0
    start = 0  # the merged row of the run's first line
    for row in _with_ends(spliced.new_rows()):
        s, o = origin[row] if row < len(origin) else (-1, -1)
        new = s >= 0 and o < 0
        if new and not al.snorm[s]:
            continue  # a blank line inside the run
        norm = al.snorm[s] if new else ""
        once = new and len(al.opos.get(norm, ())) == 1 and not is_trivial(norm)
        following = next_code(al.onorm, run[-1][1]) if run else -1
        if new and following in present and al.onorm[following] == norm:
            run.append((s, following))
            unique += once
            continue
        if unique >= _COPY_MIN and abs(row_of[run[0][1]] - start) <= _COPY_REACH \
                and _renamed_next_to(al, run):
            first, last = al.items[run[0][0]], al.items[run[-1][0]]
            raise ValidationError(
                f"snippet lines {first.number}-{last.number} ({first.text.strip()!r} ...) repeat original "
                f"lines {run[0][1] + 1}-{run[-1][1] + 1}, which the merge also keeps: they would be in the "
                "file twice. If they are context, show one more unchanged line around them so that they can "
                "be placed; if they belong to a renamed or moved definition, show the old one's first line",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=first.number)
        copy = al.opos[norm][0] if once else -1
        run, unique, start = ([(s, copy)], 1, row) if copy in present else ([], 0, row)


def _with_ends(rows: list[int]) -> list[int]:
    """The sorted `rows`, each run of consecutive ones followed by the row right after it (the
    first of the other rows, or the end): the rows at which check_repeated_block's state changes."""
    out: list[int] = []
    for row in rows:
        if out and out[-1] != row - 1:
            out.append(out[-1] + 1)
        out.append(row)
    if out:
        out.append(out[-1] + 1)
    return out


def _renamed_next_to(al: Aligner, run: list[tuple[int, int]]) -> bool:
    """True when one of the few unpaired snippet lines right before or after the run starts a
    definition the original does not have, whose name extends or shortens the name of a
    definition next to the run's original copy (`constructor` -> `constructor_v2`): the block is
    that definition's comment or body, copied from the old one (a rename not recognised). New
    code written like old code (a sibling method, a data record) passes. O(_HEADER_REACH)."""
    old = {(header_key(al.onorm[o]) or "").lower() for o in _near_lines(al, run[0][1], run[-1][1])
           if _defines(al.onorm[o])}
    for s, step in ((run[0][0] - 1, -1), (run[-1][0] + 1, 1)):
        seen = 0
        while 0 <= s < len(al.items) and seen < _HEADER_REACH and al.items[s].kind in ("blank", "code") \
                and s not in al.pairs:
            if al.snorm[s]:
                if _defines(al.snorm[s]):
                    new = (header_key(al.snorm[s]) or "").lower()
                    return bool(new) and any(name and name != new and (new.startswith(name) or name.startswith(new))
                                           for name in old)
                seen += 1
            s += step
    return False


def _near_lines(al: Aligner, first: int, last: int) -> list[int]:
    """The _HEADER_REACH non-blank original lines before `first` and after `last`."""
    found: list[int] = []
    for o, step in ((first - 1, -1), (last + 1, 1)):
        seen = 0
        while 0 <= o < len(al.orig) and seen < _HEADER_REACH:
            if al.onorm[o]:
                found.append(o)
                seen += 1
            o += step
    return found


_HEADER_REACH = 3


def check_half_deleted_definitions(al: Aligner, spliced: Spliced) -> None:
    """Refuse a deletion between two anchors that takes a definition's header but keeps the rest of
    its body: the body's lines then run on inside the definition before it. That is what a new
    line paired by chance with a line deep in a later definition does (`if x is None:` written
    at the top of one function, equal to a line of the next one): everything between is dropped.
    A header replaced in place (a rename: a new header at its depth in the gap) passes, and so
    does a body the snippet indents anew (an unwrapped block). O(deleted lines + merged lines)."""
    if not spliced.deleted:
        return
    row_of = spliced.row_of()
    for start, stop in spliced.deleted:
        if not any(al.onorm[start:stop]):
            continue  # (only blank lines dropped, for the snippet's own: no header among them)
        after = next((o for o in range(stop, len(al.orig)) if al.onorm[o]), None)
        if after is None or after not in row_of or is_trivial(al.onorm[after]):
            continue  # (a closing `}` kept for an equal one dropped above it reads the same)
        row = row_of[after]
        if indent_width(spliced.lines[row]) != al.owidth[after]:
            continue  # re-indented by the snippet: the block around it changed on purpose
        narrowest = al.owidth[after]
        for o in range(stop - 1, start - 1, -1):  # walk up: which dropped header still encloses `after`
            if not al.onorm[o]:
                continue
            width = al.owidth[o]
            if width < narrowest and _defines(al.onorm[o]) \
                    and not _header_in_gap(al, spliced, row, width, al.onorm[o][-1:]):
                item = snippet_item_near(al, spliced, row)
                raise ValidationError(
                    f"the merge would delete original lines {start + 1}-{stop}, among them the header of "
                    f"{al.orig[o].strip()!r} (line {o + 1}), but keep the rest of its body from line "
                    f"{after + 1} (next to snippet line {item.number}, {item.text.strip()!r}): a snippet "
                    "line was probably paired with an equal line further down. Put a '... existing code "
                    "...' marker where code stays, or show one more unchanged line next to the new code",
                    code=ErrorCode.CONTENT_LOST, line=item.number)
            narrowest = min(narrowest, width)


def _header_in_gap(al: Aligner, spliced: Spliced, row: int, width: int, opens: str) -> bool:
    """True when a new snippet line at `width` that defines something, or opens the bracket the
    dropped header opens (`self._write(` for `retry(`, its arguments kept), stands right before
    merged row `row`, among the new lines since the last kept or paired one (a replaced header)."""
    for r in range(row - 1, -1, -1):
        s, o = spliced.origin[r]
        if o >= 0:
            return False
        if s >= 0 and indent_width(spliced.lines[r]) == width and (
                _defines(al.snorm[s]) or opens in ("(", "[") and al.snorm[s].endswith(opens)):
            return True
    return False
