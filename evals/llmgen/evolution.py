"""Real edits: files that changed between two consecutive releases of a package (see packages.py).

The older file is the original and the newer file is the expected result (ground truth by
construction: the line diff between them, applied to the older file, gives the newer one). Only
small diffs are used (at most `MAX_CHANGED` of the lines and `MAX_HUNKS` hunks), so the snippet is
a real lazy edit rather than a rewrite; the snippet is written with the same habits as the
synthetic cases (snippet.render). Cost: one difflib pass per file pair, O(lines^2) worst case on
files of at most 2,000 lines.
"""

from __future__ import annotations

import difflib
import random
from collections import deque
from pathlib import Path

from ..cases import Case
from .edits import Edit
from .outline import error_count, parse_outline
from .snippet import render
from .sources import cache_dir, language_of

MAX_HUNKS, MAX_CHANGED = 6, 0.25


def hunks(old: list[str], new: list[str]) -> list[Edit]:
    """The line diff of two releases as edits of `old`, each pure insertion or deletion slid to
    where a person would place it (see `_slide`)."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    found = [[i1, i2, j1, j2] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    for index, hunk in enumerate(found):
        floor = found[index - 1][1] if index else 0
        ceiling = found[index + 1][0] if index + 1 < len(found) else len(old)
        _slide(hunk, old, new, floor, ceiling)
    return [Edit(i1, i2, new[j1:j2]) for i1, i2, j1, j2 in found]


def _slide(hunk: list[int], old: list[str], new: list[str], floor: int, ceiling: int) -> None:
    """Move a pure insertion or deletion within the unchanged lines around it to the place a person
    would write it, in place (git's indent heuristic, simplified).

    difflib places an inserted function right after the first line that repeats: after one
    function's `return True`, so that the insertion reads `return False`, blank lines, the new
    function up to its own `return True`, and the old `return False` ends the new function. A
    snippet cut around that edit shows a new function whose last lines a marker stands for, which
    no model writes. Of the equivalent places (the block's lines rotate through equal neighbours),
    the one whose boundaries open the shallowest lines, and whose first and last lines are its
    shallowest, wins: the whole function with its blank lines; a whole call rather than its
    arguments and the next call's first line; never a decorator apart from its definition. Cost:
    O(shift range * block) per hunk, within the unchanged lines between two hunks."""
    i1, i2, j1, j2 = hunk
    if (i1 == i2) == (j1 == j2):
        return  # a replacement (or nothing): its boundaries are the changed lines themselves
    lines, lo, hi = (new, j1, j2) if i1 == i2 else (old, i1, i2)
    low = floor - i1  # the shift may not cross the neighbouring hunks (in old-file lines)
    high = ceiling - i2
    up = 0
    while up > low and lo + up - 1 >= 0 and lines[lo + up - 1] == lines[hi + up - 1]:
        up -= 1
    down = 0
    while down < high and hi + down < len(lines) and lines[lo + down] == lines[hi + down]:
        down += 1
    if up == down:
        return

    def cost(shift: int) -> tuple[int, int, int]:
        top, bottom = lo + shift, hi + shift
        block = [_width(line) for line in lines[top:bottom] if line.strip()]
        # a block that opens or ends deeper than it goes (`"--flag",` ... `)`, `parser.add(`)
        # starts or ends inside a statement
        inside = block[0] + block[-1] - 2 * min(block) if block else 0
        after_blank = 0 if top == 0 or not lines[top - 1].strip() else 1
        # a decorator cut from its definition (the block's first line right under one, or its last
        # line one): metricflow's new `@property` / `@abstractmethod` method was cut between the two
        split = (top > 0 and _decorator(lines[top - 1])) + (bottom > top and _decorator(lines[bottom - 1]))
        return split, _depth(lines, top) + _depth(lines, bottom) + inside, after_blank, abs(shift)

    best = min(range(up, down + 1), key=cost)
    hunk[:] = [at + best for at in hunk]


def _decorator(line: str) -> bool:
    """A decorator or annotation line (`@property`, `@Override`, Rust's `#[derive(...)]`; not a
    CSS at-rule, which opens a block or ends with `;`)."""
    norm = line.strip()
    return norm.startswith(("@", "#[")) and not norm.endswith(("{", ";"))


def _width(line: str) -> int:
    return len(line) - len(line.lstrip())


def _depth(lines: list[str], at: int) -> int:
    """Indentation of the first non-blank line at or after `at` (0 past the end)."""
    return next((_width(line) for line in lines[at:] if line.strip()), 0)


def pair_dirs(split: str) -> list[Path]:
    root = cache_dir() / "evolution" / split
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "old").is_dir() and (p / "new").is_dir())


def _relative_files(root: Path) -> dict[str, Path]:
    """Files below the single top folder of an unpacked archive, by path below that folder."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and language_of(path) is not None and "test" not in path.parts \
                and "tests" not in path.parts:
            parts = path.relative_to(root).parts
            out["/".join(parts[1:])] = path
    return out


def evolution_cases(split: str, seed: int, limit: int) -> list[Case]:
    """Up to `limit` cases from the release pairs of `split`, at most one per changed file and seed.

    The pairs take turns (in an order the seed shuffles), each offering its files in an order the
    seed shuffles too: a seed's cases come from every pair, and different seeds edit different
    files. (Until the tenth round every seed took the first changed files of the first pairs in
    name order, so ten seeds repeated one pair's few edits, and one wrong merge counted ten times.)
    Cost: the files are read lazily, about `limit` / (share of changed files) of them."""
    rng = random.Random(seed)
    order = random.Random(f"evolution:{seed}")
    queues = []
    for pair in pair_dirs(split):
        old_files, new_files = _relative_files(pair / "old"), _relative_files(pair / "new")
        common = sorted(set(old_files) & set(new_files))
        order.shuffle(common)
        queues.append(deque([(pair.name, rel, old_files[rel], new_files[rel]) for rel in common]))
    order.shuffle(queues)
    cases: list[Case] = []
    while queues and len(cases) < limit:
        for queue in list(queues):
            while queue:
                case = _case(*queue.popleft(), seed, rng)
                if case is not None:
                    cases.append(case)
                    break
            if not queue:
                queues.remove(queue)
            if len(cases) >= limit:
                break
    return cases


def _case(pair: str, rel: str, old_path: Path, new_path: Path, seed: int,
          rng: random.Random) -> Case | None:
    try:
        old, new = old_path.read_text(encoding="utf-8"), new_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    language = language_of(old_path)
    if old == new or language is None or "\r" in old + new or not old.endswith("\n") or not new.endswith("\n"):
        return None
    old_lines, new_lines = old[:-1].split("\n"), new[:-1].split("\n")
    if not 20 <= len(old_lines) <= 2000:
        return None
    edits = hunks(old_lines, new_lines)
    changed = sum(max(e.end - e.start, len(e.new)) for e in edits)
    if not edits or len(edits) > MAX_HUNKS or changed > MAX_CHANGED * len(old_lines):
        return None
    outline = parse_outline(old, language)
    if outline is not None and (outline.error_count or error_count(new, language)):
        return None
    rendered = render(old_lines, edits, language, outline.definitions if outline else [], rng, blank_slips=False)
    if rendered is None or rendered.expected != new:
        return None
    kind = "real_edit"
    tags = sorted({"llm", kind, *rendered.tags} | ({"multi_edit"} if len(edits) > 1 else set()))
    return Case(id=f"llm:{seed}:{pair}:{rel}", original=old, update=rendered.snippet, expected=new,
                filename=old_path.name, language=language, tags=tags)
