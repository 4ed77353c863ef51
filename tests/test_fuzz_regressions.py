"""Inputs the fuzz harness (evals/fuzz.py) found: each must now return or raise ApplyError, quickly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.fuzz import call

FOUND = sorted((Path(__file__).parent / "fuzz_regressions").glob("*.json"))


def test_there_are_regressions_to_check():
    assert FOUND  # the folder holds at least the udiff crasher of the first long run


@pytest.mark.parametrize("path", FOUND, ids=[p.stem for p in FOUND])
def test_finding_no_longer_crashes(path: Path):
    record = json.loads(path.read_text())
    outcome = call(record["target"], record["original"], record["edit"])  # raises on a crash
    assert outcome
