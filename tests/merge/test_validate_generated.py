"""The model path's output passes the same safety checks as a structural merge."""

import pytest

from fastapply.errors import ErrorCode, ValidationError
from fastapply.merge.validate import check_generated

ORIGINAL = "def area(w, h):\n    return w * h\n\n\ndef name():\n    return 'box'\n"


def test_clean_generated_merge_passes():
    check_generated("python", ORIGINAL, ORIGINAL.replace("w * h", "abs(w * h)"))


def test_generated_merge_with_a_marker_left_is_refused():
    with pytest.raises(ValidationError) as err:
        check_generated("python", ORIGINAL, "# ... existing code ...\n\n\ndef name():\n    return 'box'\n")
    assert err.value.code == ErrorCode.MARKER_LEFT


def test_generated_merge_that_breaks_syntax_is_refused():
    with pytest.raises(ValidationError) as err:
        check_generated("python", ORIGINAL, ORIGINAL.replace("def area(w, h):", "def area(w, h:"))
    assert err.value.code == ErrorCode.SYNTAX_REGRESSED


def test_unknown_language_still_checks_markers():
    check_generated(None, "a\nb\n", "a\nc\n")
    with pytest.raises(ValidationError):
        check_generated(None, "a\nb\n", "a\n// ... existing code ...\n")
