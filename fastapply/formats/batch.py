"""`fastapply.apply_batch`: apply an agent's edits (any format, many files) to a mapping or a folder.

Each file's edits are all-or-nothing: a file whose hunk fails is left as it was and reported with the
error. Best-effort mode writes the files that succeeded; atomic mode writes nothing unless every file
succeeded. Paths are checked before anything is read (fastapply.formats.paths). Under a root, the
files are read and written below a locked descriptor of the root without following symlinks
(fastapply.formats.safe_fs), and the files a batch changes are written all or nothing, also across a
crash, through a journal in the root (fastapply.formats.journal) that the next batch recovers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from ..errors import ApplyError, ErrorCode, InputError
from ..text import DEFAULT_LIMITS, Document, Limits, check_size, ensure_text, unified_diff
from .detect import json_ops, parse_agent_output
from .journal import commit, locked_root
from .matching import DEFAULT_FUZZY_THRESHOLD
from .ops import FileOp, run_op
from .paths import clean_path, resolve_under
from .policy import DEFAULT_POLICY, Policy, make_policy
from .safe_fs import read_file, real_relative


class FileError(msgspec.Struct, kw_only=True):
    code: str
    message: str
    details: dict[str, Any] = msgspec.field(default_factory=dict)


class FileResult(msgspec.Struct, kw_only=True):
    path: str
    status: str  # modified | created | deleted | moved | unchanged | failed
    formats: list[str] = msgspec.field(default_factory=list)
    new_path: str | None = None
    applied: int = 0  # hunks, blocks or edits placed
    fuzzed: int = 0  # of which needed tolerance
    failed: int = 0
    error: FileError | None = None
    warnings: list[str] = msgspec.field(default_factory=list)
    diff: str = ""


class BatchSummary(msgspec.Struct, kw_only=True):
    files: int = 0
    files_changed: int = 0
    files_failed: int = 0
    applied: int = 0
    fuzzed: int = 0
    failed: int = 0


class BatchResult(msgspec.Struct, kw_only=True):
    ok: bool
    mode: str  # atomic | best_effort
    written: bool  # files under the root were changed
    files: list[FileResult]
    summary: BatchSummary
    # New content of every changed file (as the file's own line endings), None where deleted.
    contents: dict[str, str | None] = msgspec.field(default_factory=dict)

    @property
    def diff(self) -> str:
        return "".join(f.diff for f in self.files)


def _units(op: FileOp) -> int:
    return len(op.hunks) or len(op.edits) or 1


class _Source:
    """Reads files from a mapping or from under a root folder, refusing unsafe paths."""

    def __init__(self, files: Mapping[str, str | bytes] | None, root: str | os.PathLike[str] | None,
                 limits: Limits, root_fd: int | None = None) -> None:
        self.files = {clean_path(k): v for k, v in (files or {}).items()}
        self.root = root
        self.root_fd = root_fd  # the locked root (journal.locked_root): reads never follow a swapped link
        self.limits = limits
        self.existed: dict[str, bool] = {}  # path -> whether it was there when read (journal.commit checks)

    def read(self, path: str) -> str | None:
        if self.root is None:
            data = self.files.get(path)
        else:
            target = resolve_under(self.root, path)
            if target.is_dir():
                raise InputError(f"{path} is a folder, not a file", code=ErrorCode.INVALID_ARGUMENT)
            if self.root_fd is not None:
                data = read_file(self.root_fd, real_relative(self.root, path))
            elif not target.exists():
                return None
            else:
                data = target.read_bytes()
        self.existed[path] = data is not None
        if data is None:
            return None
        text = ensure_text(data, f"file {path}")
        check_size(text, self.limits.max_file_bytes, f"file {path}")
        return text


def _run_file(path: str, ops: list[FileOp], source: _Source, fuzzy_threshold: float,
              staged: dict[str, str | None], policy: Policy = DEFAULT_POLICY) -> FileResult:
    result = FileResult(path=path, status="unchanged", formats=sorted({op.format for op in ops}))
    done = 0
    try:
        raw = source.read(path)
        doc = Document.parse(raw) if raw is not None else None
        text: str | None = doc.text if doc else None
        new_path = path
        for op in ops:
            if op.move_to:
                new_path = clean_path(op.move_to)
                if source.root is not None:
                    resolve_under(source.root, new_path)
            text, outcome = run_op(op, text, filename=path, fuzzy_threshold=fuzzy_threshold, policy=policy,
                                   max_edits=source.limits.max_edits)
            done += 1
            result.applied += outcome.applied
            result.fuzzed += outcome.fuzzed
            result.warnings += outcome.warnings
    except ApplyError as exc:
        result.status = "failed"
        result.failed = sum(_units(op) for op in ops[done:])
        result.error = FileError(code=exc.code, message=exc.message, details=exc.details)
        return result
    except OSError as exc:
        result.status = "failed"
        result.failed = sum(_units(op) for op in ops[done:])
        result.error = FileError(code=ErrorCode.INVALID_ARGUMENT, message=f"cannot read {path}: {exc.strerror}")
        return result
    before = raw or ""
    after = None if text is None else (doc.restore(text) if doc else text)
    if new_path != path:
        if source.read(new_path) is not None and all(op.format == "v4a" for op in ops):
            # Codex's apply_patch moves onto an existing file, replacing it.
            result.warnings.append(f"{new_path} existed; '*** Move to' replaced it")
        elif source.read(new_path) is not None:
            result.status, result.failed = "failed", 1
            result.error = FileError(code=ErrorCode.FILE_EXISTS, message=f"cannot move {path} to {new_path}: "
                                     "the target exists", details={"path": new_path})
            return result
        result.status, result.new_path = "moved", new_path
        staged[path] = None
        staged[new_path] = after
        result.diff = unified_diff(before, after or "", new_path)
        return result
    if after is None:
        result.status = "deleted" if raw is not None else "unchanged"
        staged[path] = None
        result.diff = unified_diff(before, "", path)
    elif raw is None:
        result.status = "created"
        staged[path] = after
        result.diff = unified_diff("", after, path)
    elif after != raw:
        result.status = "modified"
        staged[path] = after
        result.diff = unified_diff(raw, after, path)
    return result


def apply_batch(edits: str | bytes | list[Any], files: Mapping[str, str | bytes] | None = None, *,
                root: str | os.PathLike[str] | None = None, format: str = "auto", atomic: bool = False,
                dry_run: bool = False, fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
                limits: Limits = DEFAULT_LIMITS,
                progress: Callable[[int, int, str], None] | None = None,
                ambiguity: str | None = None, policy: Policy | None = None) -> BatchResult:
    """Apply edits for many files. `edits`: an agent's raw output (diffs, SEARCH/REPLACE blocks, V4A),
    or a list of {path, old, new} / {path, edits} / {path, update} objects.

    Give either `files` (path -> content; the new contents come back in `.contents`) or `root` (a folder;
    changed files are written atomically unless dry_run). atomic=True: nothing is written unless every
    file succeeded. Malformed input raises ApplyError; per-file failures are reported in `.files`.
    ambiguity: "refuse" (default) or "first" (Aider's rule); `policy` gives every dialect choice
    (fastapply.formats.policy.Policy).
    """
    policy = make_policy(policy, ambiguity=ambiguity)
    if (files is None) == (root is None):
        raise InputError("give exactly one of files= (a mapping) or root= (a folder)", code=ErrorCode.INVALID_ARGUMENT)
    if root is not None and not Path(root).is_dir():
        raise InputError(f"root {str(root)!r} is not a folder", code=ErrorCode.FILE_NOT_FOUND)
    if isinstance(edits, (str, bytes)):
        text = ensure_text(edits, "edits")
        check_size(text, limits.max_update_bytes * 8, "edits")
        ops = parse_agent_output(text, format, policy=policy, known=list(files) if files else None)
    elif isinstance(edits, list):
        ops = json_ops(edits, lazy=format == "lazy")
    else:
        raise InputError("edits must be text or a list of edit objects", code=ErrorCode.INVALID_ARGUMENT)
    if not ops:
        raise InputError("no edits found (no diff, SEARCH/REPLACE block, V4A patch or edit list)",
                         code=ErrorCode.EMPTY_UPDATE)
    groups: dict[str, list[FileOp]] = {}
    bad_paths: dict[str, ApplyError] = {}
    for op in ops:
        if not op.path:
            where = f" at line {op.source_line}" if op.source_line else ""
            raise InputError(f"the {op.format} edit{where} names no file", code=ErrorCode.MALFORMED_EDIT,
                             line=op.source_line)
        try:
            key = clean_path(op.path)
        except ApplyError as exc:
            key = op.path
            bad_paths[key] = exc
        groups.setdefault(key, []).append(op)
    if root is None:
        return _run_batch(groups, bad_paths, _Source(files, root, limits), root, atomic, dry_run,
                          fuzzy_threshold, progress, policy)
    with locked_root(root) as root_fd:  # an interrupted earlier batch is recovered first
        return _run_batch(groups, bad_paths, _Source(None, root, limits, root_fd), root, atomic, dry_run,
                          fuzzy_threshold, progress, policy)


def _run_batch(groups: dict[str, list[FileOp]], bad_paths: dict[str, ApplyError], source: _Source,
               root: str | os.PathLike[str] | None, atomic: bool, dry_run: bool, fuzzy_threshold: float,
               progress: Callable[[int, int, str], None] | None, policy: Policy) -> BatchResult:
    staged: dict[str, str | None] = {}
    results: list[FileResult] = []
    for n, (path, file_ops) in enumerate(groups.items(), 1):
        if path in bad_paths:
            exc = bad_paths[path]
            results.append(FileResult(path=path, status="failed", formats=sorted({op.format for op in file_ops}),
                                      failed=sum(_units(op) for op in file_ops),
                                      error=FileError(code=exc.code, message=exc.message, details=exc.details)))
        else:
            results.append(_run_file(path, file_ops, source, fuzzy_threshold, staged, policy))
        if progress:
            progress(n, len(groups), path)
    failed = [r for r in results if r.status == "failed"]
    summary = BatchSummary(files=len(results), files_changed=sum(r.status not in ("unchanged", "failed") for r in results),
                           files_failed=len(failed), applied=sum(r.applied for r in results),
                           fuzzed=sum(r.fuzzed for r in results), failed=sum(r.failed for r in results))
    ok = not failed
    written = False
    if root is not None and not dry_run and staged and (ok or not atomic) and source.root_fd is not None:
        _write(root, source.root_fd, staged, source.existed)
        written = True
    if atomic and not ok:
        staged = {}  # all or nothing: nothing
    return BatchResult(ok=ok, mode="atomic" if atomic else "best_effort", written=written, files=results,
                       summary=summary, contents=staged)


def _write(root: str | os.PathLike[str], root_fd: int, staged: dict[str, str | None],
           existed: dict[str, bool]) -> None:
    """Every staged file or none (journal.commit), each opened below the root's descriptor."""
    commit(root_fd, {real_relative(root, path): None if content is None else content.encode("utf-8")
                     for path, content in staged.items()},
           {real_relative(root, path): there for path, there in existed.items() if path in staged})
