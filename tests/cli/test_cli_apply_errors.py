"""`fastapply apply` error paths: one line `fastapply: error [code]: message` on stderr, exit 1, no
traceback, and the file untouched. Run as a real subprocess, as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"


def fastapply(*args: str, cwd: Path, stdin: str | None = None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fastapply", *args], cwd=cwd, input=stdin, text=True,
                          capture_output=True, timeout=60, env={**os.environ, **(env or {})})


def assert_error(result: subprocess.CompletedProcess[str], code: str, *needles: str) -> None:
    assert result.returncode == 1, result
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"fastapply: error [{code}]: "), lines[0]
    for needle in needles:
        assert needle in lines[0]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text(ORIGINAL)
    (tmp_path / "snippet.py").write_text("# ... existing code ...\ndef g():\n    return 3\n")
    return tmp_path


def test_the_happy_path_for_contrast(work):
    result = fastapply("apply", "m.py", "-u", "snippet.py", "--in-place", cwd=work)
    assert result.returncode == 0 and result.stderr == ""
    assert (work / "m.py").read_text() == ORIGINAL.replace("return 2", "return 3")


def test_missing_file(work):
    assert_error(fastapply("apply", "nope.py", "-u", "snippet.py", cwd=work), "file_not_found", "'nope.py'")


def test_missing_snippet(work):
    assert_error(fastapply("apply", "m.py", "-u", "gone.txt", cwd=work), "file_not_found", "update snippet",
                 "'gone.txt'")


def test_a_folder_is_not_a_file(work):
    assert_error(fastapply("apply", ".", "-u", "snippet.py", cwd=work), "invalid_argument", "folder")


def test_binary_file_is_refused_and_untouched(work):
    blob = b"\x7fELF\x00\x01\x02\x00binary"
    (work / "prog.py").write_bytes(blob)
    assert_error(fastapply("apply", "prog.py", "-u", "snippet.py", "-i", cwd=work), "not_text", "binary")
    assert (work / "prog.py").read_bytes() == blob


def test_empty_update_from_stdin(work):
    assert_error(fastapply("apply", "m.py", "-u", "-", "-i", cwd=work, stdin="  \n\n"), "empty_update")
    assert (work / "m.py").read_text() == ORIGINAL


def test_anchor_not_found_leaves_the_file_untouched_in_place(work):
    (work / "lost.py").write_text("# ... existing code ...\ndef nowhere_in_the_file():\n    pass\n"
                                  "# ... existing code ...\ndef also_not_there():\n    return 9\n")
    before = (work / "m.py").stat().st_mtime_ns
    result = fastapply("apply", "m.py", "-u", "lost.py", "--in-place", cwd=work)
    assert_error(result, "anchor_not_found", "nowhere_in_the_file")
    assert (work / "m.py").read_text() == ORIGINAL and (work / "m.py").stat().st_mtime_ns == before
    assert sorted(p.name for p in work.iterdir()) == ["lost.py", "m.py", "snippet.py"]  # no temp file left


def test_model_engine_without_a_model(work):
    assert_error(fastapply("apply", "m.py", "-u", "snippet.py", "--engine", "model", cwd=work),
                 "model_not_configured", "--model SPEC")


def test_stdin_cannot_be_the_file(work):
    assert_error(fastapply("apply", "-", "-u", "snippet.py", cwd=work, stdin=ORIGINAL), "invalid_argument")


def test_usage_errors_exit_2(work):
    result = fastapply("apply", "m.py", cwd=work)
    assert result.returncode == 2 and "--update" in result.stderr and "Traceback" not in result.stderr
