"""A short run of the fuzz harness (evals/fuzz.py runs it for minutes): every entry point returns or
raises ApplyError on garbled real-world input, never anything else, and the deadline is respected."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from evals.fuzz import call, cases


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(cases())
def test_entry_points_never_crash(case):
    target, original, edit = case
    outcome = call(target, original, edit)  # raises for anything that is not an ApplyError
    assert isinstance(outcome, str) and outcome
