"""Crash-safe batches: a fault at every filesystem operation of a 50-file batch (created, changed and
deleted files), then recovery: the tree is byte for byte all old or all new, no temporary file left."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import fastapply
from evals.crash_trials import build_tree, kill_trials, prepare, recover, snapshot, sweep, verdict
from fastapply.formats import safe_fs
from fastapply.formats.journal import JOURNAL


@pytest.fixture
def base() -> Iterator[Path]:
    # tmpfs where there is one: a crash loses nothing written either way, and ~400 trials stay fast
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="fastapply-test-", dir=shm) as tmp:
        yield Path(tmp)


def test_a_crash_at_every_operation_leaves_all_old_or_all_new(base):
    counts = sweep(base, kinds=("crash",))["crash"]
    assert counts["mixed"] == 0
    assert counts["points"] > 300  # every operation of the batch was a crash point once
    assert counts["old"] > 0 and counts["new"] > 0  # both outcomes occur: the sweep spans the commit


def test_an_io_error_anywhere_rolls_back_with_a_clear_error(base):
    counts = sweep(base, kinds=("oserror", "enospc"), step=7)
    for tally in counts.values():
        assert tally["mixed"] == 0 and tally["points"] > 40


def test_a_full_disk_says_so_and_changes_nothing(base):
    patch, old, _ = prepare(base)
    root = base / "t"
    shutil.copytree(base / "old", root)
    safe_fs.inject("enospc", 120)  # in the middle of writing the new contents
    try:
        with pytest.raises(fastapply.ApplyError) as caught:
            fastapply.apply_batch(patch, root=root, atomic=True)
    finally:
        safe_fs.inject("", 0)
    assert caught.value.code == "io_error" and "disk is full" in caught.value.message
    assert snapshot(root) == old  # rolled back at once, no journal or temporary file left


def test_random_kills_then_recover_cli(base):
    tally = kill_trials(base, trials=6, seed=1)
    assert tally["mixed"] == 0 and sum(tally.values()) == 6


def test_the_next_batch_recovers_an_interrupted_one(base):
    patch, old, new = prepare(base)
    root, _ = _crashed_copy(base, patch, at=200)
    assert (root / JOURNAL).exists()
    # an unrelated later batch first restores the tree, then applies itself
    result = fastapply.apply_batch([{"path": "pkg0/mod0.py", "old": "value_0_2 = 2", "new": "value_0_2 = 3"}],
                                   root=root)
    assert result.ok and not (root / JOURNAL).exists()
    now = snapshot(root)
    expected_from = old if now["pkg0/mod12.py"] == old["pkg0/mod12.py"] else new
    assert now == {**expected_from, "pkg0/mod0.py": expected_from["pkg0/mod0.py"].replace(b"_2 = 2", b"_2 = 3")}


def test_patch_recover_reports_what_it_did(base):
    patch, old, _ = prepare(base)
    root, _ = _crashed_copy(base, patch, at=100)
    run = [sys.executable, "-m", "fastapply", "patch", "--recover", "--root", str(root)]
    first = subprocess.run(run, capture_output=True, text=True, check=True)
    again = subprocess.run(run, capture_output=True, text=True, check=True)
    assert "rolled back" in first.stdout and snapshot(root) == old
    assert "nothing to recover" in again.stdout


def _crashed_copy(base: Path, patch: str, at: int) -> tuple[Path, bool]:
    from evals.crash_trials import fault_once

    return fault_once(base, patch, "crash", at)


def test_tree_builder_covers_new_changed_and_deleted_files(base):
    patch = build_tree(base / "x")
    assert patch.count("*** Update File:") == 20 and patch.count("*** Delete File:") == 15
    assert patch.count("*** Add File:") == 15 and len(list((base / "x").rglob("*.py"))) == 35
    recover(base / "x")
    assert verdict(base / "x", snapshot(base / "x"), {}) == "old"
