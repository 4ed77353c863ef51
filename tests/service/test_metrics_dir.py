"""The shared metrics folder of `fastapply serve --workers N`: a folder left by a supervisor that was
killed with SIGKILL (no chance to clean up) is removed by the next start; live ones are kept."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from fastapply.service import metrics_dir


def _folder(parent: Path, name: str, owner: int | None) -> Path:
    folder = parent / (metrics_dir.PREFIX + name)
    folder.mkdir()
    (folder / "counter_123.db").write_bytes(b"old counts")
    if owner is not None:
        (folder / metrics_dir.OWNER).write_text(str(owner))
    return folder


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_folders_of_killed_supervisors_are_removed_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    stale = _folder(tmp_path, "stale", _dead_pid())
    live = _folder(tmp_path, "live", os.getpid())
    unknown = _folder(tmp_path, "unknown", None)  # being set up by another start, or not ours
    with metrics_dir.shared_metrics(2, reap_every_s=60) as path:
        assert path is not None and Path(path).parent == tmp_path
        assert (Path(path) / metrics_dir.OWNER).read_text() == str(os.getpid())
        assert not stale.exists()
        assert live.exists() and unknown.exists()
    assert not Path(path).exists()  # a clean exit removes its own folder


def test_one_worker_needs_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    stale = _folder(tmp_path, "stale", _dead_pid())
    with metrics_dir.shared_metrics(1) as path:
        assert path is None
    assert stale.exists()  # nothing is swept when no folder is used
