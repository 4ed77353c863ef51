import pytest

from fastapply.errors import ApplyError
from fastapply.formats.matching import locate

FILE = """\
def alpha(x):
    total = 0
    for i in range(x):
        total += i
    return total


def beta(y):
    if y:
        return 1
    return 2
""".split("\n")


def test_exact_unique():
    m = locate(FILE, ["    if y:", "        return 1"])
    assert (m.start, m.end, m.kind) == (8, 10, "exact")


def test_trailing_whitespace_tier():
    m = locate(FILE, ["    if y:   ", "        return 1\t"])
    assert (m.start, m.kind) == (8, "whitespace")


def test_uniform_indent_shift_and_reindent_of_new_text():
    m = locate(FILE, ["if y:", "    return 1"])
    assert (m.start, m.kind) == (8, "indent")
    assert m.new_line("    return 10") == "        return 10"
    assert m.new_line("if z:") == "    if z:"


def test_tabs_versus_spaces():
    hay = ["class A:", "\tdef f(self):", "\t\treturn 1", ""]
    m = locate(hay, ["    def f(self):", "        return 1"])
    assert m.kind == "indent" and m.start == 1
    assert m.new_line("        return 2") == "\t\treturn 2"


def test_non_uniform_indent_is_not_an_indent_match():
    with pytest.raises(ApplyError):
        locate(FILE, ["if y:", "return 1"], fuzzy_threshold=1.01,
               kinds=("exact", "whitespace", "indent", "blank_lines"))
    # It is a trimmed match (every line equal once trimmed), the tier after them.
    m = locate(FILE, ["if y:", "return 1"], fuzzy_threshold=1.01)
    assert m.kind == "trimmed"


def test_blank_line_too_many():
    m = locate(FILE, ["    return total", "", "", "", "def beta(y):"])
    assert m.kind == "blank_lines" and m.start == 4 and m.end == 8


def test_fuzzy_changed_line():
    m = locate(FILE, ["    total = 0", "    for j in range(x):", "        total += i", "    return total"])
    assert m.kind == "fuzzy" and m.start == 1 and m.end == 5 and 0.85 <= m.similarity < 1


def test_fuzzy_threshold_configurable():
    needle = ["    total = 0", "    for j in range(x):", "        total += i", "    return total"]
    with pytest.raises(ApplyError) as e:
        locate(FILE, needle, fuzzy_threshold=0.99)
    assert e.value.code == "no_match"
    assert e.value.details["closest_start"] == 2
    assert "closest region is lines 2-5" in e.value.message


def test_ambiguous_lists_candidates():
    hay = ["a = 1", "b = 2", "", "a = 1", "b = 2"]
    with pytest.raises(ApplyError) as e:
        locate(hay, ["a = 1", "b = 2"])
    assert e.value.code == "ambiguous_match"
    assert e.value.details["candidates"] == [1, 4]


def test_hint_disambiguates_only_when_clearly_closer():
    hay = ["x"] * 3 + ["a = 1", "b = 2"] + ["y"] * 20 + ["a = 1", "b = 2"]
    assert locate(hay, ["a = 1", "b = 2"], hint=5).start == 3
    assert locate(hay, ["a = 1", "b = 2"], hint=24).start == 25
    with pytest.raises(ApplyError):
        locate(hay, ["a = 1", "b = 2"], hint=14)


def test_similar_but_different_code_is_not_matched():
    with pytest.raises(ApplyError) as e:
        locate(FILE, ["def gamma(z):", "    if z:"])
    assert e.value.code == "no_match"


def test_blank_needle_is_malformed():
    with pytest.raises(ApplyError) as e:
        locate(FILE, ["", "  "])
    assert e.value.code == "malformed_edit"
