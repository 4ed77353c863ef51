import os

import pytest

from fastapply import ApplyError, apply_batch
from fastapply.formats.paths import clean_path, resolve_under


@pytest.mark.parametrize("path", ["../x.py", "a/../../x.py", "/etc/passwd", "C:/win.ini", "~/x", "a/\x00b", ".", ""])
def test_refused_paths(path):
    with pytest.raises(ApplyError) as e:
        clean_path(path)
    assert e.value.code in ("path_outside_root", "malformed_edit")


def test_clean_path_normalises():
    assert clean_path("./a//b/./c.py") == "a/b/c.py"
    assert clean_path("a\\b.py") == "a/b.py"


def test_symlink_leaving_root(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.py").write_text("x = 1\n")
    os.symlink(outside, root / "link")
    os.symlink(outside / "secret.py", root / "file.py")
    for p in ("link/secret.py", "file.py"):
        with pytest.raises(ApplyError) as e:
            resolve_under(root, p)
        assert e.value.code == "path_outside_root"
    (root / "inner.py").write_text("y\n")
    os.symlink(root / "inner.py", root / "alias.py")
    assert resolve_under(root, "alias.py") == (root / "inner.py").resolve()


def test_batch_refuses_escape_and_writes_nothing(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "victim.py").write_text("x = 1\n")
    os.symlink(tmp_path / "victim.py", root / "v.py")
    for path in ("../victim.py", "v.py", str(tmp_path / "victim.py")):
        r = apply_batch([{"path": path, "old": "x = 1", "new": "x = 2"}], root=root)
        assert not r.ok and r.files[0].error.code == "path_outside_root" and not r.written
    diff = "--- a/../victim.py\n+++ b/../victim.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    r = apply_batch(diff, root=root)
    assert not r.ok
    assert (tmp_path / "victim.py").read_text() == "x = 1\n"
