"""The 14 public continue-lazy fixtures (../shared/data/continue-lazy) must all merge exactly."""

from pathlib import Path

import pytest

from evals.cases import load_cases, same_code
from fastapply import apply

REPO = Path(__file__).resolve().parents[2]
# CI checks the repository out next to `shared/`; a git worktree sits one level deeper.
CANDIDATES = [REPO.parent / "shared" / "data" / "continue-lazy",
              REPO.parent.parent / "shared" / "data" / "continue-lazy"]
FIXTURES = next((path for path in CANDIDATES if path.is_dir()), None)

pytestmark = pytest.mark.skipif(FIXTURES is None, reason="../shared/data/continue-lazy is not present")


def test_all_fourteen_fixtures_merge_exactly() -> None:
    cases = load_cases(FIXTURES)
    assert len(cases) == 14
    failures = []
    for case in cases:
        result = apply(case.original, case.update, filename=case.filename)
        if not same_code(result.merged_code, case.expected):
            failures.append(f"{case.id} ({result.method})")
    assert not failures, f"wrong merges: {failures}"
