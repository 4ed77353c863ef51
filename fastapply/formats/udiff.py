"""Unified diffs (`git diff`, `diff -u`, and what LLMs write that looks like them) -> FileOps.

Tolerated: prose and fences around the diff, several files, new / deleted / renamed files, mode lines,
`\\ No newline at end of file`, hunk headers with wrong numbers or none at all (`@@ ... @@`), wrong line
counts, blank context lines that lost their leading space. Line numbers are only a hint: each hunk
is placed by its content (fastapply.formats.matching). Binary patches are refused.
"""

from __future__ import annotations

import re
from time import perf_counter

from ..errors import ErrorCode, InputError
from ..result import ApplyResult, ApplyStats, make_result
from ..text import DEFAULT_LIMITS, Document, Limits, normalize_newlines, read_inputs
from .hunks import Hunk
from .matching import DEFAULT_FUZZY_THRESHOLD
from .ops import FileOp, run_op
from .policy import Policy, make_policy

_HEADER = re.compile(r"^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@+")
_GIT = re.compile(r"^diff --git (?:\"?a/)?(.+?)\"? (?:\"?b/)?(.+?)\"?$")


def _path(raw: str) -> str | None:
    raw = raw.split("\t")[0].strip()
    if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
        raw = raw[1:-1]
    if raw == "/dev/null" or not raw:
        return None
    # `diff -u` puts a timestamp after the name with spaces when the tab got lost.
    raw = re.sub(r"\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?( [+-]\d{4})?$", "", raw)
    return raw


def _strip_prefix(old: str | None, new: str | None) -> tuple[str | None, str | None]:
    """Drop git's a/ b/ (or any differing first folder, as `patch -p1` would)."""
    def split(p: str) -> tuple[str, str]:
        head, _, rest = p.partition("/")
        return head, rest

    if old and new and "/" in old and "/" in new:
        (h1, r1), (h2, r2) = split(old), split(new)
        if (h1, h2) == ("a", "b") or (h1 != h2 and r1 == r2):
            return r1, r2
    strip = [p[2:] if p and p[:2] in ("a/", "b/") else p for p in (old, new)]
    if (old is None) != (new is None):
        return strip[0], strip[1]
    return old, new


class _FilePatch:
    def __init__(self, line: int) -> None:
        self.line = line
        self.old: str | None = None
        self.new: str | None = None
        self.git_old: str | None = None
        self.git_new: str | None = None
        self.created = self.deleted = False
        self.rename_from: str | None = None
        self.rename_to: str | None = None
        self.has_paths = False
        self.hunks: list[Hunk] = []

    def to_op(self) -> FileOp:
        old, new = (self.old, self.new) if self.has_paths else (self.git_old, self.git_new)
        if self.rename_from or self.rename_to:
            old, new = self.rename_from or old, self.rename_to or new
        # `--- /dev/null` over a hunk that removes or keeps lines of a file: the header is wrong, the
        # hunk edits the existing `+++` file (Aider applies it so).
        edits = any(tag == "-" or (tag == " " and text.strip()) for h in self.hunks for tag, text in h.lines)
        created = self.created or (self.has_paths and self.old is None and not edits)
        deleted = self.deleted or (self.has_paths and self.new is None)
        if created:
            lines = [t for tag, t in (x for h in self.hunks for x in h.lines) if tag != "-"]
            no_nl = any(h.no_newline_new for h in self.hunks)
            content = "\n".join(lines) + ("" if no_nl or not lines else "\n")
            return FileOp(path=new, format="udiff", action="create", content=content, source_line=self.line)
        if deleted:
            return FileOp(path=old, format="udiff", action="delete", source_line=self.line)
        move = new if old is not None and new is not None and old != new else None
        return FileOp(path=old or new, format="udiff", move_to=move, hunks=self.hunks, source_line=self.line)


def _is_file_header(lines: list[str], i: int) -> bool:
    return lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")


def parse_udiff(text: str, *, first_line: int = 1) -> list[FileOp]:
    """Every file in a unified diff, in order. Raises InputError binary_patch / malformed_edit."""
    lines = normalize_newlines(text).split("\n")
    patches: list[_FilePatch] = []
    cur: _FilePatch | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        num = i + first_line
        if line.startswith("diff --git "):
            cur = _FilePatch(num)
            patches.append(cur)
            m = _GIT.match(line)
            if m:
                cur.git_old, cur.git_new = m.group(1), m.group(2)
        elif line.startswith("GIT binary patch") or (line.startswith("Binary files ") and line.endswith(" differ")):
            raise InputError(f"line {num}: binary patches are not supported; send text diffs only",
                             code=ErrorCode.BINARY_PATCH, line=num)
        elif cur is not None and not cur.hunks and not cur.has_paths and _git_extended(cur, line):
            pass
        elif _is_file_header(lines, i):
            if cur is None or cur.has_paths or cur.hunks:
                cur = _FilePatch(num)
                patches.append(cur)
            cur.old, cur.new = _strip_prefix(_path(line[4:]), _path(lines[i + 1][4:]))
            cur.has_paths = True
            i += 2
            continue
        elif line.startswith("@@"):
            if cur is None:
                cur = _FilePatch(num)
                patches.append(cur)
            hunk, i = _read_hunk(lines, i, first_line)
            cur.hunks.append(hunk)
            continue
        i += 1
    return [p.to_op() for p in patches if p.hunks or p.created or p.deleted or p.rename_to or p.rename_from]


def _git_extended(cur: _FilePatch, line: str) -> bool:
    """git's extended header lines (between `diff --git` and `---`)."""
    if line.startswith("new file mode"):
        cur.created = True
    elif line.startswith("deleted file mode"):
        cur.deleted = True
    elif line.startswith("rename from "):
        cur.rename_from = line[len("rename from "):].strip()
    elif line.startswith("rename to "):
        cur.rename_to = line[len("rename to "):].strip()
    elif not line.startswith(("old mode", "new mode", "index ", "similarity index", "dissimilarity index",
                              "copy from", "copy to")):
        return False
    return True


def _read_hunk(lines: list[str], i: int, first_line: int) -> tuple[Hunk, int]:
    header = lines[i]
    m = _HEADER.match(header)
    old_start = int(m.group(1)) if m else None
    old_len = (int(m.group(2)) if m.group(2) is not None else 1) if m else None
    hunk = Hunk(lines=[], old_start=old_start, source_line=i + first_line)
    j = i + 1
    while j < len(lines):
        line = lines[j]
        if line.startswith("\\"):
            if hunk.lines:
                tag = hunk.lines[-1][0]
                if tag in " -":
                    hunk.no_newline_old = True
                if tag in " +":
                    hunk.no_newline_new = True
            j += 1
            continue
        if line.startswith(("@@", "diff --git ")) or _is_file_header(lines, j):
            break
        if line == "":
            hunk.lines.append((" ", ""))
        elif line[0] in " -+":
            hunk.lines.append((line[0], line[1:]))
        elif old_len is not None and sum(1 for tag, _ in hunk.lines if tag != "+") < old_len \
                and not line.startswith("```"):
            hunk.lines.append((" ", line))  # a context line that lost its leading space
        else:
            break
        j += 1
    # Empty lines after the hunk are separators, unless the header's count says they are context.
    old_count = sum(1 for tag, _ in hunk.lines if tag != "+")
    while hunk.lines and hunk.lines[-1] == (" ", "") and lines[j - 1] == "" and (old_len is None or old_count > old_len):
        hunk.lines.pop()
        old_count -= 1
        j -= 1
    if not any(tag in "-+" for tag, _ in hunk.lines):
        raise InputError(f"diff line {i + first_line}: the hunk under {header.strip()!r} has no '-' or '+' lines",
                         code=ErrorCode.MALFORMED_EDIT, line=i + first_line)
    return hunk, j


def apply_udiff(original: str | bytes, diff: str | bytes, *, filename: str | None = None,
                fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD, limits: Limits = DEFAULT_LIMITS,
                ambiguity: str | None = None, policy: Policy | None = None) -> ApplyResult:
    """Apply a unified diff for one file to `original` (file headers, if any, must name one file)."""
    started = perf_counter()
    policy = make_policy(policy, ambiguity=ambiguity)
    original, diff = read_inputs(original, diff, limits, "diff")
    ops = [op for op in parse_udiff(diff) if op.action != "delete" or op.path]
    if not ops:
        raise InputError("the diff has no hunks", code=ErrorCode.EMPTY_UPDATE)
    if len({op.path for op in ops}) > 1:
        raise InputError("the diff changes several files; use apply_batch", code=ErrorCode.INVALID_ARGUMENT)
    doc = Document.parse(original)
    text: str | None = doc.text
    warnings: list[str] = []
    hunks = 0
    for op in ops:
        if op.action == "create" and not (text or "").strip():
            text = None
        text, outcome = run_op(op, text, filename=filename, fuzzy_threshold=fuzzy_threshold, policy=policy)
        warnings += outcome.warnings
        hunks += max(1, len(op.hunks))
    merged = doc.restore(text or "")
    return make_result(original, merged, method="udiff", language=None, filename=filename, started=started,
                       stats=ApplyStats(segments=hunks), warnings=warnings)
