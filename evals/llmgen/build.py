"""One source file -> `--style llm` cases: pick changes, render the snippet, check the case.

A case is kept only when it is answerable (see `snippet`), its expected file parses with no more
tree-sitter errors than the original (the generator only uses originals that parse cleanly, so:
none), and its snippet differs from the original. Cost per case: one parse of the expected file plus
O(lines) for the rendering.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from ..cases import Case
from .datafiles import data_cases
from .edits import Change, candidates
from .evolution import evolution_cases
from .langs import LANGS
from .outline import error_count, parse_outline
from .snippet import meaningful, render
from .sources import Source
from .splits import check_seed, seeds_for

MIN_LINES, MAX_LINES = 40, 2000
DATA_LANGS = {"yaml", "json", "toml"}


def _overlaps(a: Change, b: Change, gap: int = 3) -> bool:
    return any(x.start - gap < y.end and y.start - gap < x.end or x.start == y.start
               for x in a.edits for y in b.edits)


def _choose(pool: list[Change], rng: random.Random) -> Change:
    """A kind of edit uniformly, then one change of that kind: rare kinds get their share."""
    kinds = sorted({change.tags[0] for change in pool})
    kind = rng.choice(kinds)
    return rng.choice([change for change in pool if change.tags[0] == kind])


def _pick(pool: list[Change], rng: random.Random) -> list[Change]:
    first = _choose(pool, rng)
    picked = [first]
    wanted = 1 if rng.random() < 0.6 else rng.randint(2, 3)
    for _ in range(12):
        if len(picked) >= wanted:
            break
        other = _choose(pool, rng)
        if all(not _overlaps(other, p) for p in picked):
            picked.append(other)
    return picked


def cases_for_text(text: str, language: str, source_id: str, filename: str, rng: random.Random,
                   count: int) -> list[Case]:
    """Up to `count` cases for one file (fewer when the file offers fewer clean edits)."""
    if "\r" in text or not text.endswith("\n") or "\x00" in text:
        return []
    if language in DATA_LANGS:
        return data_cases(text, language, source_id, filename, rng, count)
    if language not in LANGS:
        return []
    lines = text[:-1].split("\n")
    if not MIN_LINES <= len(lines) <= MAX_LINES:
        return []
    outline = parse_outline(text, language)
    # C and C++ headers often hold macros tree-sitter cannot read: a few error nodes are tolerated
    # there, and an expected file may then have no more of them than the original.
    if outline is None or outline.error_count > (3 if language in ("c", "cpp") else 0):
        return []
    pool = candidates(outline, rng)
    if not pool:
        return []
    counts = Counter(line.strip() for line in lines)
    out: list[Case] = []
    for attempt in range(count * 3):
        if len(out) >= count:
            break
        picked = _pick(pool, rng)
        edits = [e for change in picked for e in change.edits]
        unit = picked[0].unit if len(picked) == 1 else None
        rendered = render(lines, edits, language, outline.definitions, rng, unit)
        if rendered is None or rendered.snippet == text or rendered.expected == text:
            continue
        if (error_count(rendered.expected, language) or 0) > outline.error_count:
            continue  # an edit this generator cannot make cleanly here
        tags = [t for change in picked for t in change.tags] + rendered.tags
        if any(counts[lines[r].strip()] > 1 and meaningful(lines[r])
               for e in edits for r in range(e.start, e.end)):
            tags.append("near_duplicate")
        if len(picked) > 1:
            tags.append("multi_edit")
        tags = ["llm", *sorted(set(tags))]
        kinds = "+".join(sorted({t for change in picked for t in change.tags}))
        out.append(Case(id=f"llm:{source_id}:{attempt}:{kinds}", original=text, update=rendered.snippet,
                        expected=rendered.expected, filename=filename, language=language, tags=tags))
    return out


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def generate_llm(n: int, split: str, sources: list[Source], seeds: list[int] | None = None,
                 per_file: int = 2, progress: Callable[[int], None] | None = None,
                 evolution: bool = False) -> list[Case]:
    """About `n` cases from `sources`, spread over `seeds` and round-robin over the languages.

    With `evolution`, up to a tenth of each seed's cases are real edits between two releases
    (evolution.py, from the download cache).

    Deterministic for a given seed list and source list. Cost: O(files read * file size).
    """
    seeds = seeds if seeds is not None else seeds_for(split)
    by_language: dict[str, list[Source]] = {}
    for source in sources:
        by_language.setdefault(source.language, []).append(source)
    cases: list[Case] = []
    for index, seed in enumerate(seeds):
        check_seed(split, seed)
        quota = n * (index + 1) // len(seeds) - n * index // len(seeds)
        rng = random.Random(seed)
        if evolution:
            real = evolution_cases(split, seed, quota // 10)
            cases += real
            quota -= len(real)
            if progress is not None and real:
                progress(len(real))
        queues = {lang: rng.sample(files, len(files)) for lang, files in sorted(by_language.items())}
        made = 0
        while made < quota and any(queues.values()):
            for lang in sorted(queues):
                if made >= quota or not queues[lang]:
                    continue
                source = queues[lang].pop()
                text = _read(source.path)
                if text is None:
                    continue
                found = cases_for_text(text, lang, f"{seed}:{source.ident}", source.path.name,
                                       rng, min(per_file, quota - made))
                cases += found
                made += len(found)
                if progress is not None and found:
                    progress(len(found))
    return cases
