import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

DIFF = "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n"
BAD = "--- a/n.py\n+++ b/n.py\n@@ -1,2 +1,2 @@\n def g():\n-    return 'nothing like it'\n+    return 3\n"


def run(args, cwd, stdin=None):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "fastapply", "patch", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, env=env, timeout=60)


def setup(tmp_path):
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    (tmp_path / "n.py").write_text("def g():\n    return 1\n")


def test_help_lists_formats():
    out = run(["--help"], REPO)
    assert out.returncode == 0
    for word in ("--atomic", "--dry-run", "--diff", "search-replace", "v4a", "*** Begin Patch", "exit status"):
        assert word in out.stdout


def test_apply_from_stdin_and_summary(tmp_path):
    setup(tmp_path)
    out = run(["--root", str(tmp_path), "-"], tmp_path, stdin=DIFF)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "m.py").read_text() == "def f():\n    return 2\n"
    assert "modified  m.py (1 applied)" in out.stdout and "1 of 1 files changed" in out.stdout


def test_atomic_failure_writes_nothing_and_exits_1(tmp_path):
    setup(tmp_path)
    (tmp_path / "edits.diff").write_text(DIFF + BAD)
    out = run(["--atomic", "edits.diff"], tmp_path)
    assert out.returncode == 1
    assert (tmp_path / "m.py").read_text() == "def f():\n    return 1\n"
    assert "error [no_match]" in out.stdout and "nothing written (--atomic)" in out.stdout
    out = run(["edits.diff"], tmp_path)  # best effort: m.py written, still exit 1
    assert out.returncode == 1 and (tmp_path / "m.py").read_text().endswith("return 2\n")


def test_dry_run_diff_and_json(tmp_path):
    setup(tmp_path)
    edits = json.dumps([{"path": "m.py", "old": "return 1", "new": "return 5"}])
    out = run(["--dry-run", "--diff", "-"], tmp_path, stdin=edits)
    assert out.returncode == 0 and "+    return 5" in out.stdout and "dry run" in out.stderr
    assert (tmp_path / "m.py").read_text().endswith("return 1\n")
    out = run(["--json", "--dry-run", "-"], tmp_path, stdin=edits)
    data = json.loads(out.stdout)
    assert data["ok"] and data["files"][0]["status"] == "modified"


def test_errors_without_traceback(tmp_path):
    setup(tmp_path)
    out = run(["--root", str(tmp_path), "-"], tmp_path, stdin="nothing to apply here")
    assert out.returncode == 1 and "error [empty_update]" in out.stderr and "Traceback" not in out.stderr
    out = run(["missing.diff"], tmp_path)
    assert out.returncode == 1 and "file_not_found" in out.stderr
    out = run(["--format", "nope"], tmp_path)
    assert out.returncode == 2
    out = run(["-"], tmp_path, stdin="--- a/../x.py\n+++ b/../x.py\n@@ -1 +1 @@\n-a\n+b\n")
    assert out.returncode == 1 and "path_outside_root" in out.stdout


def test_progress_bar_for_many_files(tmp_path):
    edits = []
    for i in range(25):
        (tmp_path / f"f{i}.py").write_text(f"x = {i}\n")
        edits.append({"path": f"f{i}.py", "old": f"x = {i}", "new": f"x = {i + 100}"})
    out = run(["-"], tmp_path, stdin=json.dumps(edits))
    assert out.returncode == 0 and "25 of 25 files changed" in out.stdout
    assert (tmp_path / "f24.py").read_text() == "x = 124\n"


def test_progress_bar_only_above_threshold():
    from fastapply.cli.patch import PROGRESS_MIN_FILES, _Progress

    with _Progress() as small:
        small(1, PROGRESS_MIN_FILES, "a.py")
        assert small.bar is None
    with _Progress() as big:
        big(1, PROGRESS_MIN_FILES + 1, "a.py")
        assert big.bar is not None
