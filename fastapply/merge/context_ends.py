"""Context at the far ends of a segment: the lines right before a marker (context_before_marker,
edit_before_marker: the end of the block above, a rewritten condition over its body) and the lines
after a marker that end a method before whole definitions the snippet deletes
(context_before_deletion). The lines right after a marker are context.py's.

Complexity: each function walks the lines of one segment and the copies of its first line
(at most COPIES_CAP), O(segment + lines up to the next anchor) per copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .chain import nearest_above, nearest_below
from .lines import header_key, is_closer, next_code
from .similar import replaces, rewrites_condition

if TYPE_CHECKING:
    from .anchor import Aligner


_PREAMBLE_STARTS = ("@", "#", "//", "/*", "*", "--")


def context_before_marker(al: Aligner, head: list[int], lo: int, hi: int) -> None:
    """The unpaired lines at the end of a segment, right before a marker and after its last
    paired line (the anchor), when they copy the original lines that follow the anchor's block
    after whole definitions, at the anchor's depth (`end` / `private` / marker, with a method
    between `end` and `private` in the original): the snippet shows them as context and deletes
    those definitions, the mirror of context_block. Read as new code instead, they would repeat
    a line of the file right after the definitions they were shown without. Only whole
    definitions (headers, their bodies and closing lines, comments) may lie between; statements
    between would make the lines as likely new code, and they stay unpaired (refused later).
    Lines the original has nowhere may stand among them after the first (a new line in a doc
    comment shown as context): new code there, when two or more lines pair.
    O(lines between the anchor and the copy)."""
    paired = [s for s in head if s in al.pairs]
    if paired:
        anchor = paired[-1]
    elif head and head[0] - 1 >= 0 and al.pairs.get(head[0] - 1) == lo - 1:
        anchor = head[0] - 1
    else:
        return
    block = [s for s in head if s > anchor]
    a = al.pairs[anchor]
    if not block or any(al.in_new_definition(s) or not al.snorm[s] for s in block) \
            or al.swidth[block[0]] != al.swidth[anchor] or al.o_opens(a) \
            or len(block) == 1 and al.snorm[block[0]].startswith(_PREAMBLE_STARTS):
        return
    copies = nearest_above(al.opos.get(al.snorm[block[0]], []), a + 1)
    if not copies or copies[0] >= hi or al.owidth[copies[0]] != al.owidth[a]:
        return
    start, run, o = copies[0], [], copies[0]
    for s in block:
        o = al._skip_blank(o, hi, +1)
        if o < hi and al.onorm[o] == al.snorm[s]:
            run.append((s, o))
            o += 1
        elif al.snorm[s] in al.opos or not run:
            return
        # (else a line the original has nowhere, inserted into the context: new code there)
    if (len(run) == len(block) or len(run) >= 2) and _whole_definitions(al, a, start):
        al.pairs.update(run)
        al.fuzzy.update(s for s, _ in run)


def edit_before_marker(al: Aligner, head: list[int], hi: int) -> None:
    """The unpaired lines at the end of a segment, after its last paired line (the anchor) and
    before a marker, when they end with context the original has right after the anchor's
    neighbourhood: new lines (more than the walk down lets in), an edited line, then that context
    (comments added above a rewritten condition, then `return False` before the marker). The
    context pairs with its nearest copy below the anchor when the original lines between are no
    more than the new lines and the last of them is what the line right above the context in the
    snippet edits. Read as new code instead, the edited line and its context would stand next
    to their old copies. O(len(head)) plus a scan of at most that many original lines."""
    paired = [s for s in head if s in al.pairs]
    above = head[0] - 1 if head else -1
    while above >= 0 and al.items[above].kind == "blank":
        above -= 1  # (the anchor may stand a blank line above the segment's new lines)
    anchor = paired[-1] if paired else above if above >= 0 and above in al.pairs else None
    if anchor is None:
        return
    block = [s for s in head if s > anchor and al.snorm[s]]
    if len(block) < 2 or block[-1] != head[-1] or any(al.in_new_definition(s) for s in block):
        return
    a = al.pairs[anchor]
    tail: list[int] = []  # the block's last lines that the original has, from the end
    for s in reversed(block):
        if al.snorm[s] not in al.opos:
            break
        tail.insert(0, s)
    new = block[: len(block) - len(tail)]
    if not tail or not new or len(tail) > 3:
        return
    o, run = a + 1, []
    between: list[int] = []
    while o < hi and len(between) <= len(new) + _DROPPED_ABOVE and not run:
        if al.onorm[o] == al.snorm[tail[0]] and al.owidth[o] - al.owidth[a] == al.swidth[tail[0]] - al.swidth[anchor]:
            run = [(tail[0], o)]
        elif al.onorm[o]:
            between.append(o)
        o += 1
    if not run or not between:
        return
    if len(between) > len(new) and not (len(new) == 1 and condition_over_body(al, new[-1], between[-1])):
        # (more original lines than new ones only for a lone rewritten condition over the same
        # body right under the anchor: the lines above the old condition, which the snippet
        # does not show between the anchor and the new one, are gone with it)
        return
    if not replaces(al.snorm[new[-1]], al.onorm[between[-1]]) and not (
            len(new) == 1 and condition_over_body(al, new[-1], between[-1])):
        return  # (a lone new condition over the old one's body: the condition rewritten)
    for s in tail[1:]:
        o = al._skip_blank(o, hi, +1)
        if o >= hi or al.onorm[o] != al.snorm[s]:
            return
        run.append((s, o))
        o += 1
    al.pairs.update(run)
    al.fuzzy.update(s for s, _ in run)


_DROPPED_ABOVE = 3  # original lines above a rewritten condition that edit_before_marker lets go


def later_run_before_marker(al: Aligner, head: list[int], hi: int) -> None:
    """The end of a segment before a marker when the walk down paired its context lines next to
    the anchor but not its last line, and those lines with the last one stand together, one for
    one, a few lines further down: new lines, then that context, then the last line (`if a or
    b:`, `Config = GPT`, `Model = GPT`, `elif c:`, a marker, over an original `if a:` branch and
    an `elif b:` branch with the same body). The walk took the first branch's body and left the
    last line to read as an edit of `elif b:`, next to the exact copy the marker keeps. The run
    moves to the later copy; the original lines it passes go with the new lines before it.
    O(run + lines passed)."""
    last = head[-1] if head else None
    if last is None or last in al.pairs or al.strivial[last] or not al.snorm[last]:
        return
    k = len(head) - 1
    while k > 0 and head[k - 1] in al.pairs and al.snorm[head[k - 1]]:
        k -= 1
    run = head[k:-1]
    if not run or k == 0 or any(s in al.pairs for s in head[:k]):
        return  # (new lines must stand before the run: they replace what it passes)
    below = al.pairs[run[-1]]
    where = nearest_above(al.opos.get(al.snorm[last], []), below + 1)
    if not where or where[0] >= hi:
        return
    moved, o = [(last, where[0])], where[0]
    for s in reversed(run):
        o -= 1
        while o > below and not al.onorm[o]:
            o -= 1
        if o <= below or al.onorm[o] != al.snorm[s] \
                or al.owidth[o] - al.owidth[where[0]] != al.swidth[s] - al.swidth[last]:
            return
        moved.append((s, o))
    passed = sum(1 for o in range(al.pairs[run[0]], moved[-1][1]) if al.onorm[o])
    if passed > _RUN_SHIFT:
        return
    al.pairs.update(moved)
    al.fuzzy.update(s for s, _ in moved)


_RUN_SHIFT = 6  # original code lines a run of context may move past (later_run_before_marker)


def condition_over_body(al: Aligner, s: int, o: int) -> bool:
    """Snippet line s and original line o open a block with the same conditional keyword
    (similar.rewrites_condition) over the same first body line: `if state.src[pos] != "<":`
    for `if state.srcCharCode[pos] != 0x3C:`, both followed by `return False`. O(blank lines)."""
    if not rewrites_condition(al.snorm[s], al.onorm[o]):
        return False
    s2, o2 = s + 1, next_code(al.onorm, o)
    while s2 < len(al.items) and not al.snorm[s2] and al.items[s2].kind == "blank":
        s2 += 1
    return s2 < len(al.items) and o2 < len(al.orig) and bool(al.snorm[s2]) \
        and al.snorm[s2] == al.onorm[o2] and al.swidth[s2] > al.swidth[s]


def context_before_deletion(al: Aligner, tail: list[int], lo: int, hi: int, after: int) -> bool:
    """The lines after a marker up to the next anchor (`after`, paired with original line `hi`)
    when the walk up from the anchor paired only their last lines (`end` / `}` / `end`) and left
    the first unpaired (`return`): when all of them stand together in the original, at the same
    depth relative to the anchor, followed by whole definitions up to it, they are the end of the
    method before those definitions, shown as context, and the definitions are deleted (the
    mirror of context_before_marker). Read the other way, the first line would be new code put
    into the last definition before the anchor, next to a copy of the lines it was shown with.
    Re-pairs them; True when done. O(tail + lines up to hi) per copy tried (at most COPIES_CAP)."""
    code = [s for s in tail if al.snorm[s]]
    if not code or code[0] in al.pairs or not any(s in al.pairs for s in code) \
            or any(al.in_new_definition(s) for s in code):
        return False
    for start in nearest_below(al.opos.get(al.snorm[code[0]], []), hi, lo):
        run, o = [], start
        for s in code:
            o = al._skip_blank(o, hi, +1)
            if o >= hi or al.onorm[o] != al.snorm[s] \
                    or al.owidth[o] - al.owidth[hi] != al.swidth[s] - al.swidth[after]:
                break
            run.append((s, o))
            o += 1
        if len(run) == len(code) and _whole_definitions(al, run[-1][1], hi):
            for s in code:
                al.pairs.pop(s, None)
            al.pairs.update(run)
            al.fuzzy.update(s for s, _ in run)
            return True
    return False


def _whole_definitions(al: Aligner, lo: int, hi: int) -> bool:
    """True when the original lines strictly between lo and hi are whole definitions at hi's
    depth: every line at that depth a definition header, its closing line, or a comment or
    decorator, and at least one header."""
    base, headers = al.owidth[hi], 0
    for index in range(lo + 1, hi):
        norm = al.onorm[index]
        if not norm:
            continue
        width = al.owidth[index]
        if width < base:
            return False
        if width > base or is_closer(norm) or norm.startswith(_PREAMBLE_STARTS):
            continue
        if header_key(norm) is None or not al.o_opens(index):
            return False
        headers += 1
    return headers > 0
