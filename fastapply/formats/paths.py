"""Paths named in an agent's edits: relative, inside the root, never through a symlink that leaves it."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from ..errors import ErrorCode, InputError


def _refuse(path: str, why: str) -> InputError:
    return InputError(f"refusing path {path!r}: {why}", code=ErrorCode.PATH_OUTSIDE_ROOT, details={"path": path})


def clean_path(path: str) -> str:
    """Normalise a relative path ('./a//b' -> 'a/b'); refuse absolute paths, '..' and odd characters."""
    if not isinstance(path, str) or not path.strip():
        raise InputError("an edit names an empty path", code=ErrorCode.MALFORMED_EDIT)
    if "\x00" in path or any(ord(c) < 32 for c in path):
        raise _refuse(path, "it contains control characters")
    p = path.strip().replace("\\", "/")
    if p.startswith("/") or (len(p) > 1 and p[1] == ":") or p.startswith("~"):
        raise _refuse(path, "absolute paths are not allowed; give a path relative to the root")
    parts = [x for x in PurePosixPath(p).parts if x not in ("", ".")]
    if ".." in parts:
        raise _refuse(path, "'..' would leave the root folder")
    if not parts:
        raise _refuse(path, "it names the root folder itself")
    return "/".join(parts)


def resolve_under(root: str | os.PathLike[str], path: str) -> Path:
    """The real location of `path` under `root`; refuses anything (symlinks included) outside it."""
    rel = clean_path(path)
    base = Path(root).resolve()
    target = (base / rel).resolve()
    if target != base and base not in target.parents:
        raise _refuse(path, "it resolves (through a symbolic link) outside the root folder")
    if target == base:
        raise _refuse(path, "it names the root folder itself")
    return target
