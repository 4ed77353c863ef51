"""Atomic file writes: a reader sees the old file or the new one, never a half-written one."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write via a temporary file in the same folder, fsync, keep the mode, then rename over `path`."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".fastapply-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(target.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
