"""Walking from an anchor: the snippet's lines matched in order against the original's, one by
one, while they agree (steps._edges' fallback where no candidate anchor is left in a range), and
the ruler lines (`# -----`) that anchor where they are unique.

Complexity: O(lines walked), each step O(1) but for the few helpers named in greedy's comments
(split_run, whole_block_up, block_shell_up: each O(the block it reads)).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .closers import block_shell_up, edited_opener, whole_block_up
from .joined import split_run
from .lines import DROPPED_STUBS

if TYPE_CHECKING:
    from .anchor import Aligner

_RULER = 12  # a line without a word this long (`# -----`) anchors where it is unique
_WORD = re.compile(r"\w")


def is_ruler(norm: str) -> bool:
    """A long line of punctuation (`# ------------`, `/* ====== */`): trivial by its lack of words,
    but where it occurs once it says where it is as well as any line."""
    return len(norm) >= _RULER and not _WORD.search(norm)


def greedy(al: Aligner, lines: list[int], start: int, stop: int, step: int) -> int:
    """Match `lines` in order against the original lines from `start` towards `stop` while they
    agree (blank lines skipped). A few new lines may sit in between, and an edited line may
    replace one or two original lines; an unmatched closing line ends the run, unless it
    closes what a new line of the run opened (`x: t.Union[` ... `],`). Returns the
    position after the last match."""
    o = start
    matched = False
    inserted = statements = 0  # (new lines; of them, those not inside a bracket a new line opened)
    opened: list[int] = []  # the indentation of new lines in the run that open a bracket
    index = 0
    while index < len(lines):
        s = lines[index]
        index += 1
        if al.in_new_definition(s):
            continue  # a new definition is inserted here; the code around it goes on matching
        o = al._skip_blank(o, stop, step)
        if (o - stop) * step >= 0:
            break
        norm = al.snorm[s]
        target = None
        if al.onorm[o] == norm:
            target = o
        elif not al.strivial[s] or al.scloser[s] or is_ruler(norm):
            nxt = al._skip_blank(o + step, stop, step)
            if (nxt - stop) * step < 0 and al.onorm[nxt] != norm and al.onorm[nxt] in DROPPED_STUBS:
                # (an edited line took a stub body with it: `) -> T:` + `...` became `) -> T: ...`)
                nxt = al._skip_blank(nxt + step, stop, step)
            if (nxt - stop) * step < 0 and al.onorm[nxt] == norm:
                target = nxt
                if statements > 1:
                    # the unmatched lines before it would be new and one original line gone:
                    # when the copy as many lines on stands there too, they are edits of the
                    # lines they replace one for one (a run of edited `case` lines, then a
                    # `return` that every case has; a condition wrapped over three lines is one)
                    target = _one_for_one(al, o, statements, stop, step, norm) or nxt
        if target is None and al.onorm[o] != norm:
            run = split_run(al, lines, index - 1, o, step)
            if run:  # lines that spell out one original line: the first of them pairs with it
                al.pairs[lines[index - 1] if step > 0 else lines[index + run - 2]] = o
                index += run - 1
                o += step
                matched, inserted, statements, opened = True, 0, 0, []
                continue
        if target is not None and (al._closer_ok(s) or step > 0 and edited_opener(al, s, target)):
            al.pairs[s] = target
            o = target + step
            matched, inserted, statements, opened = True, 0, 0, []
            continue
        if target is not None and step < 0:
            # walking up, a closing line comes before its opening line: the whole block, as
            # the original has it right there, is context (`if (!x) { ... }` above an anchor)
            whole = whole_block_up(al, lines, index - 1, target, stop)
            if whole:
                al.pairs.update(whole)
                o = whole[-1][1] + step
                index += len(whole) - 1
                matched, inserted, statements = True, 0, 0
                continue
            shell = block_shell_up(al, lines, index - 1, target, stop)
            if shell:  # the same block with its body rewritten: its ends pair, the body is new
                al.pairs.update(shell)
                o = shell[-1][1] + step
                index = lines.index(shell[-1][0], index) + 1
                matched, inserted, statements = True, 0, 0
                continue
        if target is None and step < 0 and al.scloser[s] and (group := _group_above(al, lines, index - 1)):
            index += group  # (walking up, a new bracketed statement `if (` ... `):` is one new line)
            statements += 1
            inserted += 1
            if inserted > 3:
                break
            continue
        if not opened:
            statements += 1
        if al.scloser[s] and step > 0 and opened and opened[-1] == al.swidth[s]:
            opened.pop()  # it closes a bracket that new lines of this run opened: new code too
        elif al.scloser[s] or al.strivial[s]:
            break
        elif step > 0 and al.snorm[s].endswith(("(", "[", "{")):
            opened.append(al.swidth[s])
        inserted += 1
        if inserted > 3:
            break
    return o if matched else start


def _group_above(al: Aligner, lines: list[int], k: int) -> int:
    """How many of lines[k + 1:] (snippet lines right above lines[k], walking up) lead up to the line
    that opens the bracket lines[k] closes, at its indentation, that one included; 0 when there is
    no such line within _GROUP_LINES. O(_GROUP_LINES)."""
    s = lines[k]
    if al.snorm[s][:1] not in ")]}":
        return 0
    for j in range(1, min(_GROUP_LINES, len(lines) - k)):
        t = lines[k + j]
        if t != s - j or t in al.markers or t in al.pairs:
            return 0
        if al.snorm[t] and al.swidth[t] <= al.swidth[s]:
            return j if al.swidth[t] == al.swidth[s] and al.snorm[t].endswith(("(", "[", "{")) else 0
    return 0


_GROUP_LINES = 8  # lines of one new bracketed statement _greedy steps over walking up


def _one_for_one(al: Aligner, o: int, count: int, stop: int, step: int, norm: str) -> int | None:
    """The original line `count` non-blank lines on from `o` when its text is `norm`. O(count)."""
    for _ in range(count):
        o = al._skip_blank(o + step, stop, step)
    o = al._skip_blank(o, stop, step)
    return o if (o - stop) * step < 0 and al.onorm[o] == norm else None
