"""FileOp: one format-independent change to one file, as every parser produces it, and how to run it."""

from __future__ import annotations

import re

import msgspec

from ..errors import ErrorCode, MergeError
from ..text import DEFAULT_LIMITS
from .hunks import Hunk, Outcome, apply_hunks, join_lines, split_lines
from .matching import DEFAULT_FUZZY_THRESHOLD
from .policy import DEFAULT_POLICY, Policy
from .replacements import Edit, replace_all_in


class FileOp(msgspec.Struct, kw_only=True):
    path: str | None  # None: the single file the caller supplies (single-file API)
    format: str  # udiff | v4a | search_replace | replacements | lazy | whole
    action: str = "modify"  # modify | create | delete
    move_to: str | None = None
    hunks: list[Hunk] = msgspec.field(default_factory=list)
    edits: list[Edit] = msgspec.field(default_factory=list)
    content: str = ""  # created file's text, the whole file's new text, or the lazy snippet
    source_line: int | None = None  # where the op starts in the agent's output
    warnings: list[str] = msgspec.field(default_factory=list)  # what parsing had to repair
    guessed: bool = False  # the format was detected, not given (whole files: guard what they drop)


def run_op(op: FileOp, current: str | None, *, filename: str | None = None,
           fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
           policy: Policy = DEFAULT_POLICY, max_edits: int = DEFAULT_LIMITS.max_edits) -> tuple[str | None, Outcome]:
    """Apply `op` to the current '\\n'-text of its file (None: the file does not exist).

    Returns the new text (None: the file is deleted) and the counts. Raises ApplyError (too_many_edits
    for an op with more than `max_edits` edits or SEARCH/REPLACE blocks).
    """
    text, outcome = _run(op, current, filename, fuzzy_threshold, policy, max_edits)
    outcome.warnings[:0] = op.warnings
    return text, outcome


def _run(op: FileOp, current: str | None, filename: str | None, fuzzy_threshold: float,
         policy: Policy, max_edits: int) -> tuple[str | None, Outcome]:
    where = f" (patch line {op.source_line})" if op.source_line else ""
    name = op.path or filename or "the file"
    if op.format == "whole":
        # Aider's whole-file format: the reply is the file, created or overwritten.
        from .whole import check_whole

        check_whole(op, current)
        return op.content, Outcome(text=op.content, applied=1)
    if op.action == "create":
        if current is not None and current != op.content:
            if op.format != "v4a":
                raise MergeError(f"{name} already exists, but the patch creates it{where}",
                                 code=ErrorCode.FILE_EXISTS, details={"path": op.path})
            # Codex's apply_patch writes `*** Add File:` over an existing file.
            return op.content, Outcome(text=op.content, applied=1,
                                       warnings=[f"{name} existed; '*** Add File' replaced it{where}"])
        return op.content, Outcome(text=op.content, applied=1)
    if current is None:
        if op.format == "search_replace" and op.edits and not op.edits[0].old.strip() \
                and op.edits[0].dialect != "roo":
            # Aider's convention: an empty SEARCH section on a missing file creates it.
            current = ""
        else:
            raise MergeError(f"{name} does not exist{where}", code=ErrorCode.FILE_NOT_FOUND,
                             details={"path": op.path})
    if op.action == "delete":
        return None, Outcome(text="", applied=1)
    label = "hunk" if op.format in ("udiff", "v4a") else ("block" if op.format == "search_replace" else "edit")
    if op.format in ("udiff", "v4a"):
        lines, final_newline = split_lines(current)
        out, final_newline, placed = apply_hunks(lines, final_newline, op.hunks, sequential=op.format == "v4a",
                                                 diff_context=True, fuzzy_threshold=fuzzy_threshold, label=label,
                                                 ambiguity=policy.ambiguity, reindent=policy.reindent)
        # Codex's apply_patch ends every file it updates with a newline.
        outcome = Outcome(text=join_lines(out, final_newline or op.format == "v4a"))
        outcome.note(placed, label)
        return outcome.text, outcome
    if op.format in ("search_replace", "replacements"):
        edits = op.edits
        if op.format == "search_replace":
            edits = [piece for i, e in enumerate(edits, 1) for piece in _split_elided(e, current, i)]
        if op.format == "search_replace" and current.strip():
            edits = [_empty_search(e, current, i) if not e.old.strip() else e for i, e in enumerate(edits, 1)]
        outcome = replace_all_in(current, edits, fuzzy_threshold=fuzzy_threshold, label=label, policy=policy,
                                 max_edits=max_edits)
        return outcome.text, outcome
    if op.format == "lazy":
        from ..api import apply

        result = apply(current, op.content, filename=op.path or filename)
        outcome = Outcome(text=result.merged_code, applied=1, warnings=list(result.warnings))
        return result.merged_code, outcome
    raise MergeError(f"unknown edit format {op.format!r}", code=ErrorCode.INVALID_ARGUMENT)


def _empty_search(edit: Edit, current: str, index: int) -> Edit:
    """An empty SEARCH on an existing file: Cline replaces the whole file, Aider appends to it, and
    Roo Code refuses it. Each dialect gets its owner's rule."""
    if edit.dialect == "cline":
        return Edit(old=current, new=edit.new, dialect="cline")
    if edit.dialect == "roo":
        raise MergeError(f"block {index}: the SEARCH section is empty; quote the lines to replace "
                         "(Roo Code's format does not allow an empty SEARCH)", code=ErrorCode.MALFORMED_EDIT,
                         details={"edit": index})
    return Edit(old=current, new=current + ("" if current.endswith("\n") else "\n") + edit.new)


_DOTS = re.compile(r"^[ \t]*\.\.\.[ \t]*\n", re.M)


def _split_elided(edit: Edit, current: str, index: int) -> list[Edit]:
    """Aider's `...` lines: a block whose SEARCH is not in the file as written, and whose SEARCH and
    REPLACE elide the same stretches with `...` lines, is the blocks between the dots, in order.
    Not in a file that has `...` lines itself. O(file)."""
    if edit.dialect not in ("aider", "") or not _DOTS.search(edit.old) or edit.old in current:
        return [edit]
    if _DOTS.search(current if current.endswith("\n") else current + "\n"):
        return [edit]  # the file has `...` lines of its own (Python stubs): they are code, not elision
    olds, news = _DOTS.split(edit.old), _DOTS.split(edit.new)
    if len(olds) != len(news):
        raise MergeError(f"block {index}: SEARCH and REPLACE have different numbers of '...' lines; elide "
                         "the same stretches in both", code=ErrorCode.MALFORMED_EDIT, details={"edit": index})
    pieces = [Edit(old=o, new=n, dialect=edit.dialect) for o, n in zip(olds, news) if o.strip() or n.strip()]
    if any(not p.old.strip() for p in pieces):
        raise MergeError(f"block {index}: a stretch between '...' lines has new text but no SEARCH text to "
                         "find", code=ErrorCode.MALFORMED_EDIT, details={"edit": index})
    return pieces
