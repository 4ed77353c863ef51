"""The latency harness: synthetic large cases are well-formed and the report is written."""

from __future__ import annotations

import json

from evals import latency
from evals.cases import Case, write_jsonl


def test_synthetic_cases_are_large_single_edits():
    cases = latency.synthetic_cases((500, 2000))
    assert {c.language for c in cases} == {"python", "javascript"}
    for case in cases:
        lines = case.original.count("\n")
        assert 400 <= lines <= 2000, case.id
        assert case.expected.count("\n") == lines + 1  # one added line
        assert case.update.startswith(("# ...", "// ...")) and case.update.count("... existing code ...") == 2


def test_main_reports_median_and_p99(tmp_path):
    data = tmp_path / "one.jsonl"
    original = "def f(x):\n    return x\n"
    write_jsonl([Case(id="one", original=original, update=original.replace("x\n", "x + 1\n"),
                      expected=original.replace("x\n", "x + 1\n"), filename="f.py")], data)
    out = tmp_path / "lat.json"
    assert latency.main(["--data", str(data), "--no-synthetic", "--repeat", "3", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["calls"] == 3 and report["median_ms"] > 0 and report["p99_ms"] >= report["median_ms"]
    assert list(report["buckets"]) == ["<= 200 lines"]


def test_multi_part_synthetic_cases_edit_spread_functions_and_merge_exactly():
    import fastapply

    cases = latency.synthetic_cases((2000,), parts=4)
    assert {c.language for c in cases} == {"python", "javascript"}
    for case in cases:
        assert case.update.count("... existing code ...") == 5, case.id
        assert case.expected.count("\n") == case.original.count("\n") + 4  # a line added in each part
        assert fastapply.apply(case.original, case.update, filename=case.filename).merged_code == case.expected
