"""Where `--style llm` cases come from: real files on this machine and in the download cache.

- local: the Python standard library and site-packages (.py plus any .js/.ts/.json/... there);
- cache: packages that `python -m evals.fetch` downloaded from npm, Debian and PyPI into
  $FASTAPPLY_EVALS_CACHE (default ~/.cache/fastapply-evals), unpacked under `<cache>/src/<split>/`.

Everything is listed in a sorted, deterministic order; a file belongs to exactly one split
(`splits.is_heldout_path` for local files, the package's split for cached ones). Offline, without a
cache, the local sources still work (the tests use only the standard library). Cost: one walk of
each folder, O(files), reading only the first line of extension-less scripts.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from fastapply.languages import detect_language

from .splits import is_heldout_path, is_heldout_split

SKIP_PARTS = {"site-packages", "test", "tests", "idlelib", "lib2to3", "turtledemo", "tkinter", "node_modules", "dist",
              "__pycache__", "vendor", "min", "fixtures", "testdata", "examples"}
EXTRA_EXTS = {".toml": "toml"}
MAX_BYTES = 200_000


@dataclass(frozen=True)
class Source:
    path: Path
    ident: str  # stable name: "<root>/<relative path>"
    language: str


def cache_dir() -> Path:
    return Path(os.environ.get("FASTAPPLY_EVALS_CACHE", Path.home() / ".cache" / "fastapply-evals"))


def language_of(path: Path) -> str | None:
    if path.suffix in EXTRA_EXTS:
        return EXTRA_EXTS[path.suffix]
    if path.name.endswith((".min.js", ".d.ts", ".bundle.js")):
        return None
    if not path.suffix and (path.parent.name in ("bin", "completions")):
        # Scripts without an extension: bash completions, /usr/bin tools; read the shebang.
        if path.parent.name == "completions":
            return "bash"
        try:
            with open(path, "rb") as handle:
                first = handle.readline(200)
        except OSError:
            return None
        return "bash" if first.startswith(b"#!") and (b"bash" in first or first.strip() == b"#!/bin/sh") \
            else None
    lang = detect_language(path.name)
    return lang if lang not in (None, "html", "css") else None


def _walk(root: Path, label: str, split: str | None, per_language: int) -> list[Source]:
    found: dict[str, list[Source]] = {}
    if not root.is_dir():
        return []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if set(relative.parts[:-1]) & SKIP_PARTS or path.name.startswith("test_") \
                or any(part in path.name for part in (".test.", ".spec.", ".stories.", "_test.")) \
                or not path.is_file():
            continue
        lang = language_of(path)
        if lang is None or len(found.get(lang, [])) >= per_language:
            continue
        ident = f"{label}/{relative.as_posix()}"
        if split is not None and is_heldout_path(relative.as_posix()) != is_heldout_split(split):
            continue
        try:
            if path.stat().st_size > MAX_BYTES:
                continue
        except OSError:
            continue
        found.setdefault(lang, []).append(Source(path, ident, lang))
    return [s for group in found.values() for s in group]


def local_sources(split: str, per_language: int = 600) -> list[Source]:
    """The standard library and site-packages, the files of `split` only."""
    out = _walk(Path(sysconfig.get_paths()["stdlib"]), "stdlib", split, per_language)
    # site-packages lies below the stdlib folder; SKIP_PARTS keeps it out of the walk above.
    for entry in sorted({p for p in sys.path if p.endswith("site-packages")}):
        out += _walk(Path(entry), "site-packages", split, per_language // 3)
    return out


def cached_sources(split: str, per_language: int = 400) -> list[Source]:
    """Files of the packages downloaded for `split` (see evals.fetch); [] without a cache."""
    root = cache_dir() / "src" / split
    out: list[Source] = []
    if not root.is_dir():
        return out
    for package in sorted(p for p in root.iterdir() if p.is_dir()):
        out += _walk(package, package.name, None, per_language)
    return out


def folder_sources(paths: list[Path], split: str | None) -> list[Source]:
    out: list[Source] = []
    for path in paths:
        if path.is_dir():
            out += _walk(path, path.name, split, 10_000)
        elif (lang := language_of(path)) is not None:
            out.append(Source(path, path.name, lang))
    return out
