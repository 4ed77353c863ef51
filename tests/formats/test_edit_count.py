"""Limits.max_edits: one call applies at most that many old -> new edits (or SEARCH/REPLACE blocks)
to one file, since each is a pass over the file; more are refused up front with too_many_edits."""

from __future__ import annotations

import pytest

import fastapply
from fastapply.formats import replacements
from fastapply.formats.batch import apply_batch
from fastapply.text import DEFAULT_LIMITS, Limits

FILE = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(600))


def _edits(count: int) -> list[dict[str, str]]:
    return [{"old": f"def f{i}():", "new": f"def g{i}():"} for i in range(count)]


def _blocks(count: int) -> str:
    return "m.py\n" + "".join(f"<<<<<<< SEARCH\ndef f{i}():\n=======\ndef g{i}():\n>>>>>>> REPLACE\n"
                              for i in range(count))


@pytest.fixture
def passes(monkeypatch):
    """How many edits were tried (replace_one calls): the work a call did."""
    calls = []
    real = replacements.replace_one
    monkeypatch.setattr(replacements, "replace_one", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_up_to_the_limit_every_edit_applies(passes):
    limit = DEFAULT_LIMITS.max_edits
    result = fastapply.apply_replacements(FILE, _edits(limit))
    assert result.merged_code.count("def g") == limit and len(passes) == limit


def test_over_the_limit_nothing_is_tried(passes):
    for call in (lambda: fastapply.apply_replacements(FILE, _edits(DEFAULT_LIMITS.max_edits + 1)),
                 lambda: fastapply.apply_search_replace(FILE, _blocks(DEFAULT_LIMITS.max_edits + 1)),
                 lambda: fastapply.apply_replacements(FILE, _edits(3), limits=Limits(max_edits=2))):
        with pytest.raises(fastapply.ApplyError) as caught:
            call()
        assert caught.value.code == "too_many_edits"
        assert caught.value.details["limit"] in (DEFAULT_LIMITS.max_edits, 2)
        assert "several calls" in caught.value.message
    assert passes == []


def test_a_raised_limit_allows_more():
    result = fastapply.apply_search_replace(FILE, _blocks(300), limits=Limits(max_edits=300))
    assert result.merged_code.count("def g") == 300


def test_a_batch_refuses_the_file_with_too_many_edits_and_writes_nothing(tmp_path):
    (tmp_path / "m.py").write_text(FILE)
    result = apply_batch(_blocks(3), root=tmp_path, limits=Limits(max_edits=2))
    assert not result.ok and not result.written
    assert [f.error.code for f in result.files if f.status == "failed"] == ["too_many_edits"]
    assert (tmp_path / "m.py").read_text() == FILE
