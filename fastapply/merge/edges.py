"""Where a snippet that leaves out its first or last marker starts and ends.

Models often leave out the marker before the snippet's first line or after its last one. A snippet
without markers (settle_edges) replaces the file's head or tail only when its ends come within a
few lines of the file's; one with markers (open_edges) keeps what lies beyond its ends unless the
snippet plainly reaches the file's edge. Complexity: O(n + m) for n original and m snippet lines.
"""

from __future__ import annotations

import re

from .lines import COMMENT_STARTS, block_extent, bound_names, header_key, indent_width, is_closer, is_trivial, \
    opens_block
from .segments import SnippetLine, is_gap
from .similar import FUZZY_MIN, similarity
from .whole import WHOLE_SHARE

# A snippet without markers whose edges are this close to the file's edges replaces them.
EDGE_LINES = 3
# A one-line import: JS/TS, Python, Rust `use`, CommonJS `require`.
_IMPORT = re.compile(r"^(?:import\s+\S.*(?:\bfrom\s*['\"`].*|['\"`];?)$|import\s+[\w.]+(?:\s+as\s+\w+)?$|"
                     r"from\s+[\w.]+\s+import\s+[^(]*$|use\s+[\w:{}, *]+;$|(?:const|let|var)\s+.*=\s*require\(.*\);?$)")
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
                               and not all(n.startswith(COMMENT_STARTS) for n in onorm[:first_o] if n)) \
        or lead == 0 and _obsolete_head(onorm[:first_o])
    cut_tail = after == 0 or (trail >= 1 and after <= EDGE_LINES)
    # imports above a snippet that reaches the file's end and uses none of their names: what the
    # edit left unused and deleted (typeshed's stubs drop `from _typeshed import Incomplete` with
    # its last use), not context left out
    cut_head = cut_head or cut_tail and lead == 0 and before <= EDGE_LINES \
        and _unused_imports(onorm[:first_o], onorm[first_o:], items)
    total = sum(1 for n in onorm if n)
    if cut_head and cut_tail and len(pairs) >= WHOLE_SHARE * total:
        return items, True
    if cut_head:
        items = items[1:]
    if cut_tail:
        items = items[:-1]
    return items, False


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
    reaches_end = not marked_end and (not any(onorm[pairs[last_s] + 1:])
                                      or _reaches_end(items, pairs, last_s, orig, onorm))
    if not marked_end and not reaches_end:
        items = [*items, implicit]
    if not is_gap(items[0]):
        before = sum(1 for n in onorm[: pairs[first_s]] if n)
        lead = sum(1 for i in items[:first_s] if i.kind == "code")
        head = onorm[:pairs[first_s]]
        unedited = _unedited(items, pairs, onorm)
        dropped = lead == 0 and (_obsolete_head(head) or _note_head(head) or before <= EDGE_LINES and (
            marked_end and _deleted_head(head) and unedited
            or _import_head(head, items[first_s].norm) and (marked_end or reaches_end and not unedited)
            or not unedited and _imports_left_unused(head, items, pairs, onorm)))
        if before and not (lead >= 1 and before <= EDGE_LINES) and not dropped:
            items = [implicit, *items]
            pairs = {s + 1: o for s, o in pairs.items()}
    return items, pairs


def _deleted_head(head: list[str]) -> bool:
    """The lines above a snippet that starts without a marker and changes nothing else (_unedited):
    what it deletes (`from typing import Any`, no longer used), unless one is a directive, a
    notice or a `from __future__` import, which a snippet leaves out rather than deletes. O(lines)."""
    return not any(_DIRECTIVE.search(norm) or norm.startswith("from __future__") for norm in head if norm)


def _import_head(head: list[str], first: str) -> bool:
    """The lines above a snippet that starts with an import, with no marker above, are imports
    too (at most EDGE_LINES of them, from the file's first line): the snippet shows the file's
    import block without them, so they are deleted (d3-shape dropped `import {path} from
    "d3-path"` and added `import {withPath}` below: a left-out first marker would have the model
    start its import block on its second line). Never `from __future__`. The caller asks for a
    marker at the snippet's end, or the file's end and an edit: open at both ends and changing
    nothing, there is no telling which end it cuts. O(lines)."""
    solid = [norm for norm in head if norm]
    return _imports_only(solid) and head[0] == solid[0] and bool(_IMPORT.match(first))


def _imports_left_unused(head: list[str], items: list[SnippetLine], pairs: dict[int, int], onorm: list[str]) -> bool:
    """The lines above a snippet with markers are imports whose names the file uses only inside
    the stretches the snippet's parts rewrite (from each part's first paired line to its last),
    and the snippet does not use: the edit removed their last use, and the import with it
    (typeshed's ldap3 stub dropped `Incomplete` from a signature and its import). O(n + m)."""
    start = len(head)
    if not _unused_imports(head, onorm[start:], items):
        return False
    covered = [0] * (len(onorm) + 1)  # +1 where a part's stretch opens, -1 past its end
    part: list[int] = []
    for s, item in enumerate([*items, SnippetLine("", "implicit")]):
        if is_gap(item) and part:
            covered[min(part)] += 1
            covered[max(part) + 1] -= 1
            part = []
        elif s in pairs:
            part.append(pairs[s])
    depth, outside = 0, []
    for o, norm in enumerate(onorm):
        depth += covered[o]
        if o >= start and depth == 0 and norm:
            outside.append(norm)
    names = {name for norm in head if norm for name in _imported_names(norm)}
    return not names & set(_WORD.findall("\n".join(outside)))


def _unused_imports(head: list[str], rest: list[str], items: list[SnippetLine]) -> bool:
    """Every code line of `head` is an import (never `from __future__`) whose names the rest of
    the original uses and no snippet line mentions: the edit removed their last use (an import
    the file never used says nothing). O(file and snippet text + head names)."""
    solid = [norm for norm in head if norm]
    if not _imports_only(solid):
        return False
    names = [name for norm in solid for name in _imported_names(norm)]
    if not names:
        return False
    words = set(_WORD.findall("\n".join(item.norm for item in items if item.kind == "code")))
    used = set(_WORD.findall("\n".join(rest)))
    return all(name in used and name not in words for name in names)


def _imports_only(solid: list[str]) -> bool:
    """`solid` (non-blank lines) holds one-line imports only, none of them `from __future__`."""
    return bool(solid) and all(_IMPORT.match(norm) and not norm.startswith("from __future__") for norm in solid)


def _imported_names(norm: str) -> list[str]:
    """The names a one-line import binds: Python's `import a.b` here, `from a import b, c as d`
    and JS/TS imports in lines.bound_names; [] when unsure."""
    if norm.startswith("import ") and not _JS_LIKE.search(norm):
        return [part.split(" as ")[-1].strip().split(".")[0] for part in norm[7:].split(",")]
    return bound_names(norm)


_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_JS_LIKE = re.compile(r"['\"`{]|\bfrom\b")


def _unedited(items: list[SnippetLine], pairs: dict[int, int], onorm: list[str]) -> bool:
    """Every code line of the snippet is paired with the same line of the original, and code lines
    with no marker between them are neighbours there (blank lines aside): as it stands, the
    snippet changes nothing. O(m + the original lines its parts span)."""
    prev: int | None = None
    for s, item in enumerate(items):
        if is_gap(item):
            prev = None
        elif item.kind == "code":
            o = pairs.get(s)
            if o is None or onorm[o] != item.norm or prev is not None and (o <= prev or any(onorm[prev + 1:o])):
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
        return _cuts_run(items, pairs, last_s, orig, onorm) or _moved_tail(items, pairs, pairs[last_s], onorm)
    return sum(1 for n in tail if n) <= EDGE_LINES or _edits_tail(trail, tail) or _ends_as_file(items, onorm) \
        or _shows_last_definition(trail, onorm)


def _moved_tail(items: list[SnippetLine], pairs: dict[int, int], last_o: int, onorm: list[str]) -> bool:
    """The original lines after the one the snippet ends on are at most _MOVED_TAIL statements
    that the snippet writes higher up, unpaired or paired elsewhere: it moved them (tsc moving
    `exports.build = build;` from a file's end to its head, ansi-styles its four `export const`
    lines above a function) and ends as the file now ends. O(m + _MOVED_TAIL)."""
    tail: list[int] = []
    for o in range(last_o + 1, len(onorm)):
        if onorm[o]:
            tail.append(o)
            if len(tail) > _MOVED_TAIL:
                return False
    if not tail:
        return False
    written: dict[str, list[int]] = {}
    for s, item in enumerate(items):
        if item.kind == "code":
            written.setdefault(item.norm, []).append(s)
    return all(not is_closer(onorm[o]) and not is_trivial(onorm[o])
               and any(pairs.get(s) != o for s in written.get(onorm[o], ())) for o in tail)


_ENDING = 3
_MOVED_TAIL = 12  # lines a snippet may move from the file's end (each one written higher up)
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


# PEP 263's encoding declaration (`# -*- coding: utf-8 -*-`), which Python 3 no longer needs
_ENCODING = re.compile(r"^#.*?coding[:=]\s*[-\w.]+")


# Python 2's `from __future__` imports, no-ops in Python 3 (not `annotations`, which still acts)
_PY2_FUTURE = re.compile(r"^from __future__ import (?:(?:absolute_import|division|print_function|unicode_literals|"
                         r"with_statement|generators|nested_scopes)(?:,\s*|\s*$))+$")


# what a first comment line says to a tool, or about the file's rights: never dropped by a guess
_DIRECTIVE = re.compile(r"^#!|coding[:=]|spdx|copyright|licen[cs]e|@ts-|eslint|jshint|@flow|-\*-|vim:|pylint|mypy|"
                        r"noqa|fmt:|isort|pragma|do not edit|@generated|@preserve|nolint|prettier", re.IGNORECASE)


def _note_head(head: list[str]) -> bool:
    """True when the original lines above the snippet's first line are one comment line (and
    blank lines) that is no directive or notice: a snippet that starts right below it, with the
    file's head, drops it (`// This file has been generated from mustache.mjs`, gone in the next
    release); a shebang, an encoding, a licence or a linter's line stays."""
    solid = [norm for norm in head if norm]
    return len(solid) == 1 and head[0] == solid[0] and solid[0].startswith(COMMENT_STARTS) \
        and not _DIRECTIVE.search(solid[0])


def _obsolete_head(head: list[str]) -> bool:
    """True when the original lines above the snippet's first line are an encoding declaration
    and/or Python 2's `from __future__` imports, and blank lines: a snippet that starts right
    below them, with the file's head, drops them (what pyupgrade does, and how release diffs
    read) rather than leaving out a first marker."""
    solid = [norm for norm in head if norm]
    if not solid or head[0] != solid[0]:
        return False
    rest = solid[1:] if _ENCODING.match(solid[0]) else solid  # (empty: the declaration alone)
    return len(rest) <= 2 and all(_PY2_FUTURE.match(norm) for norm in rest)
