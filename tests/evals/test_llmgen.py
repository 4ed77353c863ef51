"""The `--style llm` generator: every habit tag has the property it claims, cases are answerable,
deterministic per seed, and every expected file parses. Offline: standard library + corpus bases."""

from __future__ import annotations

import difflib
import re
import sysconfig
from collections import Counter
from pathlib import Path

import pytest

from evals import generate
from evals.cases import load_cases
from evals.llmgen import packages, splits
from evals.llmgen.build import generate_llm
from evals.llmgen.datafiles import parses
from evals.llmgen.langs import LANGS, comment_syntaxes
from evals.llmgen.outline import error_count
from evals.llmgen.snippet import MARKER_LIKE
from evals.llmgen.sources import folder_sources, local_sources

STDLIB = Path(sysconfig.get_paths()["stdlib"])
BASES = Path(__file__).resolve().parents[2] / "evals" / "corpus" / "bases"
PY = ["textwrap.py", "shlex.py", "fractions.py", "calendar.py", "heapq.py", "string.py", "argparse.py",
      "configparser.py", "gettext.py", "pipes.py"]
CLOSERS = {"}", "};", "end", "},"}
WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_]*[?!]?|\S")


@pytest.fixture(scope="module")
def sources():
    found = folder_sources([STDLIB / name for name in PY if (STDLIB / name).exists()] + [BASES], None)
    assert len(found) >= 25
    return found


@pytest.fixture(scope="module")
def cases(sources):
    made = generate_llm(280, "dev", sources, seeds=[0, 1, 2], per_file=3)
    assert len(made) >= 240
    return made


def _markers(snippet: str) -> list[int]:
    return [i for i, line in enumerate(snippet.split("\n")) if MARKER_LIKE.match(line)]


def _changed_pairs(case) -> list[tuple[list[str], list[str]]]:
    old, new = case.original.split("\n"), case.expected.split("\n")
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(old[a:b], new[c:d]) for tag, a, b, c, d in matcher.get_opcodes() if tag != "equal"]


def _one_token_apart(a: str, b: str) -> bool:
    x, y = WORD.findall(a), WORD.findall(b)
    return len(x) == len(y) and sum(p != q for p, q in zip(x, y)) == 1


def _blank_gaps(text: str) -> dict[tuple[str, str], set[int]]:
    """(line, next non-blank line) -> the numbers of blank lines seen between them."""
    gaps: dict[tuple[str, str], set[int]] = {}
    lines = [line.strip() for line in text.split("\n")]
    previous, blanks = None, 0
    for line in lines:
        if not line:
            blanks += 1
            continue
        if previous is not None:
            gaps.setdefault((previous, line), set()).add(blanks)
        previous, blanks = line, 0
    return gaps


def _has(case, tag: str) -> bool:  # noqa: C901 - one branch per habit, read top to bottom
    snippet, lines = case.update, case.update.split("\n")
    markers = _markers(snippet)
    pairs = _changed_pairs(case)
    if tag == "marker_col0":
        return any(lines[i] == lines[i].lstrip() and any(
            n.strip() and n != n.lstrip() for n in (lines[i - 1] if i else "", lines[i + 1]))
            for i in markers if i + 1 < len(lines))
    if tag == "marker_wrong_syntax":
        own = {opener for opener, _ in comment_syntaxes(case.language)}
        return any(not lines[i].strip().startswith(tuple(own)) for i in markers)
    if tag in ("marker_before_close", "trivial_context"):
        return any(i + 1 < len(lines) and lines[i + 1].strip() in CLOSERS and
                   (i + 2 >= len(lines) or not lines[i + 2].strip() or i + 2 in markers) for i in markers)
    if tag == "out_of_order":
        counts = Counter(line.strip() for line in case.expected.split("\n"))
        where = {line.strip(): n for n, line in enumerate(case.expected.split("\n")) if counts[line.strip()] == 1}
        order = [where[line.strip()] for line in lines if line.strip() in where and len(line.strip()) > 3]
        return order != sorted(order)
    if tag == "head_no_marker":
        return bool(markers) and markers[0] > 0 and lines[0] == case.expected.split("\n")[0]
    if tag == "near_whole_file":
        return not markers and case.update == case.expected
    if tag == "no_markers":
        return not markers and case.update != case.expected and case.update.strip() in case.expected
    if tag == "blank_doubled":
        want = _blank_gaps(case.expected)
        return any(k in want and max(v) > max(want[k]) for k, v in _blank_gaps(snippet).items())
    if tag == "blank_missing":
        want = _blank_gaps(case.expected)
        return any(k in want and 0 in v and 0 not in want[k] for k, v in _blank_gaps(snippet).items())
    if tag == "one_word":
        return any(_one_token_apart(a, b) for old, new in pairs for a, b in zip(old, new))
    if tag == "edit_run":
        return any(len(old) == len(new) >= 2 and all(_one_token_apart(a, b) for a, b in zip(old, new))
                   for old, new in pairs)
    if tag == "rename":
        return any(_one_token_apart(a, b) and any(
            y.rstrip("?!").startswith(x.rstrip("?!")) and y != x for x, y in zip(WORD.findall(a), WORD.findall(b)))
            for old, new in pairs for a, b in zip(old, new))
    if tag == "annotation":
        subs = LANGS[case.language].annotations
        return any(re.sub(p, r, a, count=1) == b for old, new in pairs for a, b in zip(old, new) for p, r in subs)
    if tag == "literal_constant":
        added = [line for _, new in pairs for line in new]
        names = {m.group(1) for line in added if (m := re.search(r"\b([A-Z][A-Z0-9_]{3,})\b", line))}
        return any(sum(name in line for line in added) >= 2 for name in names)
    if tag in ("move", "reorder"):
        # At least 3 lines leave one hunk and reappear in another (a diff may rotate the block).
        for index, (old, _) in enumerate(pairs):
            for k, (_, new) in enumerate(pairs):
                common = Counter(x for x in old if x.strip()) & Counter(x for x in new if x.strip())
                if k != index and sum(common.values()) >= 3:
                    return True
        return False
    if tag == "extract_helper":
        added = "\n".join(line for _, new in pairs for line in new)
        name = re.search(r"(log\w*step)\(", added, re.I)
        return bool(name) and added.count(name.group(1)) >= 2
    if tag == "bare_comment":
        exp = case.expected.split("\n")
        return any(exp[i].strip() in {"#", "//", "--", "*", "///", "//!", "##"} and
                   exp[i + 1].strip().startswith(exp[i].strip() + " ") for i in range(len(exp) - 1)
                   if exp[i + 1] not in case.original.split("\n"))
    if tag == "delete_function":  # lines that leave and come back nowhere
        gone = Counter(x for old, _ in pairs for x in old if x.strip()) - \
            Counter(x for _, new in pairs for x in new if x.strip())
        return sum(gone.values()) >= 2
    if tag == "near_duplicate":
        counts = Counter(line.strip() for line in case.original.split("\n"))
        return any(counts[a.strip()] > 1 for old, _ in pairs for a in old) or \
            any(counts[line.strip()] > 1 for line in lines if line.strip() and not MARKER_LIKE.match(line))
    if tag.startswith("data_"):
        return parses(case.expected, case.language) and case.language in ("yaml", "json", "toml")
    return True  # today's kinds (modify_body, insert_function, ...) and umbrella tags


CHECKED = ["marker_col0", "marker_wrong_syntax", "marker_before_close", "trivial_context", "out_of_order",
           "head_no_marker", "near_whole_file", "no_markers", "blank_doubled", "blank_missing",
           "one_word", "edit_run", "rename", "annotation", "literal_constant", "move", "reorder",
           "extract_helper", "bare_comment", "delete_function", "near_duplicate", "data_record",
           "data_value", "data_key"]


def test_every_habit_occurs_and_has_its_property(cases):
    seen = Counter(tag for case in cases for tag in case.tags)
    for tag in CHECKED:
        assert seen[tag] >= 1, f"no case tagged {tag}"
    for case in cases:
        for tag in case.tags:
            if tag in CHECKED:
                assert _has(case, tag), f"{case.id}: tagged {tag} without its property"


def test_a_property_check_can_fail(cases):
    """The checks above are not vacuous: a plain snippet does not pass them."""
    plain = next(c for c in cases if c.tags == ["llm", "modify_body"] or "near_whole_file" in c.tags)
    for tag in ("marker_col0", "out_of_order", "blank_doubled", "rename", "marker_before_close"):
        assert not _has(plain, tag), tag


def test_every_segment_is_anchored_by_a_unique_original_line(cases):
    for case in cases:
        counts = Counter(line.strip() for line in case.original.split("\n"))
        segment: list[str] = []
        for line in case.update.split("\n") + ["// ... end"]:
            if MARKER_LIKE.match(line):
                code = [x for x in segment if x.strip()]
                if code and not all(x.strip() in CLOSERS for x in code):
                    assert any(counts[x.strip()] == 1 and len(x.strip()) > 3 for x in code), \
                        f"{case.id}: unanchored segment {code[:3]}"
                segment = []
            else:
                segment.append(line)


def test_expected_files_parse_and_differ(cases):
    for case in cases:
        assert case.expected != case.original, case.id
        if case.language in ("yaml", "json", "toml"):
            assert parses(case.expected, case.language), case.id
        else:
            assert error_count(case.expected, case.language) == 0, case.id
    assert len({case.language for case in cases}) >= 15


def test_same_seed_same_cases(sources):
    picked = sources[:12]
    first = generate_llm(30, "dev", picked, seeds=[5], per_file=3)
    again = generate_llm(30, "dev", picked, seeds=[5], per_file=3)
    other = generate_llm(30, "dev", picked, seeds=[6], per_file=3)
    assert [(c.id, c.update, c.expected) for c in first] == [(c.id, c.update, c.expected) for c in again]
    assert [c.update for c in first] != [c.update for c in other]


def test_splits_are_disjoint():
    assert not set(splits.DEV_SEED_RANGE) & set(splits.HELDOUT_SEEDS)
    with pytest.raises(ValueError, match="not a dev seed"):
        splits.check_seed("dev", 7001)
    with pytest.raises(ValueError, match="not a held-out seed"):
        splits.check_seed("heldout", 3)
    dev = {(p.registry, p.name) for p in packages.PACKAGES if p.split == "dev"}
    held = {(p.registry, p.name) for p in packages.PACKAGES if p.split == "heldout"}
    assert dev and held and not dev & held
    pairs = {(p.split, p.name) for p in packages.RELEASE_PAIRS}
    assert not {n for s, n in pairs if s == "dev"} & {n for s, n in pairs if s == "heldout"}
    paths = [f"lib/module{n}.py" for n in range(200)]
    held_paths = [p for p in paths if splits.is_heldout_path(p)]
    assert 20 < len(held_paths) < 80


def test_local_sources_split_the_stdlib(monkeypatch, tmp_path):
    monkeypatch.setattr("evals.llmgen.sources.sys.path", [])  # the standard library only
    dev = {s.ident for s in local_sources("dev", per_language=400)}
    held = {s.ident for s in local_sources("heldout", per_language=400)}
    assert dev and held and not dev & held


def test_generate_cli_writes_llm_cases(tmp_path):
    out = tmp_path / "llm.jsonl"
    assert generate.main(["--style", "llm", "--out", str(out), "--n", "12", "--seeds", "3", "--per-file", "6",
                          "--source", str(BASES / "go"), "--source", str(STDLIB / "heapq.py")]) == 0
    loaded = load_cases(out)
    assert 6 <= len(loaded) <= 12 and all("llm" in c.tags for c in loaded)
    assert generate.main(["--style", "llm", "--split", "heldout", "--seeds", "3", "--out",
                          str(out), "--source", str(BASES / "go")]) == 2
