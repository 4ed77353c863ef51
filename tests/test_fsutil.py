import os
import stat

import pytest

from fastapply.fsutil import atomic_write


def test_atomic_write_keeps_mode_and_leaves_no_temp(tmp_path):
    target = tmp_path / "script.sh"
    target.write_text("old\n")
    os.chmod(target, 0o751)
    atomic_write(target, "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o751
    assert [p.name for p in tmp_path.iterdir()] == ["script.sh"]


def test_atomic_write_failure_leaves_original(tmp_path, monkeypatch):
    target = tmp_path / "f.txt"
    target.write_text("original\n")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(target, "new\n")
    assert target.read_text() == "original\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]
