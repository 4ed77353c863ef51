"""Context lines right after a marker that are not paired yet: where in the original they are.

The lines right after a marker are often unchanged context (`store.append(e)`, `}`, `return total`)
followed by a deletion up to the next anchor. These functions find the copy of such a block that the
snippet means, or leave it unpaired when no copy is trustworthy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .chain import nearest_below
from .lines import is_trivial

if TYPE_CHECKING:
    from .anchor import Aligner


def context_block(al: Aligner, tail: list[int], lo: int, hi: int) -> None:
    """Find where the unpaired block of lines after a marker (`tail`) occurs contiguously in the
    original range [lo, hi), closest to the next anchor (the reading that deletes least), and
    pair it. A weak block (one line, or only trivial lines) pairs only with a copy at the same
    depth that has whole blocks between it and the next anchor."""
    block: list[int] = []
    for s in tail:
        if s in al.pairs or al.in_new_definition(s) or s in al.markers:
            break
        block.append(s)
    if _context_before_edit(al, block, lo, hi):
        return
    # a lone line, or a few lines like `pass` / `return None`: it takes more to trust a copy
    weak = len(block) == 1 or all(is_trivial(al.snorm[s]) for s in block)
    if not block or weak and len(block) > 3:
        return
    first = next((s for s in block if not is_trivial(al.snorm[s])), block[0])
    offset = block.index(first)
    # the snippet line's indentation relative to the next anchor, when there is one
    after = next((s for s in range(block[-1] + 1, len(al.items)) if s in al.pairs), None)
    if after is not None and lo <= al.pairs[after] < hi:
        hi = al.pairs[after]  # the block's copy must come before the anchor that follows it
    shift = None if after is None or al.pairs[after] != hi else \
        al.swidth[first] - al.swidth[after]
    for start in nearest_below(al.opos.get(al.snorm[first], []), hi, lo):
        if weak and shift is not None and al.owidth[start] - al.owidth[hi] != shift:
            continue  # only a copy at the same depth can be it
        o, run = start, []
        for s in block[offset:]:
            o = al._skip_blank(o, hi, +1)
            if o >= hi or al.onorm[o] != al.snorm[s]:
                break
            run.append((s, o))
            o += 1
        complete = len(run) == len(block) - offset
        if weak and not complete:
            continue  # `pass` / `return result` together, further up
        if complete and (len(run) >= 2 and not weak
                         or shift is not None and ends_before_whole_blocks(al, run[-1], hi)):
            al.pairs.update(run)
            al.fuzzy.update(s for s, _ in run)
        return


def _context_before_edit(al: Aligner, block: list[int], lo: int, hi: int) -> bool:
    """Common context lines (`return true;`, `}`) right after a marker, then new lines, then
    the next anchor: the context is the copy nearest the anchor, at the same depth relative to it,
    when no more original lines stand between that copy and the anchor than the new lines that
    replace them (the reading that deletes least, and the literal one). Pairs it; True when done.
    O(len(block)) plus one lookup of the nearest copy."""
    lead: list[int] = []
    for s in block:
        if al.snorm[s] not in al.opos:
            break
        lead.append(s)
    rest = [s for s in block[len(lead):] if al.snorm[s]]
    if not 2 <= len(lead) <= 3 or not rest or not all(is_trivial(al.snorm[s]) for s in lead):
        return False
    after = next((s for s in range(block[-1] + 1, len(al.items)) if s in al.pairs), None)
    if after is None or not lo <= al.pairs[after] <= hi:
        return False
    hi = al.pairs[after]
    copies = nearest_below(al.opos[al.snorm[lead[0]]], hi, lo)
    if not copies or al.owidth[copies[0]] - al.owidth[hi] != al.swidth[lead[0]] - al.swidth[after]:
        return False
    o, run = copies[0], []
    for s in lead:
        o = al._skip_blank(o, hi, +1)
        if o >= hi or al.onorm[o] != al.snorm[s] or al.owidth[o] - al.owidth[hi] != al.swidth[s] - al.swidth[after]:
            return False
        run.append((s, o))
        o += 1
    if sum(1 for k in range(o, hi) if al.onorm[k]) > len(rest):
        return False
    al.pairs.update(run)
    al.fuzzy.update(s for s, _ in run)
    return True


def ends_before_whole_blocks(al: Aligner, pair: tuple[int, int], hi: int) -> bool:
    """For a lone context line (`return success`) right before the next anchor `hi`: True when
    the original lines between its closest copy and that anchor are whole blocks at the anchor's
    level (a deleted function), so that reading it as context that deletes them is sound. A
    decorator or comment right above the anchor, at its level, is more likely new and its own."""
    s, o = pair
    if hi >= len(al.orig) or not al.snorm[s]:
        return False
    base = al.owidth[hi]
    attached = s + 1 < len(al.items) and bool(al.snorm[s + 1])  # no blank line before the anchor
    if attached and al.swidth[s] <= base and \
            al.snorm[s].startswith(("@", "#", "//", "/*", "--")):
        return False
    between = [index for index in range(o + 1, hi) if al.onorm[index]]
    return bool(between) and al.owidth[between[0]] == base and \
        all(al.owidth[index] >= base for index in between)
