"""fastapply.deadline: a merge past its deadline stops with merge_timeout, in the engine and the formats."""

from __future__ import annotations

import pytest

import fastapply
from fastapply.deadline import MergeTimeout, check_deadline, deadline


def _functions(count: int) -> str:
    return "".join(f"function f{i}() {{\n  return {i};\n}}\n\n" for i in range(count))


def test_check_deadline_raises_only_inside_an_expired_block():
    check_deadline()  # no deadline set: nothing happens
    with deadline(None):
        check_deadline()
    with deadline(0):
        with pytest.raises(MergeTimeout) as caught:
            check_deadline()
    assert caught.value.code == "merge_timeout"
    check_deadline()  # the block is over: no deadline again


def test_an_outer_deadline_wins_over_a_later_inner_one():
    with deadline(0), deadline(3600):
        with pytest.raises(MergeTimeout):
            check_deadline()


def test_the_merge_engine_stops_at_an_expired_deadline():
    original = _functions(200)
    snippet = "// ... existing code ...\nfunction f7() {\n  return 70;\n}\n// ... existing code ...\n"
    assert "return 70" in fastapply.apply(original, snippet, filename="a.js").merged_code
    with deadline(0), pytest.raises(MergeTimeout):
        fastapply.apply(original, snippet, filename="a.js")


def test_the_fuzzy_matcher_stops_at_an_expired_deadline():
    original = "".join(f"function handler{i}(request) {{\n  const label = 'handler number {i} for route {i * 7919}';\n"
                       f"  return render(request, label, {i});\n}}\n\n" for i in range(200))
    # one character changed: not in the file exactly, so only the fuzzy tier can place it
    block = ("a.js\n<<<<<<< SEARCH\nfunction handler7(request) {\n  const label = 'handler number 7 for route 55434';\n"
             "  return render(request, label, 7);\n}\n=======\nfunction handler7() {}\n>>>>>>> REPLACE\n")
    assert "function handler7() {}" in fastapply.apply_search_replace(original, block).merged_code
    with deadline(0), pytest.raises(MergeTimeout):
        fastapply.apply_search_replace(original, block)
