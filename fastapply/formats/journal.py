"""Crash-safe multi-file writes: a journal in the root makes a batch all old or all new.

Writing a batch (`commit`):
1. the journal `.fastapply-journal` (JSON, written to a temporary name, fsynced, renamed, folder
   fsynced) lists every file with the temporary name of its new content and of its backup, and
   the folders the batch will create; state `preparing`;
2. new contents are written next to their targets and fsynced; each file to be replaced or deleted
   gets a backup (a hard link, or a copy where links are not supported); folders fsynced;
3. state `committing`; the renames (and unlinks for deleted files) happen; folders fsynced;
4. state `done`; backups removed; journal removed.

Recovery (`recover`, run by every batch in the root before it reads anything, and by
`fastapply patch --recover`): an unfinished journal rolls the tree back to the old files (state
`preparing`, `rolling_back`, or `committing` with some rename not done) or forward when every new
file is in place (`committing` with all renames done, or `done`): temporary files, backups and
created folders are removed either way. Every step is idempotent, so a crash during recovery is
recovered by the next one. An OSError (ENOSPC, EIO) while writing rolls back at once and raises
ApplyError `io_error`. The work is O(files); file contents are written once and never copied
again (backups are links).
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import msgspec

from ..errors import ApplyError, ErrorCode
from .safe_fs import exists, folder, op, open_root, remove, split, sync_dir, write_new

JOURNAL = ".fastapply-journal"
_JOURNAL_TMP = JOURNAL + ".tmp"


class Entry(msgspec.Struct):
    path: str  # the target, relative to the root (a real path: no symlinks)
    new: str | None  # temporary name of the new content in the target's folder; None: delete
    old: str | None  # backup name of the replaced content; None: the file did not exist
    # inode of `new` once written: a rollback removes a file the batch created only while it is still
    # that file (a folder swapped in meanwhile may hold a file of the same name that is not ours)
    ino: int | None = None


class Journal(msgspec.Struct):
    batch: str
    state: str  # preparing | committing | rolling_back | done
    entries: list[Entry]
    folders: list[str]  # created by this batch, parents first
    version: int = 1


@contextmanager
def locked_root(root: str | os.PathLike[str], *, recover_first: bool = True) -> Iterator[int]:
    """A descriptor of the root, locked against other batches (flock), after recovering any
    unfinished batch. Yields the descriptor for safe_fs / commit."""
    fd = open_root(root)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if recover_first:
            try:
                recover(fd)
            except OSError as exc:
                raise ApplyError(f"an interrupted earlier batch under {os.fspath(root)!r} could not be "
                                 f"recovered ({exc.strerror or exc}); nothing was changed by this one; "
                                 "run `fastapply patch --recover` once the disk is writable",
                                 code=ErrorCode.IO_ERROR, details={"errno": exc.errno}) from exc
        yield fd
    finally:
        os.close(fd)  # releases the lock


def _save(root_fd: int, journal: Journal) -> None:
    remove(root_fd, _JOURNAL_TMP)
    write_new(root_fd, _JOURNAL_TMP, msgspec.json.encode(journal), None)
    op("rename", os.rename, _JOURNAL_TMP, JOURNAL, src_dir_fd=root_fd, dst_dir_fd=root_fd)
    sync_dir(root_fd)


def _load(root_fd: int) -> Journal | None:
    try:
        fd = os.open(JOURNAL, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=root_fd)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read()
    try:
        return msgspec.json.decode(data, type=Journal)
    except msgspec.DecodeError:
        raise ApplyError(f"the batch journal {JOURNAL} in the root is unreadable; restore the files by hand "
                         "from the .fastapply-*.old backups next to them, then delete it",
                         code=ErrorCode.IO_ERROR) from None


def commit(root_fd: int, staged: dict[str, bytes | None], existed: Mapping[str, bool] | None = None) -> None:
    """Write every file of `staged` (real relative path -> new bytes, None to delete) all or nothing.

    `existed` (path -> whether the batch found the file when it read it): a file that appeared or
    vanished since is refused before anything is written, since its backup and its rollback would be
    planned for a file that is not there (a pre-existing file would be removed as "created").
    """
    batch = secrets.token_hex(6)
    entries: list[Entry] = []
    folders: list[str] = []
    for n, (path, data) in enumerate(staged.items()):
        parts, name = split(path)
        present = _exists(root_fd, parts, name, folders)
        if existed is not None and path in existed and existed[path] != present:
            raise ApplyError(f"{path} {'vanished' if existed[path] else 'appeared'} on disk while the batch "
                             "ran (moved or changed by something else); nothing was written; apply the "
                             "batch again", code=ErrorCode.FILE_NOT_FOUND if existed[path] else ErrorCode.FILE_EXISTS,
                             details={"path": path})
        if data is None and not present:
            continue
        entries.append(Entry(path=path, new=None if data is None else f".fastapply-{batch}-{n}.new",
                             old=f".fastapply-{batch}-{n}.old" if present else None))
    if not entries:
        return
    journal = Journal(batch=batch, state="preparing", entries=entries, folders=folders)
    try:
        _save(root_fd, journal)
        for entry in entries:
            parts, name = split(entry.path)
            with folder(root_fd, parts, create=[], path=entry.path) as dfd:
                if entry.old is not None:
                    _backup(dfd, name, entry.old)
                if entry.new is not None:
                    mode = _mode(dfd, name)
                    write_new(dfd, entry.new, staged[entry.path] or b"", mode)
                    entry.ino = _ino(dfd, entry.new)
                sync_dir(dfd)
        journal.state = "committing"
        _save(root_fd, journal)
        for entry in entries:
            parts, name = split(entry.path)
            with folder(root_fd, parts, path=entry.path) as dfd:
                if entry.new is not None:
                    op("rename", os.rename, entry.new, name, src_dir_fd=dfd, dst_dir_fd=dfd)
                else:
                    remove(dfd, name)
                sync_dir(dfd)
    except OSError as exc:
        _give_up(root_fd, exc)
    except BaseException:
        _rollback(root_fd, journal)
        raise
    try:
        _forward(root_fd, journal)
    except OSError:
        pass  # every new file is in place; the next batch (or --recover) removes the backups


def recover(root_fd: int) -> str | None:
    """Finish or undo an interrupted batch. Returns 'rolled_back', 'rolled_forward' or None (none)."""
    journal = _load(root_fd)
    if journal is None:
        remove(root_fd, _JOURNAL_TMP)  # a crash while the first journal was being written
        return None
    if journal.state == "done" or journal.state == "committing" and _all_in_place(root_fd, journal):
        _forward(root_fd, journal)
        return "rolled_forward"
    _rollback(root_fd, journal)
    return "rolled_back"


def _exists(root_fd: int, parts: list[str], name: str, missing: list[str]) -> bool:
    """Whether parts/name exists; folders on the way that do not are added to `missing`."""
    for depth in range(len(parts)):
        prefix = "/".join(parts[:depth + 1])
        if prefix not in missing:
            try:
                with folder(root_fd, parts[:depth + 1], path=prefix):
                    continue
            except FileNotFoundError:
                pass
        missing.extend(p for p in ("/".join(parts[:d + 1]) for d in range(depth, len(parts))) if p not in missing)
        return False
    with folder(root_fd, parts) as dfd:
        return exists(dfd, name)


def _mode(dfd: int, name: str) -> int | None:
    try:
        info = os.stat(name, dir_fd=dfd, follow_symlinks=False)
    except FileNotFoundError:
        return None  # a new file: 0o666 less the umask, as open() makes it
    return info.st_mode & 0o7777 if stat.S_ISREG(info.st_mode) else None


def _backup(dfd: int, name: str, backup: str) -> None:
    try:
        op("link", os.link, name, backup, src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=False)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
            raise
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=dfd)  # no hard links here: copy
        with os.fdopen(fd, "rb") as handle:
            write_new(dfd, backup, handle.read(), _mode(dfd, name))


def _all_in_place(root_fd: int, journal: Journal) -> bool:
    for entry in journal.entries:
        parts, name = split(entry.path)
        try:
            with folder(root_fd, parts, path=entry.path) as dfd:
                if exists(dfd, entry.new) if entry.new is not None else exists(dfd, name):
                    return False
        except FileNotFoundError:
            return False  # its folder was never made
    return True


def _forward(root_fd: int, journal: Journal) -> None:
    if journal.state != "done":
        journal.state = "done"
        _save(root_fd, journal)
    for entry in journal.entries:
        if entry.old is not None:
            parts, _ = split(entry.path)
            with folder(root_fd, parts, path=entry.path) as dfd:
                remove(dfd, entry.old)
                sync_dir(dfd)
    remove(root_fd, JOURNAL)
    sync_dir(root_fd)


def _rollback(root_fd: int, journal: Journal) -> None:
    if journal.state != "rolling_back":
        journal.state = "rolling_back"  # from here on, a missing temporary file proves nothing
        _save(root_fd, journal)
    for entry in journal.entries:
        parts, name = split(entry.path)
        try:
            dfd = _open_quiet(root_fd, parts, entry.path)
        except FileNotFoundError:
            if "/".join(parts) in journal.folders:
                continue  # a folder the batch was to make, never made: nothing of it exists
            raise  # a folder that existed was moved away meanwhile: keep the journal for later
        try:
            renamed = entry.new is not None and not exists(dfd, entry.new)
            if entry.new is not None:
                remove(dfd, entry.new)
            if entry.old is not None and exists(dfd, entry.old):
                if exists(dfd, name) and _same_file(dfd, name, entry.old):
                    remove(dfd, entry.old)  # the target is still the old file itself
                else:
                    op("rename", os.rename, entry.old, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            elif entry.old is None and renamed and entry.ino is not None and _ino(dfd, name) == entry.ino:
                remove(dfd, name)  # a file the batch created, still that file
            sync_dir(dfd)
        finally:
            os.close(dfd)
    for path in reversed(journal.folders):
        parts, name = split(path)
        try:
            with folder(root_fd, parts, path=path) as dfd:
                op("rmdir", os.rmdir, name, dir_fd=dfd)
                sync_dir(dfd)
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ENOTEMPTY, errno.EEXIST):
                raise
    remove(root_fd, JOURNAL)
    sync_dir(root_fd)


def _ino(dfd: int, name: str) -> int | None:
    try:
        return os.stat(name, dir_fd=dfd, follow_symlinks=False).st_ino
    except FileNotFoundError:
        return None


def _open_quiet(root_fd: int, parts: list[str], path: str) -> int:
    from .safe_fs import open_dir

    return open_dir(root_fd, parts, path=path)


def _same_file(dfd: int, a: str, b: str) -> bool:
    sa = os.stat(a, dir_fd=dfd, follow_symlinks=False)
    sb = os.stat(b, dir_fd=dfd, follow_symlinks=False)
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def _give_up(root_fd: int, exc: OSError) -> None:
    """An OSError while writing: undo what was done, then say what happened (never half a batch)."""
    try:
        journal = _load(root_fd)
        if journal is not None:
            _rollback(root_fd, journal)
        else:
            remove(root_fd, _JOURNAL_TMP)  # the first journal was never in place
    except OSError as again:
        raise ApplyError(f"writing the batch failed ({exc.strerror or exc}) and so did undoing it "
                         f"({again.strerror or again}); run `fastapply patch --recover` once the disk "
                         "is writable again", code=ErrorCode.IO_ERROR,
                         details={"errno": exc.errno}) from exc
    what = "the disk is full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
    raise ApplyError(f"writing the batch failed: {what}; every file was left as it was",
                     code=ErrorCode.IO_ERROR, details={"errno": exc.errno}) from exc
