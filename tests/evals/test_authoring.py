"""The authoring script refuses inconsistent case definitions."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals import authoring

BASE = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"


def _spec_file(tmp_path: Path, body: str) -> list[authoring.Spec]:
    (tmp_path / "bases").mkdir(exist_ok=True)
    (tmp_path / "bases" / "m.py").write_text(BASE)
    path = tmp_path / "t.cases"
    path.write_text(body)
    return authoring.parse_specs(path)


def _case(snippet: str, old: str, new: str, extra: str = "") -> str:
    return (f"@@@@ case c\n@@@@ base m.py\n@@@@ tags x\n{extra}@@@@ snippet\n{snippet}"
            f"@@@@ old\n{old}@@@@ new\n{new}")


def test_a_good_spec_builds_expected(tmp_path):
    [spec] = _spec_file(tmp_path, _case("# ... existing code ...\ndef b():\n    return 3\n",
                                        "    return 2\n", "    return 3\n"))
    built = authoring.build(spec, tmp_path / "bases")
    assert built.expected == BASE.replace("return 2", "return 3")
    assert built.update.startswith("# ... existing code ...")
    assert spec.language == "python"


def test_old_must_match_exactly_once(tmp_path):
    [spec] = _spec_file(tmp_path, _case("def a():\n    return 5\n", "    return\n", "    return 5\n"))
    with pytest.raises(authoring.SpecError, match="occurs 0 times"):
        authoring.build(spec, tmp_path / "bases")
    [spec] = _spec_file(tmp_path, _case("def a():\n    return 5\n", "\n", "\n\n"))
    with pytest.raises(authoring.SpecError, match="occurs 2 times"):
        authoring.build(spec, tmp_path / "bases")


def test_snippet_lines_must_reach_expected(tmp_path):
    [spec] = _spec_file(tmp_path, _case("def a():\n    return 7\n", "    return 1\n", "    return 5\n"))
    with pytest.raises(authoring.SpecError, match="'return 7' is not in expected"):
        authoring.build(spec, tmp_path / "bases")


def test_expected_cannot_invent_lines(tmp_path):
    [spec] = _spec_file(tmp_path, _case("def a():\n    return 5\n", "    return 1\n",
                                        "    return 5\n    print('invented')\n"))
    with pytest.raises(authoring.SpecError, match="neither in the base nor in the snippet"):
        authoring.build(spec, tmp_path / "bases")


def test_transforms(tmp_path):
    [spec] = _spec_file(tmp_path, _case("def b():\n    return 3\n", "    return 2\n", "    return 3\n",
                                        "@@@@ transform crlf bom no-eol tabs\n"))
    built = authoring.build(spec, tmp_path / "bases")
    assert built.original == "\ufeff" + BASE.replace("    ", "\t").replace("\n", "\r\n")[:-2]
    assert built.original.endswith("\treturn 2")
    assert built.expected.endswith("\treturn 3")
    assert built.update == "def b():\n\treturn 3\n"  # models send LF snippets


def test_directive_errors(tmp_path):
    with pytest.raises(authoring.SpecError, match="unknown directive"):
        _spec_file(tmp_path, "@@@@ case c\n@@@@ colour red\n")
    with pytest.raises(authoring.SpecError, match="without a preceding"):
        _spec_file(tmp_path, "@@@@ case c\n@@@@ new\nx\n")
    with pytest.raises(authoring.SpecError, match="text outside a block"):
        _spec_file(tmp_path, "stray\n@@@@ case c\n")


def test_expected_must_parse(tmp_path):
    [spec] = _spec_file(tmp_path, _case("def b():\n    return (3\n", "    return 2\n", "    return (3\n"))
    with pytest.raises(authoring.SpecError, match="syntax errors"):
        authoring.build(spec, tmp_path / "bases")
