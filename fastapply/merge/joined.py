"""Lines a formatter joined or split: black writes a signature that fits on one line as one line
(`def handle_exception(self, consumer, exc_type, exc_val, exc_tb):` where the original had it on
three), prettier breaks a long call over several. The alignment pairs equal lines only, so the
joined line stays unpaired, the lines around it lose their anchor, and the edit is refused or the
old lines kept. Here, between two adjacent pairs with no marker between them, a new snippet line
whose text without whitespace is the text of a few consecutive unpaired original lines joined
(or the reverse: an original line that a few new snippet lines spell out) is paired with the
first of them: the others go with the edit.

Complexity: O(lines between two pairs x _MOST) per gap, and a gap is looked at only while it
holds at most _GAP lines on each side: O((n + m) x _MOST) for a call.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .lines import is_closer

if TYPE_CHECKING:
    from .anchor import Aligner

_MOST = 8  # lines joined into one at most
_GAP = 60  # lines on either side of a gap beyond which it is left alone
_MIN_CHARS = 16  # a joined text shorter than this (`)`, `},`) says nothing
_SPACE = re.compile(r"\s+")
_TRAILING_COMMA = re.compile(r",(?=[)\]}])")  # black's magic trailing comma, gone when joined


def _squash(text: str) -> str:
    return _TRAILING_COMMA.sub("", _SPACE.sub("", text))


def pair_joined(al: Aligner) -> None:
    """Pair a snippet line with the original lines it joins, or an original line with the snippet
    lines that split it, between adjacent pairs; and at a segment's edge, a joined line right
    after an anchor (before a marker) with the original lines right after that anchor's line: it
    pairs with the last of them, so that the ones before it go and the marker keeps what follows
    (the mirror before an anchor). See the module docstring."""
    order = sorted(al.pairs.items())
    bounds = sorted([*order, *((m, None) for m in al.marker_list)], key=lambda bound: bound[0])
    for (a, oa), (b, ob) in zip([(-1, -1), *bounds], [*bounds, (len(al.items), len(al.orig))]):
        if b - a < 2 or b - a > _GAP:
            continue
        news = [s for s in range(a + 1, b) if al.items[s].kind == "code"]
        if not news:
            continue
        if oa is not None and ob is not None:
            olds = [o for o in range(oa + 1, ob) if al.onorm[o]]
            if olds and ob - oa <= _GAP:
                _pair_gap(al, news, olds)
        elif oa is not None and oa >= 0:
            _pair_edge(al, news[0], oa, +1)
        elif ob is not None and a >= 0:
            _pair_edge(al, news[-1], ob, -1)


def _pair_edge(al: Aligner, s: int, anchor: int, step: int) -> None:
    """Snippet line s, right after (step +1) or before (-1) the anchor at original line `anchor`,
    joins the unpaired original lines that follow (precede) that line: s pairs with the farthest."""
    key = _squash(al.snorm[s])
    if len(key) < _MIN_CHARS or al.snorm[s] in al.opos:
        return
    rows: list[int] = []
    o = anchor + step
    while 0 <= o < len(al.orig) and len(rows) < _MOST:
        if al.onorm[o]:
            rows.append(o)
            joined = _squash("".join(al.onorm[r] for r in (rows if step > 0 else rows[::-1])))
            if len(rows) > 1 and joined == key:
                al.pairs[s] = o
                al.joined.update(range(min(rows), max(rows) + 1))
                return
            if not key.startswith(joined) and not key.endswith(joined):
                return
        o += step


def _pair_gap(al: Aligner, news: list[int], olds: list[int]) -> None:
    """One gap: the first join found in each direction, when exactly one run of lines makes it."""
    joined = _runs([al.onorm[o] for o in olds])
    for s in news:
        key = _squash(al.snorm[s])
        runs = joined.get(key, [])
        if len(key) >= _MIN_CHARS and len(runs) == 1 and al.snorm[s] not in al.opos:
            start, stop = runs[0]
            al.pairs[s] = olds[start]
            al.joined.update(range(olds[start], olds[stop] + 1))
            return
    split = _runs([al.snorm[s] for s in news])
    for o in olds:
        key = _squash(al.onorm[o])
        runs = split.get(key, [])
        if len(key) >= _MIN_CHARS and len(runs) == 1 and not is_closer(al.onorm[o]):
            al.pairs[news[runs[0][0]]] = o
            return


def _runs(texts: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Every run of 2 to _MOST consecutive texts, joined without whitespace, to where it starts and
    where it ends (inclusive)."""
    found: dict[str, list[tuple[int, int]]] = {}
    for start in range(len(texts)):
        key = _squash(texts[start])
        for stop in range(start + 1, min(len(texts), start + _MOST)):
            key = _squash(key + texts[stop])
            found.setdefault(key, []).append((start, stop))
    return found


def split_piece(al: Aligner, s: int, o: int, o_lo: int, o_hi: int) -> bool:
    """Snippet line s, next to a line that opens or closes a bracket, is a piece of a run of
    snippet lines (no marker between, _MOST at most) that spells out, without whitespace, another
    original line in range: the snippet split that line (nemo's `{"graphemes": item[...],}`
    written over three lines), and s's own copy elsewhere (a bigger dict of another branch) is no
    anchor. O(n) in C once per line, then O(its hits x _MOST^2)."""
    snorm, markers = al.snorm, al.markers
    after_open = s > 0 and snorm[s - 1].endswith(_OPENS)
    if not (after_open or s + 1 < len(snorm) and snorm[s + 1][:1] in ")]}"):
        return False
    if not (snorm[s].endswith(",") or after_open and snorm[s - 1][-1] in "(["):
        return False  # (an element of a list, a dict or a call: a block's statement is no piece)
    hits = al.split_hits.get(s)
    if hits is None:  # (a candidate left unpaired is one again in each smaller range)
        needle = snorm[s].rstrip(",").rstrip()
        hits = al.split_hits[s] = [hit for hit in al._lines_containing(needle) if al.onorm[hit] != snorm[s]] \
            if len(needle) >= _MIN_CHARS // 2 else []
    for hit in hits:
        if hit == o or not o_lo <= hit < o_hi:
            continue
        key = _squash(al.onorm[hit])
        for start in range(s, max(s - _MOST, -1), -1):
            if start in markers:
                break
            text = ""
            for stop in range(start, min(start + _MOST, len(snorm))):
                if stop in markers:
                    break
                text = _squash(text + snorm[stop])
                if stop > start and stop >= s and text == key:
                    return True
                if not key.startswith(text.rstrip(",")):  # (a comma that a closer below drops)
                    break
    return False


_OPENS = ("(", "[", "{")


def split_run(al: Aligner, lines: list[int], at: int, o: int, step: int) -> int:
    """How many of `lines` (snippet lines in walk order, from index `at` on) spell out original
    line o together, 2 to _MOST of them, without whitespace (0 when none do): walking down from an
    anchor they are the lines after it in snippet order, walking up the lines before it. The
    caller pairs the first of them in snippet order with o; the others go with the edit. O(_MOST)."""
    key = _squash(al.onorm[o])
    if len(key) < _MIN_CHARS:
        return 0
    text = ""
    for count in range(1, min(_MOST, len(lines) - at) + 1):
        norm = al.snorm[lines[at + count - 1]]
        text = _squash(text + norm if step > 0 else norm + text)
        if count > 1 and text == key:
            return count
        if not (key.startswith(text.rstrip(",")) if step > 0 else key.endswith(text)):
            return 0
    return 0
