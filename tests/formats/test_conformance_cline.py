"""Cline: each test is one rule of cline/cline's diff apply (src/core/assistant-message/diff.ts: its
marker patterns, its three matching strategies, its handling of empty SEARCH sections and of the last
block), checked against fastapply. Written from reading that code; no fixture of theirs is copied."""

import pytest

from fastapply import ApplyError, Policy, apply_batch, apply_search_replace

SRC = "function a() {\n  return 1\n}\n\nfunction b() {\n  return 1\n}\n"


def cline(search: str, replace: str, start: str = "------- SEARCH", mid: str = "=======",
          end: str = "+++++++ REPLACE") -> str:
    return f"{start}\n{search}{mid}\n{replace}{end}\n"


@pytest.mark.parametrize("start,mid,end", [
    ("------------ SEARCH", "=======", "+++++++++++ REPLACE"),  # more than seven
    ("--- SEARCH", "===", "+++ REPLACE"),  # three, the fewest its patterns take
    ("------- SEARCH>", "=========", "+++++++ REPLACE>"),  # a trailing '>' after the word
])
def test_marker_lengths_of_three_or_more_and_a_trailing_angle_are_accepted(start, mid, end):
    text = cline("function b() {\n", "function c() {\n", start, mid, end)
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("function b", "function c")


def test_legacy_angle_markers_are_accepted():
    text = cline("function b() {\n", "function c() {\n", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE")
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("function b", "function c")


def test_final_block_missing_its_replace_marker_is_completed():
    text = cline("function a() {\n", "function z() {\n") + cline("function b() {\n", "function c() {\n", end="")
    r = apply_search_replace(SRC, text)
    assert r.merged_code == SRC.replace("function a", "function z").replace("function b", "function c")
    assert any("completed" in w for w in r.warnings)


def test_a_completed_final_block_ends_at_the_fence_around_it():
    text = "a.js\n```\n" + cline("function b() {\n", "function c() {\n", end="") + "```\n\nDone, tell me more.\n"
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("function b", "function c")


def test_final_block_missing_its_replace_marker_is_refused_when_asked():
    text = cline("function b() {\n", "function c() {\n", end="")
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, text, policy=Policy(unterminated="refuse"))
    assert e.value.code == "malformed_edit"


@pytest.mark.parametrize("start,mid", [("-------SEARCH", "======="), ("------- SEARCH", "======= ")])
def test_markers_cline_does_not_match_are_refused_with_strict_markers(start, mid):
    # Cline compares its lines exactly: no space before SEARCH, or a space after =======, is no marker.
    text = cline("function b() {\n", "function c() {\n", start, mid)
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, text, policy=Policy(markers="strict"))
    assert e.value.code == "malformed_edit"
    # Our default reads them: what the model meant is unambiguous.
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("function b", "function c")


def test_empty_search_replaces_the_whole_file():
    assert apply_search_replace(SRC, cline("", "all new\n")).merged_code == "all new\n"


def test_empty_search_on_a_missing_file_creates_it():
    r = apply_batch("new.js\n" + cline("", "x\n"), {"a.js": SRC})
    assert r.contents == {"new.js": "x\n"}


def test_line_trimmed_fallback_writes_the_replacement_as_given_with_reindent_off():
    text = cline("function b() {\nreturn 1\n}\n", "function b() {\nreturn 2\n}\n")
    out = "function a() {\n  return 1\n}\n\nfunction b() {\nreturn 2\n}\n"
    assert apply_search_replace(SRC, text, policy=Policy(reindent=False)).merged_code == out


def test_block_anchor_fallback_is_not_followed_when_a_replaced_line_differs():
    # Cline places a 3+ line block by its first and last lines alone and replaces whatever lies
    # between. We refuse when a line the block replaces is not in the file (deliberate: the model
    # never saw the file's line, so replacing it could delete code it did not mean to touch).
    src = "def f(x):\n    y = x + 1\n    z = y * 2\n    w = z - 3\n    return w\n"
    text = cline("def f(x):\n    y = x + 1\n    z = y ** 3\n    w = z - 3\n    return w\n",
                 "def f(x):\n    return x\n")
    with pytest.raises(ApplyError) as e:
        apply_search_replace(src, text)
    assert e.value.code == "no_match" and "z = y ** 3" in e.value.message


def test_blocks_are_searched_after_the_previous_block_with_ambiguity_first():
    text = cline("  return 1\n", "  return 2\n") + cline("  return 1\n", "  return 3\n")
    r = apply_search_replace(SRC, text, ambiguity="first")
    assert r.merged_code == "function a() {\n  return 2\n}\n\nfunction b() {\n  return 3\n}\n"


def test_a_search_that_matches_nothing_is_an_error():
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, cline("function q() {\n", "x\n"))
    assert e.value.code == "no_match"


def test_deleting_the_unterminated_last_line_keeps_the_newline_before_it():
    text = cline("b\n", "B\n") + cline("d\n", "")
    assert apply_search_replace("a\nb\nc\nd", text).merged_code == "a\nB\nc\n"


def test_blocks_may_come_out_of_file_order():
    text = cline("d\n", "D\n") + cline("b\n", "B\n")
    assert apply_search_replace("a\nb\nc\nd\n", text).merged_code == "a\nB\nc\nD\n"
