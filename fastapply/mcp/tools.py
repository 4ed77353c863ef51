"""The MCP edit tools as plain async methods on a `Workspace` (a root folder), free of the MCP SDK.

`edit_file` merges a lazy snippet (the structural engine; the model when one is configured and the
engine refuses), `apply_patch` applies an agent's patch (unified diff, SEARCH/REPLACE, V4A or a JSON
edit list, many files), `str_replace` replaces text in one file. Every path goes through the batch
rules (fastapply.formats.paths: no absolute paths, no `..`, no symlink out of the root) and every write
through `fastapply.apply_batch` (atomic, all or nothing per file): this module adds no file-system code
of its own. A refusal is a `Refusal` whose text names the error code and what to send instead.

Cost: one merge or one batch per call, O(file size) for the write and the diff.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any

import anyio.to_thread

from ..errors import ApplyError, ErrorCode, FastApplyError
from ..formats.batch import BatchResult, apply_batch
from ..formats.paths import clean_path, resolve_under
from ..result import ApplyResult
from ..text import Document, diff_counts, ensure_text, unified_diff

# (original, snippet, path, instruction) -> the merged file; raises ApplyError.
MergeFn = Callable[[str, str, str, "str | None"], Awaitable[ApplyResult]]

# What an agent should send instead, by error code: the retry advice in every refusal.
HINTS = {
    ErrorCode.ANCHOR_NOT_FOUND: "add 1-3 unchanged lines from the file around each change (copied exactly) "
    "so it can be placed, or send the change with str_replace",
    ErrorCode.AMBIGUOUS_ANCHOR: "include more unchanged lines around the change, enough to be unique in "
    "the file, or use str_replace with a unique old_str",
    ErrorCode.MARKER_LEFT: "put each '// ... existing code ...' marker on a line of its own, and keep "
    "every changed line complete",
    ErrorCode.SYNTAX_REGRESSED: "send complete, balanced code for each changed block (whole functions "
    "or statements), with markers only between them",
    ErrorCode.CONTENT_LOST: "mark every unchanged region with '// ... existing code ...'; code left out "
    "without a marker is deleted",
    ErrorCode.EMPTY_UPDATE: "send the changed code, with '// ... existing code ...' for unchanged parts",
    ErrorCode.NO_MATCH: "read the file again and copy the text to replace exactly, including indentation",
    ErrorCode.AMBIGUOUS_MATCH: "include more surrounding lines so the text occurs once, or set "
    "replace_all=true to change every occurrence",
    ErrorCode.MALFORMED_EDIT: "send a unified diff, SEARCH/REPLACE blocks, a V4A patch "
    "(*** Begin Patch) or a JSON list of {path, old, new} edits",
    ErrorCode.PATH_OUTSIDE_ROOT: "use a path relative to the project root, inside it",
    ErrorCode.FILE_NOT_FOUND: "check the path; to create a file, send its complete content without "
    "'... existing code ...' markers",
    ErrorCode.FILE_EXISTS: "the file exists already: edit it instead of creating it",
    ErrorCode.BINARY_PATCH: "binary files cannot be patched; edit text files only",
    ErrorCode.NOT_TEXT: "only UTF-8 text files can be edited",
    ErrorCode.INPUT_TOO_LARGE: "send a smaller edit, or split it into several calls",
    ErrorCode.INVALID_ARGUMENT: "check the arguments against the tool description",
    ErrorCode.MODEL_NOT_CONFIGURED: "add unchanged context lines so the structural engine can place the "
    "edit, or start the server with --model",
}
DEFAULT_HINT = "read the file again and resend the edit"


class Refusal(Exception):
    """A tool call that changed nothing, with a machine-readable code and retry advice."""

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message = code, message
        self.hint = hint or HINTS.get(code, DEFAULT_HINT)

    @classmethod
    def of(cls, exc: FastApplyError, path: str | None = None) -> Refusal:
        where = f"{path}: " if path and path not in exc.message else ""
        return cls(exc.code, where + exc.message)

    def __str__(self) -> str:
        return f"error [{self.code}]: {self.message}\nwhat to send instead: {self.hint}"


def _summary(verb: str, path: str, diff: str, extra: str = "") -> str:
    added, removed = diff_counts(diff)
    head = f"{verb} {path}: +{added} -{removed} lines{extra}"
    return head + ("\n\n" + diff if diff else "\n(no change)")


class Workspace:
    """The files an MCP server may edit: everything under `root`, nothing outside it."""

    def __init__(self, root: str | os.PathLike[str], merge: MergeFn) -> None:
        self.root = os.path.realpath(root)
        self.merge = merge
        if not os.path.isdir(self.root):
            raise Refusal(ErrorCode.FILE_NOT_FOUND, f"root {str(root)!r} is not a folder",
                          "start the server with --root pointing at the project folder")

    def _target(self, path: str | None) -> tuple[str, str]:
        """(cleaned relative path, real absolute path), or a Refusal."""
        if not path:
            raise Refusal(ErrorCode.INVALID_ARGUMENT, "no path given",
                          "pass target_filepath (or path): the file's path relative to the project root")
        try:
            rel = clean_path(_relative(path, self.root))
            return rel, str(resolve_under(self.root, rel))
        except ApplyError as exc:
            raise Refusal.of(exc) from None

    async def _batch(self, edits: str | list[dict[str, Any]], **options: Any) -> BatchResult:
        try:
            return await anyio.to_thread.run_sync(
                lambda: apply_batch(edits, root=self.root, atomic=True, **options))
        except ApplyError as exc:
            raise Refusal.of(exc) from None

    @staticmethod
    def _checked(result: BatchResult) -> BatchResult:
        failed = next((f for f in result.files if f.error is not None), None)
        if failed is not None and failed.error is not None:
            raise Refusal(failed.error.code, f"{failed.path}: {failed.error.message}")
        return result

    async def edit_file(self, path: str | None, code_edit: str, instruction: str | None = None) -> str:
        """Merge a lazy snippet into the file; a missing file with a snippet without markers is created."""
        rel, target = self._target(path)
        if os.path.isdir(target):
            raise Refusal(ErrorCode.INVALID_ARGUMENT, f"{rel} is a folder, not a file", "name a file")
        if not code_edit.strip():
            raise Refusal(ErrorCode.EMPTY_UPDATE, "code_edit is empty")
        if not os.path.exists(target):
            return await self._create(rel, code_edit)
        try:
            original = ensure_text(await anyio.to_thread.run_sync(_read_bytes, target), f"file {rel}")
        except ApplyError as exc:
            raise Refusal.of(exc, rel) from None
        try:
            result = await self.merge(original, code_edit, rel, instruction)
        except FastApplyError as exc:  # the engine's refusals, and the service's (model not ready, ...)
            raise Refusal.of(exc, rel) from None
        if result.merged_code == original:
            return _summary("unchanged", rel, "", f" ({result.method})")
        before, after = Document.parse(original).text, Document.parse(result.merged_code).text
        # The whole file as one exact replacement: apply_batch re-reads it, so a file that changed
        # since it was read is refused (no_match) instead of losing the other writer's change.
        if before:
            edits: str | list[dict[str, Any]] = [{"path": rel, "old": before, "new": after}]
        else:
            edits = _create_block(rel, after)
        if ensure_text(await anyio.to_thread.run_sync(_read_bytes, target), rel) != original:
            raise Refusal(ErrorCode.NO_MATCH, f"{rel} changed on disk while the edit was merged; nothing "
                          "was written", "read the file again and resend the edit")
        # fuzzy_threshold=1: the old text must be there line for line (the exact file just checked).
        self._checked(await self._batch(edits, fuzzy_threshold=1.0))
        extra = f" ({result.method}" + (f"; {'; '.join(result.warnings)}" if result.warnings else "") + ")"
        return _summary("edited", rel, unified_diff(original, result.merged_code, rel), extra)

    async def _create(self, rel: str, content: str) -> str:
        from ..merge.markers import is_marker

        if any(is_marker(line) for line in content.splitlines()):
            raise Refusal(ErrorCode.FILE_NOT_FOUND, f"{rel} does not exist and the snippet has "
                          "'... existing code ...' markers, so it cannot be a new file",
                          "check the path, or send the new file's complete content without markers")
        self._checked(await self._batch(_create_block(rel, content)))
        return _summary("created", rel, unified_diff("", content, rel))

    async def apply_patch(self, patch: str, dry_run: bool = False, ambiguity: str = "refuse") -> str:
        """Apply an agent's patch to any number of files, all or nothing. `ambiguity`: "refuse" (an edit
        whose text occurs twice is refused) or "first" (Aider's rule: the first occurrence)."""
        if not patch.strip():
            raise Refusal(ErrorCode.EMPTY_UPDATE, "patch is empty", HINTS[ErrorCode.MALFORMED_EDIT])
        result = self._checked(await self._batch(patch, dry_run=dry_run, ambiguity=ambiguity))
        s = result.summary
        lines = [f"{'dry run, nothing written' if dry_run else 'applied'}: {s.files_changed} of {s.files} "
                 f"files changed; {s.applied} applied, {s.fuzzed} fuzzed"]
        for f in result.files:
            added, removed = diff_counts(f.diff)
            name = f.path + (f" -> {f.new_path}" if f.new_path else "")
            lines.append(f"  {f.status} {name}: +{added} -{removed} lines ({f.applied} applied"
                         + (f", {f.fuzzed} fuzzed" if f.fuzzed else "") + ")")
            lines += [f"    note: {w}" for w in f.warnings]
        return "\n".join(lines) + ("\n\n" + result.diff if result.diff else "")

    async def str_replace(self, path: str | None, old_str: str, new_str: str, replace_all: bool = False) -> str:
        """Replace `old_str` (once, or everywhere with replace_all) in one file."""
        rel, target = self._target(path)
        if not os.path.isfile(target):
            raise Refusal(ErrorCode.FILE_NOT_FOUND, f"{rel} does not exist",
                          "check the path; create files with edit_file")
        if not old_str:
            raise Refusal(ErrorCode.MALFORMED_EDIT, "old_str is empty",
                          "copy the exact text to replace from the file into old_str")
        edit = {"path": rel, "old": old_str, "new": new_str, "replace_all": replace_all}
        result = self._checked(await self._batch([edit]))
        f = result.files[0]
        extra = f" ({f.applied} replaced" + (f", {f.fuzzed} fuzzy" if f.fuzzed else "") + ")"
        return _summary("edited", rel, f.diff, extra)


def _relative(path: str, root: str) -> str:
    """Agents often send absolute paths inside the project: accept those as relative to the root."""
    if os.path.isabs(path):
        real = os.path.realpath(path)
        if real == root or real.startswith(root + os.sep):
            return os.path.relpath(real, root)
    return path


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


_SR_LINES = ("<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE")


def _create_block(rel: str, content: str) -> str:
    """A SEARCH/REPLACE block with an empty SEARCH: apply_batch creates the file (Aider's convention)."""
    text = Document.parse(content).text
    if any(line.strip() in _SR_LINES for line in text.split("\n")):
        raise Refusal(ErrorCode.INVALID_ARGUMENT, f"{rel}: the content holds a line that is a "
                      "SEARCH/REPLACE delimiter, which cannot be written through this tool",
                      "create the file with apply_patch as a unified diff (--- /dev/null)")
    return f"{rel}\n<<<<<<< SEARCH\n=======\n{text}{'' if text.endswith(chr(10)) else chr(10)}>>>>>>> REPLACE\n"
