"""Definitions written like another block's: a header paired as an edit of one original line while
the original has its text verbatim elsewhere (check_headers_elsewhere), and a new definition whose
body repeats an old one line for line while a marker keeps the old one (check_copies). Either
reading, this copy or that one, fits the lines; the merge is refused unless the snippet's own
lines settle it.

Complexity: O(pairs) plus, for a header with a twin, the lines of its part; check_copies O(merged
rows + copies).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .ambiguity import bare_opener
from .lines import header_key, is_trivial, opens_block
from .splice import Spliced

if TYPE_CHECKING:
    from .anchor import Aligner
    from .defmatch import DefIndex


def check_headers_elsewhere(al: Aligner) -> None:
    """O(pairs): a definition header paired as an edit of one original line while the original
    has it verbatim, once, somewhere else: two copies of a definition (`impl Float for f32` and
    `for f64`) and the snippet's part was placed in the wrong one; unless the snippet shows the
    block around it, paired with the original block around the line it edits."""
    for s, o in al.pairs.items():
        norm = al.snorm[s]
        if norm == al.onorm[o] or len(al.opos.get(norm, ())) != 1 or not opens_block(norm) \
                or header_key(norm) is None or bare_opener(al, norm) or al.o_in_string(o):
            continue  # (a docstring's `inv_coef:` under `Args:` is text, not a header)
        item, elsewhere = al.items[s], al.opos[norm][0]
        parent = al.snippet_parents()[s]
        if parent is not None and parent in al.pairs:
            a = al.pairs[parent]
            if a < o <= al._orig_end(a) and not a < elsewhere <= al._orig_end(a):
                continue  # its enclosing block's first line is shown, paired around o, not the copy
        elif _placed_by_own_lines(al, s, o, elsewhere):
            continue
        raise ValidationError(
            f"snippet line {item.number} ({item.text.strip()!r}) is original line {elsewhere + 1} as it "
            f"stands, but the rest of its part fits original line {o + 1} ({al.orig[o].strip()!r}), which it "
            "would replace. Show the unchanged lines around it (the enclosing block's first line) so "
            "that its place is clear",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


_OWN_LINES = 2  # unique unedited lines of a part that place it in a block without its first line


def _placed_by_own_lines(al: Aligner, s: int, o: int, elsewhere: int) -> bool:
    """The part of header s (its lines between markers) has _OWN_LINES unedited lines or more that
    the original has once, all paired inside the block enclosing o, which does not hold `elsewhere`:
    the part stands there by lines of its own (designateclient's `def list(self, criterion=None,
    ...)` in ZoneExportsController, written like ZoneController's, beside `def
    get_export_record` and the export URL), not by lines two copies share. O(part lines)."""
    block = al._header_of(o)
    if block < 0:
        return False
    end = al._orig_end(block)
    if block < elsewhere <= end:
        return False
    own = 0
    for step in (-1, 1):
        k = s + step
        while 0 <= k < len(al.items) and k not in al.markers:
            norm = al.snorm[k]
            if k in al.pairs and norm and not is_trivial(norm):
                if not block < al.pairs[k] <= end:
                    return False
                own += norm == al.onorm[al.pairs[k]] and len(al.opos.get(norm, ())) == 1
            k += step
    return own >= _OWN_LINES


def check_copies(spliced: Spliced, defs: DefIndex) -> None:
    """A new definition of the snippet whose comments and body repeat an old definition's line for
    line, under a new name and somewhere else (defmatch: `copies`), while a marker keeps the old
    one: the snippet renamed and moved it (the old copy should go) or copied it (both stay), and
    nothing in it tells which. Asked only when the definitions were matched for other reasons
    (moved or reordered parts). O(merged rows + copies)."""
    match = defs.computed()
    if match is None or not match.copies:
        return
    kept = {at for by, at in spliced.origin if by < 0 and at >= 0}
    for s, o in match.copies:
        new, old = match.snippet[s], match.original[o]
        if old.header in kept:
            item = defs.items[new.header]
            raise ValidationError(
                f"snippet line {item.number} ({item.text.strip()!r}) defines {new.name!r}, whose body "
                f"repeats {old.name!r} (original line {old.header + 1}) line for line, and a marker keeps "
                f"{old.name!r} too: a rename that moves it would leave the old one behind. If it renames "
                f"{old.name!r}, show the lines around its old place without it; if both should stay, "
                f"show {old.name!r} in the snippet",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
