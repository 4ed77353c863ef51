"""Monotone chains of candidate anchors, and counting positions in sorted lists."""

from __future__ import annotations

from bisect import bisect_left


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


def heaviest_chain(cands: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
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
