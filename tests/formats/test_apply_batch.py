import pytest

from fastapply import ApplyError, BatchResult, FileResult, apply_batch

FILES = {"a.py": "def a():\n    return 1\n", "b.py": "def b():\n    return 2\n", "c.py": "gone = True\n"}

MIXED = """Plan: edit a, b, add d, delete c.

a.py
```python
<<<<<<< SEARCH
    return 1
=======
    return 10
>>>>>>> REPLACE
```

```diff
--- a/b.py
+++ b/b.py
@@ -1,2 +1,2 @@
 def b():
-    return 2
+    return 20
```

*** Begin Patch
*** Add File: pkg/d.py
+d = 4
*** Delete File: c.py
*** End Patch
"""


def test_mixed_formats_over_mapping():
    r = apply_batch(MIXED, FILES)
    assert isinstance(r, BatchResult) and r.ok and not r.written
    assert r.contents == {"a.py": "def a():\n    return 10\n", "b.py": "def b():\n    return 20\n",
                          "pkg/d.py": "d = 4\n", "c.py": None}
    status = {f.path: f.status for f in r.files}
    assert status == {"a.py": "modified", "b.py": "modified", "pkg/d.py": "created", "c.py": "deleted"}
    assert r.summary.files_changed == 4 and r.summary.failed == 0
    assert "+    return 20" in r.diff


def test_best_effort_vs_atomic_on_disk(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    bad = MIXED.replace("-    return 2\n+    return 20", "-    return 99999 + unknown\n+    return 20")
    r = apply_batch(bad, root=tmp_path, atomic=True)
    assert not r.ok and not r.written and r.contents == {}
    assert {p.name: p.read_text() for p in tmp_path.glob("*.py")} == FILES
    assert not (tmp_path / "pkg").exists()
    failed = [f for f in r.files if f.status == "failed"]
    assert [f.path for f in failed] == ["b.py"] and failed[0].error.code == "no_match"

    r = apply_batch(bad, root=tmp_path)
    assert not r.ok and r.written and r.summary.files_failed == 1
    assert (tmp_path / "a.py").read_text() == "def a():\n    return 10\n"
    assert (tmp_path / "b.py").read_text() == FILES["b.py"]
    assert (tmp_path / "pkg" / "d.py").read_text() == "d = 4\n" and not (tmp_path / "c.py").exists()


def test_dry_run_writes_nothing(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    r = apply_batch(MIXED, root=tmp_path, dry_run=True)
    assert r.ok and not r.written and r.contents["a.py"].endswith("10\n")
    assert (tmp_path / "a.py").read_text() == FILES["a.py"] and (tmp_path / "c.py").exists()


def test_json_edits_and_lazy_and_crlf():
    files = {"w.py": "x = 1\r\ny = 2\r\n"}
    r = apply_batch([{"path": "w.py", "old_string": "y = 2", "new_string": "y = 3"},
                     {"path": "w.py", "edits": [{"old": "x = 1", "new": "x = 0"}]}], files)
    assert r.ok and r.contents["w.py"] == "x = 0\r\ny = 3\r\n"
    assert r.files[0].formats == ["replacements"] and r.files[0].applied == 2
    from fastapply.formats.detect import json_ops

    assert json_ops([{"path": "w.py", "update": "x = 5\n"}])[0].format == "lazy"


def test_missing_file_exists_and_move(tmp_path):
    r = apply_batch("--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-a\n+b\n", {})
    assert r.files[0].error.code == "file_not_found"
    r = apply_batch("--- /dev/null\n+++ b/a.py\n@@ -0,0 +1 @@\n+other\n", FILES)
    assert r.files[0].error.code == "file_exists"
    # V4A's `*** Add File:` over an existing file replaces it, as Codex's apply_patch does.
    r = apply_batch("*** Begin Patch\n*** Add File: a.py\n+other\n*** End Patch\n", FILES)
    assert r.ok and r.contents["a.py"] == "other\n" and "replaced it" in r.files[0].warnings[0]
    r = apply_batch("*** Begin Patch\n*** Update File: a.py\n*** Move to: z/a2.py\n@@\n-    return 1\n+    return 5\n*** End Patch\n", FILES)
    assert r.ok and r.contents == {"a.py": None, "z/a2.py": "def a():\n    return 5\n"}
    assert r.files[0].status == "moved" and r.files[0].new_path == "z/a2.py"


def test_fuzzed_counts_and_progress():
    seen = []
    diff = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\ndef a():\n-return 1\n+return 7\n"
    r = apply_batch(diff, FILES, progress=lambda done, total, path: seen.append((done, total, path)))
    assert r.ok and r.contents["a.py"] == "def a():\n    return 7\n"
    f: FileResult = r.files[0]
    assert (f.applied, f.fuzzed) == (1, 1) and "trimmed tolerance" in f.warnings[0]
    assert seen == [(1, 1, "a.py")]


@pytest.mark.parametrize("edits,code", [("no edits here", "empty_update"), ([{"old": "x", "new": "y"}], "malformed_edit"),
                                        ("@@ -1 +1 @@\n-a\n+b\n", "malformed_edit"), (42, "invalid_argument")])
def test_bad_input_raises_apply_error(edits, code):
    with pytest.raises(ApplyError) as e:
        apply_batch(edits, FILES)
    assert e.value.code == code


def test_needs_exactly_one_source(tmp_path):
    with pytest.raises(ApplyError):
        apply_batch(MIXED)
    with pytest.raises(ApplyError):
        apply_batch(MIXED, FILES, root=tmp_path)


def test_lazy_edits_go_through_fastapply_apply():
    files = {"m.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n"}
    update = "# ... existing code ...\ndef g():\n    return 3\n"
    r = apply_batch([{"path": "m.py", "update": update}], files)
    f = r.files[0]
    assert f.formats == ["lazy"] and f.status == "modified" and f.error is None and r.ok
    assert r.contents["m.py"] == "def f():\n    return 1\n\n\ndef g():\n    return 3\n"
    # The same engine as fastapply.apply, byte for byte.
    from fastapply import apply

    assert r.contents["m.py"] == apply(files["m.py"], update, filename="m.py").merged_code


def test_a_lazy_edit_the_engine_refuses_fails_its_file_only():
    files = {"m.py": "def f():\n    return 1\n", "n.py": "x = 1\n"}
    r = apply_batch([{"path": "m.py", "update": "   \n"}, {"path": "n.py", "old": "x = 1", "new": "x = 2"}], files)
    assert not r.ok
    assert r.files[0].status == "failed" and r.files[0].error.code == "empty_update"
    assert r.contents["n.py"] == "x = 2\n" and "m.py" not in r.contents
