"""Every refusal names the snippet line it could not place and says what would make it placeable
(issue 8): one case per refusal kind the engine raises most (ambiguous context, no anchor, a
merge that would break the syntax)."""

import re

import pytest

from fastapply import ApplyError, apply

ORIGINAL = ("import os\n\n\ndef a():\n    x = 1\n    return x\n\n\ndef b():\n    x = 1\n    return x\n\n\n"
            "def c(p):\n    total = p * 2\n    if total > 3:\n        total -= 1\n    return total\n")
# what a refusal tells the user to do: show more context, include a line, send the file, ...
_ADVICE = re.compile(r"\b(Add|Include|Show|Put|Send|send|include|add|show|put)\b")


@pytest.mark.parametrize("update, code, line", [
    ("# ... existing code ...\n    x = 1\n    y = 2\n# ... existing code ...\n", "ambiguous_anchor", 2),
    ("# ... existing code ...\n    zeta = compute()\n    omega = zeta + 1\n# ... existing code ...\n",
     "anchor_not_found", 2),
    ("# ... existing code ...\ndef c(p):\n    total = (p * 2\n    if total > 3:\n        total -= 1\n"
     "    return total\n", "syntax_regressed", 2),
])
def test_a_refusal_names_its_snippet_line_and_what_to_do(update: str, code: str, line: int) -> None:
    with pytest.raises(ApplyError) as caught:
        apply(ORIGINAL, update, filename="m.py")
    error = caught.value
    assert error.code == code and error.line == line
    assert f"snippet line {line}" in error.message
    assert _ADVICE.search(error.message), error.message


def test_a_syntax_refusal_points_at_the_broken_function_not_the_file_head() -> None:
    # tree-sitter wraps the file from line 1 in an ERROR node around the open bracket in c()
    update = "# ... existing code ...\ndef c(p):\n    total = (p * 2\n    if total > 3:\n        total -= 1\n"
    with pytest.raises(ApplyError) as caught:
        apply(ORIGINAL, update + "    return total\n", filename="m.py")
    assert caught.value.details["merged_lines"] == [14]  # def c(p): (line 1 before)
    assert "near merged line 14" in caught.value.message
