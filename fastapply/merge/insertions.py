"""Context that fits two places, where the merge's reading rewrites what lies between them and
the next anchor while the other reading only inserts: the snippet's new lines are an entry or a
definition like their siblings, and the context before them ends every sibling (bowser's platform
list, pyxdg's save_*_path functions). The engine refuses instead of guessing (plan.py raises
ambiguous_anchor).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ambiguity import stands_above
from .lines import is_closer, is_trivial
from .similar import similarity

if TYPE_CHECKING:
    from .anchor import Aligner

_LIKE = 70  # similarity (0-100) at which a new line reads as an edit of an original one


def needless_rewrite(al: Aligner) -> int | None:
    """Context lines right after a marker (three or more, none of them unique in the original) that
    the merge pairs with a copy higher up, rewriting or dropping original lines between that copy
    and the next anchor, while the same lines also stand, line for line and at the same depth,
    right above the anchor with only blank lines between. Read there, the snippet's other lines up
    to the anchor are new whole blocks at the anchor's depth and nothing is lost. Both readings fit
    (bowser's platform list: each entry ends `type: PLATFORMS_MAP.desktop, }; }, },`; a new Chrome
    OS entry went over the Linux one): the first context line, or None. Not when the first new line
    reads as an edit of the line after the merge's copy (`resp, err :=` -> `resp, entry :=`): that
    is a rewrite of what follows the context. O(snippet lines + the lines walked)."""
    kept = {o for s, o in al.pairs.items() if al.snorm[s] == al.onorm[o]}
    for marker in al.marker_list:
        run, s = [], marker + 1
        while s < len(al.items) and (al.items[s].kind == "blank"
                                     or s in al.pairs and len(al.opos.get(al.snorm[s], ())) > 1):
            if al.items[s].kind != "blank":
                run.append(s)
            s += 1
        telling = sum(1 for b in run if not is_closer(al.snorm[b]) and not is_trivial(al.snorm[b]))
        if not telling:
            continue
        short = len(run) < 3 and telling < 2  # (`return path`: enough only against a rename)
        anchors = []  # the segment's first few lines paired with a line the original has once
        first = None  # (and its first paired line after new code, as it is: mlflow's `return query`)
        context = {al.snorm[b] for b in run}
        for t in range(s, len(al.items)):
            if t in al.markers or len(anchors) == _ANCHORS:
                break
            if t in al.pairs and len(al.opos.get(al.snorm[t], ())) == 1:
                anchors.append(t)
            elif first is None and t in al.pairs and al.snorm[t] == al.onorm[al.pairs[t]] \
                    and not is_closer(al.snorm[t]) and al.snorm[t] not in context \
                    and any(u not in al.pairs and al.snorm[u] for u in range(s, t)):
                first = t
        if first is not None and (not anchors or first < anchors[0]):
            anchors.insert(0, first)
        if any(_inserts_above(al, run, s, anchor, kept, short) for anchor in anchors):
            return run[0]
    return None


_LOST = 6  # telling original lines a reading from a one-line context run may not lose unasked
_ANCHORS = 3  # unique lines after a context run tried as the place an insertion would end


def _inserts_above(al: Aligner, run: list[int], s: int, anchor: int, kept: set[int], short: bool) -> bool:
    """needless_rewrite's test for one anchor: the snippet lines from s up to it are whole blocks
    at its depth, not an edit of what follows the merge's copy of the run, and the run stands right
    above the anchor's line, while the merge's reading loses a telling original line between its
    copy and the anchor. A `short` run (one telling line) counts only against a merge that reads
    the new lines as a definition renamed and rewritten. O(the lines between)."""
    oa = al.pairs[anchor]
    new = [t for t in range(s, anchor) if al.items[t].kind != "blank"]
    if not new or al.swidth[run[-1]] < al.swidth[anchor] or al.swidth[new[0]] != al.swidth[anchor] \
            or any(al.swidth[t] < al.swidth[anchor] for t in new):
        return False  # read right above the anchor, the new lines must be whole blocks at its depth
    if any(al.key_of(al.snorm[t]) is not None and t in al.pairs and len(al.opos.get(al.snorm[t], ())) == 1
           for t in new):
        return False  # it would write a second copy of a definition the original has once, unchanged
    after = next((k for k in range(al.pairs[run[-1]] + 1, oa) if al.onorm[k]), None)
    renamed = after is not None and _renamed(al, new, after)
    lost = sum(1 for k in range(al.pairs[run[-1]] + 1, oa)
               if al.onorm[k] and k not in kept and not is_trivial(al.onorm[k]))
    if after is None or short and not renamed and lost < _LOST:
        return False  # (one telling context line counts against a rename, or a reading that loses
        # whole blocks: mlflow's `return query.filter(...)` over a new `if model in (...)` block,
        # paired two blocks up, the two between them gone)
    if not renamed and (al.pairs.get(new[0]) == after or similarity(al.snorm[new[0]], al.onorm[after]) >= _LIKE):
        return False  # the first new line reads as an edit of the line after the context: a rewrite
    top = stands_above(al, run, anchor, oa)
    return top is not None and al.pairs[run[0]] < top and lost > 0


def _renamed(al: Aligner, new: list[int], o: int) -> bool:
    """The first new line and original line o define different names, and the lines after them
    differ too: read as an edit, the snippet renames a definition and rewrites it (`save_cache_path`
    into a new `save_state_path` among siblings that look alike), which is no evidence against
    inserting the new one next to it. A header renamed over an unchanged body is a rename.
    O(len(new))."""
    key, old = al.key_of(al.snorm[new[0]]), al.key_of(al.onorm[o])
    if key is None or old is None or key == old:
        return False
    rows = [k for k in range(o + 1, min(len(al.onorm), o + 2 * len(new))) if al.onorm[k]][:len(new) - 1]
    return [al.snorm[t] for t in new[1:]] != [al.onorm[k] for k in rows]
