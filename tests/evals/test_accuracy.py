"""The accuracy harness classifies outcomes correctly and writes its report."""

from __future__ import annotations

import json
import time

import pytest

import fastapply
from evals import accuracy
from evals.cases import Case, write_jsonl

ORIGINAL = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
# A snippet that is the whole new file: every engine must return it as is.
WHOLE = "def area(w, h):\n    return abs(w * h)\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"


def _cases() -> list[Case]:
    return [
        Case(id="ok", original=ORIGINAL, update=WHOLE, expected=WHOLE + "\n\n", filename="geo.py",
             tags=["whole_file"]),
        Case(id="bad", original=ORIGINAL, update=WHOLE, expected=ORIGINAL, filename="geo.py"),
        Case(id="empty", original=ORIGINAL, update="  \n", expected=ORIGINAL, filename="geo.py"),
    ]


def test_run_case_classifies_correct_wrong_refused():
    results = {c.id: accuracy.run_case(c) for c in _cases()}
    assert results["ok"].outcome == "correct"
    assert results["bad"].outcome == "wrong"
    assert "-    return w * h" in results["bad"].diff and "+    return abs(w * h)" in results["bad"].diff
    assert results["empty"].outcome == "refused" and results["empty"].code == "empty_update"
    assert all(r.language == "python" and r.ms >= 0 for r in results.values())


def test_main_writes_report_and_exit_status(tmp_path, capsys):
    data = tmp_path / "tiny.jsonl"
    write_jsonl(_cases(), data)
    out = tmp_path / "report.json"
    assert accuracy.main(["--data", str(data), "--out", str(out), "--no-progress"]) == 0
    report = json.loads(out.read_text())
    overall = report["overall"]
    assert (overall["cases"], overall["correct"], overall["wrong"], overall["refused"]) == (3, 1, 1, 1)
    assert report["languages"]["python"]["correct_pct"] == pytest.approx(33.33)
    assert report["refusal_codes"] == {"empty_update": 1}
    assert report["tags"]["whole_file"]["correct"] == 1 and list(report["tags"]) == ["whole_file"]
    printed = capsys.readouterr().out
    assert "overall" in printed and "wrong   bad" in printed and "[empty_update]" in printed
    assert accuracy.main(["--data", str(data), "--out", str(out), "--no-progress", "--fail-under", "50",
                          "--by-tag"]) == 1
    assert "by kind of edit" in capsys.readouterr().out


def test_a_crash_is_reported_and_fails_the_run(tmp_path, monkeypatch, capsys):
    data = tmp_path / "tiny.jsonl"
    write_jsonl(_cases()[:1], data)

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(fastapply, "apply", broken)
    assert accuracy.run_case(_cases()[0]).outcome == "crashed"
    assert accuracy.main(["--data", str(data), "--out", str(tmp_path / "r.json"), "--no-progress"]) == 1
    assert "RuntimeError: boom" in capsys.readouterr().out


def test_several_sources_including_fixture_folders(tmp_path):
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "geo.py.diff").write_text(f"{ORIGINAL}\n---\n\n{WHOLE}\n---\n\n"
                                          "def area(w, h):\n- return w * h\n+ return abs(w * h)\n")
    data = tmp_path / "tiny.jsonl"
    write_jsonl(_cases(), data)
    cases = accuracy.load_all([str(data), str(fixtures)])
    assert [c.id for c in cases] == ["ok", "bad", "empty", "geo.py"]


def test_percentile_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert accuracy.percentile(values, 99) == 99.0
    assert accuracy.percentile(values, 50) == 50.0
    assert accuracy.percentile([], 99) == 0.0


def test_plot_writes_a_png(tmp_path):
    results = [accuracy.run_case(c) for c in _cases()]
    report = accuracy.build_report(results, "structural", ["tiny"])
    path = tmp_path / "acc.png"
    accuracy.plot_report(report, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_hanging_merge_counts_as_crashed(monkeypatch):
    def hang(*args, **kwargs):
        while True:
            time.sleep(0.01)

    monkeypatch.setattr(fastapply, "apply", hang)
    result = accuracy.run_case(_cases()[0], timeout=0.2)
    assert result.outcome == "crashed" and result.code == "CaseTimeout"


def test_wrong_merges_are_split_into_whitespace_only_and_substantive(tmp_path, capsys):
    # A whole-file snippet comes back as is: expected differs from it in blank lines and indentation
    # only (whitespace-only wrong), or in code (substantive wrong).
    spaced = WHOLE.replace("\n\n\n", "\n\n\n\n").replace("    return 2", "  return 2")
    cases = [Case(id="ws", original=ORIGINAL, update=WHOLE, expected=spaced, filename="geo.py", tags=["t"]),
             Case(id="sub", original=ORIGINAL, update=WHOLE, expected=ORIGINAL, filename="geo.py",
                  tags=["t"])]
    results = {c.id: accuracy.run_case(c) for c in cases}
    assert results["ws"].outcome == "wrong" and results["ws"].whitespace_only
    assert results["sub"].outcome == "wrong" and not results["sub"].whitespace_only
    summary = accuracy.summarize(list(results.values()))
    assert (summary.wrong, summary.wrong_whitespace, summary.wrong_substantive) == (2, 1, 1)
    data = tmp_path / "ws.jsonl"
    write_jsonl(cases, data)
    png = tmp_path / "tags.png"
    assert accuracy.main(["--data", str(data), "--out", str(tmp_path / "r.json"), "--no-progress",
                          "--json", "--plot-tags", str(png)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["overall"]["wrong_whitespace"] == 1 and printed["tags"]["t"]["wrong_substantive"] == 1
    assert "results" not in printed
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_wrong_merges_are_also_counted_once_per_edit_across_seeds():
    # the same release-pair edit generated under two seeds is one distinct wrong merge
    made = [accuracy.CaseResult(id=case_id, language="python", outcome=outcome, ms=1.0)
            for case_id, outcome in [("llm:7001:pypi-x-pair:mod.py", "wrong"), ("llm:7002:pypi-x-pair:mod.py", "wrong"),
                                     ("llm:7001:stdlib/a.py:0:move", "wrong"), ("llm:7001:stdlib/b.py:0:move", "correct"),
                                     ("corpus/python/one", "wrong")]]
    summary = accuracy.summarize(made)
    assert (summary.wrong, summary.wrong_distinct) == (4, 3)
    assert accuracy.edit_key("llm:7003:pypi-x-pair:mod.py") == "pypi-x-pair:mod.py"


def test_a_held_out_report_does_not_list_its_failing_cases():
    import io

    from rich.console import Console

    from evals.accuracy_tables import print_report

    report = accuracy.build_report([accuracy.run_case(c) for c in _cases()], "structural", [])
    for listed in (True, False):
        out = io.StringIO()
        print_report(report, Console(file=out, width=200), list_cases=listed)
        text = out.getvalue()
        assert "overall" in text
        assert ("wrong   bad" in text) is listed and ("[empty_update]" in text) is listed
        assert ("failing cases are not listed" in text) is not listed


def test_refusals_record_the_snippet_line_they_name():
    # a snippet whose new line's context occurs twice: refused, naming snippet line 2
    original = "def a():\n    x = 1\n    return x\n\n\ndef b():\n    x = 1\n    return x\n"
    update = "# ... existing code ...\n    x = 1\n    y = 2\n# ... existing code ...\n"
    placed = Case(id="twice", original=original, update=update, expected=original, filename="m.py")
    empty = _cases()[2]
    results = [accuracy.run_case(placed), accuracy.run_case(empty)]
    assert [r.outcome for r in results] == ["refused", "refused"]
    assert results[0].line is not None and f"line {results[0].line}" in results[0].message
    assert results[1].line is None  # (an empty snippet has no line to name)
    summary = accuracy.summarize(results)
    assert summary.refused == 2 and summary.refused_with_line == 1
