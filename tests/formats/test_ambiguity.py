"""The ambiguity policy on every entry point of the formats: library, `fastapply patch --ambiguity`.
(HTTP: tests/service/test_batch_dialects.py.)"""

import subprocess
import sys

import pytest

from fastapply import ApplyError, Policy, apply_batch, apply_replacements, apply_udiff, apply_v4a

SRC = "x = 0\ny = 1\nx = 0\nz = 2\n"
SR = "m.py\n<<<<<<< SEARCH\nx = 0\n=======\nx = 5\n>>>>>>> REPLACE\n"


def test_batch_refuses_by_default_and_first_takes_the_first():
    r = apply_batch(SR, {"m.py": SRC})
    assert not r.ok and r.files[0].error.code == "ambiguous_match"
    r = apply_batch(SR, {"m.py": SRC}, ambiguity="first")
    assert r.ok and r.contents["m.py"] == "x = 5\ny = 1\nx = 0\nz = 2\n"
    assert apply_batch(SR, {"m.py": SRC}, policy=Policy(ambiguity="first")).contents == r.contents


def test_first_prefers_the_copy_after_the_previous_edit():
    text = SR.replace("x = 0\n=======", "z = 2\n=======").replace("x = 5", "z = 3") + SR[5:]
    # block 1 edits line 4; block 2's text occurs at lines 1 and 3: neither is after line 4, so the first
    r = apply_batch(text, {"m.py": SRC}, ambiguity="first")
    assert r.contents["m.py"] == "x = 5\ny = 1\nx = 0\nz = 3\n"
    # block 1 edits line 2; block 2's text occurs at lines 1 and 3: line 3 is after it (Cline, Codex)
    text = SR.replace("x = 0\n=======", "y = 1\n=======").replace("x = 5", "y = 9") + SR[5:]
    r = apply_batch(text, {"m.py": SRC}, ambiguity="first")
    assert r.contents["m.py"] == "x = 0\ny = 9\nx = 5\nz = 2\n"


def test_a_line_number_hint_chooses_before_the_policy():
    diff = "--- a/m.py\n+++ b/m.py\n@@ -3 +3 @@\n-x = 0\n+x = 8\n"
    assert apply_udiff(SRC, diff).merged_code == "x = 0\ny = 1\nx = 8\nz = 2\n"
    assert apply_udiff(SRC, diff, ambiguity="first").merged_code == "x = 0\ny = 1\nx = 8\nz = 2\n"
    # a hint that does not point clearly (equally near both): refuse, or with "first" the nearest
    far = [{"old": "x = 0\n", "new": "x = 4\n", "start_line": 2}]
    with pytest.raises(ApplyError):
        apply_replacements(SRC, far)
    assert apply_replacements(SRC, far, ambiguity="first").merged_code == "x = 4\ny = 1\nx = 0\nz = 2\n"


def test_replacement_lists_and_v4a_take_the_policy():
    with pytest.raises(ApplyError):
        apply_replacements(SRC, [("x = 0", "x = 1")])
    assert apply_replacements(SRC, [("x = 0", "x = 1")], ambiguity="first").merged_code.startswith("x = 1\ny")
    patch = "*** Begin Patch\n*** Update File: m.py\n@@\n-x = 0\n+x = 6\n*** End Patch\n"
    assert apply_v4a(SRC, patch, ambiguity="first").merged_code.startswith("x = 6\ny")


@pytest.mark.parametrize("value", ["maybe", "FIRST", ""])
def test_unknown_ambiguity_is_invalid_argument(value):
    with pytest.raises(ApplyError) as e:
        apply_batch(SR, {"m.py": SRC}, ambiguity=value)
    assert e.value.code == "invalid_argument"


def test_cli_ambiguity_flag(tmp_path):
    (tmp_path / "m.py").write_text(SRC)
    run = [sys.executable, "-m", "fastapply", "patch", "--root", str(tmp_path), "-"]
    refused = subprocess.run(run, input=SR, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "ambiguous_match" in refused.stdout
    assert (tmp_path / "m.py").read_text() == SRC
    done = subprocess.run([*run, "--ambiguity", "first"], input=SR, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "m.py").read_text() == "x = 5\ny = 1\nx = 0\nz = 2\n"
    usage = subprocess.run([*run, "--ambiguity", "maybe"], input=SR, capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def test_cli_whole_format(tmp_path):
    (tmp_path / "m.py").write_text(SRC)
    text = "m.py\n```python\nprint('new')\n```\n"
    out = subprocess.run([sys.executable, "-m", "fastapply", "patch", "--root", str(tmp_path), "--format", "whole",
                          "-"], input=text, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "m.py").read_text() == "print('new')\n"
