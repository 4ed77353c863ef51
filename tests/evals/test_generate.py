"""The case generator derives valid, deterministic cases from installed source files."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import pytest

from evals import generate
from evals.authoring import check_snippet_in_expected
from evals.cases import load_cases, write_jsonl
from evals.treesitter import syntax_errors

STDLIB = Path(sysconfig.get_paths()["stdlib"])
PY_SOURCES = [STDLIB / name for name in ("textwrap.py", "shlex.py", "fractions.py", "calendar.py",
                                         "heapq.py", "string.py")]


def _js_file(tmp_path: Path) -> Path:
    parts = ["'use strict';", ""]
    for n in range(14):
        parts += [f"export function step{n}(input, options = {{}}) {{",
                  "  const values = Array.isArray(input) ? input : [input];",
                  f"  const scale = options.scale ?? {n + 1};",
                  "  const out = [];",
                  "  for (const value of values) {",
                  "    out.push(value * scale);",
                  "  }",
                  "  return out;",
                  "}", ""]
    path = tmp_path / "steps.js"
    path.write_text("\n".join(parts))
    return path


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> list[Path]:
    found = [p for p in PY_SOURCES if p.exists()]
    assert len(found) >= 4, "the Python standard library sources are missing"
    return found + [_js_file(tmp_path_factory.mktemp("js"))]


def test_same_seed_same_cases(sources):
    first = generate.generate(40, seed=3, sources=sources, per_file=8)
    again = generate.generate(40, seed=3, sources=sources, per_file=8)
    other = generate.generate(40, seed=4, sources=sources, per_file=8)
    assert len(first) == 40
    assert [c.update for c in first] == [c.update for c in again]
    assert [c.update for c in first] != [c.update for c in other]


def test_cases_are_valid_edits(sources, tmp_path):
    cases = generate.generate(60, seed=0, sources=sources, per_file=10)
    kinds = {tag for case in cases for tag in case.tags}
    assert {"modify_body", "signature", "add_method", "insert_function", "delete_function",
            "markers", "no_markers"} <= kinds
    assert {case.language for case in cases} == {"python", "javascript"}
    for case in cases:
        assert case.expected != case.original, case.id
        check_snippet_in_expected(case.id, case.update, case.expected)
        if case.language == "python":
            ast.parse(case.expected)
        markers = [line for line in case.update.splitlines() if "..." in line and
                   line.strip().startswith(("#", "//"))]
        assert bool(markers) == ("markers" in case.tags), case.id
    path = tmp_path / "gen.jsonl"
    write_jsonl(cases, path)
    assert [c.update for c in load_cases(path)] == [c.update for c in cases]


def test_deletion_snippets_keep_anchors_on_both_sides(sources):
    cases = [c for c in generate.generate(80, seed=1, sources=sources, per_file=20)
             if c.tags[1:] == ["delete_function", "markers"]]
    assert cases
    for case in cases:
        removed = len(case.original.splitlines()) - len(case.expected.splitlines())
        assert removed > 0
        code = [line for line in case.update.splitlines() if not line.strip().startswith(("#", "//"))]
        assert code, case.id


def test_main_writes_jsonl(tmp_path, monkeypatch, sources):
    monkeypatch.setattr(generate, "find_sources", lambda: sources)
    out = tmp_path / "gen.jsonl"
    assert generate.main(["--out", str(out), "--n", "12", "--seed", "0"]) == 0
    assert len(load_cases(out)) == 12


def test_brace_languages_from_named_sources(tmp_path):
    """The corpus bases hold Go (tabs), Rust, TypeScript, TSX, JSX and JS: edits keep them parseable."""
    bases = Path(__file__).resolve().parents[2] / "evals" / "corpus" / "bases"
    sources = generate.collect_sources([bases])
    assert {p.suffix for p in sources} >= {".go", ".rs", ".ts", ".tsx", ".jsx", ".js", ".py"}
    cases = generate.generate(120, seed=2, sources=sources, per_file=12)
    languages = {case.language for case in cases}
    assert {"go", "rust", "typescript", "tsx", "jsx", "javascript"} <= languages
    for case in cases:
        check_snippet_in_expected(case.id, case.update, case.expected)
        assert syntax_errors(case.expected, case.language) == [], case.id
    out = tmp_path / "own.jsonl"
    assert generate.main(["--out", str(out), "--n", "5", "--source", str(bases / "go" / "bookmarks.go")]) == 0
    assert {c.language for c in load_cases(out)} == {"go"}


def test_a_deletion_whose_context_also_ends_the_deleted_function_shows_one_more_line():
    """`print()` ends the function before the deleted one and the deleted one too: with only
    that line above the deletion, the snippet would read as changing nothing. The context grows
    until it tells the two apart (cgi.py's print_directory)."""
    lines = ["def a():", "    print('a')", "    print()", "", "def b():", "    print('b')", "    print()",
             "", "def c():", "    print('c')"]
    edit = generate.Edit("delete_function", 4, 8, [])
    lo, hi = generate._telling_context(lines, edit, 2, 9)
    assert (lo, hi) == (1, 9)  # `print('a')` joins the context above; below, `def c():` differed already
    snippet, expected = generate.build_snippet(lines, [edit], "# ... existing code ...",
                                               __import__("random").Random(0), whole_unit=False)
    assert "print('a')" in snippet and "def b" not in expected
