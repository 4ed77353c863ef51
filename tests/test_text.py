import pytest

from fastapply.errors import ErrorCode, InputError
from fastapply.text import Document, check_size, ensure_text, unified_diff


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
