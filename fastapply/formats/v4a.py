"""V4A patches, as OpenAI's apply_patch tool and recent GPT models write them -> FileOps.

    *** Begin Patch
    *** Update File: src/app.py
    *** Move to: src/main.py          (optional rename)
    @@ class App                      (optional: a line the change sits below; may repeat to nest)
     context
    -removed
    +added
    *** End of File                   (optional: the chunk ends the file)
    *** Add File: src/new.py
    +every line prefixed with +
    *** Delete File: src/old.py
    *** End Patch

Chunks carry no line numbers: each one is searched after the previous one and after its `@@` lines.
"""

from __future__ import annotations

from time import perf_counter

from ..errors import ErrorCode, InputError
from ..result import ApplyResult, ApplyStats, make_result
from ..text import DEFAULT_LIMITS, Document, Limits, normalize_newlines, read_inputs
from .hunks import Hunk
from .matching import DEFAULT_FUZZY_THRESHOLD
from .ops import FileOp, run_op
from .policy import Policy, make_policy

BEGIN, END = "*** Begin Patch", "*** End Patch"
_UPDATE, _ADD, _DELETE, _MOVE = "*** Update File:", "*** Add File:", "*** Delete File:", "*** Move to:"
_EOF = "*** End of File"


def _malformed(num: int, why: str) -> InputError:
    return InputError(f"V4A patch line {num}: {why}", code=ErrorCode.MALFORMED_EDIT, line=num)


def v4a_spans(lines: list[str]) -> list[tuple[int, int]]:
    """[start, end) line ranges of every `*** Begin Patch` ... `*** End Patch` block (0-based)."""
    spans = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == BEGIN:
            j = i + 1
            while j < len(lines) and lines[j].strip() != END:
                j += 1
            spans.append((i, min(j + 1, len(lines))))
            i = j
        i += 1
    return spans


def parse_v4a(text: str, *, first_line: int = 1) -> list[FileOp]:
    """Every file operation in the V4A patch(es) in `text`. Raises InputError malformed_edit."""
    lines = normalize_newlines(text).split("\n")
    spans = v4a_spans(lines)
    if not spans:
        # Tolerate a missing `*** Begin Patch` when file sections are there.
        start = next((i for i, x in enumerate(lines) if x.strip().startswith((_UPDATE, _ADD, _DELETE))), None)
        if start is None:
            return []
        spans = [(start, len(lines))]
    ops: list[FileOp] = []
    for s, e in spans:
        ops += _parse_block(lines, s, e, first_line)
    return ops


def _parse_block(lines: list[str], s: int, e: int, first_line: int) -> list[FileOp]:
    ops: list[FileOp] = []
    op: FileOp | None = None
    hunk: Hunk | None = None
    anchors: list[str] = []
    i = s
    while i < e:
        line, num = lines[i], i + first_line
        stripped = line.strip()
        if stripped in (BEGIN, END):
            i += 1
            continue
        if stripped.startswith((_UPDATE, _ADD, _DELETE)):
            # Codex trims the padding models put around its markers (`  *** Update File: a.py`).
            kind, _, path = stripped[4:].partition(":")
            path = path.strip()
            if not path:
                raise _malformed(num, f"{line.strip()!r} names no file")
            action = {"Update File": "modify", "Add File": "create", "Delete File": "delete"}[kind.strip()]
            op = FileOp(path=path, format="v4a", action=action, source_line=num)
            ops.append(op)
            hunk, anchors = None, []
        elif op is None:
            if stripped:
                raise _malformed(num, f"expected '*** Update File:', '*** Add File:' or '*** Delete File:', got {line!r}")
        elif stripped.startswith(_MOVE):
            if op.action != "modify":
                raise _malformed(num, "'*** Move to:' only follows '*** Update File:'")
            op.move_to = stripped[len(_MOVE):].strip() or None
        elif op.action == "create":
            if not line.startswith("+"):
                if stripped:
                    raise _malformed(num, "every line of an added file starts with '+'")
            else:
                op.content += line[1:] + "\n"
        elif op.action == "delete":
            if stripped:
                raise _malformed(num, "'*** Delete File:' takes no content")
        elif stripped == _EOF:
            if hunk is not None:
                hunk.at_eof = True
        elif line.startswith("@@"):
            if hunk is not None and hunk.lines:
                hunk, anchors = None, []
            anchor = line[2:].strip()
            if anchor:
                anchors.append(line[2:].lstrip() if line[2:3] == " " else line[2:])
        elif line == "" or line[0] in " -+":
            if hunk is None:
                hunk = Hunk(lines=[], anchor=anchors, source_line=num)
                op.hunks.append(hunk)
            hunk.lines.append((" ", "") if line == "" else (line[0], line[1:]))
        else:
            raise _malformed(num, f"a change line starts with ' ', '-' or '+', got {line!r}")
        i += 1
    for op in ops:
        # Blank lines before the next section are separators, not context.
        for h in op.hunks:
            while h.lines and h.lines[-1] == (" ", ""):
                h.lines.pop()
        op.hunks = [h for h in op.hunks if h.lines]
        if op.action == "modify" and not op.hunks and not op.move_to:
            raise _malformed(op.source_line or 0, f"'*** Update File: {op.path}' has no changes")
    return ops


def apply_v4a(original: str | bytes, patch: str | bytes, *, filename: str | None = None,
              fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD, limits: Limits = DEFAULT_LIMITS,
              ambiguity: str | None = None, policy: Policy | None = None) -> ApplyResult:
    """Apply a V4A patch that updates one file to `original`."""
    started = perf_counter()
    policy = make_policy(policy, ambiguity=ambiguity)
    original, patch = read_inputs(original, patch, limits, "patch")
    ops = [op for op in parse_v4a(patch) if op.action == "modify"]
    if len(ops) != 1:
        raise InputError(f"expected one '*** Update File:' section, found {len(ops)}; use apply_batch for several",
                         code=ErrorCode.INVALID_ARGUMENT)
    doc = Document.parse(original)
    text, outcome = run_op(ops[0], doc.text, filename=filename, fuzzy_threshold=fuzzy_threshold, policy=policy)
    return make_result(original, doc.restore(text or ""), method="v4a", language=None, filename=filename,
                       started=started, stats=ApplyStats(segments=len(ops[0].hunks)), warnings=outcome.warnings)
