"""The second half of the dev corpus (evals/sources_more -> evals/data): loadable, realistic, and
reproduced byte for byte from its authoring definitions."""

from __future__ import annotations

import importlib
from collections import Counter

import pytest
import tree_sitter

from evals import authoring_more
from evals.cases import DATA_DIR, load_cases

LANGUAGES = list(authoring_more.LANGUAGES)
MINIMUM = {"java": 5, "c": 5, "cpp": 5, "csharp": 5, "ruby": 5, "php": 5, "kotlin": 5, "swift": 5,
           "scala": 5, "lua": 5, "css": 3, "bash": 3, "yaml": 3}


@pytest.fixture(scope="module")
def built() -> list[authoring_more.Built]:
    return authoring_more.build_all()


def _cases():
    return [case for lang in LANGUAGES if (DATA_DIR / lang).is_dir() for case in load_cases(DATA_DIR / lang)]


def test_regeneration_reproduces_stored_files(built):
    assert authoring_more.differences(built) == []


def test_every_case_has_three_utf8_files_and_metadata(built):
    for item in built:
        names = set(item.files)
        assert "case.json" in names
        assert {n.split(".")[0] for n in names} == {"original", "update", "expected", "case"}
        for name in names:
            data = (item.folder / name).read_bytes()
            data.decode("utf-8")  # raises on non-UTF-8


def test_cases_load_and_are_realistic():
    cases = _cases()
    counts = Counter(case.id.split("/")[0] for case in cases)
    for lang, minimum in MINIMUM.items():
        assert counts[lang] >= minimum, f"{lang}: {counts[lang]} cases"
    assert len(cases) >= 55
    for case in cases:
        assert case.original.count("\n") + 1 >= 100, case.id
        assert case.update.strip() and case.expected.strip(), case.id
        assert case.expected != case.original, case.id
        assert case.instruction and case.tags and case.language, case.id


def test_special_file_shapes_are_present():
    cases = {case.id: case for case in _cases()}
    assert any("\r\n" in c.original and "\r\n" in c.expected for c in cases.values())
    assert any(c.original.startswith("\ufeff") and c.expected.startswith("\ufeff") for c in cases.values())
    assert any(not c.original.endswith("\n") for c in cases.values())
    assert any("\n\t" in c.original for c in cases.values())
    assert sum("no_markers" in c.tags for c in cases.values()) >= 6


# language folder -> (grammar module, function): the official grammar wheels, not the engine's registry,
# so that this check of the corpus does not depend on the code it measures.
GRAMMARS = {
    "java": ("tree_sitter_java", "language"), "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"), "csharp": ("tree_sitter_c_sharp", "language"),
    "ruby": ("tree_sitter_ruby", "language"), "php": ("tree_sitter_php", "language_php"),
    "kotlin": ("tree_sitter_kotlin", "language"), "swift": ("tree_sitter_swift", "language"),
    "scala": ("tree_sitter_scala", "language"), "lua": ("tree_sitter_lua", "language"),
    "css": ("tree_sitter_css", "language"), "bash": ("tree_sitter_bash", "language"),
    "yaml": ("tree_sitter_yaml", "language"), "json": ("tree_sitter_json", "language"),
}


def test_originals_and_expected_files_parse_without_errors():
    assert set(GRAMMARS) == set(LANGUAGES)
    for lang, (module, function) in GRAMMARS.items():
        grammar = getattr(importlib.import_module(module), function)()
        parser = tree_sitter.Parser(tree_sitter.Language(grammar))
        for case in load_cases(DATA_DIR / lang):
            for name, text in (("original", case.original), ("expected", case.expected)):
                tree = parser.parse(text.encode("utf-8"))
                assert not tree.root_node.has_error, f"{case.id}: {name} has syntax errors"


def test_checks_catch_a_bad_definition(tmp_path):
    spec = authoring_more.all_specs()[0]
    spec.pairs = [("this line is not in the base file\n", "x\n")]
    with pytest.raises(authoring_more.AuthoringError, match="matches 0 times"):
        authoring_more.build(spec)
    spec = authoring_more.all_specs()[0]  # java/add-refund-method
    spec.pairs = spec.pairs + [("package com.acme.shop.orders;\n", "package com.acme.invented;\n")]
    with pytest.raises(authoring_more.AuthoringError, match="neither original nor snippet"):
        authoring_more.build(spec)
    spec = authoring_more.all_specs()[0]
    spec.snippet += "    private void notInExpected() {}\n"
    with pytest.raises(authoring_more.AuthoringError, match="not in expected"):
        authoring_more.build(spec)
