"""The first half of the dev corpus (evals/specs -> evals/data): loadable, realistic, reproducible."""

from __future__ import annotations

from collections import Counter

import pytest

from evals import authoring
from evals.cases import DATA_DIR, load_cases
from evals.treesitter import syntax_errors

MINIMUM = {"python": 10, "javascript": 8, "typescript": 6, "jsx": 5, "tsx": 5, "rust": 5, "go": 5,
           "html": 5}


@pytest.fixture(scope="module")
def built() -> list[authoring.Built]:
    return authoring.load_all()


def test_stored_files_match_their_specs(built):
    problems = [p for item in built for p in authoring.differences(item)]
    assert problems == [], "run `python -m evals.authoring` after editing evals/specs"


def test_loader_reads_every_authored_case(built):
    loaded = {case.id: case for case in load_cases(DATA_DIR)}
    assert len(loaded) >= len(built) >= 50
    counts = Counter(item.spec.language for item in built)
    for language, minimum in MINIMUM.items():
        assert counts[language] >= minimum, f"{language}: {counts[language]} cases"
    for item in built:
        case = loaded[f"{item.spec.language}/{item.spec.id}"]
        assert case.original == item.original and case.expected == item.expected
        assert case.update == item.update and case.tags == item.spec.tags
        assert case.filename == item.spec.base and case.lang() == item.spec.language


def test_every_case_folder_has_three_utf8_files():
    folders = [p.parent for p in DATA_DIR.rglob("original.*")]
    assert folders
    for folder in folders:
        ext = next(folder.glob("original.*")).suffix
        for name in (f"original{ext}", f"update{ext}", f"expected{ext}"):
            (folder / name).read_bytes().decode("utf-8")


def test_cases_are_realistic_and_tagged(built):
    for item in built:
        lines = item.original.count("\n") + 1
        assert 100 <= lines <= 1500, item.spec.id
        assert item.expected != item.original, item.spec.id
        assert item.spec.instruction and item.spec.tags, item.spec.id
    tags = Counter(tag for item in built for tag in item.spec.tags)
    for kind in ("no_markers", "deletion", "signature_change", "body_marker", "multi_segment",
                 "wrong_comment_syntax", "description_marker", "crlf", "tabs", "bom",
                 "no_final_newline", "whole_file", "imports", "insert_between", "jsx_marker"):
        assert tags[kind] >= 1, kind
    # About one real snippet in eight has no marker at all.
    assert tags["no_markers"] >= len(built) // 10


def test_transforms_reach_the_files(built):
    by_id = {item.spec.id: item for item in built}
    assert "\r\n" in by_id["notes-limit-crlf"].original and "\r\n" not in by_id["notes-limit-crlf"].update
    assert by_id["order-is-open-bom"].expected.startswith("\ufeff")
    assert not by_id["order-is-open-bom"].expected.endswith("\n")
    assert "\n\t\tlines = [" in by_id["subtotal-tabs"].expected



def test_originals_and_expected_files_parse_cleanly(built):
    """A typo in a replacement would show up as a syntax error in expected."""
    for item in built:
        assert syntax_errors(item.original, item.spec.language) == [], f"{item.spec.id}: original"
        assert syntax_errors(item.expected, item.spec.language) == [], f"{item.spec.id}: expected"
