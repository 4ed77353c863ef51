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
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [Edit(i1, i2, new[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


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
