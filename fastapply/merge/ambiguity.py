"""Last checks on an alignment for context that fits two places equally well.

Context lines are often the same at the end of several blocks (`return helper`, a callback's
closing lines). When the snippet's context also fits an earlier copy with only whole blocks
between it and the next anchor, the snippet may mean to delete those blocks or not: the engine
refuses instead of guessing (plan.py raises ambiguous_anchor).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

from .chain import nearest_above, nearest_below
from .context import ends_before_whole_blocks
from .lines import is_closer, is_trivial, name_count

if TYPE_CHECKING:
    from .anchor import Aligner


def ambiguous_context(al: Aligner) -> int | None:
    """For a merge that changes nothing: a snippet line right after a marker, paired with its
    closest copy, that an earlier copy at the same depth would fit just as well, deleting whole
    blocks up to the next anchor (`return helper` ends two functions in a row; the snippet may
    mean to delete the second), or right before a marker with a later copy after whole blocks.
    Returns that snippet line, or None."""
    for s in sorted(al.pairs):
        before = s - 1
        while before >= 0 and al.items[before].kind == "blank":
            before -= 1
        after = s + 1
        while after < len(al.items) and al.items[after].kind == "blank":
            after += 1
        if before < 0 or after >= len(al.items) or is_closer(al.snorm[s]):
            continue  # a `}` fits every block's end: no sign of anything
        o = al.pairs[s]
        where = al.opos.get(al.snorm[s], [])
        nearby = nearest_below(where, o) + nearest_above(where, o + 1)  # capped: O(1) per line
        copies = [c for c in nearby if al.owidth[c] == al.owidth[o]]
        if before in al.markers and after in al.pairs:  # context after a marker
            if any(c < o and ends_before_whole_blocks(al, (s, c), al.pairs[after]) for c in copies):
                return s
        if after in al.markers and before in al.pairs:  # context before a marker
            if any(c > o and _whole_blocks(al, al.pairs[before], c) for c in copies):
                return s
    return None


def _starts_definition(al: Aligner, lo: int, hi: int) -> bool:
    """The first code line strictly between lo and hi defines a name (a function, a method): what
    models delete whole, not an `if` block whose sibling ends alike."""
    first = next((index for index in range(lo + 1, hi) if al.onorm[index]), None)
    return first is not None and al.key_of(al.onorm[first]) is not None


def _whole_blocks(al: Aligner, lo: int, hi: int, base: int | None = None) -> bool:
    """True when the original lines strictly between lo and hi are whole blocks at hi's depth
    (or at `base`)."""
    base = al.owidth[hi] if base is None else base
    between = [index for index in range(lo + 1, hi) if al.onorm[index]]
    return bool(between) and al.owidth[between[0]] == base and \
        all(al.owidth[index] >= base for index in between)


def _context_from(al: Aligner, marker: int, step: int, edits: bool = False) -> tuple[list[int], int | None]:
    """The paired lines from the marker towards `step` (in snippet order), up to the first one
    that occurs once in the original (returned as the anchor; None when a line that is not paired,
    or that the original has nowhere, comes first: an edited line, which no copy of the block can
    hold, so the walk stays short). With `edits`, an unpaired line after the first that the
    original has more than once stays in the block: the merge reads it as an edit, and a copy of
    the whole block elsewhere says the snippet may mean that copy, unedited. Blank lines are
    passed over. O(the lines walked)."""
    block: list[int] = []
    s = marker + step
    while 0 <= s < len(al.items) and (s in al.pairs or al.items[s].kind == "blank"
                                      or edits and block and al.items[s].kind == "code"
                                      and len(al.opos.get(al.snorm[s], ())) > 1):
        if s not in al.pairs and al.items[s].kind == "code":
            block.append(s)
        elif s in al.pairs:
            where = al.opos.get(al.snorm[s], ())
            if len(where) == 1:
                return (block if step > 0 else block[::-1]), s
            if not where:
                break
            block.append(s)
        s += step
    return (block if step > 0 else block[::-1]), None


def ambiguous_block(al: Aligner) -> int | None:
    """A block of context lines right after a marker, none of them unique in the original, paired
    right before the next anchor (deleting nothing), that also occurs, whole and at the same depth,
    further up with only whole blocks between it and that anchor: the snippet may as well mean to
    delete those blocks (two functions that end alike). Returns the block's first line, or None."""
    for marker in al.marker_list:
        block, anchor = _context_from(al, marker, +1, edits=True)  # (anchor: where a deletion would end)
        if anchor is None or len(block) < 2 and not (block and _telling(al.snorm[block[0]])) \
                or al.items[anchor - 1].kind != "blank" \
                or all(is_closer(al.snorm[b]) or is_trivial(al.snorm[b]) for b in block):
            continue  # one short line (`pass`) ends many blocks; a decorator sits right on its definition
        first, o = block[0], al.pairs[block[0]]
        above = paired_above(al, marker)
        for c in nearest_below(al.opos[al.snorm[first]], o):
            if al.owidth[c] != al.owidth[o] or c <= above:
                continue  # (a copy at or above what the snippet shows before the marker is no other place)
            run, at, last = 0, c, c
            for b in block:
                while at < o and not al.onorm[at]:
                    at += 1
                if at >= o or al.onorm[at] != al.snorm[b]:
                    break
                run, last, at = run + 1, at, at + 1
            if run == len(block) and _whole_blocks(al, at - 1, al.pairs[anchor]) \
                    and not _comment_tail(al, block, c):
                return first
            if 2 <= run < len(block) and all(is_closer(al.snorm[b]) and b in al.pairs for b in block[run:]) \
                    and is_closer(al.snorm[block[run - 1]]) \
                    and _whole_blocks(al, last, al.pairs[block[run]], al.owidth[last]) \
                    and _starts_definition(al, last, al.pairs[block[run]]):
                # the copy holds the block up to a function's end; the enclosing block's closing
                # lines that follow in the snippet come after whole definitions there (serde's
                # tuple_variant and struct_variant end alike: deleting the second fits too)
                return first
    return None


def paired_above(al: Aligner, marker: int) -> int:
    """The original line paired with the last paired snippet line above `marker`, -1 when none
    (acorn-static-class-features: the part above the marker already holds the first copy of
    `return super.parseClassElement.apply(this, arguments)`; siblings.py: no pairing above it).
    O(the lines walked)."""
    for s in range(marker - 1, -1, -1):
        if s in al.pairs:
            return al.pairs[s]
    return -1


def ambiguous_tail(al: Aligner) -> int | None:
    """The mirror of ambiguous_block: a block of context lines right before a marker, none of them
    unique in the original, paired right after the anchor before them (deleting nothing), that also
    occurs, whole and at the same depth, further down with only whole blocks between that anchor
    and it: the snippet may as well mean to delete those blocks (two definitions whose comments
    start alike: `# Given a path to a .pyc file in the archive, return the`). Returns the block's
    first line, or None. O(snippet lines + the copies looked at, capped)."""
    for marker in al.marker_list:
        block, anchor = _context_from(al, marker, -1)  # (anchor: where a deletion would start)
        if anchor is None or len(block) < 2 and not (block and _telling(al.snorm[block[0]])) \
                or al.items[anchor + 1].kind != "blank" \
                or all(is_closer(al.snorm[b]) or is_trivial(al.snorm[b]) for b in block):
            continue
        first, o = block[0], al.pairs[block[0]]
        spots = [al.pairs[anchor], *(al.pairs[b] for b in block)]
        if any(any(al.onorm[a + 1:b]) for a, b in zip(spots, spots[1:])):
            continue  # (the merge deletes code around the block's lines already: the snippet's own deletion)
        copies = [c for c in nearest_above(al.opos[al.snorm[first]], o + 1)
                  if al.owidth[c] == al.owidth[o] and _block_at(al, block, c)]
        if copies and _whole_blocks(al, al.pairs[anchor], copies[0]) and len(copies) < 2:
            # (with two copies or more below it, the block is how every entry there starts, a
            # template, which names no entry to delete up to: effect's `/**`,
            # ` * @stability unstable`, ` * @since 4.0.0` over each of its exports)
            return first
    return None


def _block_at(al: Aligner, block: list[int], c: int) -> bool:
    """The snippet lines `block` are the original's non-blank lines from c on. O(len(block))."""
    at = c
    for b in block:
        while at < len(al.onorm) and not al.onorm[at]:
            at += 1
        if at >= len(al.onorm) or al.onorm[at] != al.snorm[b]:
            return False
        at += 1
    return True


_TELLING_WORDS = 5


def _telling(norm: str) -> bool:
    """A line with this many names (`raise source.error("bad escape %s" % escape, len(escape))`)
    is context of its own, not a line that ends blocks everywhere."""
    return name_count(norm) >= _TELLING_WORDS


# A comment line (`#` only with a space after it: `#include`, `#endif` are code).
_COMMENT = re.compile(r"^(?:\*|//|--|;|#(?:\s|$))")


def _comment_tail(al: Aligner, block: list[int], c: int) -> bool:
    """True when the block is the tail of a comment (` * @private`, ` */`) and so is its copy at
    original line c (a comment line right above it): read there, the snippet would delete the code
    that comment describes and hand the comment's head, which the marker keeps, to the definition
    after it. Nobody deletes code that way, so that copy is no reading of the snippet."""
    if not all(_COMMENT.match(al.snorm[b]) for b in block):
        return False
    above = c - 1
    return above >= 0 and bool(_COMMENT.match(al.onorm[above])) and al.owidth[above] == al.owidth[c]


_COPIES = 8  # copies of a segment's first line looked at


def telling_code(al: Aligner, lines: Iterable[int]) -> list[int]:
    """The code lines among snippet `lines` that could anchor anything: not `}`, `end`,
    `return this;` (they fit every block)."""
    return [s for s in lines if al.items[s].kind == "code" and not al.scloser[s] and not al.strivial[s]]


def copy_run(al: Aligner, code: list[int], c: int) -> list[tuple[int, int]]:
    """The snippet lines of `code` found unchanged and in order from original line c on (which
    holds code[0]), within a reach that passes over a few lines the snippet leaves out.
    O(len(code) x reach)."""
    run, at = [(code[0], c)], c + 1
    stop = min(len(al.onorm), c + 2 * (len(code) + 4))
    for s in code[1:]:
        k = next((k for k in range(at, stop) if al.onorm[k] == al.snorm[s]), None)
        if k is not None:
            run.append((s, k))
            at = k + 1
    return run


def best_copy(al: Aligner, code: list[int]) -> list[tuple[int, int]] | None:
    """For telling lines none of which occurs once in the original: the run of copy_run that
    holds the most of them, when it holds two or more and strictly more than the run from any
    other copy of the first line the original has (two retry loops alike but for `raise e`);
    None when nothing separates the copies. O(_COPIES x copy_run)."""
    start = next((k for k, s in enumerate(code) if al.snorm[s] in al.opos), None)
    if start is None:
        return None
    runs = sorted((copy_run(al, code[start:], c) for c in al.opos[al.snorm[code[start]]][:_COPIES]),
                  key=len, reverse=True)
    if len(runs) < 2 or len(runs[0]) < 2 or len(runs[0]) == len(runs[1]):
        return None
    return runs[0]


def better_copy(al: Aligner) -> int | None:
    """A segment between markers none of whose paired lines occurs once in the original (its
    place came from the segments around it, not from its own lines), where another copy of its
    first paired line starts a run that holds more of the segment's lines, unchanged and in order,
    than the place the merge chose: two retry loops alike but for a line or two, and the snippet
    shows the one the merge did not edit (`raise e` stands in the second one only). The merge
    would rewrite the wrong copy: refused. Returns the segment's first paired line, or None.
    O(snippet lines x _COPIES)."""
    bounds = [-1, *al.marker_list, len(al.items)]
    for lo, hi in zip(bounds, bounds[1:]):
        code = telling_code(al, range(lo + 1, hi))
        paired = [s for s in code if s in al.pairs]
        if len(paired) < 2 or any(len(al.opos.get(al.snorm[s], ())) == 1 for s in paired):
            continue
        here = sum(al.snorm[s] == al.onorm[al.pairs[s]] for s in paired)
        if here == len(code):
            continue  # (every line stands unchanged where it is: no copy holds more)
        first = paired[0]
        tail = [s for s in code if s >= first]
        for c in al.opos.get(al.snorm[first], [])[:_COPIES]:
            if c != al.pairs[first] and len(copy_run(al, tail, c)) > here:
                return first
    return None


_RULER = 10


def copied_tail(al: Aligner) -> int | None:
    """A new line right after an anchor and right before a marker that the original has further
    down, with only whole blocks at its depth between the anchor and that copy: read as the copy,
    the snippet deletes those blocks (`# Helper functions`, then the `####` ruler that followed the
    deleted function); read as new, it inserts a second copy and deletes nothing. Both fit: the
    snippet line, or None. O(snippet lines), one copy looked at per line."""
    for marker in al.marker_list:
        s = marker - 1
        while s >= 0 and al.items[s].kind == "blank":
            s -= 1
        if s < 0 or al.items[s].kind != "code" or s in al.pairs or is_closer(al.snorm[s]) \
                or is_trivial(al.snorm[s]) and len(al.snorm[s]) < _RULER:
            continue  # (a ruler, `####...`, has no word but is no `}` either)
        p = s - 1
        while p >= 0 and al.items[p].kind == "blank":
            p -= 1
        if p < 0 or p not in al.pairs:
            continue
        below = nearest_above(al.opos.get(al.snorm[s], []), al.pairs[p] + 1)[:1]
        if below and _whole_blocks(al, al.pairs[p], below[0]):
            return s
    return None


_SPARE_MIN = 2  # context lines that must fit right above the anchor for the reading that deletes nothing


def needless_deletion(al: Aligner) -> int | None:
    """Two adjacent pairs with no marker between them that drop a definition of the original
    (the drop reads as a deletion), while the snippet's lines from the marker before them up to
    the second pair also fit right above that pair's line, line for line with the original
    there (the snippet's other lines new code between them) and at the same depth: that reading
    deletes nothing (astroid's brain_typing.py: two `func_to_add = ...` copies; the one right
    above the next function, at the snippet's own depth, was meant). Returns the first snippet
    line after the marker, or None. O(pairs + the lines walked)."""
    order = sorted(al.pairs)
    for a, b in zip(order, order[1:]):
        oa, ob = al.pairs[a], al.pairs[b]
        if ob - oa < 4 or al._marker_between(a, b) or not _drops_definition(al, oa, ob):
            continue
        marker = next((m for m in range(a, -1, -1) if m in al.markers), None)
        if marker is None:
            continue
        code = [s for s in range(marker + 1, b) if al.snorm[s]]
        if _fits_above(al, code, b, ob) or _context_above(al, code, b, ob):
            return code[0]
    return None


def _context_above(al: Aligner, code: list[int], b: int, ob: int) -> bool:
    """The paired lines that open `code` (up to its first new line) stand right above original
    line ob, line for line at b's relative depth, with only blank lines between: read there, the
    rest of `code` is new code inserted above ob (pyxdg's new save_state_path, shown after the
    `os.makedirs(path)` / `return path` that end every save_*_path function, went after the last
    of them, not after the first one, deleting the two between). _SPARE_MIN telling lines at
    least, and not where the merge pairs them. O(len(code))."""
    run = []
    for s in code:
        if s not in al.pairs:
            break
        run.append(s)
    if len(run) == len(code) or sum(1 for s in run if not is_trivial(al.snorm[s])) < _SPARE_MIN:
        return False
    top = stands_above(al, run, b, ob)
    return top is not None and al.pairs[run[0]] != top


def stands_above(al: Aligner, run: list[int], b: int, ob: int) -> int | None:
    """Where run[0] stands when the snippet lines `run` stand right above original line ob, line
    for line at b's relative depth, with only blank lines between; None when they do not.
    O(len(run) + the blank lines passed)."""
    o = ob - 1
    for s in reversed(run):
        while o >= 0 and not al.onorm[o]:
            o -= 1
        if o < 0 or al.onorm[o] != al.snorm[s] or al.owidth[o] - al.owidth[ob] != al.swidth[s] - al.swidth[b]:
            return None
        o -= 1
    return o + 1


def _drops_definition(al: Aligner, oa: int, ob: int) -> bool:
    """An original line strictly between oa and ob that opens a definition and did not move away."""
    return any(al.onorm[o] and al.o_opens(o) and al.key_of(al.onorm[o]) is not None
               and not al.moved_between(o - 1, o + 1) for o in range(oa + 1, ob))


def _fits_above(al: Aligner, code: list[int], b: int, ob: int) -> bool:
    """The snippet lines `code` (all before b) stand right above original line ob, walked
    upwards: every original code line met is the next of them at b's relative depth (snippet
    lines that match none are new code), up to the first of them; at least _SPARE_MIN telling
    lines matched, and the first one among them, at another line than the merge pairs it with."""
    o, matched = ob - 1, 0
    for s in reversed(code):
        while o >= 0 and not al.onorm[o]:
            o -= 1
        if o < 0:
            return False
        if al.onorm[o] == al.snorm[s] and al.owidth[o] - al.owidth[ob] == al.swidth[s] - al.swidth[b]:
            if s == code[0] and al.pairs.get(s) == o:
                return False  # the merge's own reading: no other place
            matched += 0 if is_trivial(al.snorm[s]) else 1
            o -= 1
        elif s == code[0]:
            return False  # the first context line must be where this reading puts it
    return matched >= _SPARE_MIN


def bare_opener(al: Aligner, norm: str) -> bool:
    """A definition's first line that ends at its `(` (`def __new__(`, its parameters below) naming a
    definition the original has several of: unique only by how one copy was wrapped, it stands for
    no place (pikepdf's stubs: ten `__new__`, one wrapped; the snippet wrapped another). O(1) but
    for the name's lookup."""
    if not norm.endswith("("):
        return False
    key = al.key_of(norm)
    return key is not None and len(al._okeys_for(key)) >= 2
