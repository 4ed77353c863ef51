"""Marker recognition: every dialect models write, and never a real comment or string."""

import pytest

from fastapply.merge.markers import delete_target, is_marker

MARKERS = [
    "// ... existing code ...",
    "# ... existing code ...",
    "-- ... existing code ...",
    "/* ... existing code ... */",
    "<!-- ... existing code ... -->",
    "{/* ... existing code ... */}",
    "    // ... rest of the code ...",
    "// ... unchanged ...",
    "// ... keep existing code",
    "// ...",
    "# ...",
    "// ... existing methods (add, subtract) ...",
    "# … existing code …",
    "// rest of code",
    "// existing code",
    "# existing imports ...",
    "...",
]
NOT_MARKERS = [
    "// wait for the connection...",
    'print("...")',
    "x = ...",
    "# TODO: more work...",
    "// Loading...",
    "foo(...args);",
    "const rest = [...items];",
    "// see the docs ... for details",
    "def f(*args): ...",
    "",
    "return null;",
]


@pytest.mark.parametrize("line", MARKERS)
def test_markers_are_recognised(line: str) -> None:
    assert is_marker(line)


@pytest.mark.parametrize("line", NOT_MARKERS)
def test_code_and_comments_are_not_markers(line: str) -> None:
    assert not is_marker(line)


def test_deletion_notes_name_the_most_specific_target() -> None:
    assert delete_target("// remove Note.matches(): the DAO query filters now")[0] == "matches"
    assert delete_target("# remove to_legacy_csv, nothing calls it any more") == ["to_legacy_csv"]
    assert delete_target("// delete the `bar` helper")[0] == "bar"
    assert delete_target("// removes whitespace from input") is None  # describes code, not a note
    assert delete_target("x = remove(y)") is None
