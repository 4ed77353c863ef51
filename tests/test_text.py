import pytest

from fastapply.errors import ErrorCode, InputError
from fastapply.result import make_result
from fastapply.text import Document, check_size, ensure_text, unified_diff, unified_diff_counted


def test_document_round_trips_crlf_and_bom():
    raw = "\ufeffline one\r\nline two\r\n"
    doc = Document.parse(raw)
    assert doc.text == "line one\nline two\n"
    assert doc.newline == "\r\n" and doc.bom
    assert doc.restore(doc.text) == raw


def test_document_keeps_lf_and_missing_final_newline():
    doc = Document.parse("a\nb")
    assert doc.newline == "\n" and not doc.bom
    assert doc.restore("a\nc") == "a\nc"


@pytest.mark.parametrize("data", [b"\xff\xfe\x00a", "abc\x00def", b"\x80abc"])
def test_binary_is_not_text(data):
    with pytest.raises(InputError) as info:
        ensure_text(data, "file")
    assert info.value.code == ErrorCode.NOT_TEXT


def test_size_limit():
    with pytest.raises(InputError) as info:
        check_size("x" * 101, 100, "file")
    assert info.value.code == ErrorCode.INPUT_TOO_LARGE
    check_size("x" * 100, 100, "file")


def test_unified_diff_marks_missing_newline():
    diff = unified_diff("a\nb", "a\nc", "f.txt")
    assert "--- a/f.txt" in diff and "\\ No newline at end of file" in diff
    assert unified_diff("same", "same") == ""


def test_apply_counts_the_lines_its_diff_adds_and_removes_comment_lines_included() -> None:
    """The counts come from the diff as it is written: a removed Lua comment `-- old note` is a
    `--- old note` line of the diff, a removed line and not a header; a last line without a
    newline still counts once."""
    original = "-- old note\nlocal x = 1\nreturn x"
    merged = "-- new note\nlocal x = 1\nreturn x + 1"
    diff, added, removed = unified_diff_counted(original, merged, "m.lua")
    assert (added, removed) == (2, 2) and diff == unified_diff(original, merged, "m.lua")
    stats = make_result(original, merged, method="whole_file", language="lua", filename="m.lua", started=0.0).stats
    assert (stats.lines_added, stats.lines_removed) == (2, 2)
