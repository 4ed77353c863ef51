"""The matcher's bounds: a needle whose lines occur everywhere is compared at a capped number of
places, and what is left unchecked is never taken as proof of uniqueness; overlap tests are sorted."""

from __future__ import annotations

import random

import pytest

import fastapply
from fastapply.errors import MergeError
from fastapply.formats import matching
from fastapply.formats.bounds import MAX_POSITIONS, Spans
from fastapply.formats.matching import _overlaps, locate


def test_a_block_found_at_thousands_of_places_is_refused_quickly():
    hay = ["  return 1;", "}", ""] * 5000
    with pytest.raises(MergeError) as caught:
        locate(hay, ["  return 1;", "}"])
    assert caught.value.code == "ambiguous_match"
    assert f"more than {MAX_POSITIONS} places" in caught.value.message


def test_a_line_hint_still_picks_the_copy_it_points_at():
    hay = ["  return 1;", "}", "", "x"] * 3000
    match = locate(hay, ["  return 1;", "}"], hint=4 * 1500)
    assert match.start == 4 * 1500


def test_a_single_match_among_the_checked_places_is_not_called_unique():
    # `a` and `b` each occur 100 times, but `a` right before `b` twice: once among the first 64
    # places of the rarest line and once far after them. Claiming "one place" would be a guess.
    hay = []
    for i in range(100):
        hay += ["a", "b"] if i in (3, 95) else ["a", "x", "b", "x"]
    with pytest.raises(MergeError) as caught:
        locate(hay, ["a", "b"], fuzzy=False)
    assert caught.value.code == "ambiguous_match"


def test_below_the_cap_matching_is_unchanged():
    hay = ["a", "x", "b", "x"] * 10 + ["a", "b"]
    assert locate(hay, ["a", "b"], fuzzy=False).start == 40


def test_sorted_spans_answer_like_the_plain_list():
    rng = random.Random(3)
    for _ in range(2000):
        spans, plain = Spans(), []
        for _ in range(rng.randint(0, 30)):
            a = rng.randint(0, 60)
            b = a + rng.choice([0, 0, 1, 2, 5, 9])
            spans.append((a, b))
            plain.append((a, b))
        for _ in range(10):
            a = rng.randint(0, 70)
            span = (a, a + rng.choice([0, 1, 3, 8]))
            assert _overlaps(span, spans) == _overlaps(span, plain)


def test_the_fuzzy_budget_refuses_instead_of_running_on(monkeypatch):
    original = "".join(f"def handler_{i}(request):\n    return render(request, 'page {i}')\n\n" for i in range(50))
    block = "a.py\n<<<<<<< SEARCH\ndef handler_7(request):\n    return render(request, 'page 7!')\n=======\npass\n>>>>>>> REPLACE\n"
    assert "pass" in fastapply.apply_search_replace(original, block).merged_code
    monkeypatch.setattr(matching, "FUZZY_BUDGET", 10)
    with pytest.raises(MergeError) as caught:
        fastapply.apply_search_replace(original, block)
    assert caught.value.code == "no_match" and "budget" in caught.value.message
