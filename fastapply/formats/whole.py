"""Aider's whole-file format: the reply carries each changed file in full, in a fenced block.

    path/to/file.py          the name on the line before the fence (also `### file.py`, `**file.py**`,
    ```python                `file.py:`); without one, a file named in backquotes in the prose before
    ...the whole file...     it, or the only file there is
    ```

A fence is three or more backticks at the start of a line and closes on a line of at least as many
backticks and nothing else, so a file that holds ``` fences is sent in ```` fences. Parsing is one pass
over the lines, O(reply).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from time import perf_counter

from ..errors import ErrorCode, InputError, MergeError
from ..result import ApplyResult, ApplyStats, make_result
from ..text import DEFAULT_LIMITS, Document, Limits, normalize_newlines, read_inputs
from .ops import FileOp
from .policy import DEFAULT_POLICY, Policy, make_policy
from .search_replace import _clean_name

_FENCE = re.compile(r"^(`{3,})\s*([^`\s]*)[^`]*$")
_MENTION = re.compile(r"`([^`\s]+)`")
# Fences that hold a command to run, not a file (Aider's edit-block parser skips these too).
_SHELL = {"bash", "sh", "shell", "zsh", "fish", "console", "cmd", "batch", "powershell", "ps1"}
# Which name wins when one file comes twice: the name line, then a mention, then the only file.
_RANK = {"block": 0, "saw": 1, "chat": 2}


def _resolve(name: str, known: Sequence[str] | None) -> str:
    """Aider drops a made-up folder (`path/to/a.py` for the chat's `a.py`): the known file with that
    base name, when exactly one has it."""
    if not known or name in known:
        return name
    same = [k for k in known if posixpath.basename(k) == posixpath.basename(name)]
    return same[0] if len(same) == 1 else name


def parse_whole(text: str, *, known: Sequence[str] | None = None, policy: Policy = DEFAULT_POLICY,
                auto: bool = False, first_line: int = 1) -> list[FileOp]:
    """One FileOp (format "whole") per fenced file, in order; the first block for a file wins.

    known: the files the reply may name (a file mentioned as `name` in the prose, or the only one,
    names a block that has no name line). auto: only blocks with a name count (a reply whose format
    was not given holds other code too), and blocks that elide code with `... existing code ...`
    markers become lazy snippets.
    """
    lines = normalize_newlines(text).split("\n")
    found: list[tuple[int, FileOp]] = []
    saw: str | None = None
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            for word in _MENTION.findall(lines[i]):
                if known and word.rstrip(".:,;!") in known:
                    saw = word.rstrip(".:,;!")
            i += 1
            continue
        ticks, info = m.group(1), m.group(2).lower()
        j = i + 1
        while j < len(lines) and not (lines[j].rstrip() and set(lines[j].rstrip()) == {"`"}
                                      and len(lines[j].rstrip()) >= len(ticks)):
            j += 1
        name = _clean_name(lines[i - 1]) if i > 0 and lines[i - 1].strip() else None
        source = "block"
        if name is None and not auto and info not in _SHELL:
            name, source = (saw, "saw") if saw else ((known[0], "chat") if known and len(known) == 1 else (None, ""))
            if name is None:
                raise InputError(f"line {i + first_line}: no file name before the fence, and the reply "
                                 "names no file; put the path on the line before the fence",
                                 code=ErrorCode.MALFORMED_EDIT, line=i + first_line)
        body = lines[i + 1:j]
        op = None
        if name is not None:
            op = FileOp(path=_resolve(name, known), format="whole", content="".join(x + "\n" for x in body),
                        source_line=i + first_line)
        if op is not None and j >= len(lines):
            if policy.unterminated != "complete":
                raise InputError(f"line {i + first_line}: the fence of {op.path} is not closed; the reply may "
                                 "have been cut off", code=ErrorCode.MALFORMED_EDIT, line=i + first_line)
            while body and not body[-1].strip():
                body.pop()
            op.content = "".join(x + "\n" for x in body)
            op.warnings.append(f"the fence of {op.path} at line {i + first_line} was not closed; "
                               "took the file to the end of the reply")
        if op is not None and auto:
            op.guessed = True
            if _elides(body):
                op.format = "lazy"
        if op is not None:
            found.append((_RANK[source], op))
        saw = None
        i = j + 1
    ops: list[FileOp] = []
    for _, op in sorted(found, key=lambda x: x[0]):
        if all(o.path != op.path for o in ops):
            ops.append(op)
    ops.sort(key=lambda op: op.source_line or 0)
    return ops


def _elides(body: list[str]) -> bool:
    from ..merge.markers import is_marker

    return any(is_marker(line) for line in body)


# A detected (not requested) whole file must keep this share of the file's lines: a reply that only
# quotes part of a file, in a fence under its name, is no instruction to cut the rest.
_KEEP = 0.5


def check_whole(op: FileOp, current: str | None) -> None:
    """Refuse a whole file that elides code: writing `// ... existing code ...` would lose it. O(file)."""
    from ..merge.markers import is_marker

    have = set(current.split("\n")) if current else set()
    old = [x.strip() for x in (current or "").split("\n") if x.strip()]
    if op.guessed and len(old) >= 10:
        new = {x.strip() for x in op.content.split("\n")}
        kept = sum(1 for x in old if x in new)
        if kept < _KEEP * len(old):
            raise MergeError(f"{op.path}: the fenced block under its name keeps {kept} of its {len(old)} lines; "
                             "taken as the whole new file it would drop the rest. Send format 'whole' to "
                             "replace the file, or an edit format", code=ErrorCode.CONTENT_LOST,
                             details={"kept": kept, "lines": len(old)})
    for k, line in enumerate(op.content.split("\n")):
        if line not in have and is_marker(line):
            raise MergeError(f"{op.path or 'the file'}: the whole-file block elides code at its line {k + 1} "
                             f"({line.strip()!r}); writing it would lose that code. Send it as a lazy "
                             "snippet (format 'lazy') or send the whole file", code=ErrorCode.MALFORMED_EDIT,
                             details={"line": k + 1})


def apply_whole(original: str | bytes, text: str | bytes, *, filename: str | None = None,
                limits: Limits = DEFAULT_LIMITS, policy: Policy | None = None,
                ambiguity: str | None = None) -> ApplyResult:
    """The file written in full in an Aider whole-file reply: the block named `filename` (or its base
    name), else the reply's only block. `ambiguity` is accepted for a uniform signature (a whole file
    is never placed, so it never matches twice)."""
    started = perf_counter()
    policy = make_policy(policy, ambiguity=ambiguity)
    original, text = read_inputs(original, text, limits, "edit")
    ops = parse_whole(text, known=[filename] if filename else ["the file"], policy=policy)
    if filename and ops:
        named = [op for op in ops if op.path == filename]
        if not named:
            raise InputError(f"the reply holds {', '.join(str(op.path) for op in ops)}, not {filename}",
                             code=ErrorCode.INVALID_ARGUMENT, details={"paths": [op.path for op in ops]})
        ops = named
    if len(ops) != 1:
        raise InputError(f"expected one file in the reply, found {len(ops)}"
                         + ("; use apply_batch for several" if ops else ""),
                         code=ErrorCode.EMPTY_UPDATE if not ops else ErrorCode.INVALID_ARGUMENT)
    doc = Document.parse(original)
    check_whole(ops[0], doc.text)
    return make_result(original, doc.restore(ops[0].content), method="whole", language=None,
                       filename=filename, started=started, stats=ApplyStats(segments=1),
                       warnings=list(ops[0].warnings))


__all__ = ["apply_whole", "parse_whole"]
