"""Roo Code (and Kilo Code, which ships the same strategy): each test is one rule of RooCodeInc/Roo-Code's
multi-search-replace diff strategy (src/core/diff/strategies/multi-search-replace.ts and the line-number
helpers it calls), checked against fastapply. Written from reading that code; no fixture of theirs is
copied."""

import pytest

from fastapply import ApplyError, apply_batch, apply_replacements, apply_search_replace

SRC = "def f():\n    total = 0\n    return total\n\n\ndef g():\n    total = 0\n    return total\n"


def roo(search: str, replace: str, *hints: str, separator: bool = True) -> str:
    head = "".join(h + "\n" for h in hints) + ("-------\n" if separator else "")
    return f"<<<<<<< SEARCH\n{head}{search}=======\n{replace}>>>>>>> REPLACE\n"


def test_start_line_chooses_among_identical_matches():
    text = roo("    total = 0\n", "    total = 1\n", ":start_line:7")
    assert apply_search_replace(SRC, text).merged_code == SRC[::-1].replace("0 = latot", "1 = latot", 1)[::-1]
    text = roo("    total = 0\n", "    total = 1\n", ":start_line:2")
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("total = 0", "total = 1", 1)


def test_without_a_hint_identical_matches_are_refused():
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, roo("    total = 0\n", "    total = 1\n"))
    assert e.value.code == "ambiguous_match" and e.value.details["candidates"] == [2, 7]


def test_hint_and_separator_lines_are_not_search_content():
    text = roo("def g():\n", "def h():\n", ":start_line:6", ":end_line:6")
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("def g()", "def h()")
    # the separator alone, and the hints alone, mark the dialect too
    assert apply_search_replace(SRC, roo("def g():\n", "def h():\n")).merged_code == SRC.replace("def g()", "def h()")
    text = roo("def g():\n", "def h():\n", ":start_line: 6", separator=False)
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("def g()", "def h()")


def test_search_marker_may_end_with_an_angle_bracket():
    text = "<<<<<<< SEARCH>\n:start_line:6\n-------\ndef g():\n=======\ndef h():\n>>>>>>> REPLACE\n"
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("def g()", "def h()")


def test_the_separator_is_exactly_seven_dashes_so_yaml_front_matter_stays_content():
    src = "---\ntitle: a\n---\nbody\n"
    text = "<<<<<<< SEARCH\n---\ntitle: a\n=======\n---\ntitle: b\n>>>>>>> REPLACE\n"
    assert apply_search_replace(src, text).merged_code == "---\ntitle: b\n---\nbody\n"


def test_line_number_prefixes_are_stripped_and_give_the_start_line():
    text = roo(" 7 |     total = 0\n 8 |     return total\n", " 7 |     total = 5\n 8 |     return total\n")
    out = apply_search_replace(SRC, text).merged_code
    assert out == SRC[: SRC.rindex("total = 0")] + "total = 5\n    return total\n"


def test_line_number_prefixes_in_a_crlf_file():
    crlf = SRC.replace("\n", "\r\n")
    text = roo("2 |     total = 0\n", "2 |     total = 9\n").replace("\n", "\r\n")
    assert apply_search_replace(crlf, text).merged_code == SRC.replace("total = 0", "total = 9", 1).replace("\n", "\r\n")


def test_line_number_prefixes_in_a_file_without_a_final_newline():
    src = "a = 1\nb = 2"
    assert apply_search_replace(src, roo("2 | b = 2\n", "2 | b = 3\n")).merged_code == "a = 1\nb = 3"


def test_prefixes_stay_unless_every_search_line_has_one():
    src = "rows = [\n    1 | 2,\n]\n"
    text = roo("rows = [\n    1 | 2,\n", "rows = [\n    1 | 3,\n")
    assert apply_search_replace(src, text).merged_code == "rows = [\n    1 | 3,\n]\n"


def test_escaped_markers_in_the_content_are_unescaped():
    src = "title\n=======\nbody\n"
    text = roo("title\n\\=======\nbody\n", "Title\n\\=======\nbody\n")
    assert apply_search_replace(src, text).merged_code == "Title\n=======\nbody\n"


def test_a_line_marker_in_the_replace_section_is_an_error():
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, "<<<<<<< SEARCH\ndef g():\n=======\n:start_line:6\ndef h():\n>>>>>>> REPLACE\n")
    assert e.value.code == "malformed_edit"


def test_empty_search_is_refused():
    r = apply_batch("m.py\n" + roo("", "x = 1\n", ":start_line:1"), {"m.py": SRC})
    assert not r.ok and r.files[0].error.code == "malformed_edit" and r.contents == {}
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, roo("", "x = 1\n"))
    assert e.value.code == "malformed_edit"


def test_start_lines_count_in_the_original_file_and_blocks_apply_in_their_order():
    # The second block (applied first: lower start line) adds two lines; the other block's start
    # line still refers to the original file, as Roo shifts later start lines by the lines added.
    text = (roo("    total = 0\n", "    total = 1\n", ":start_line:7")
            + roo("    total = 0\n", "    # one\n    # two\n    total = 2\n", ":start_line:2"))
    out = apply_search_replace(SRC, text).merged_code
    assert out == ("def f():\n    # one\n    # two\n    total = 2\n    return total\n\n\n"
                   "def g():\n    total = 1\n    return total\n")


def test_replacement_keeps_the_indentation_of_the_matched_lines():
    src = "class A:\n    def f(self):\n        return 1\n"
    text = roo("def f(self):\n    return 1\n", "def f(self):\n    return 2\n")
    assert apply_search_replace(src, text).merged_code == "class A:\n    def f(self):\n        return 2\n"


def test_start_line_works_in_edit_lists_too():
    r = apply_replacements(SRC, [{"old": "    total = 0\n", "new": "    total = 3\n", "start_line": 7}])
    assert r.merged_code.endswith("def g():\n    total = 3\n    return total\n")


@pytest.mark.parametrize("text", [
    "<<<<<<< SEARCH\ndef g():\n>>>>>>> REPLACE\n",  # no separator
    "<<<<<<< SEARCH\ndef g():\n=======\n=======\ndef h():\n>>>>>>> REPLACE\n",  # two separators
    "<<<<<<< SEARCH\ndef g():\n=======\ndef h():\n",  # no REPLACE marker
])
def test_marker_sequence_errors_are_refused(text):
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, text)
    assert e.value.code == "malformed_edit"


def test_search_marker_with_extra_characters_is_refused_with_strict_markers():
    from fastapply import Policy

    text = "<<<<<<< SEARCH>>\ndef g():\n=======\ndef h():\n>>>>>>> REPLACE\n"
    with pytest.raises(ApplyError):
        apply_search_replace(SRC, text, policy=Policy(markers="strict"))
