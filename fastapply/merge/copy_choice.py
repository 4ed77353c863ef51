"""Which copy of a common line a context line next to a marker means: the tests copies._place asks.

A line the file has several times, next to a marker, fits each copy; the alignment leaves it
unpaired. copies._place pairs it with a copy only when something says that copy is the one: the
snippet writes the line as often as the file and every other copy is paired (last_unpaired_copy),
its lines go on from one copy only for a while as they are (long_run), or line for line over as
many lines as they replace (even_rewrite), the next lines are that copy's edited (edited_lead),
what the copy would drop stands elsewhere in the snippet (moved_away), or the run ends right at the
anchor (beside_anchor). Each is O(the runs x the lines between them and the anchor) or less.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lines import header_key, is_comment, is_trivial
from .replaced import named_words, statement_names
from .similar import edited_version

if TYPE_CHECKING:
    from .anchor import Aligner


def between(a: int, b: int) -> range:
    return range(min(a, b) + 1, max(a, b))


def next_pair(al: Aligner, s: int, o: int, s_end: int, o_end: int, step: int) -> tuple[int, int]:
    """The next snippet and original lines after s and o towards their ends, blank lines passed over."""
    s, o = s + step, o + step
    while s != s_end and al.items[s].kind == "blank":
        s += step
    while o != o_end and not al.onorm[o]:
        o += step
    return s, o


def last_unpaired_copy(al: Aligner, s: int, s_end: int) -> bool:
    """s's line, written as often in the snippet as in the file, has every other copy paired: one
    copy in each is left, and the snippet line is no new line (icmplib's `~~~~~~~` under and over
    a docstring's title, the lower one paired, the upper one after the marker). Not when a line
    between s and the anchor s_end is written more often in the snippet than in the file: a
    copied sibling, whose pairs are a guess (exceljs' new `case 't':` block, like `case 'v':`).
    O(copies + the lines between)."""
    copies = al.spos.get(al.snorm[s], ())
    if len(copies) != len(al.opos.get(al.snorm[s], ())) or any(k not in al.pairs for k in copies if k != s):
        return False
    return _no_copied_sibling(al, s, s_end)


def _no_copied_sibling(al: Aligner, s: int, s_end: int) -> bool:
    """No line between s and the anchor s_end is written more often in the snippet than in the
    file (a copied sibling's lines, whose pairs are a guess). O(the lines between x their copies)."""
    # (copies inside a new definition elsewhere in the snippet do not count: inkling's new
    # `causal_conv1d_forward(..., **kwargs,)` function, called with `**kwargs,` here)
    return all(sum(1 for j in al.spos.get(al.snorm[k], ()) if not al.in_new_definition(j))
               <= len(al.opos.get(al.snorm[k], ()))
               for k in between(s, s_end) if al.snorm[k] in al.opos)


def only_copy_left(al: Aligner, s: int, s_end: int, copies: list[int]) -> bool:
    """The file has s's line once between the anchors around it (`copies`), and every other copy
    the snippet writes is paired: the line is that one, the new lines between it and the anchor
    replace what lies there (translate-toolkit's `continue` under a rewritten `if`, under a
    marker; the snippet's other `continue`, further down, is paired). Not next to a copied
    sibling (_no_copied_sibling: exceljs' new `case 't':`). O(the snippet's copies + the lines between)."""
    return len(copies) == 1 and all(k in al.pairs for k in al.spos.get(al.snorm[s], ()) if k != s) \
        and _no_copied_sibling(al, s, s_end)


_MOVED_MOST = 12  # dropped lines moved_away looks for elsewhere in the snippet
_LONG_RUN = 3  # lines of a run that follow on from a copy as they are
_FEW_EDITED = 3  # lines between such a run and the anchor, as many on each side


def long_run(al: Aligner, inside: list[tuple[int, int, list[tuple[int, int]]]], s_end: int, o_end: int) -> bool:
    """Of the copies in the anchor's block (`inside`: no shallower opener between), one only from which the
    snippet's lines go on as they are for _LONG_RUN lines or more, with as many lines left between
    the run and the anchor on each side, _FEW_EDITED at most: those are edited in place, and the
    run is that copy (selenium's `select_by_value` tail, `matched = True` and the loop above it,
    under two rewritten lines; the loop's lines are in every method). O(runs x the lines between)."""
    if len(inside) != 1 or len(inside[0][2]) < _LONG_RUN:
        return False
    edited_s, edited_o = _edited_counts(al, inside[0][2], s_end, o_end)
    return 1 <= edited_s == edited_o <= _FEW_EDITED


def framed_run(al: Aligner, inside: list[tuple[int, int, list[tuple[int, int]]]], s_end: int, o_end: int) -> bool:
    """Of the copies in the anchor's block, one only from which the snippet's lines go on as they
    are for _FRAMED_RUN lines or more, two of them not trivial, with new lines after them and
    original lines between the copy's run and the anchor: the snippet frames what it rewrites
    with the run and the anchor, however many lines it writes in place of how many
    (flashinfer's `if maybe_top_k_arr is None and (` .. `raise ValueError(...)` over a rewritten
    buffer allocation, the same four lines in a sibling method above). The words test still asks,
    with more slack. O(runs x the lines between)."""
    if len(inside) != 1 or len(inside[0][2]) < _FRAMED_RUN \
            or sum(1 for s, _ in inside[0][2] if not is_trivial(al.snorm[s])) < 2:
        return False
    edited_s, edited_o = _edited_counts(al, inside[0][2], s_end, o_end)
    return edited_s >= 1 and edited_o >= 1


_FRAMED_RUN = 4  # lines of such a run


def even_rewrite(al: Aligner, inside: list[tuple[int, int, list[tuple[int, int]]]], s_end: int, o_end: int) -> bool:
    """Of the copies in the anchor's block, one only from which the snippet's lines go on as they
    are for two lines or more, with as many code lines between the run and the anchor on each side:
    the new lines rewrite the old ones in place, however many (sympy's `Mod.eval` loop, fifteen
    lines for fifteen, above `rv = number_eval(p, q)` / `if rv is not None:`, which the file has
    twice). The words test still asks, with more slack. O(runs x the lines between)."""
    if len(inside) != 1 or len(inside[0][2]) < 2:
        return False
    edited_s, edited_o = _edited_counts(al, inside[0][2], s_end, o_end)
    return 1 <= edited_s == edited_o


def lone_in_block(al: Aligner, inside: list[tuple[int, int, list[tuple[int, int]]]], s: int, s_end: int,
                  o_end: int) -> bool:
    """Of the copies in the anchor's block, one only, a line no block ends with, the snippet's new
    lines between it and the anchor and the original's lines there both some: the new lines rewrite
    those, however many (cloudflare's docstring rewritten down to its `Args:`, under a marker; every
    method has an `Args:`, this one only one). Not where the snippet writes a line it would drop
    (a TypeScript union's members, alike line for line: what looks replaced is shown elsewhere),
    nor next to a copied sibling (_no_copied_sibling). The words test still asks. O(runs x the
    lines between)."""
    if len(inside) != 1 or is_trivial(al.snorm[s]) or not _no_copied_sibling(al, s, s_end):
        return False
    edited_s, edited_o = _edited_counts(al, inside[0][2], s_end, o_end)
    return edited_s >= 1 and edited_o >= 1 and not any(
        al.onorm[o] in al.spos for o in between(inside[0][2][-1][1], o_end) if al.onorm[o])


def _edited_counts(al: Aligner, run: list[tuple[int, int]], s_end: int, o_end: int) -> tuple[int, int]:
    """The code lines between the run's end and the anchor (s_end, o_end): the snippet's, the
    original's. O(those lines)."""
    s_last, o_last = run[-1]
    return (sum(1 for k in between(s_last, s_end) if al.snorm[k]),
            sum(1 for o in between(o_last, o_end) if al.onorm[o]))


_LEAD = 2  # edited lines right after a copy that say it is the one the snippet rewrites


def edited_lead(al: Aligner, runs: list[tuple[int, int, list[tuple[int, int]]]], s_end: int,
                 o_end: int) -> tuple[int, int, list[tuple[int, int]]] | None:
    """The one copy after which the snippet's next _LEAD code lines are the original's next ones
    edited (equal, or an edited_version, the same name assigned anew counting; no closing or
    trivial line, which any block has), not all equal: the
    snippet rewrites the block from there down to the anchor (cuda-tile's `except Exception as e:`
    whose `where = ...` and `msg = ...` changed, the lines after them replaced), and what it
    drops there is its to drop. O(runs x _LEAD)."""
    found = []
    for entry in runs:
        s, o = entry[2][-1]
        edited = []
        for _ in range(_LEAD):
            s, o = next_pair(al, s, o, s_end, o_end, +1)
            if s == s_end or o == o_end or al.items[s].kind != "code" or al.scloser[s] or is_trivial(al.snorm[s]) \
                    or al.snorm[s] != al.onorm[o] and not edited_version(al.snorm[s], al.onorm[o], assignments=True):
                break
            edited.append(al.snorm[s] != al.onorm[o])
        if len(edited) == _LEAD and any(edited):
            found.append(entry)
    return found[0] if len(found) == 1 else None


def moved_away(al: Aligner, run: list[tuple[int, int]], s_end: int, o_end: int) -> bool:
    """Every original line the run's copy would drop (those between it and the anchor) is written
    elsewhere in the snippet, inside an unpaired line outside the stretch between them: the snippet
    moved that code away (toga's `# Create the implementation ...` and `self.factory.App(...)`
    into a new `create()` method, `self._impl = self.create()` in their place, over a
    `#####` ruler the file has twenty times). O(_MOVED_MOST x the snippet's new lines)."""
    dropped = [al.onorm[o] for o in between(run[-1][1], o_end) if al.onorm[o]]
    if not dropped or len(dropped) > _MOVED_MOST:
        return False
    inside = set(between(run[-1][0], s_end))
    elsewhere = [al.snorm[k] for k in range(len(al.items)) if al.items[k].kind == "code" and k not in al.pairs
                 and k not in inside and k != run[-1][0]]
    if not all(any(norm in line for line in elsewhere) for norm in dropped):
        return False
    # (most of them, two at least, lines the file has once: docstring lines a sibling repeats,
    # alembic's, say nothing; posthog's moved block has an `if observer is not None:` of its kind)
    unique = sum(1 for norm in dropped if len(al.opos.get(norm, ())) == 1 and not is_trivial(norm))
    return unique >= 2 and 2 * unique > len(dropped)


def beside_anchor(al: Aligner, runs: list[tuple[int, int, list[tuple[int, int]]]],
                   o_end: int) -> tuple[int, int, list[tuple[int, int]]] | None:
    """The run, of two lines or more, that ends right next to the anchor in the original (blank
    lines only between), if any: the snippet shows the lines beside the anchor as they are, and
    its new lines go between them (backports' `return NULL;` + `}` under a marker, a new C
    function, then `static PyObject *`: the file has `return NULL;` eighteen times, one of them in
    a longer run of common lines elsewhere). One line is enough where every other copy lies beyond
    a definition's header (mailman's docstring `See IDatabase.` over a `try:` wrapped around the
    anchor, the same docstring in every method), or where the line is a comment (effect's banner
    `/* ==== */` under a new function, the file's next section's first line: every section has
    one). O(runs + the lines between them and the anchor)."""
    for entry in runs:
        run = entry[2]
        if not any(al.onorm[o] for o in between(run[-1][1], o_end)) \
                and (len(run) >= 2 or is_comment(al.onorm[run[0][1]]) or _alone(al, runs, o_end)):
            return entry
    return None


def _alone(al: Aligner, runs: list[tuple[int, int, list[tuple[int, int]]]], o_end: int) -> bool:
    """Every run but one has a definition's header between it and the anchor. O(those lines)."""
    return sum(1 for entry in runs if not any(header_key(al.onorm[o]) is not None
                                              for o in between(entry[2][-1][1], o_end) if al.onorm[o])) == 1


_NAMED_DROP = 3


def names_all_dropped(al: Aligner, runs: list[tuple[int, int, list[tuple[int, int]]]], s_end: int,
                      o_end: int) -> tuple[int, int, list[tuple[int, int]]] | None:
    """The one copy whose original lines between it and the anchor, one to _NAMED_DROP lines the
    file has once, each name only what the snippet's new lines there name (every name of every
    statement, one statement with two names or more among them): the new lines rewrite those
    (wandb's `if not (creds := netrc_file.authenticators(netloc)):` split into `creds = ...` and
    `if not creds:` over the same `return None`; the next `return None` down has lines above it
    that no new line names). O(runs x the lines between)."""
    found = []
    for entry in runs:
        s_last, o_last = entry[2][-1]
        words = named_words(al.snorm[k] for k in between(s_last, s_end))
        dropped = [al.onorm[o] for o in between(o_last, o_end) if al.onorm[o]]
        if len(dropped) > _NAMED_DROP or any(len(al.opos[norm]) > 1 for norm in dropped):
            continue  # (lines the file repeats, a type's `name: string;`, are named by any rewrite)
        names = [statement_names(norm) for norm in dropped]
        if names and all(found_names <= words for found_names in names) and any(len(n) >= 2 for n in names):
            found.append(entry)
    return found[0] if len(found) == 1 else None
