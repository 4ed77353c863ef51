"""journal.commit / rollback against files that change under a batch: a file the batch did not make is never removed."""

from __future__ import annotations

from pathlib import Path

import pytest

import fastapply
from fastapply.errors import ErrorCode
from fastapply.formats.journal import JOURNAL, Entry, Journal, _rollback, commit, locked_root


def test_a_file_that_vanished_since_it_was_read_is_refused_before_anything_is_written(tmp_path: Path):
    (tmp_path / "a.py").write_text("a = 1\n")
    with locked_root(tmp_path) as fd:
        with pytest.raises(fastapply.ApplyError) as err:
            # the batch read sub/x.py (existed=True); the folder was moved away before the write
            commit(fd, {"a.py": b"a = 2\n", "sub/x.py": b"x = 2\n"}, {"a.py": True, "sub/x.py": True})
    assert err.value.code == ErrorCode.FILE_NOT_FOUND and "sub/x.py vanished" in err.value.message
    assert (tmp_path / "a.py").read_text() == "a = 1\n" and not (tmp_path / "sub").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]  # no journal, no temporary file


def test_a_file_that_appeared_since_it_was_read_is_refused(tmp_path: Path):
    (tmp_path / "new.py").write_text("someone = 'else'\n")
    with locked_root(tmp_path) as fd:
        with pytest.raises(fastapply.ApplyError) as err:
            commit(fd, {"new.py": b"mine = 1\n"}, {"new.py": False})
    assert err.value.code == ErrorCode.FILE_EXISTS
    assert (tmp_path / "new.py").read_text() == "someone = 'else'\n"
    assert not (tmp_path / JOURNAL).exists()


@pytest.mark.parametrize("ours", [True, False])
def test_rollback_removes_a_created_file_only_while_it_is_the_batchs_own(tmp_path: Path, ours: bool):
    target = tmp_path / "made.py"
    target.write_text("written by the batch\n" if ours else "a file the batch never wrote\n")
    ino = target.stat().st_ino if ours else target.stat().st_ino + 1
    journal = Journal(batch="b", state="committing", folders=[],
                      entries=[Entry(path="made.py", new=".fastapply-b-0.new", old=None, ino=ino)])
    with locked_root(tmp_path) as fd:
        _rollback(fd, journal)
    assert target.exists() is not ours


def test_rollback_of_an_older_journal_without_inodes_keeps_the_file(tmp_path: Path):
    # no inode recorded (a journal written before they were, or a crash before the write): keep it
    (tmp_path / "made.py").write_text("x\n")
    journal = Journal(batch="b", state="committing", folders=[],
                      entries=[Entry(path="made.py", new=".fastapply-b-0.new", old=None)])
    with locked_root(tmp_path) as fd:
        _rollback(fd, journal)
    assert (tmp_path / "made.py").read_text() == "x\n"


def test_a_batch_still_creates_and_updates_files_with_the_checks_on(tmp_path: Path):
    (tmp_path / "x.py").write_text("x = 1\n")
    patch = ("*** Begin Patch\n*** Update File: x.py\n@@\n-x = 1\n+x = 2\n"
             "*** Add File: pkg/new.py\n+new = 1\n*** End Patch\n")
    result = fastapply.apply_batch(patch, root=tmp_path)
    assert result.written and (tmp_path / "x.py").read_text() == "x = 2\n"
    assert (tmp_path / "pkg" / "new.py").read_text() == "new = 1\n"
    assert not any(p.name.startswith(".fastapply") for p in tmp_path.rglob("*"))
