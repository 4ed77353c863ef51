"""Line diffs with bounded work, for the unified diff every result carries.

difflib's SequenceMatcher is quadratic or worse on long inputs with many equal lines (a file of
repeated functions: minutes at 2 MB). Here, lines that occur once in each side anchor the diff
(patience diff: longest increasing subsequence, O(n log n)); the stretches between anchors are
diffed by difflib when small, by rapidfuzz's bit-parallel LCS (C) when moderate, and as one
replaced block beyond that. The result is always a correct edit script, minimal where it matters.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import compress

from .deadline import check_deadline

Opcode = tuple[str, int, int, int, int]
_DIFFLIB_CELLS = 4_000_000  # len(a) * len(b) up to which difflib is fast enough
_LCS_CELLS = 1_000_000_000  # ... and rapidfuzz's LCS (~0.2 s at this size)


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """difflib-style opcodes turning `a` into `b`. O((n + m) log(n + m)) plus bounded gap work."""
    out: list[Opcode] = []
    _diff(a, b, 0, len(a), 0, len(b), out, depth=0, seen={})
    return _merge_equal(out)


# Gaps of up to this many cells are remembered by their text (see _diff's `seen`).
_MEMO_CELLS = 400


def _diff(a: Sequence[str], b: Sequence[str], a0: int, a1: int, b0: int, b1: int, out: list[Opcode],
          depth: int, seen: dict[tuple[tuple[str, ...], tuple[str, ...]], list[Opcode]]) -> None:
    """`seen`: the relative difflib opcodes of the small gaps already diffed, by their lines: a file
    of repeated functions with the same edit in many of them (a renamed call everywhere) has many
    gaps with the same text, and difflib's answer depends on nothing else."""
    if a0 == a1 and b0 == b1:
        return
    if a0 == a1 or b0 == b1:
        out.append(("insert" if a0 == a1 else "delete", a0, a1, b0, b1))
        return
    check_deadline()
    cells = (a1 - a0) * (b1 - b0)
    if a1 - a0 == b1 - b0 and a[a0:a1] == b[b0:b1]:
        out.append(("equal", a0, a1, b0, b1))  # what difflib answers, without building a matcher
        return
    if cells == 1:
        out.append(("replace", a0, a1, b0, b1))  # two different lines: difflib's answer, without a matcher
        return
    if cells <= _MEMO_CELLS:
        key = (tuple(a[a0:a1]), tuple(b[b0:b1]))
        ops = seen.get(key)
        if ops is None:
            ops = seen[key] = difflib.SequenceMatcher(None, key[0], key[1], autojunk=False).get_opcodes()
        out.extend((tag, i1 + a0, i2 + a0, j1 + b0, j2 + b0) for tag, i1, i2, j1, j2 in ops)
        return
    if cells <= _DIFFLIB_CELLS:
        matcher = difflib.SequenceMatcher(None, a[a0:a1], b[b0:b1], autojunk=False)
        out.extend((tag, i1 + a0, i2 + a0, j1 + b0, j2 + b0) for tag, i1, i2, j1, j2 in matcher.get_opcodes())
        return
    anchors = _unique_anchors(a, b, a0, a1, b0, b1) if depth < 32 else []
    if not anchors:
        _gap(a, b, a0, a1, b0, b1, out)
        return
    prev_a, prev_b = a0, b0
    for i, j in anchors:
        _diff(a, b, prev_a, i, prev_b, j, out, depth + 1, seen)
        out.append(("equal", i, i + 1, j, j + 1))
        prev_a, prev_b = i + 1, j + 1
    _diff(a, b, prev_a, a1, prev_b, b1, out, depth + 1, seen)


def _gap(a: Sequence[str], b: Sequence[str], a0: int, a1: int, b0: int, b1: int, out: list[Opcode]) -> None:
    """A stretch with no unique line in common: LCS when affordable, else one replaced block."""
    if (a1 - a0) * (b1 - b0) <= _LCS_CELLS:
        from rapidfuzz.distance import Indel

        for op in Indel.opcodes(a[a0:a1], b[b0:b1]):
            out.append((op.tag, op.src_start + a0, op.src_end + a0, op.dest_start + b0, op.dest_end + b0))
        return
    out.append(("replace", a0, a1, b0, b1))


def _unique_anchors(a: Sequence[str], b: Sequence[str], a0: int, a1: int, b0: int,
                    b1: int) -> list[tuple[int, int]]:
    """Pairs of lines unique on both sides, longest chain increasing on both (patience sorting)."""
    count_a = Counter(a[a0:a1])  # (Counter counts in C: this runs on every line of long files)
    count_b = Counter(b[b0:b1])
    where_b = dict(zip(b[b0:b1], range(b0, b1)))  # the last position, as before (built in C)
    # the lines once on each side (read per distinct line), then their places in `a` picked in C
    both = {line for line, count in count_a.items() if count == 1 and count_b.get(line) == 1}
    pairs = [(i, where_b[a[i]]) for i in compress(range(a0, a1), map(both.__contains__, a[a0:a1]))]
    # longest increasing subsequence of the b positions, in O(k log k)
    tails: list[int] = []
    tail_at: list[int] = []
    back = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        at = bisect_left(tails, j)
        if at == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[at], tail_at[at] = j, k
        back[k] = tail_at[at - 1] if at else -1
    chain = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        chain.append(pairs[k])
        k = back[k]
    return chain[::-1]


def _merge_equal(ops: list[Opcode]) -> list[Opcode]:
    merged: list[Opcode] = []
    for op in ops:
        if op[1] == op[2] and op[3] == op[4]:
            continue
        last = merged[-1] if merged else None
        if last is not None and last[0] == op[0] and last[2] == op[1] and last[4] == op[3] and op[0] != "replace":
            merged[-1] = (op[0], last[1], op[2], last[3], op[4])
        else:
            merged.append(op)
    return merged


def unified(a: Sequence[str], b: Sequence[str], fromfile: str, tofile: str, n: int = 3) -> Iterator[str]:
    """Like difflib.unified_diff (lines keep their ends) over `opcodes`, without dates."""
    matcher = difflib.SequenceMatcher(None, (), ())
    matcher.opcodes = opcodes(a, b)  # get_grouped_opcodes() reads these instead of matching again
    started = False
    for group in matcher.get_grouped_opcodes(n):
        if not started:
            started = True
            yield f"--- {fromfile}\n"
            yield f"+++ {tofile}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        # (each line prefixed by map in C: a long diff has a line per changed line and its context)
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from map(" ".__add__, a[i1:i2])
                continue
            if tag in ("replace", "delete"):
                yield from map("-".__add__, a[i1:i2])
            if tag in ("replace", "insert"):
                yield from map("+".__add__, b[j1:j2])


def _range(start: int, stop: int) -> str:
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if not length else start + 1},{length}"
