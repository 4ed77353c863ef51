"""A context line the file has twice or more, right after a marker: the copy nearest the next anchor.

Models open a part with a marker and one line of context (`return False`, `return
param.human_readable_name`), then write the block's new lines down to a line the file has once.
The context line alone fits several places, so the alignment leaves it unpaired and it is written
again as new code, under the old lines it was meant to replace. Read from the next anchor upwards,
the nearest copy is the one the new lines follow: what lies between it and the anchor is what they
replace, as between any two anchors without a marker.

Complexity: O(m) over the snippet's markers, plus the copies of each context line and the original
lines between the chosen copy and its anchor.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from .lines import header_key, is_closer, is_comment, opens_block
from .similar import substituted

if TYPE_CHECKING:
    from .anchor import Aligner


_WORDS = re.compile(r"[A-Za-z_]\w{2,}")
_COMMON = {"self", "this", "return", "None", "null", "nil", "True", "False", "true", "false", "def", "function",
           "for", "while", "not", "and", "else", "elif", "const", "let", "var"}


def pair_nearest_copies(al: Aligner) -> None:
    """Pair the first code line after each marker, when unpaired and the file has it more than once
    between the anchors around it, with the copy nearest the next anchor: at the same depth
    relative to that anchor, with only the same block's lines (no definition, no shallower block
    opener) between the two, which the snippet's new lines then replace."""
    if not al.markers or not al.pairs:
        return
    ordered = sorted(al.pairs.items())
    keys = [s for s, _ in ordered]
    items, snorm, onorm = al.items, al.snorm, al.onorm
    for marker in sorted(al.markers):
        s = marker + 1
        while s < len(items) and items[s].kind == "blank":
            s += 1
        if s >= len(items) or items[s].kind != "code" or s in al.pairs or is_closer(snorm[s]) \
                or len(al.spos.get(snorm[s], ())) != 1:
            continue  # (a line the snippet writes twice is no context for one place)
        at = bisect_left(keys, s)
        if at == len(keys) or any(m in al.markers for m in range(s + 1, keys[at])):
            continue  # no anchor after the line, or another marker between them
        s_next, o_next = ordered[at]
        o_prev = ordered[at - 1][1] if at > 0 else -1
        copies = [o for o in al.opos.get(snorm[s], ()) if o_prev < o < o_next]
        if len(copies) < 2:
            continue  # (one copy: the alignment had its reasons to leave it)
        runs = [(len(run), o, run) for o in copies if (run := _run(al, s, s_next, o, o_next))]
        # the copy from which the snippet's lines go on line for line, equal or with a token or two
        # swapped, right down to the anchor (an edit run); else the one under which most of them
        # follow as they are, and of those the nearest
        steps = [entry for entry in runs if _lock_step(al, *entry[2][-1], s_next, o_next)]
        if len(steps) > 1:
            continue  # (two places the snippet rewrites alike: a guess)
        if not runs:
            continue
        _, near, run = steps[0] if steps else max(runs)
        last = run[-1][1]
        if al.swidth[s] - al.swidth[s_next] != al.owidth[near] - al.owidth[o_next]:
            continue
        if any(_leaves_block(onorm[o], al.owidth[o], al.owidth[near]) for o in range(last + 1, o_next) if onorm[o]):
            continue
        if not steps:
            # what the new lines replace must show in them: each dropped statement shares a name with
            # them (a statement they do not mention is code the snippet left out, not rewrote), but
            # for a local import the rewrite no longer needs
            words = {w for s2 in range(run[-1][0] + 1, s_next) for w in _WORDS.findall(snorm[s2])} - _COMMON
            if any(not is_comment(onorm[o]) and not onorm[o].startswith(("import ", "from "))
                   and (named := set(_WORDS.findall(onorm[o])) - _COMMON)
                   and named.isdisjoint(words) for o in range(last + 1, o_next) if onorm[o]):
                continue
        for s2, o2 in run:
            al.pairs[s2] = o2
            al.fuzzy.add(s2)


def _run(al: Aligner, s: int, s_end: int, o: int, o_end: int) -> list[tuple[int, int]]:
    """The snippet's lines from s on (before s_end) paired with the original's from o on (before
    o_end) while they are equal, blank lines passed over on both sides. O(the run)."""
    run: list[tuple[int, int]] = []
    while s < s_end and o < o_end and al.snorm[s] == al.onorm[o]:
        run.append((s, o))
        s, o = s + 1, o + 1
        while s < s_end and al.items[s].kind == "blank":
            s += 1
        while o < o_end and not al.onorm[o]:
            o += 1
    return run


def _lock_step(al: Aligner, s: int, o: int, s_end: int, o_end: int) -> bool:
    """From the pair (s, o) on, the snippet's lines and the original's (blank lines passed over)
    are equal or substituted() one for one, and both reach their anchor together. O(the lines)."""
    while True:
        s, o = s + 1, o + 1
        while s < s_end and al.items[s].kind == "blank":
            s += 1
        while o < o_end and not al.onorm[o]:
            o += 1
        if s == s_end or o == o_end:
            return s == s_end and o == o_end
        if al.items[s].kind != "code" or al.snorm[s] != al.onorm[o] and not substituted(al.snorm[s], al.onorm[o]):
            return False


def _leaves_block(norm: str, width: int, depth: int) -> bool:
    """A line that the copy's block does not reach past: a definition, or a block opener
    shallower than the copy."""
    return header_key(norm) is not None or width < depth and opens_block(norm)
