"""Inputs that used to take minutes (evals/adversarial.py): the merge engine's bounds, by outcome."""

from __future__ import annotations

import random

import pytest

import fastapply
from fastapply import linediff
from fastapply.errors import ApplyError
from fastapply.merge import refine


def _functions(count: int) -> str:
    return "".join(f"function f{i:07d}() {{\n  return 1;\n}}\n\n" for i in range(count))


def test_repeated_lines_between_markers_are_refused_as_ambiguous():
    # the case: quadratic before (1.1 s at 164 KB, 16.8 s at 672 KB)
    snippet = "// ... existing code ...\n" + "  return 1;\n}\n\n" * 2000 + "// ... existing code ...\n"
    with pytest.raises(ApplyError) as caught:
        fastapply.apply(_functions(4000), snippet, filename="a.js")
    assert caught.value.code == "ambiguous_anchor"


def test_a_spent_straggler_budget_refuses_rather_than_guesses(monkeypatch):
    original = "".join(f"function f{i}() {{\n  const limit = {i};\n  return check(limit);\n}}\n\n" for i in range(30))
    snippet = "// ... existing code ...\n  const limit = 170;\n// ... existing code ...\n"
    original = original.replace("const limit = 17;", "const limit = 17; // the one")
    snippet = snippet.replace("const limit = 170;", "const limit = 18; // the one")
    merged = fastapply.apply(original, snippet, filename="a.js").merged_code
    assert "const limit = 18; // the one" in merged
    monkeypatch.setattr(refine, "STRAGGLER_BUDGET", 0)
    with pytest.raises(ApplyError) as caught:
        fastapply.apply(original, snippet, filename="a.js")
    assert caught.value.code in ("anchor_not_found", "ambiguous_anchor")


@pytest.mark.parametrize("lcs_cells", [0, 40, 10**9])
def test_the_bounded_line_diff_is_a_correct_edit_script(monkeypatch, lcs_cells):
    # small inputs go to difflib; force the patience split, the LCS and the replaced-block paths
    monkeypatch.setattr(linediff, "_DIFFLIB_CELLS", 0)
    monkeypatch.setattr(linediff, "_LCS_CELLS", lcs_cells)
    rng = random.Random(lcs_cells)
    for _ in range(300):
        a = [f"{rng.choice('abcdefg')}{rng.randint(0, 30)}" for _ in range(rng.randint(0, 50))]
        b = list(a)
        for _ in range(rng.randint(0, 8)):
            at = rng.randint(0, len(b))
            choice = rng.random()
            if choice < 0.4:
                b.insert(at, rng.choice("xyz"))
            elif b and choice < 0.8:
                del b[min(at, len(b) - 1)]
            elif b:
                b[min(at, len(b) - 1)] = "q"
        rebuilt: list[str] = []
        at_a = at_b = 0
        for tag, i1, i2, j1, j2 in linediff.opcodes(a, b):
            assert (i1, j1) == (at_a, at_b)  # contiguous, in order, covering both sides
            at_a, at_b = i2, j2
            if tag == "equal":
                assert a[i1:i2] == b[j1:j2]
                rebuilt += a[i1:i2]
            else:
                rebuilt += b[j1:j2]
        assert rebuilt == b and (at_a, at_b) == (len(a), len(b))
