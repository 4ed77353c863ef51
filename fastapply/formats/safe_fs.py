"""File operations confined to a root folder: every path is opened relative to a descriptor of the
root, one component at a time, never following a symbolic link.

Checking a path (fastapply.formats.paths) and then writing to it by name leaves a gap in which a
folder can be swapped for a symlink that leads out of the root. Here the folders are opened with
O_NOFOLLOW | O_DIRECTORY from the root's descriptor down, and files are created, renamed and removed
with `dir_fd=` relative to the last one: a symlink that appears anywhere on the way is refused
(ELOOP / ENOTDIR), and a rename replaces a symlink itself, never its target. Callers pass real paths
(symlinks inside the root already resolved by resolve_under), so a symlink met here is a change
made while the batch ran.

Fault injection (tests only): FASTAPPLY_FAULT="crash:K" kills the process (SIGKILL) at the K-th
filesystem operation made through `op`, "oserror:K" / "enospc:K" raise EIO / ENOSPC there instead.
"""

from __future__ import annotations

import errno
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from ..errors import ErrorCode, InputError

T = TypeVar("T")
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_FAULT_ENV = "FASTAPPLY_FAULT"


class _Faults:
    """Counts filesystem operations and fails the K-th one, when FASTAPPLY_FAULT asks for it."""

    def __init__(self) -> None:
        self.count = 0
        spec = os.environ.get(_FAULT_ENV, "")
        kind, _, at = spec.partition(":")
        self.kind = kind if at.isdigit() else ""
        self.at = int(at) if at.isdigit() else 0

    def tick(self, name: str) -> None:
        self.count += 1
        if not self.kind or self.count != self.at:
            return
        if self.kind == "crash":
            os.kill(os.getpid(), signal.SIGKILL)
        code = errno.ENOSPC if self.kind == "enospc" else errno.EIO
        raise OSError(code, f"{os.strerror(code)} (injected at operation {self.count}: {name})")


FAULTS = _Faults()


def inject(kind: str, at: int) -> None:
    """Tests only: fail the `at`-th operation from now ('crash', 'oserror', 'enospc'; '' for none)."""
    FAULTS.kind, FAULTS.at, FAULTS.count = kind, at, 0


def op(name: str, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """One filesystem operation that changes or syncs something (the fault-injection points)."""
    FAULTS.tick(name)
    return func(*args, **kwargs)


def real_relative(root: str | os.PathLike[str], path: str) -> str:
    """`path` under `root` with symlinks inside the root resolved (refused when they lead out)."""
    from pathlib import Path

    from .paths import resolve_under

    return resolve_under(root, path).relative_to(Path(root).resolve()).as_posix()


def refuse_link(path: str) -> InputError:
    return InputError(f"refusing path {path!r}: a symbolic link appeared on its way while the batch ran "
                      "(it could lead outside the root folder); nothing was written there",
                      code=ErrorCode.PATH_OUTSIDE_ROOT, details={"path": path})


def open_root(root: str | os.PathLike[str]) -> int:
    return os.open(os.path.realpath(root), _DIR_FLAGS)


def open_dir(root_fd: int, parts: list[str], *, create: list[str] | None = None, path: str = "") -> int:
    """A descriptor of the folder root/parts[0]/parts[1]/..., each opened without following links.
    With `create` (a list), missing folders are made and their relative paths appended to it."""
    fd = os.dup(root_fd)
    try:
        for depth, name in enumerate(parts):
            try:
                nxt = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if create is None:
                    raise
                op("mkdir", os.mkdir, name, 0o777, dir_fd=fd)
                create.append("/".join(parts[:depth + 1]))
                nxt = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise refuse_link(path or "/".join(parts)) from None
                raise
            os.close(fd)
            fd = nxt
        return fd
    except BaseException:
        os.close(fd)
        raise


@contextmanager
def folder(root_fd: int, parts: list[str], **kwargs: Any) -> Iterator[int]:
    fd = open_dir(root_fd, parts, **kwargs)
    try:
        yield fd
    finally:
        os.close(fd)


def split(rel: str) -> tuple[list[str], str]:
    parts = rel.split("/")
    return parts[:-1], parts[-1]


def read_file(root_fd: int, rel: str) -> bytes | None:
    """The bytes of root/rel, None when it does not exist; refuses a symlink anywhere on the way."""
    parts, name = split(rel)
    try:
        with folder(root_fd, parts, path=rel) as dfd:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), dir_fd=dfd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise refuse_link(rel) from None
        raise
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def exists(dir_fd: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def write_new(dir_fd: int, name: str, data: bytes, mode: int | None) -> None:
    """Create `name` (it must not exist), write `data`, fsync it. O_EXCL | O_NOFOLLOW: never through a link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = op("create", os.open, name, flags, 0o666, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            view = view[op("write", os.write, fd, view):]
        if mode is not None:
            op("chmod", os.fchmod, fd, mode)
        op("fsync", os.fsync, fd)
    finally:
        os.close(fd)


def sync_dir(dir_fd: int) -> None:
    try:
        op("fsync_dir", os.fsync, dir_fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP):  # some filesystems cannot sync folders
            raise


def remove(dir_fd: int, name: str) -> None:
    """Unlink `name` if it exists (idempotent, for recovery)."""
    try:
        op("unlink", os.unlink, name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
