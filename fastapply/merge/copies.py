"""A context line the file has twice or more, next to a marker: the copy its edit run or the anchor beyond points to.

Models open a part with a marker and one line of context (`return False`, `return
param.human_readable_name`), then write the block's new lines down to a line the file has once.
The context line alone fits several places, so the alignment leaves it unpaired and it is written
again as new code, under the old lines it was meant to replace. Read from the next anchor upwards,
the nearest copy is the one the new lines follow: what lies between it and the anchor is what they
replace, as between any two anchors without a marker. The same holds, mirrored, for the last line
before a marker, read from the anchor above it.

Complexity: O(m log m) to order the pairs, again after each line it moves (rare), plus per marker
the copies of its context line and the lines between the chosen copy and its anchor; a paired
line it moves costs O(m) more.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from .lines import header_key, is_closer, is_comment, opens_block
from .copy_choice import beside_anchor, between, edited_lead, even_rewrite, framed_run, last_unpaired_copy, \
    lone_in_block, long_run, moved_away, next_pair, only_copy_left, names_all_dropped
from .replaced import named_words, names_what_it_replaces
from .similar import edited_version, substituted

if TYPE_CHECKING:
    from .anchor import Aligner


def pair_nearest_copies(al: Aligner) -> None:
    """Pair the first code line after each marker (and the last one before it), when unpaired and
    the file has it more than once between the anchors around it, with the copy nearest the next
    (previous) anchor: at the same depth relative to that anchor, with only the same block's lines
    (no definition, no shallower block opener) between the two, which the snippet's new lines
    then replace."""
    if not al.markers or not al.pairs:
        return
    ordered = sorted(al.pairs.items())
    for marker in sorted(al.markers):
        for step in (+1, -1):
            if _place(al, marker, step, ordered):
                ordered = sorted(al.pairs.items())
        if _nearer_run(al, marker, ordered):
            ordered = sorted(al.pairs.items())
        if _block_exit(al, marker, ordered) or _edit_run_to_copy(al, marker, ordered):
            ordered = sorted(al.pairs.items())


def _last_before(al: Aligner, marker: int, ordered: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The last code line s before `marker` and the index in `ordered` (the pairs in snippet order)
    of the pair above it in the same part, or None. O(log pairs + the lines between)."""
    s = marker - 1
    while s >= 0 and al.items[s].kind == "blank":
        s -= 1
    if s < 0 or al.items[s].kind != "code":
        return None
    at = bisect_left([k for k, _ in ordered], s) - 1
    if at < 0 or any(m in al.markers for m in range(ordered[at][0] + 1, s)):
        return None
    return s, at


def _edit_run_to_copy(al: Aligner, marker: int, ordered: list[tuple[int, int]]) -> bool:
    """The last code line before a marker, a line the file has several times (`return True`),
    paired with the copy right after the previous pair, the snippet's lines between read as
    inserted: when from that previous pair on the snippet's lines and the original's go on one for
    one, equal or edited, to a later copy of the line, unpaired, they are edits in place and the
    line is that copy (prometheus-client rewrote two `if`s over their `return True`s; read as
    inserted, the old `if`s stayed under the marker). O(the lines between)."""
    found = _last_before(al, marker, ordered)
    if found is None:
        return False
    s, at = found
    if s not in al.pairs or len(al.opos.get(al.snorm[s], ())) < 2 or al.scloser[s] or al.items[marker].kind != "marker":
        return False  # (a closing line ends whichever block: `}` closing a new `switch`, not the old method)
    k, ok = ordered[at]
    o = al.pairs[s]
    if not any(al.snorm[j] for j in range(k + 1, s)) or any(al.onorm[j] for j in range(ok + 1, o)):
        return False  # (nothing read as inserted between two adjacent pairs)
    later = ordered[at + 2][1] if at + 2 < len(ordered) else len(al.orig)
    run: list[tuple[int, int]] = []
    j, oj = k, ok
    while True:
        j, oj = next_pair(al, j, oj, s + 1, later, +1)
        if j > s or oj >= later:
            return False
        if al.items[j].kind != "code" or al.snorm[j] != al.onorm[oj] \
                and not edited_version(al.snorm[j], al.onorm[oj], assignments=True):
            return False
        run.append((j, oj))
        if j == s:
            break
    if run[-1][1] == o or al.snorm[s] != al.onorm[run[-1][1]]:
        return False
    for j, oj in run:
        al.pairs[j] = oj
        if al.snorm[j] != al.onorm[oj]:
            al.fuzzy.add(j)
    return True


_EXIT = re.compile(r"^(?:return|raise|throw)\b")


def _block_exit(al: Aligner, marker: int, ordered: list[tuple[int, int]]) -> bool:
    """The last code line before a marker, an unpaired `return res` the file has several times,
    after a paired line of the same part: it pairs with the first copy below that pair at the same
    depth relative to it when that copy is the last line of the block the pair is in (svglib
    rewrote a function's loop; its `return res` ended the body before the marker). The lines
    between are what the snippet's new lines replace. O(the copies + the lines between)."""
    found = _last_before(al, marker, ordered)
    if found is None:
        return False
    s, at = found
    if s in al.pairs or not _EXIT.match(al.snorm[s]):
        return False
    k, o0 = ordered[at]
    later = ordered[at + 1][1] if at + 1 < len(ordered) else len(al.orig)
    copy = next((o for o in al.opos.get(al.snorm[s], ()) if o > o0), None)
    if copy is None or copy >= later or al.owidth[copy] - al.owidth[o0] != al.swidth[s] - al.swidth[k] \
            or any(al.onorm[o] and al.owidth[o] < al.owidth[copy] for o in range(o0 + 1, copy)):
        return False
    after = next((o for o in range(copy + 1, len(al.onorm)) if al.onorm[o]), None)
    if after is not None and al.owidth[after] >= al.owidth[copy]:
        return False  # (not the block's last line)
    if any(al.onorm[o] for o in range(o0 + 1, copy)) and not any(al.snorm[j] for j in range(k + 1, s)):
        return False  # (lines dropped and nothing new in their place: a deletion, or a new exit)
    al.pairs[s] = copy
    return True


_FAR = 4  # original lines a segment's opening run would drop before the next anchor to be re-read
_SHORT = 2  # lines of that run (its first one the file has more than once)


def _nearer_run(al: Aligner, marker: int, ordered: list[tuple[int, int]]) -> bool:
    """The comment lines right after a marker, paired line for line with one copy of themselves, and the
    segment's next anchor _FAR or more unpaired original lines further down: when the first of them
    has a copy between the two, the run goes to the copy nearest the anchor (a doc comment's
    ```` ```ts ```` fence opening the third example, not the first one), as far as the lines
    still match there, and the marker keeps what lies above it. Of two readings of lines the file
    has several times, the one that drops fewer lines. O(the run + its line's copies)."""
    items, snorm, onorm = al.items, al.snorm, al.onorm
    s = marker + 1
    while s < len(items) and items[s].kind == "blank":
        s += 1
    if s >= len(items) or s not in al.pairs or len(al.opos.get(snorm[s], ())) < 2 or not is_comment(snorm[s]):
        return False
    keys = [k for k, _ in ordered]
    at = bisect_left(keys, s)
    run = [ordered[at]]  # the pairs that follow on line for line
    while at + len(run) < len(ordered) and len(run) <= _SHORT:
        s2, o2 = next_pair(al, *run[-1], len(items), len(al.orig), +1)
        if ordered[at + len(run)] != (s2, o2):
            break
        run.append((s2, o2))
    if at + len(run) >= len(ordered):
        return False
    s_end, o_end = ordered[at + len(run)]
    last = run[-1][1]
    if any(m in al.markers for m in range(s, s_end)) or len(run) > _SHORT \
            or not all(is_comment(snorm[k]) for k, _ in run):
        return False  # (code lines that end blocks, `return;` `}`, are no such context: refused elsewhere)
    if sum(1 for o in range(last + 1, o_end) if onorm[o]) < _FAR:
        return False
    copy = max((o for o in al.opos.get(snorm[s], ()) if last < o < o_end), default=None)
    if copy is None or al.swidth[s] - al.swidth[s_end] != al.owidth[copy] - al.owidth[o_end]:
        return False
    new = _run(al, s, s_end, copy, o_end, +1)
    dropped = [o for o in between(new[-1][1], o_end) if onorm[o]]
    if any(_leaves_block(onorm[o], al.owidth[o], al.owidth[copy]) for o in dropped):
        return False
    for k, _ in run:
        del al.pairs[k]
    for k, o in new:
        al.pairs[k] = o
    return True


def _place(al: Aligner, marker: int, step: int, ordered: list[tuple[int, int]]) -> bool:
    """Place the context line next to `marker` on its `step` side from the anchor beyond it
    (`ordered`: the pairs in snippet order); True when it paired anything."""
    items, snorm, onorm = al.items, al.snorm, al.onorm
    s = marker + step
    while 0 <= s < len(items) and items[s].kind == "blank":
        s += step
    if not 0 <= s < len(items) or items[s].kind != "code" or is_closer(snorm[s]) or snorm[s] not in al.opos:
        return False
    # a line the snippet writes twice is no context for one place, and a paired line stays where the
    # alignment put it: unless an edit run (below) places either
    sure = s not in al.pairs and len(al.spos.get(snorm[s], ())) == 1
    if s in al.pairs and len(al.opos.get(snorm[s], ())) < 2:
        return False
    # a paired line and the paired common lines after it (`}`): the context a move takes along
    skip = {s}
    k = s + step
    while s in al.pairs and 0 <= k < len(items) and (items[k].kind == "blank"
                                                     or k in al.pairs and len(al.opos.get(snorm[k], ())) > 1):
        if k in al.pairs:
            skip.add(k)
        k += step
    if s in al.pairs:
        ordered = [pair for pair in ordered if pair[0] not in skip]
    keys = [k for k, _ in ordered]
    at = bisect_left(keys, s)
    far = at if step > 0 else at - 1  # the anchor the new lines run to
    near_at = at - 1 if step > 0 else at  # the one on the marker's side: the copies lie between
    if not 0 <= far < len(keys) or any(m in al.markers for m in range(min(s, keys[far]) + 1, max(s, keys[far]))):
        return False  # no anchor beyond the line, or another marker between them
    s_end, o_end = ordered[far]
    bound = ordered[near_at][1] if 0 <= near_at < len(keys) else (-1 if step > 0 else len(al.orig))
    copies = [o for o in al.opos.get(snorm[s], ()) if min(bound, o_end) < o < max(bound, o_end)]
    if not copies:
        return False
    runs = [(len(run), o * step, run) for o in copies if (run := _run(al, s, s_end, o, o_end, step))]
    # the copy from which the snippet's lines go on line for line, equal or with a token or two
    # swapped, right up to the anchor (an edit run); else the one from which most of them follow
    # as they are, and of those the nearest
    steps = [entry for entry in runs if _lock_step(al, *entry[2][-1], s_end, o_end, step)]
    if len(steps) > 1 or not runs:
        return False  # (two places the snippet rewrites alike: a guess)
    if not steps:  # (a copy in another block, a shallower opener between, is no candidate: another
        # class's method that the new lines happen to repeat)
        runs = [entry for entry in runs if not _shallower_opener(al, entry[2], s_end, o_end)]
    even = not steps and s not in al.pairs and (even_rewrite(al, runs, s_end, o_end)
                                                 or framed_run(al, runs, s_end, o_end))
    sure = sure or even or s not in al.pairs and (last_unpaired_copy(al, s, s_end) or only_copy_left(al, s, s_end, copies)
                                                  or not steps and long_run(al, runs, s_end, o_end)
                                                  or not steps and lone_in_block(al, runs, s, s_end, o_end))
    beside = None if sure or steps or s in al.pairs else beside_anchor(al, runs, o_end)
    named = None if sure or steps or s in al.pairs or beside is not None \
        else names_all_dropped(al, runs, s_end, o_end)
    sure = sure or beside is not None or named is not None
    moved = not sure and not steps and s not in al.pairs and bool(runs) and moved_away(al, max(runs)[2], s_end, o_end)
    lead = None if moved or steps or s in al.pairs or step < 0 else edited_lead(al, runs, s_end, o_end)
    moved = moved or lead is not None
    sure = sure or moved
    if not sure and (not steps or steps[0][2][0][1] == al.pairs.get(s)
                     or (s in al.pairs or not _fresh_edits(al, *steps[0][2][-1], s_end, o_end, step))
                     and not any(header_key(snorm[k]) is not None for k in between(steps[0][2][-1][0], s_end))):
        return False  # (only an edit run through a definition's header says more than the alignment did;
        # an unpaired line the snippet writes twice has no place but what an edit run gives it, one
        # whose edited lines the file has nowhere: great-expectations' call arguments above
        # `values_string: str = ...`; not `if (c) {` over `current = c.v = ...`, the next case's line)
    if not runs:
        return False
    _, _, run = steps[0] if steps else beside or named or lead or _flush(al, runs, o_end) or max(runs)
    copy, last = run[0][1], run[-1][1]
    if al.swidth[s] - al.swidth[s_end] != al.owidth[copy] - al.owidth[o_end]:
        # (the anchor may be re-indented, wrapped in a new block: then the copy stands where the
        # snippet's indentation on the marker's side puts it, cuda-bindings' `continue` over a
        # rewritten body whose old lines went under a new `if`)
        near = ordered[near_at] if 0 <= near_at < len(keys) else None
        if near is None or al.swidth[s] - al.owidth[copy] != al.swidth[near[0]] - al.owidth[near[1]]:
            return False
    dropped = between(last, o_end)
    if not steps:  # (an edit run accounts for every line between, header lines included)
        # a block opener at a depth where the snippet's new lines open a block of their own is
        # rewritten by them (mysql-connector's options loop, after a trivial `continue` under a
        # marker); at any other depth, or a definition, the snippet may delete it, or not
        opened = _opened(al, run[-1][0], s_end, o_end)
        # (and so is a block the snippet moved away whole, at a depth where it writes new lines:
        # posthog's handshake `if` block, now a method of its own, called in its place)
        written = _written(al, run[-1][0], s_end, o_end) if moved or moved_away(al, run, s_end, o_end) else set()
        # (a one-line local declaration inside the anchor's own block, above the copy, is a
        # statement of that body: graphql-codegen's `const declarationKind = ...` in the method
        # whose header is the anchor, rewritten away with the lines around it)
        inside = step < 0 and al.o_opens(o_end) and copy <= al._orig_end(o_end)
        if any(_leaves_block(onorm[o], al.owidth[o], al.owidth[copy])
               and (header_key(onorm[o]) is not None
                    or al.owidth[o] not in opened and not _whole_under(al, o, written, o_end))
               and not (inside and al.owidth[o] > al.owidth[o_end] and not opens_block(onorm[o]))
               for o in dropped if onorm[o]):
            return False
        # what the new lines replace must show in them: each dropped statement shares a name with
        # them (a statement they do not mention is code the snippet left out, not rewrote), but
        # for a local import the rewrite no longer needs
        words = named_words(snorm[s2] for s2 in between(run[-1][0], s_end))
        # (unless nothing new stands between: the snippet goes from the anchor straight to the
        # run, two lines or more, and the lines it drops lie deeper, inside the block the run
        # closes: a deletion shown by its context on both sides, socket.io-parser's `}` / `else {`;
        # or a line or two at any depth under a run of three or more, the copy nearest the anchor:
        # ccxt's `orders = ...` gone between the comment lines `#      },` / `# ]` / `#` and the next)
        solid = [o for o in dropped if onorm[o]]
        shown = len(run) >= 2 and not any(snorm[s2] for s2 in between(run[-1][0], s_end)) \
            and (all(al.owidth[o] > al.owidth[copy] for o in solid)
                 or len(run) >= _SHOWN_RUN and len(solid) <= _SHOWN_DROP and run is max(runs)[2])
        # (docstring text between the anchor and a copy inside the same string names nothing: a
        # paragraph rewritten up to sqlfluff's next `.. note::`)
        prose = al.o_in_string(o_end) and all(al.o_in_string(o) for o in (*dropped, copy))
        if not shown and not moved and not prose \
                and not names_what_it_replaces([onorm[o] for o in dropped], words, even):
            return False
    taken = {o for k, o in al.pairs.items() if k not in skip}
    if any(o2 in taken for _, o2 in run):
        return False
    for k in skip:
        al.pairs.pop(k, None)
    for s2, o2 in run:
        al.pairs[s2] = o2
        al.fuzzy.add(s2)
    return True


def _flush(al: Aligner, runs: list[tuple[int, int, list[tuple[int, int]]]],
           o_end: int) -> tuple[int, int, list[tuple[int, int]]] | None:
    """The one run whose copy reaches right up to the anchor (only blank lines between), when the
    longest run would drop lines: the snippet's lines after it are new, inserted at the anchor, and
    the file loses nothing (mdanalysis' format table: a new row under the second `DLPOLY` row,
    whose lines the first row has too). O(runs x the lines between)."""
    flush = [entry for entry in runs if not any(al.onorm[o] for o in between(entry[2][-1][1], o_end))]
    return flush[0] if len(flush) == 1 and flush[0] is not max(runs) else None


_SHOWN_RUN = 3  # context lines right above the anchor's deleted lines that show the deletion
_SHOWN_DROP = 2  # lines such a run and the anchor may delete between them


def _shallower_opener(al: Aligner, run: list[tuple[int, int]], s_end: int, o_end: int) -> bool:
    """True when a block opener shallower than the run's copy lies between the run and the anchor
    at a depth where the snippet's new lines open no block of their own, nor write lines in the
    place of a block they moved away whole (_whole_under): the copy is in another block.
    O(lines between)."""
    depth, opened = al.owidth[run[0][1]], _opened(al, run[-1][0], s_end, o_end)
    written = _written(al, run[-1][0], s_end, o_end) if moved_away(al, run, s_end, o_end) else set()
    return any(al.owidth[o] < depth and opens_block(al.onorm[o]) and al.owidth[o] not in opened
               and not _whole_under(al, o, written, o_end)
               for o in between(run[-1][1], o_end) if al.onorm[o])


def _whole_under(al: Aligner, o: int, written: set[int], o_end: int) -> bool:
    """Original line o opens a block that ends before the anchor, at a depth where the snippet
    writes new lines (`written`, from _written, only for a run whose dropped lines the snippet
    moved away): the block went whole, not a block the copy is outside of. O(the block)."""
    return al.owidth[o] in written and al._orig_end(o) < o_end


def _written(al: Aligner, s: int, s_end: int, o_end: int) -> set[int]:
    """The depths, in the original's terms, of the snippet's new lines between s and the anchor
    (s_end, o_end). O(lines)."""
    offset = al.swidth[s_end] - al.owidth[o_end]
    return {al.swidth[s2] - offset for s2 in between(s, s_end) if al.snorm[s2] and s2 not in al.pairs}



def _opened(al: Aligner, s: int, s_end: int, o_end: int) -> set[int]:
    """The depths, in the original's terms, at which the snippet's lines between s and the anchor
    (s_end, o_end) open blocks: what they rewrite at those depths is theirs to replace. O(lines)."""
    offset = al.swidth[s_end] - al.owidth[o_end]
    return {al.swidth[s2] - offset for s2 in between(s, s_end) if al.snorm[s2] and opens_block(al.snorm[s2])}


def _run(al: Aligner, s: int, s_end: int, o: int, o_end: int, step: int) -> list[tuple[int, int]]:
    """The snippet's lines from s on towards s_end paired with the original's from o on towards
    o_end while they are equal, blank lines passed over on both sides. O(the run)."""
    run: list[tuple[int, int]] = []
    while s != s_end and o != o_end and al.snorm[s] == al.onorm[o]:
        run.append((s, o))
        s, o = next_pair(al, s, o, s_end, o_end, step)
    return run


def _walk(al: Aligner, s: int, o: int, s_end: int, o_end: int, step: int) -> tuple[list[tuple[int, int]], bool]:
    """The snippet's and the original's lines paired one for one from the pair (s, o) on towards
    the anchor (s_end, o_end), blank lines passed over, the anchor excluded; and whether both sides
    reach it together. O(the lines)."""
    pairs: list[tuple[int, int]] = []
    while True:
        s, o = next_pair(al, s, o, s_end, o_end, step)
        if s == s_end or o == o_end:
            return pairs, s == s_end and o == o_end
        pairs.append((s, o))


def _lock_step(al: Aligner, s: int, o: int, s_end: int, o_end: int, step: int) -> bool:
    """From the pair (s, o) on towards the anchor (s_end, o_end), the snippet's lines and the
    original's are equal, substituted() or edited versions (an annotation dropped: `values_string:
    str = f(` -> `values_string = f(`) one for one (_walk), and both reach the anchor together."""
    pairs, together = _walk(al, s, o, s_end, o_end, step)
    return together and all(
        al.items[k].kind == "code" and (al.snorm[k] == al.onorm[c] or substituted(al.snorm[k], al.onorm[c])
                                        or edited_version(al.snorm[k], al.onorm[c], assignments=True))
        for k, c in pairs)


def _fresh_edits(al: Aligner, s: int, o: int, s_end: int, o_end: int, step: int) -> bool:
    """From the pair (s, o) on towards the anchor, walked as _lock_step does: no snippet line that
    differs from its original line is a line the file has elsewhere (an edit, not a copy of
    another place's line)."""
    pairs, _ = _walk(al, s, o, s_end, o_end, step)
    return not any(al.snorm[k] != al.onorm[c] and al.snorm[k] in al.opos for k, c in pairs)


def _leaves_block(norm: str, width: int, depth: int) -> bool:
    """A line that the copy's block does not reach past: a definition, or a block opener
    shallower than the copy."""
    return header_key(norm) is not None or width < depth and opens_block(norm)
