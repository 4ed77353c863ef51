"""Where a snippet that leaves out its first or last marker starts and ends.

Models often leave out the marker before the snippet's first line or after its last one. A snippet
without markers (settle_edges) replaces the file's head or tail only when its ends come within a
few lines of the file's; one with markers (open_edges) keeps what lies beyond its ends unless the
snippet plainly reaches the file's edge. Complexity: O(n + m) for n original and m snippet lines.
"""

from __future__ import annotations

import re

from ..errors import ErrorCode, MergeError
from .heads import deleted_head, head_statements, import_head, imports_left_unused, imports_only, linter_head, \
    note_head, obsolete_head, prologue_head, rebound_head, rebound_imports, redeclared_head, rewritten_notice, \
    tail_of_dropped_import, unused_imports
from .lines import COMMENT_STARTS, block_extent, header_key, indent_width, is_closer, is_trivial, \
    opens_block
from .segments import SnippetLine, code_segments, is_gap
from .similar import FUZZY_MIN, similarity, substituted
from .tails import commonjs_tail, dependent_tail, moved_tail, sibling_tail, source_map_tail, unexported_tail
from .whole import WHOLE_SHARE

# A snippet without markers whose edges are this close to the file's edges replaces them.
EDGE_LINES = 3
# A comment line (`#include` and `#[attr]` are code).
_COMMENT_LINE = re.compile(r"^(?:#(?:\s|$)|//|--\s)")


def settle_edges(items: list[SnippetLine], pairs: dict[int, int], orig: list[str],
                  onorm: list[str]) -> tuple[list[SnippetLine], bool]:
    """Decide, for a snippet without markers, whether its ends replace the file's ends."""
    first_s, last_s = min(pairs), max(pairs)
    first_o, last_o = pairs[first_s], pairs[last_s]
    # a paired header speaks for its whole original block, even where the snippet's lines differ
    last_o = max([last_o, *(_code_end(onorm, o, block_extent(orig, onorm, o)[1] - 1) for s, o in pairs.items()
                            if items[s].kind == "code" and opens_block(items[s].norm))])
    before = sum(1 for n in onorm[:first_o] if n)
    after = sum(1 for n in onorm[last_o + 1:] if n)
    base = min(indent_width(i.text) for i in items if i.kind == "code")
    lead = sum(1 for i in items[:first_s] if i.kind == "code")
    # new top-level lines after the last pair (lines inside its block do not reach the file's end)
    trail = sum(1 for i in items[last_s + 1:] if i.kind == "code" and indent_width(i.text) <= base)
    # a file's leading comment (licence, shebang, mode line) is never what new code replaces
    # (new definitions above the first paired one, a marker assumed between, are no new head: a
    # helper written above the function that calls it goes there, under the file's imports)
    separate = any(is_gap(i) for i in items[next(k for k, i in enumerate(items) if i.kind == "code"):first_s])
    cut_head = before == 0 or (lead >= 1 and before <= EDGE_LINES and not separate
                               and (not all(n.startswith(COMMENT_STARTS) for n in onorm[:first_o] if n)
                                    or _edited_head(items[:first_s], onorm[:first_o]))) \
        or lead == 0 and (obsolete_head(_without_moved(onorm[:first_o], items, pairs))
                          or linter_head(onorm[:first_o])) \
        or lead >= 1 and not separate and rebound_head(orig[:first_o], [i.norm for i in items[:first_s]], onorm[first_o:]) \
        or lead >= 1 and rebound_imports(orig[:first_o], [i.norm for i in items[:first_s]]) \
        or lead >= 1 and rewritten_notice(onorm[:first_o], [i.norm for i in items[:first_s]])
    total = sum(1 for n in onorm if n)
    # (or the file's last lines edited line for line, however many: patsy's version comment)
    cut_tail = after == 0 or trail >= 1 and (after <= EDGE_LINES
                                             or _edits_tail(items[last_s + 1:], onorm[last_o + 1:])) \
        or after <= EDGE_LINES and moved_tail(items, pairs, last_o, onorm) \
        or before == 0 and after <= EDGE_LINES and len(pairs) >= WHOLE_SHARE * total \
        and not any(header_key(n) for n in onorm[last_o + 1:] if n)
    # (fork-ts-checker's `exports.f = f;` moved from the file's end to its head, in a snippet of the
    # whole file; and a snippet from the file's first line to a statement or two short of its end,
    # most of its lines the file's, is the whole file: fetch-blob's `export default File` went. A
    # definition there may be left out or deleted: typeshed's `def compile_command`, refused)
    # imports above a snippet that reaches the file's end and uses none of their names: what the
    # edit left unused and deleted (typeshed's stubs drop `from _typeshed import Incomplete` with
    # its last use), not context left out
    # (the same under new imports that take their place: ai's `import { logWarnings }` under
    # `import { createLogWarnings }` and a type import, its one use rewritten; the marker assumed
    # between those imports and the first definition goes with it)
    replaced = not cut_head and cut_tail and lead >= 1 and before <= EDGE_LINES \
        and imports_only([i.norm for i in items[:first_s] if i.kind == "code"]) \
        and unused_imports(onorm[:first_o], onorm[first_o:], items)
    cut_head = cut_head or replaced or cut_tail and lead == 0 and before <= EDGE_LINES \
        and unused_imports(onorm[:first_o], onorm[first_o:], items)
    if replaced:
        items = [item for k, item in enumerate(items) if not (0 < k < first_s and item.kind == "implicit")]
    if cut_head and cut_tail and len(pairs) >= WHOLE_SHARE * total:
        return items, True
    if cut_head:
        items = items[1:]
    if cut_tail:
        items = items[:-1]
    return items, False


def _edited_head(lead: list[SnippetLine], head: list[str]) -> bool:
    """The snippet's lines above its first pair are the file's head comment edited line for line
    (`generated by 'versioneer.py' (0.22)` -> `(0.29)`): the snippet rewrites that comment rather
    than leaving it out. O(head lines)."""
    new = [item.norm for item in lead if item.kind == "code"]
    old = [norm for norm in head if norm]
    return len(new) == len(old) and new != old \
        and all(a == b or substituted(a, b) or _same_directive(a, b) for a, b in zip(new, old))


# a tool's directive comment: `// @ts-ignore` and `// @ts-expect-error` are one directive edited
# (`# ruff: noqa` -> `# ruff: noqa: ANN001, ARG001` in django-signal-webhooks' migration)
_DIRECTIVE = re.compile(r"^(?://|#|/\*)\s*(@ts-|eslint-|pyright:|type:|(?:(?:ruff|flake8)\s*:\s*)?noqa|pylint:|mypy:|"
                        r"istanbul |c8 |prettier-ignore)")


def _same_directive(new: str, old: str) -> bool:
    a, b = _DIRECTIVE.match(new), _DIRECTIVE.match(old)
    return a is not None and b is not None and a[1] == b[1]


def _code_end(onorm: list[str], start: int, end: int) -> int:
    """`end`, the last line of the block opened at `start`, or the last one before the comments
    that end it (`# Cannot get here`): a snippet giving the whole block ends with its last
    statement and does not show them. O(those lines)."""
    while end > start and (not onorm[end] or _COMMENT_LINE.match(onorm[end])):
        end -= 1
    return end


def open_edges(items: list[SnippetLine], pairs: dict[int, int], orig: list[str],
               onorm: list[str]) -> tuple[list[SnippetLine], dict[int, int]]:
    """A snippet with markers that starts (or ends) without one, somewhere in the middle of the
    file, still means "the code before (after) stays": models often leave out the first marker.
    Not when the snippet ends one or two lines short of the file's end, inside a run of like
    lines that ends the file (_cuts_run: the last import of a list, removed)."""
    implicit = SnippetLine("", "implicit")
    first_s, last_s = min(pairs), max(pairs)
    marked_end = is_gap(items[-1])
    unedited = _unedited(items, pairs, onorm)
    reaches_end = not marked_end and (not any(onorm[pairs[last_s] + 1:])
                                      or _reaches_end(items, pairs, last_s, orig, onorm)
                                      or _context_tail(items, pairs, onorm) and (is_gap(items[0]) or not unedited)
                                      or tail_of_dropped_import(items, pairs, pairs[last_s], onorm)
                                      or unexported_tail(items, pairs, pairs[last_s], orig, onorm)
                                      or source_map_tail(items, pairs, last_s, onorm)
                                      or commonjs_tail(items, pairs[last_s], onorm)
                                      or dependent_tail(items, pairs, pairs[last_s], orig, onorm))
    if not marked_end and not reaches_end:
        if _context_tail(items, pairs, onorm, most=len(onorm)) and (is_gap(items[0]) or not unedited):
            # (the same last part with more lines after it than _context_tail reads as deleted)
            rest, start = _rest_of_file(onorm, pairs[last_s])
            raise MergeError(
                f"the snippet ends with unchanged lines after a marker (snippet line {items[-1].number}) "
                f"and no marker after them, while the file goes on for {rest} more lines from original "
                f"line {start}: the snippet may end the file there or "
                "have left out its last marker. End it with a '... existing code ...' marker to keep "
                "those lines, or send the edit that deletes them with the lines before and after it",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=items[-1].number)
        if sibling_tail(items, orig, pairs[last_s]):
            rest, start = _rest_of_file(onorm, pairs[last_s])
            raise MergeError(
                f"the snippet ends on a top-level block (snippet line {items[-1].number}) with no marker "
                f"after it, and the file goes on from original line {start} with a block that starts "
                f"like it ({rest} more lines): the edit may delete that block or the last marker may "
                "be missing. End the snippet with a '... existing code ...' marker to keep it; to "
                "delete it, send that deletion as an edit of its own",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=items[-1].number)
        if _replaces_last_definition(items, pairs, last_s, orig, onorm):
            raise MergeError(
                f"the snippet ends with new code (snippet line {items[-1].number}) and no marker, while "
                f"the file's last definition, from original line {_rest_of_file(onorm, pairs[last_s])[1]} on, "
                "comes after its last unchanged line: the new code may replace that definition or go "
                "above it. End the snippet with a '... existing code ...' marker to keep it, or show "
                "the code around it that stays",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=items[-1].number)
        if _ends_on_edit(items, pairs, orig, onorm):
            rest, start = _rest_of_file(onorm, pairs[last_s])
            raise MergeError(
                f"the snippet marks what it leaves out before and between its parts, but ends on a changed "
                f"line (snippet line {items[-1].number}) with no marker after it, while the file goes on for "
                f"{rest} more lines from original line {start}: the edit may "
                "delete them or the last marker may be missing. End the snippet with a '... existing code "
                "...' marker to keep them, or show the line after the change",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=items[-1].number)
        items = [*items, implicit]
    if not is_gap(items[0]):
        before = sum(1 for n in onorm[: pairs[first_s]] if n)
        lead = sum(1 for i in items[:first_s] if i.kind == "code")
        head = onorm[:pairs[first_s]]
        lead_norms = [i.norm for i in items[:first_s]]
        dropped = lead == 0 and (obsolete_head(_without_moved(head, items, pairs)) or note_head(head)
                                 or prologue_head(head, unedited)
                                 or linter_head(head)
                                 or before <= EDGE_LINES and redeclared_head(orig[:pairs[first_s]], items, pairs)
                                 or before <= EDGE_LINES and marked_end and deleted_head(head) and unedited
                                 or head_statements(head) <= EDGE_LINES and (  # (a wrapped import is one)
            import_head(head, items[first_s].norm) and (marked_end or reaches_end and not unedited)
            or not unedited and imports_left_unused(head, items, pairs, onorm))) \
            or lead >= 1 and rebound_head(orig[:pairs[first_s]], lead_norms, onorm[pairs[first_s]:]) \
            or lead >= 1 and rewritten_notice(head, lead_norms) \
            or lead >= 1 and _rebound_around_move(items, first_s, lead_norms, orig, onorm, pairs[first_s])
        if before and not (lead >= 1 and before <= EDGE_LINES) and not dropped:
            items = [implicit, *items]
            pairs = {s + 1: o for s, o in pairs.items()}
    return items, pairs


def _without_moved(head: list[str], items: list[SnippetLine], pairs: dict[int, int]) -> list[str]:
    """`head` with the lines that unpaired snippet lines show again blanked: imports the snippet
    reorders (sumy's `from operator import attrgetter`, moved under `from itertools import chain`)
    are no part of the head above its first line. O(head + m)."""
    shown = {item.norm for s, item in enumerate(items) if item.kind == "code" and s not in pairs}
    return [norm if norm not in shown else "" for norm in head]


def _rebound_around_move(items: list[SnippetLine], first_s: int, lead: list[str], orig: list[str],
                         onorm: list[str], first_o: int) -> bool:
    """Some code lines above the snippet's first pair are lines the snippet shows further down (a
    block it moved), and the rest, comments aside, are imports that the snippet's new first lines
    bind again (magicast's `import { n as generateCode, ... } from "./builders-pgs2P7Vh.js"` above
    the deep-merge region the release moved down: the new import replaces it, and the comment that
    closed the moved region goes). O(lines above + the snippet's lines)."""
    shown = {item.norm for item in items[first_s:] if item.kind == "code"}
    solid = [o for o in range(first_o) if onorm[o]]
    left = [o for o in solid if onorm[o] not in shown]
    if len(left) == len(solid) or 2 * len(left) > len(solid):
        return False  # (nothing above, or little of it, moved: rebound_imports reads such a head)
    code = [orig[o] for o in left if not onorm[o].startswith(COMMENT_STARTS)]
    return bool(code) and rebound_imports(code, lead)


def _ends_on_edit(items: list[SnippetLine], pairs: dict[int, int], orig: list[str], onorm: list[str]) -> bool:
    """The snippet starts with a marker, has another between its parts, and ends on a new or edited
    line with none after it: a snippet that marks what it leaves out everywhere else may end where
    the file now ends (lightly's `__version__ = "1.6.0"`, its version check below deleted) or have
    left out its last marker after its last change; the two read alike, so open_edges refuses
    (snippets cut from real edits always show context after a change, so the eval data cannot say
    which reading models mean: keeping the tail was silently wrong there, deleting it would be
    wherever a model stops right after its change). O(m)."""
    if not is_gap(items[0]) or sum(1 for item in items if is_gap(item)) < 2:
        return False
    last = max(k for k, item in enumerate(items) if item.kind == "code")
    if last in pairs and items[last].norm == onorm[pairs[last]]:
        return False
    # (not when the lines after the last pair lie inside the block of a header its last part shows
    # whole, which they end: timm's `reparameterize_model` with its body rewritten, the file's last)
    start = max(k for k, item in enumerate(items) if is_gap(item) and k < last)
    end = max(pairs.values())
    for s, o in pairs.items():
        if s > start and opens_block(items[s].norm):
            end = max(end, block_extent(orig, onorm, o)[1] - 1)
    return any(onorm[end + 1:])


def _tail_start(onorm: list[str], last_o: int) -> int:
    return next(o for o in range(last_o + 1, len(onorm)) if onorm[o])


def _rest_of_file(onorm: list[str], last_o: int) -> tuple[int, int]:
    """The non-blank original lines after line last_o, and the 1-based number of the first (for
    the refusals that name what a snippet ending there leaves)."""
    return sum(1 for norm in onorm[last_o + 1:] if norm), _tail_start(onorm, last_o) + 1


def _replaces_last_definition(items: list[SnippetLine], pairs: dict[int, int], last_s: int, orig: list[str],
                              onorm: list[str]) -> bool:
    """The snippet goes on past its last pair with new definitions, and what the file has after that
    pair is one definition, whole, at their depth: the new ones may take its place (python-snappy's
    four stream helpers where `check_format` ended the file) as well as go above it, a left-out
    last marker. Several definitions after it: a left-out marker (nobody replaces the rest of a
    file by showing its head). O(the lines past the last pair)."""
    headers = [s for s in range(last_s + 1, len(items)) if items[s].kind == "code"
               and header_key(items[s].norm) is not None]
    if not headers:
        return False
    start = _tail_start(onorm, pairs[last_s]) if any(onorm[pairs[last_s] + 1:]) else None
    while start is not None and onorm[start].startswith(("@", "#[")) and start + 1 < len(onorm):
        start += 1  # (a decorated definition: cirq's last test under `@pytest.mark.parametrize(...)`)
        while start < len(onorm) and not onorm[start]:
            start += 1
        start = start if start < len(onorm) else None
    if start is None or header_key(onorm[start]) is None \
            or indent_width(orig[start]) != indent_width(items[headers[0]].text):
        return False
    _, stop = block_extent(orig, onorm, start)
    return stop - start > EDGE_LINES and not any(onorm[stop:])


def _unedited(items: list[SnippetLine], pairs: dict[int, int], onorm: list[str]) -> bool:
    """Every part of the snippet is _unchanged: as it stands, the snippet changes nothing.
    O(m + the original lines its parts span)."""
    return all(_unchanged(part, items, pairs, onorm) for part in code_segments(items))


def _unchanged(part: list[int], items: list[SnippetLine], pairs: dict[int, int], onorm: list[str]) -> bool:
    """Every code line of `part` (one stretch between markers) is paired with the same line of the
    original, and they are neighbours there (blank lines aside). O(the original lines it spans)."""
    prev: int | None = None
    for s in part:
        o = pairs.get(s)
        if o is None or onorm[o] != items[s].norm or prev is not None and (o <= prev or any(onorm[prev + 1:o])):
            return False
        prev = o
    return True


def _reaches_end(items: list[SnippetLine], pairs: dict[int, int], last_s: int, orig: list[str],
                 onorm: list[str]) -> bool:
    """The snippet, past its last pair, still reaches the file's end: new lines that replace at
    most EDGE_LINES last lines, or edit them, or end as the file ends, or show its last definition;
    with no line past its last pair, one that stops a line or two short of the end of a run."""
    trail, tail = items[last_s + 1:], onorm[pairs[last_s] + 1:]
    if not any(i.kind == "code" for i in trail):
        return _cuts_run(items, pairs, last_s, orig, onorm) or moved_tail(items, pairs, pairs[last_s], onorm)
    return sum(1 for n in tail if n) <= EDGE_LINES or _edits_tail(trail, tail) or _ends_as_file(items, onorm) \
        or _shows_last_definition(trail, onorm) or _returns_over_tail(trail, orig, pairs[last_s] + 1)


_EXIT = re.compile(r"^(?:return|raise|throw)\b")


def _returns_over_tail(trail: list[SnippetLine], orig: list[str], start: int) -> bool:
    """The snippet's last line, past its last pair, returns (or raises) at a depth that every
    line of the file from `start` to its end reaches, _CONTEXT_TAIL lines at most: kept, they
    would follow the return in its own block and never run, so the new lines replace them
    (sympy's `return [y_0[i] + h * f_0[i] for i in range(a)]` over the old `sol = []` loop and
    `return sol` that ended the file). O(_CONTEXT_TAIL)."""
    last = next((item for item in reversed(trail) if item.kind == "code"), None)
    rest = [line for line in orig[start:] if line.strip()]
    if last is None or not _EXIT.match(last.norm) or not rest or len(rest) > _CONTEXT_TAIL:
        return False
    width = indent_width(last.text)
    return width > 0 and all(indent_width(line) >= width for line in rest)


def _context_tail(items: list[SnippetLine], pairs: dict[int, int], onorm: list[str], most: int = 0) -> bool:
    """The snippet's last part, after a marker and with none after it, is unchanged lines of the file
    and no edit, with at most _CONTEXT_TAIL lines after them in the file: such a part says nothing but
    where the file now ends (django-filter's `VERSION = parse_version(__version__)` above the deprecated
    class its release deleted; cassandra's, protobuf's and setuptools' stubs the same). A model that
    left out its last marker ends with its edit, not with a part of unchanged lines written after a
    marker. Not for closing lines alone, which place nothing; the caller asks for a marker at the
    snippet's start or an edit: open at both ends and changing nothing, there is no telling which end
    it cuts. At most `most` (default _CONTEXT_TAIL) lines after them: with more, open_edges refuses
    (pytest-localserver's release deleted `main()` and the `__main__` block, seventeen lines, under
    such a part; a model that sent unchanged lines by mistake would lose as many). O(n + m)."""
    if not any(is_gap(item) for item in items) \
            or sum(1 for norm in onorm[pairs[max(pairs)] + 1:] if norm) > (most or _CONTEXT_TAIL):
        return False
    last = code_segments(items)[-1]
    return bool(last) and not all(is_trivial(items[s].norm) for s in last) and _unchanged(last, items, pairs, onorm)


_ENDING = 3
_CONTEXT_TAIL = 12  # lines after a snippet's last part of unchanged lines that it may delete
_RUN = 3  # paired lines of a run the snippet shows before the lines it leaves out at the end
_RUN_CUT = 2  # lines of that run it may leave out


def _cuts_run(items: list[SnippetLine], pairs: dict[int, int], last_s: int, orig: list[str],
              onorm: list[str]) -> bool:
    """The snippet's last _RUN code lines are paired with consecutive original lines of one
    indentation, and the file goes on after them, with no blank line, for at most _RUN_CUT lines
    of the same indentation and the same first word (`from .text_collapse import ...` under
    `from .text import text`), then ends: the snippet showed a run of imports or list items up to
    its new end. A model that leaves out its last marker stops at the end of a definition, not a
    line or two short of the end of a list. O(_RUN + _RUN_CUT)."""
    code = [s for s in range(last_s + 1) if items[s].kind == "code"][-_RUN:]
    if len(code) < _RUN or any(s not in pairs for s in code):
        return False
    olines = [pairs[s] for s in code]
    if olines != list(range(olines[0], olines[0] + _RUN)):
        return False
    rest = onorm[olines[-1] + 1:]
    while rest and not rest[-1]:
        rest.pop()
    width, word = indent_width(orig[olines[-1]]), onorm[olines[-1]].split(" ", 1)[0]
    return 0 < len(rest) <= _RUN_CUT and all(
        norm and not is_closer(norm) and norm.split(" ", 1)[0] == word
        and indent_width(orig[olines[-1] + 1 + k]) == width for k, norm in enumerate(rest)) \
        and all(indent_width(orig[o]) == width and onorm[o].split(" ", 1)[0] == word for o in olines)


def _ends_as_file(items: list[SnippetLine], onorm: list[str]) -> bool:
    """The snippet's last _ENDING code lines are the file's last ones (not only closing lines):
    it reaches the file's end, although those lines were not paired (a definition the snippet
    moved there, the file's last one, shown last). O(_ENDING)."""
    mine = [item.norm for item in items if item.kind == "code"][-_ENDING:]
    theirs = [n for n in onorm[-4 * _ENDING:] if n][-_ENDING:]
    return len(mine) == _ENDING and mine == theirs and not all(is_closer(n) or is_trivial(n) for n in mine)


def _shows_last_definition(trail: list[SnippetLine], onorm: list[str]) -> bool:
    """The header of the file's last definition is among the snippet's unpaired last lines, its
    block shown whole up to its closing line: the definitions there were moved or rewritten, the
    snippet reaches the file's end (what it leaves out between them went). O(n + len(trail))."""
    last = next((o for o in range(len(onorm) - 1, -1, -1) if onorm[o] and header_key(onorm[o]) is not None
                 and opens_block(onorm[o])), None)
    if last is None or any(is_gap(item) for item in trail):
        return False
    closer = next((n for n in reversed(onorm) if n), "")
    shown = [item.norm for item in trail if item.kind == "code"]
    return onorm[last] in shown and is_closer(closer) and closer in shown[shown.index(onorm[last]):]


def _edits_tail(trail: list[SnippetLine], tail: list[str]) -> bool:
    """True when the snippet's unpaired last lines are the original's last lines edited (a run of
    edited lines that ends the file: `x = find(model)` for `x = candidate(model)`), line by line
    in order, every original line resembling its counterpart, or new lines followed by the
    original's last lines unchanged: they replace that tail rather than go before it.
    O(len(trail)) similarity tests, each bounded by the line length."""
    code = [i.norm for i in trail if i.kind == "code"]
    solid = [n for n in tail if n]
    if len(code) > len(solid) > 0:
        # new lines, then the original's last lines as they are (a new record inserted above the
        # file's last block, which the snippet shows): they are that block, not a copy of it
        return code[-len(solid):] == solid
    if len(solid) != len(code):
        return False
    if all(similarity(new, old) >= FUZZY_MIN for new, old in zip(code, solid)):
        return True
    # the same lines edited in another order (a stub's last declarations, one renamed and moved up
    # among them): each original line has its own counterpart, by the name it declares or by likeness
    if len(code) > _REORDERED_MAX:
        return False
    free = list(code)
    for old in solid:
        name = _DECLARED.match(old)
        match = next((new for new in free if name and new.startswith(name.group(0))
                      or similarity(new, old) >= FUZZY_MIN), None)
        if match is None:
            return False
        free.remove(match)
    return True


_REORDERED_MAX = 12  # trailing lines matched out of order, at most (O(k^2) similarity tests)
# a declaration's name and the token after it (`T1SearchPath:`, `retries =`, `const LIMIT =`)
_DECLARED = re.compile(r"^(?:(?:export\s+)?(?:const|let|var)\s+)?[A-Za-z_]\w*\s*[:=](?!=)")
