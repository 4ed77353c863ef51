"""The engine's work per call, counted (never timed): per-line facts computed once, order checks in
O(log m), moves that stop at their unit cap, long lines compared in linear time, syntax checks
that parse a large file once. Each test also checks that the merge result is the expected one."""

from __future__ import annotations

import random

import pytest

import fastapply
from fastapply.merge import anchor, moves, refine, similar, syntax
from fastapply.merge.anchor import Aligner
from fastapply.merge.chain import SortedIndices


def _functions(count: int, body: str = "  return 1;\n") -> str:
    return "".join(f"function f{i:07d}() {{\n{body}}}\n\n" for i in range(count))


def _every_seventh_edited(original: str) -> tuple[str, str]:
    lines = original.split("\n")
    snippet = ["// ... existing code ...", *(line.replace("return 1", "return 2") if i % 7 == 0 else line
                                            for i, line in enumerate(lines)), "// ... existing code ..."]
    expected = "\n".join(line.replace("return 1", "return 2") if i % 7 == 0 else line
                         for i, line in enumerate(lines))
    return "\n".join(snippet) + "\n", expected


def _count_calls(monkeypatch, module, name):
    calls: list[tuple] = []
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_sorted_indices_answer_like_a_scan():
    rng = random.Random(13)
    for _ in range(200):
        size = rng.randint(1, 80)
        members = set(rng.sample(range(size), rng.randint(0, size)))
        index = SortedIndices(size, members)
        for _ in range(30):
            if rng.random() < 0.3:
                value = rng.randrange(size)
                index.add(value)
                members.add(value)
            value = rng.randrange(-1, size + 1)
            assert index.below(value) == max((m for m in members if m < value), default=None)
            assert index.above(value) == min((m for m in members if m > value), default=None)


def test_opens_at_runs_once_per_line_and_order_checks_never_scan_every_pair(monkeypatch):
    original = _functions(400)
    snippet, expected = _every_seventh_edited(original)
    opens = _count_calls(monkeypatch, anchor, "opens_at")
    scans = []
    real_monotone = Aligner._monotone

    def monotone(self, s, o, order=None):
        if order is None:
            scans.append(len(self.pairs))
        return real_monotone(self, s, o, order)

    monkeypatch.setattr(Aligner, "_monotone", monotone)
    merged = fastapply.apply(original, snippet, filename="a.js").merged_code
    assert merged.rstrip("\n") == expected.rstrip("\n")
    snippet_lines, original_lines = snippet.count("\n") + 2, original.count("\n") + 1
    # before: opens_at ran for every candidate anchor of every alignment step, and more in the passes
    assert len(opens) <= snippet_lines + original_lines
    assert scans == []


def _aligner_with_headers_paired(count: int) -> Aligner:
    from fastapply.merge.segments import classify, normalize_all

    original = _functions(count)
    orig = original.split("\n")
    onorm = normalize_all(orig)
    items = classify("// ... existing code ...\n" + original + "// ... existing code ...\n", set(onorm))
    aligner = Aligner(items, orig, onorm)
    headers = [s for s, item in enumerate(items) if item.norm.startswith("function")]
    aligner.pairs = {s: onorm.index(items[s].norm) for s in headers}  # openers paired, closers not
    return aligner


def test_pair_closers_pairs_like_the_scan_of_every_pair_with_logarithmic_checks(monkeypatch):
    reference = _aligner_with_headers_paired(300)
    taken = set(reference.pairs.values())
    for s, o in sorted(reference.pairs.items()):  # the pass as it was: _monotone scans every pair
        ends = reference._block_ends(s, o, len(reference.items), len(reference.orig))
        if ends is not None and ends[0] not in reference.pairs and ends[1] not in taken \
                and reference._monotone(*ends):
            reference.pairs[ends[0]] = ends[1]
            taken.add(ends[1])
    aligner = _aligner_with_headers_paired(300)
    below = _count_calls(monkeypatch, SortedIndices, "below")
    scans = []
    real_monotone = Aligner._monotone
    monkeypatch.setattr(Aligner, "_monotone", lambda self, s, o, order=None: scans.append(order is None)
                        or real_monotone(self, s, o, order))
    refine.pair_closers(aligner)
    assert aligner.pairs == reference.pairs and len(aligner.pairs) == 600
    assert len(below) == 300 and not any(scans)  # one O(log m) look-up per closer, no scan


def test_moves_stop_looking_up_anchors_past_the_unit_cap(monkeypatch):
    original = _functions(600)
    snippet, expected = _every_seventh_edited(original)
    looked_up = _count_calls(monkeypatch, moves, "anchor_of")
    extents = _count_calls(monkeypatch, moves, "unique_anchors")
    merged = fastapply.apply(original, snippet, filename="a.js").merged_code
    assert merged.rstrip("\n") == expected.rstrip("\n")
    # 600 definitions in one segment, past the unit cap: no unit looks up its anchors; only the
    # segment's extent is read, in one pass over its code lines (1,800), never one per line and unit
    code_lines = sum(1 for line in snippet.split("\n") if line.strip() and "existing code" not in line)
    assert not looked_up
    assert len(extents) == 1 and len(extents[0][1]) == code_lines


@pytest.mark.parametrize("length", [200, 20_000])
def test_a_long_edited_line_is_placed_without_comparing_it_character_by_character(monkeypatch, length):
    body = ",".join("1" for _ in range(length // 2))
    original = "var a = [" + body + "];\nvar b = 2;\n"
    snippet = "var a = [2," + body + "];\n// ... existing code ...\n"
    compared = _count_calls(monkeypatch, similar, "ratio")
    extracted = _count_calls(monkeypatch, refine, "extract")
    result = fastapply.apply(original, snippet, filename="a.js")
    assert result.merged_code == "var a = [2," + body + "];\nvar b = 2;\n"  # replaced, not duplicated
    longest = max((len(a) for call in compared + extracted for a in call[:1]), default=0)
    if length > similar.FUZZY_MAX_CHARS:
        assert longest <= similar.FUZZY_MAX_CHARS  # rapidfuzz never saw the long line
    else:
        assert extracted  # short lines still go through rapidfuzz


def test_similarity_is_ratio_for_short_lines_and_a_lower_bound_for_long_ones():
    rng = random.Random(5)
    for _ in range(50):
        a = "".join(rng.choice("abc ,") for _ in range(rng.randint(0, 60)))
        b = "".join(rng.choice("abc ,") for _ in range(rng.randint(0, 60)))
        assert similar.similarity(a, b) == similar.ratio(a, b)
    long_a = "x = [" + "1," * 4000 + "]"
    long_b = long_a.replace("[1,", "[2,", 1)
    assert similar.similarity(long_a, long_b) <= similar.ratio(long_a, long_b)
    assert similar.similarity(long_a, long_b) > 99
    assert similar.similarity(long_a, "y" * len(long_a)) < similar.FUZZY_MIN


def test_a_long_line_file_is_syntax_checked_through_a_small_window(monkeypatch):
    line = "var a = [" + ",".join("1" for _ in range(140_000)) + "];\n"
    original = line + "var b = 2;\n"
    parsed = _count_calls(monkeypatch, syntax, "parse")
    merged = fastapply.apply(original, "// ... existing code ...\nvar b = 3;\n", filename="a.js").merged_code
    assert merged == line + "var b = 3;\n"
    assert parsed and max(len(text) for _, text in parsed) < 100  # before: the whole 280 KB file


def test_a_large_broken_merge_parses_the_file_once_and_the_original_incrementally(monkeypatch):
    original = _functions(8000)  # ~290 KB
    assert len(original) >= syntax.INCREMENTAL_MIN_BYTES
    parsed = _count_calls(monkeypatch, syntax, "parse")
    reparsed = _count_calls(monkeypatch, syntax, "reparse")
    with pytest.raises(fastapply.ApplyError) as caught:
        fastapply.apply(original, "// ... existing code ...\nfunction f0004000() {\n  return (1;\n}\n"
                        "// ... existing code ...\n", filename="a.js")
    assert caught.value.code == "syntax_regressed"
    whole = [text for _, text in parsed if len(text) > len(original) // 2]
    assert len(whole) == 1 and len(reparsed) == 1  # before: both whole files were parsed


def test_incremental_reparse_counts_the_same_errors_as_a_fresh_parse():
    from fastapply.languages import find_language

    spec = find_language("javascript")
    rng = random.Random(7)
    base = _functions(200).encode()
    for _ in range(20):
        at = rng.randrange(len(base))
        edited = base[:at] + rng.choice([b"(", b"}", b"", b"x = 1;\n", b"{"]) + base[at + rng.randint(0, 5):]
        fresh = syntax.parse(spec, edited.decode())
        incremental = syntax.reparse(spec, syntax.parse(spec, base.decode()), base, edited)
        assert syntax.error_count(incremental) == syntax.error_count(fresh)


def test_definition_search_reads_only_the_lines_that_name_it(monkeypatch):
    original = _functions(300)
    aligner = Aligner([], original.split("\n"), [line.strip() for line in original.split("\n")])
    searched = _count_calls(monkeypatch, anchor, "header_key")
    for i in range(10):
        assert aligner._okeys_for(f"f{i:07d}") == [4 * i]
    # each key's lines are found by str.find over the joined text: header_key reads only those lines
    # (before: the text search ran `needle in norm` over every line, for each key)
    assert len(searched) == 10
    rng = random.Random(3)
    for _ in range(100):
        norms = [rng.choice(["ab", "b", "", "abc", "cab", "x"]) for _ in range(rng.randint(0, 30))]
        aligner = Aligner([], norms, norms)
        for needle in ("a", "ab", "b", "c", "x", "", "zz"):
            assert aligner._lines_containing(needle) == [i for i, n in enumerate(norms) if needle in n]


def test_definition_lookups_answer_the_same_after_the_name_index_takes_over() -> None:
    """The first lookups search the text, later ones read an index of every header built once: a
    JSON object key (`"retry": {`, named by its text) is found by both, whatever came before."""
    lines = [f"function f{i}() {{" for i in range(20)] + ['"retry": {', '"count": 3', "}"]
    aligner = Aligner([], lines, [line.strip() for line in lines])
    key = anchor.header_key('"retry": {')
    assert key is not None and aligner._okeys_for(key) == [20]
    for i in range(20):
        assert aligner._okeys_for(f"f{i}") == [i]  # past the text search's lookups
    assert aligner._all_keys is not None and aligner._okeys_for(key) == [20]
    fresh = Aligner([], lines, [line.strip() for line in lines])
    for i in range(20):
        fresh._okeys_for(f"f{i}")
    assert fresh._okeys_for(key) == [20]  # first asked after the index took over
