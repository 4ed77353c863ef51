"""Monotone chains of candidate anchors, and counting positions in sorted lists."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from itertools import islice
from operator import itemgetter, lt


def span(positions: list[int], lo: int, hi: int) -> tuple[int, int]:
    return bisect_left(positions, lo), bisect_left(positions, hi)


# A line with more copies than this in a range is treated as non-unique everywhere it is looked up
# for context (only the copies nearest the place in question are examined): bounds each lookup.
COPIES_CAP = 64


def nearest_below(positions: list[int], hi: int, lo: int = 0) -> list[int]:
    """The (at most COPIES_CAP) positions in [lo, hi) closest to hi, nearest first."""
    first, last = span(positions, lo, hi)
    return positions[max(first, last - COPIES_CAP):last][::-1]


def nearest_above(positions: list[int], lo: int) -> list[int]:
    """The (at most COPIES_CAP) positions >= lo closest to lo, nearest first."""
    first = bisect_left(positions, lo)
    return positions[first:first + COPIES_CAP]


def count_in(positions: list[int], lo: int, hi: int) -> int:
    first, last = span(positions, lo, hi)
    return last - first


def best_chain_end(cands: list[tuple[int, int, float]], best: list[float], back: list[int]) -> list[tuple[int, int]]:
    """The chain that ends at the heaviest candidate, read back through `back` (each candidate's
    predecessor, -1 at a chain's start). O(chain length)."""
    index = max(range(len(cands)), key=best.__getitem__)
    chain = []
    while index >= 0:
        chain.append((cands[index][0], cands[index][1]))
        index = back[index]
    return chain[::-1]


def heaviest_chain(cands: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
    """The heaviest chain of candidates strictly increasing in both coordinates (Fenwick tree)."""
    if not cands:
        return []
    cands = sorted(set(cands))
    lines, places = list(map(itemgetter(0), cands)), list(map(itemgetter(1), cands))
    if all(map(lt, lines, islice(lines, 1, None))) and all(map(lt, places, islice(places, 1, None))):
        # already a chain (the usual case: the unique lines of a snippet in file order); every
        # weight is positive, so all of them is the heaviest one, as the tree below would find
        # (both tests in C)
        return list(zip(lines, places))
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
    return best_chain_end(cands, best, back)


class SortedIndices:
    """A set of integers in [0, size) with insertion and nearest-member queries, each O(log size)
    (a Fenwick tree of counts). Passes that add pairs one by one and must keep them in order ask
    it for the paired neighbours of a line instead of scanning every pair (which was quadratic)."""

    def __init__(self, size: int, members: Iterable[int] = ()) -> None:
        self.size = size
        self.tree = [0] * (size + 1)
        self.present = [False] * size
        self.count = 0
        for value in members:
            if not self.present[value]:
                self.present[value] = True
                self.tree[value + 1] += 1
                self.count += 1
        for index in range(1, size + 1):  # O(size) build: push each count to its parent
            parent = index + (index & -index)
            if parent <= size:
                self.tree[parent] += self.tree[index]
        self.top = 1 << max(size, 1).bit_length()

    def add(self, value: int) -> None:
        if self.present[value]:
            return
        self.present[value] = True
        self.count += 1
        index = value + 1
        while index <= self.size:
            self.tree[index] += 1
            index += index & -index

    def _count_below(self, value: int) -> int:
        """Members < value."""
        total, index = 0, min(value, self.size)
        while index > 0:
            total += self.tree[index]
            index -= index & -index
        return total

    def _kth(self, k: int) -> int:
        """The k-th smallest member (1-based); k must be between 1 and the member count."""
        position, step = 0, self.top
        while step:
            nxt = position + step
            if nxt <= self.size and self.tree[nxt] < k:
                position, k = nxt, k - self.tree[nxt]
            step >>= 1
        return position  # (0-based value: the tree is 1-based)

    def below(self, value: int) -> int | None:
        """The largest member < value, or None."""
        rank = self._count_below(value)
        return self._kth(rank) if rank else None

    def above(self, value: int) -> int | None:
        """The smallest member > value, or None."""
        rank = self._count_below(value + 1)
        return self._kth(rank + 1) if rank < self.count else None
