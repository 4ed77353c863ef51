"""The fuzzy tier of the block matcher: likely starts, then a monotone line alignment scored by rapidfuzz.

Cost: `fuzzy_starts` is O(n + k) dictionary lookups plus three rapidfuzz scans of the window (in C);
`align` is an n x m dynamic programme, refused above _MAX_DP_CELLS cells, so each call is bounded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rapidfuzz import fuzz, process

from .regions import Match

# A needle line occurring more often than this in the file is too common to vote for a fuzzy start.
_COMMON_LINE = 24
_MAX_DP_CELLS = 250_000
# What a file line inside the region that the needle skips costs, in needle lines.
_SKIP_COST = 0.25


def fuzzy_starts(nn: list[str], nh: list[str], where: dict[str, list[int]], lo: int, hi: int,
                  limit: int = 12) -> list[int]:
    """Likely starts: votes from needle lines that occur (rarely) in the file, then rapidfuzz lookups."""
    votes: Counter[int] = Counter()
    for k, line in enumerate(nn):
        hits = where.get(line, ()) if line else ()
        if 0 < len(hits) <= _COMMON_LINE:
            for j in hits:
                if lo <= j < hi:
                    votes[j - k] += 1
    smooth: Counter[int] = Counter()
    for s, v in votes.items():
        for d in (-1, 0, 1):
            smooth[s + d] += v if d == 0 else v / 2
    starts = [s for s, _ in smooth.most_common(limit)]
    longest = sorted(range(len(nn)), key=lambda k: -len(nn[k]))[:3]
    window = nh[lo:hi]
    for k in longest:
        if not nn[k]:
            continue
        for _, _, j in process.extract(nn[k], window, scorer=fuzz.ratio, limit=4):
            starts.append(lo + j - k)
    seen: list[int] = []
    for s in starts:
        s = max(lo, s)
        if all(abs(s - t) > 1 for t in seen):
            seen.append(s)
    return seen


def align(needle: Sequence[str], hay: Sequence[str], nn: list[str], nh: list[str], s0: int,
           s1: int) -> Match | None:
    """Align needle lines monotonically to file lines [s0, s1), maximising summed line similarity."""
    n, m = len(needle), s1 - s0
    if m <= 0 or n * m > _MAX_DP_CELLS:
        return None
    sim = [[0.0] * m for _ in range(n)]
    for k in range(n):
        row = sim[k]
        for j in range(m):
            a, b = nn[k], nh[s0 + j]
            row[j] = 1.0 if a == b else fuzz.ratio(a, b) / 100.0
    # Skipping a file line once the needle has started costs a hair, so of equally good alignments
    # the most compact one wins (skips before the first and after the last needle line are free).
    eps = 1e-4
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    for k in range(1, n + 1):
        prev, cur, row = score[k - 1], score[k], sim[k - 1]
        cur[0] = prev[0]
        for j in range(1, m + 1):
            best = prev[j] if prev[j] > cur[j - 1] - eps else cur[j - 1] - eps
            w = row[j - 1]
            if w >= 0.5 and prev[j - 1] + w > best:
                best = prev[j - 1] + w
            cur[j] = best
    pairs: list[int | None] = [None] * n
    k, j = n, max(range(m + 1), key=lambda x: score[n][x])
    while k > 0 and j > 0:
        w = sim[k - 1][j - 1]
        if w >= 0.5 and abs(score[k][j] - (score[k - 1][j - 1] + w)) < 1e-9:
            pairs[k - 1] = s0 + j - 1
            k, j = k - 1, j - 1
        elif abs(score[k][j] - score[k - 1][j]) < 1e-9:
            k -= 1
        else:
            j -= 1
    hit = [j for j in pairs if j is not None]
    if not hit:
        return None
    start, end = hit[0], hit[-1] + 1
    # Most lines must be there verbatim (whitespace aside): similar-looking code elsewhere is no match.
    same = sum(1 for k, j in enumerate(pairs) if j is not None and nn[k] and nn[k] == nh[j])
    weak = same * 2 < sum(1 for x in nn if x)
    total = sum(sim[k][j - s0] for k, j in enumerate(pairs) if j is not None)
    # Unpaired blank needle lines cost nothing; file lines the needle skips cost a little each.
    blank = sum(1 for k in range(n) if pairs[k] is None and not nn[k])
    skipped = (end - start) - len(hit)
    if skipped > max(2, n // 4):
        return None
    sim_value = (total + blank) / (n + _SKIP_COST * skipped)
    return Match(start=start, end=end, kind="weak" if weak else "fuzzy", similarity=min(1.0, sim_value),
                 pairs=pairs)
