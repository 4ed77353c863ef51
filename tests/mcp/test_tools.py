"""The MCP tools' file rules: confinement to the root, atomic all-or-nothing writes, refusals an agent can act on."""

from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest

import fastapply
from fastapply.mcp.tools import Refusal, Workspace

ORIGINAL = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
SNIPPET = "def area(w, h):\n    return abs(w * h)\n\n# ... existing code ...\n"


async def structural(original: str, snippet: str, path: str, instruction: str | None):
    return fastapply.apply(original, snippet, filename=path, instruction=instruction)


def call(coro_fn, *args):
    return anyio.run(lambda: coro_fn(*args))


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    (tmp_path / "geo.py").write_text(ORIGINAL)
    return Workspace(tmp_path, structural)


def refusal(fn, *args) -> Refusal:
    with pytest.raises(Refusal) as info:
        call(fn, *args)
    text = str(info.value)
    assert text.startswith(f"error [{info.value.code}]:") and "\nwhat to send instead: " in text
    return info.value


def test_edit_file_writes_the_library_merge_and_reports_the_diff(ws, tmp_path):
    out = call(ws.edit_file, "geo.py", SNIPPET, "area is never negative")
    assert (tmp_path / "geo.py").read_text() == fastapply.apply(ORIGINAL, SNIPPET, filename="geo.py").merged_code
    assert out.startswith("edited geo.py: +1 -1 lines") and "+    return abs(w * h)" in out


def test_crlf_and_bom_survive_an_edit(ws, tmp_path):
    raw = "\ufeff" + ORIGINAL.replace("\n", "\r\n")
    (tmp_path / "geo.py").write_bytes(raw.encode())
    call(ws.edit_file, "geo.py", SNIPPET, None)
    assert (tmp_path / "geo.py").read_bytes().decode() == fastapply.apply(raw, SNIPPET).merged_code


@pytest.mark.parametrize("path", ["../outside.py", "/etc/passwd", "a/../../x.py", "link/evil.py"])
def test_paths_outside_the_root_are_refused(ws, tmp_path, path):
    outside = tmp_path.parent / "outside-target"
    outside.mkdir(exist_ok=True)
    (tmp_path / "link").symlink_to(outside)
    assert refusal(ws.edit_file, path, "x = 1\n", None).code == "path_outside_root"
    assert not (outside / "evil.py").exists()


def test_absolute_path_inside_the_root_is_accepted(ws, tmp_path):
    call(ws.str_replace, str(tmp_path / "geo.py"), "w * h", "h * w", False)
    assert "return h * w" in (tmp_path / "geo.py").read_text()


def test_missing_file_is_created_only_from_a_snippet_without_markers(ws, tmp_path):
    assert refusal(ws.edit_file, "pkg/new.py", "# ... existing code ...\nx = 1\n", None).code == "file_not_found"
    assert not (tmp_path / "pkg").exists()
    out = call(ws.edit_file, "pkg/new.py", "x = 1\ny = 2\n", None)
    assert (tmp_path / "pkg" / "new.py").read_text() == "x = 1\ny = 2\n" and out.startswith("created pkg/new.py")


def test_a_refused_merge_changes_nothing(ws, tmp_path):
    before = (tmp_path / "geo.py").read_bytes()
    snippet = "# ... existing code ...\nnot_in_file_one = two(three)\n# ... existing code ...\nmissing_four()\n"
    assert refusal(ws.edit_file, "geo.py", snippet, None).code in ("anchor_not_found", "ambiguous_anchor")
    assert (tmp_path / "geo.py").read_bytes() == before


def test_a_file_changed_during_the_merge_is_not_overwritten(tmp_path):
    target = tmp_path / "geo.py"
    target.write_text(ORIGINAL)

    async def racing_merge(original, snippet, path, instruction):
        target.write_text(ORIGINAL.replace("2 * (w + h)", "2 * w + 2 * h"))  # another editor saves meanwhile
        return fastapply.apply(original, snippet, filename=path)

    ws = Workspace(tmp_path, racing_merge)
    assert refusal(ws.edit_file, "geo.py", SNIPPET, None).code == "no_match"
    assert target.read_text() == ORIGINAL.replace("2 * (w + h)", "2 * w + 2 * h")


def test_str_replace_unique_ambiguous_and_replace_all(ws, tmp_path):
    (tmp_path / "twice.py").write_text("a = 1\nb = 1\n")
    assert refusal(ws.str_replace, "twice.py", " = 1", " = 2", False).code == "ambiguous_match"
    out = call(ws.str_replace, "twice.py", " = 1", " = 2", True)
    assert (tmp_path / "twice.py").read_text() == "a = 2\nb = 2\n" and "+2 -2 lines" in out
    assert refusal(ws.str_replace, "nope.py", "a", "b", False).code == "file_not_found"


PATCH = """\
--- a/geo.py
+++ b/geo.py
@@ -1,2 +1,2 @@
 def area(w, h):
-    return w * h
+    return float(w * h)
--- /dev/null
+++ b/units.py
@@ -0,0 +1 @@
+UNITS = "m"
"""


def test_apply_patch_many_files_dry_run_then_for_real(ws, tmp_path):
    out = call(ws.apply_patch, PATCH, True)
    assert out.startswith("dry run, nothing written: 2 of 2 files changed") and not (tmp_path / "units.py").exists()
    assert "return w * h" in (tmp_path / "geo.py").read_text()
    call(ws.apply_patch, PATCH, False)
    assert (tmp_path / "units.py").read_text() == 'UNITS = "m"\n'
    assert "return float(w * h)" in (tmp_path / "geo.py").read_text()


def test_apply_patch_is_all_or_nothing(ws, tmp_path):
    bad = PATCH.replace(" def area(w, h):\n-    return w * h", " def volume(w, h):\n-    return w * h * d")
    assert refusal(ws.apply_patch, bad, False).code == "no_match"
    assert not (tmp_path / "units.py").exists() and (tmp_path / "geo.py").read_text() == ORIGINAL


def test_root_must_be_a_folder(tmp_path):
    with pytest.raises(Refusal):
        Workspace(tmp_path / "missing", structural)


def test_folder_target_refused(ws, tmp_path):
    os.mkdir(tmp_path / "pkg")
    assert refusal(ws.edit_file, "pkg", "x = 1\n", None).code == "invalid_argument"


def test_apply_patch_ambiguity_refuses_by_default_and_first_takes_the_first(ws, tmp_path):
    twice = "def f():\n    return 1\n\n\ndef g():\n    return 1\n"
    (tmp_path / "twice.py").write_text(twice)
    block = "twice.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n"
    assert refusal(ws.apply_patch, block, False).code == "ambiguous_match"
    assert (tmp_path / "twice.py").read_text() == twice
    call(ws.apply_patch, block, False, "first")
    assert (tmp_path / "twice.py").read_text() == "def f():\n    return 2\n\n\ndef g():\n    return 1\n"
