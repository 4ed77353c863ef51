"""Aligning snippet lines with original lines, in monotone order.

Patience-style: inside a pair of ranges, lines that occur exactly once on both sides (after
whitespace normalisation) are candidate anchors; definition headers whose text changed but whose
name did not (`add(number) {` -> `static add(a, b) {`) are weaker candidates, and so is the closing
line of a block whose opening line is a candidate. The heaviest increasing chain of candidates is
kept, and the ranges between chain links are aligned the same way, recursively. Where no unique
line is left, the lines next to a range's fixed ends are matched greedily within a short window.
Lookups go through per-text position lists, so nothing is quadratic in the file size.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict

from rapidfuzz.fuzz import ratio

from .lines import block_end, header_key, indent_width, is_closer, is_trivial, opens_block
from .segments import SnippetLine, is_gap

_FUZZY_MIN = 60.0


class Aligner:
    def __init__(self, items: list[SnippetLine], orig: list[str], onorm: list[str]) -> None:
        self.items = items
        self.stext = [item.text for item in items]
        self.snorm = [item.norm if item.kind == "code" else "" for item in items]
        self.orig = orig
        self.onorm = onorm
        self.markers = {i for i, item in enumerate(items) if is_gap(item)}
        self.opos: dict[str, list[int]] = defaultdict(list)
        for index, norm in enumerate(onorm):
            if norm:
                self.opos[norm].append(index)
        self.spos: dict[str, list[int]] = defaultdict(list)
        for index, norm in enumerate(self.snorm):
            if norm:
                self.spos[norm].append(index)
        self._okeys: dict[str, list[int]] | None = None
        self._skeys: dict[str, list[int]] | None = None
        self.pairs: dict[int, int] = {}
        self.fuzzy: set[int] = set()

    # -- public -------------------------------------------------------------------------------

    def align(self) -> dict[int, int]:
        stack = [(0, len(self.items), 0, len(self.orig))]
        while stack:
            stack.extend(self._step(*stack.pop()))
        return self.pairs

    def extend_fuzzy(self) -> None:
        """Pair changed lines at a segment's edge with the original line they replace.

        A segment whose first line was edited (a new signature) leaves that line unpaired, and the
        marker before it would keep the old line too. When the unpaired snippet line and the original
        line just before the segment's first anchor look alike, they are paired (same for the end).
        """
        ordered = sorted(self.pairs.items())
        if self.items and self.items[0].kind == "code":
            self._walk_fuzzy(-1, -1, +1)
        if self.items and self.items[-1].kind == "code":
            self._walk_fuzzy(len(self.items), len(self.orig), -1)
        for s, o in ordered:
            self._walk_fuzzy(s, o, -1)
            self._walk_fuzzy(s, o, +1)

    # -- recursion ----------------------------------------------------------------------------

    def _step(self, s_lo: int, s_hi: int, o_lo: int, o_hi: int) -> list[tuple[int, int, int, int]]:
        if s_lo >= s_hi or o_lo >= o_hi:
            return []
        cands: list[tuple[int, int, float]] = []
        for s in range(s_lo, s_hi):
            norm = self.snorm[s]
            if not norm or is_trivial(norm):
                continue
            where = self.opos.get(norm)
            if where:
                first, last = _span(where, o_lo, o_hi)
                if last - first == 1 and _count(self.spos[norm], s_lo, s_hi) == 1:
                    cands.append((s, where[first], 2.0 + min(len(norm), 60) / 20))
                if last > first:
                    continue
            key = self._skey(s)
            if key is not None:
                okeys = self._okey_index().get(key, [])
                first, last = _span(okeys, o_lo, o_hi)
                if last - first == 1 and _count(self._skey_index()[key], s_lo, s_hi) == 1:
                    o = okeys[first]
                    if not self._paired_exactly(o, s_lo, s_hi):
                        cands.append((s, o, 1.0))
        for s, o, _ in list(cands):
            if opens_block(self.snorm[s]) and opens_block(self.onorm[o]):
                sc = block_end(self.stext, self.snorm, s, s_hi, self.markers)
                oc = block_end(self.orig, self.onorm, o, o_hi)
                if sc is not None and oc is not None and self.snorm[sc] == self.onorm[oc]:
                    cands.append((sc, oc, 0.6))
        chain = _heaviest_chain(cands)
        if not chain:
            self._edges(s_lo, s_hi, o_lo, o_hi)
            return []
        gaps = []
        prev_s, prev_o = s_lo - 1, o_lo - 1
        for s, o in chain:
            self.pairs[s] = o
            gaps.append((prev_s + 1, s, prev_o + 1, o))
            prev_s, prev_o = s, o
        gaps.append((prev_s + 1, s_hi, prev_o + 1, o_hi))
        return gaps

    def _paired_exactly(self, o: int, s_lo: int, s_hi: int) -> bool:
        """True when the original line `o` also occurs verbatim in the snippet range (keep that one)."""
        return _count(self.spos.get(self.onorm[o], []), s_lo, s_hi) > 0

    def _edges(self, s_lo: int, s_hi: int, o_lo: int, o_hi: int) -> None:
        code = [s for s in range(s_lo, s_hi) if self.snorm[s]]
        if not code:
            return
        gaps = [s for s in range(s_lo, s_hi) if s in self.markers]
        head = [s for s in code if not gaps or s < gaps[0]]
        tail = [s for s in code if gaps and s > gaps[-1]]
        stop = self._greedy(head, o_lo, o_hi, +1)
        self._greedy(tail[::-1], o_hi - 1, stop - 1, -1)

    def _greedy(self, lines: list[int], start: int, stop: int, step: int) -> int:
        """Match `lines` in order against the original lines from `start` towards `stop`, as long as
        they agree (blank lines skipped); returns the position after the last match."""
        o = start
        run: list[tuple[int, int]] = []
        for s in lines:
            while (o - stop) * step < 0 and not self.onorm[o]:
                o += step
            if (o - stop) * step >= 0 or self.onorm[o] != self.snorm[s] or not self._closer_ok(s):
                break
            run.append((s, o))
            self.pairs[s] = o
            o += step
        return o if run else start

    def _closer_ok(self, s: int) -> bool:
        """A closing line (`}`, `end`, `</div>`) may only be matched on its own when the block it
        closes was opened in an earlier segment or its opening line is matched too."""
        if not is_closer(self.snorm[s]):
            return True
        width = indent_width(self.stext[s])
        for index in range(s - 1, -1, -1):
            if index in self.markers:
                return True
            if not self.snorm[index]:
                continue
            other = indent_width(self.stext[index])
            if other < width:
                return True
            if other == width:
                return index in self.pairs or not opens_block(self.snorm[index])
        return True

    def _walk_fuzzy(self, s: int, o: int, step: int) -> None:
        while True:
            s2 = s + step
            while 0 <= s2 < len(self.items) and self.items[s2].kind == "blank":
                s2 += step
            o2 = o + step
            while 0 <= o2 < len(self.orig) and not self.onorm[o2]:
                o2 += step
            if not (0 <= s2 < len(self.items) and 0 <= o2 < len(self.orig)):
                return
            if self.items[s2].kind != "code" or s2 in self.pairs or o2 in self._taken():
                return
            if not edited_version(self.snorm[s2], self.onorm[o2]):
                return
            inside = 0 <= s < len(self.items) and 0 <= o < len(self.orig)
            if inside and indent_width(self.stext[s2]) - indent_width(self.stext[s]) != \
                    indent_width(self.orig[o2]) - indent_width(self.orig[o]):
                return
            if not self._monotone(s2, o2):
                return
            self.pairs[s2] = o2
            self.fuzzy.add(s2)
            self._taken_cache = None
            s, o = s2, o2

    _taken_cache: set[int] | None = None

    def _taken(self) -> set[int]:
        if self._taken_cache is None:
            self._taken_cache = set(self.pairs.values())
        return self._taken_cache

    def _monotone(self, s: int, o: int) -> bool:
        for s2, o2 in self.pairs.items():
            if (s2 < s) != (o2 < o):
                return False
        return True

    # -- definition-name index (built only when a changed header needs it) ---------------------

    def _skey(self, s: int) -> str | None:
        return header_key(self.snorm[s]) if opens_block(self.snorm[s]) or "(" in self.snorm[s] else None

    def _okey_index(self) -> dict[str, list[int]]:
        if self._okeys is None:
            self._okeys = defaultdict(list)
            for index, norm in enumerate(self.onorm):
                if norm and (norm.endswith(("{", ":", "(", ",", ")", ">")) or "=>" in norm):
                    key = header_key(norm)
                    if key is not None:
                        self._okeys[key].append(index)
        return self._okeys

    def _skey_index(self) -> dict[str, list[int]]:
        if self._skeys is None:
            self._skeys = defaultdict(list)
            for index, norm in enumerate(self.snorm):
                if norm:
                    key = header_key(norm)
                    if key is not None:
                        self._skeys[key].append(index)
        return self._skeys


_TOKEN = re.compile(r"\w+|[^\w\s]")


def edited_version(new: str, old: str) -> bool:
    """True when `new` reads as an edit of `old`, not a different line: the same definition name, or
    one line's tokens contain the other's (an import that gained a name, an argument appended)."""
    if is_trivial(new) or is_trivial(old):
        return False
    key = header_key(new)
    if key is not None and key == header_key(old):
        return True
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    if a[0] != b[0] or ratio(new, old) < _FUZZY_MIN:
        return False
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    remaining = list(large)
    for token in small:
        if token not in remaining:
            return False
        remaining.remove(token)
    return True


def _span(positions: list[int], lo: int, hi: int) -> tuple[int, int]:
    return bisect_left(positions, lo), bisect_left(positions, hi)


def _count(positions: list[int], lo: int, hi: int) -> int:
    first, last = _span(positions, lo, hi)
    return last - first


def _heaviest_chain(cands: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
    """The heaviest chain of candidates strictly increasing in both coordinates (Fenwick tree)."""
    if not cands:
        return []
    cands = sorted(set(cands))
    ranks = {o: r + 1 for r, o in enumerate(sorted({o for _, o, _ in cands}))}
    size = len(ranks)
    tree_best = [0.0] * (size + 1)
    tree_arg = [-1] * (size + 1)
    best = [0.0] * len(cands)
    back = [-1] * len(cands)
    start = 0
    while start < len(cands):
        end = start
        while end < len(cands) and cands[end][0] == cands[start][0]:
            end += 1
        for index in range(start, end):
            _, o, weight = cands[index]
            r, top, arg = ranks[o] - 1, 0.0, -1
            while r > 0:
                if tree_best[r] > top:
                    top, arg = tree_best[r], tree_arg[r]
                r -= r & -r
            best[index], back[index] = top + weight, arg
        for index in range(start, end):
            r = ranks[cands[index][1]]
            while r <= size:
                if best[index] > tree_best[r]:
                    tree_best[r], tree_arg[r] = best[index], index
                r += r & -r
        start = end
    index = max(range(len(cands)), key=best.__getitem__)
    chain = []
    while index >= 0:
        chain.append((cands[index][0], cands[index][1]))
        index = back[index]
    return chain[::-1]
