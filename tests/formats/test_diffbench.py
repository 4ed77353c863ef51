"""Smoke test of the diff benchmark: a tiny corpus, every tool, every drift kind."""

import shutil

import pytest

from evals import diffbench


@pytest.mark.skipif(shutil.which("patch") is None or shutil.which("git") is None, reason="needs GNU patch and git")
def test_tiny_bench(tmp_path):
    report = diffbench.run_bench(3, seed=7, show=False)
    rows = report["rows"]
    assert report["n"] == 3
    # Every undrifted input applies correctly with every tool and in every form.
    for r in rows:
        if r["drift"] == "none":
            assert r["correct"] == r["total"] > 0, r
    c, w, t = diffbench.rate(rows, tool="fastapply", drift=[d for d in diffbench.DRIFTS if d != "none"])
    assert w == 0 and t > 0
    diffbench.plot(report, str(tmp_path / "p.png"))
    assert (tmp_path / "p.png").stat().st_size > 1000


def test_forms_render_the_same_edit():
    hunk = diffbench.Hunk(old_start=4, new_start=4, lines=[(" ", "a"), ("-", "b"), ("+", "B"), (" ", "c")])
    assert "@@ -5,3 +5,3 @@\n a\n-b\n+B\n c\n" in diffbench.render_udiff("x.py", [hunk])
    assert "@@ ... @@" in diffbench.render_udiff("x.py", [hunk], numbers=False)
    assert "<<<<<<< SEARCH\na\nb\nc\n=======\na\nB\nc\n>>>>>>> REPLACE" in diffbench.render_search_replace("x.py", [hunk])
    assert "*** Update File: x.py\n@@\n a\n-b\n+B\n c\n*** End Patch" in diffbench.render_v4a("x.py", [hunk])
