"""SEARCH/REPLACE blocks as LLMs write them in free text -> FileOps.

    path/to/file.py
    ```python
    <<<<<<< SEARCH
    old lines
    =======
    new lines
    >>>>>>> REPLACE
    ```

Also the `------- SEARCH` / `=======` / `+++++++ REPLACE` variant (Cline). The path is the line before
the block (or before its opening fence); a block without one reuses the previous block's path.
Prose and other fences between blocks are ignored.
"""

from __future__ import annotations

import re
from time import perf_counter

from ..errors import ErrorCode, InputError
from ..result import ApplyResult, ApplyStats, make_result
from ..text import DEFAULT_LIMITS, Document, Limits, check_size, ensure_text, normalize_newlines
from .matching import DEFAULT_FUZZY_THRESHOLD
from .ops import FileOp, run_op
from .replacements import Edit

_START = re.compile(r"^\s*(?:<{5,9}|-{5,9})\s*SEARCH\b.*$")
_DIVIDER = re.compile(r"^\s*={5,9}\s*$")
_END = re.compile(r"^\s*(?:>{5,9}|\+{5,9})\s*REPLACE\b.*$")
_PATH_TAG = re.compile(r"<path>\s*(.+?)\s*</path>")


def _malformed(num: int, why: str) -> InputError:
    return InputError(f"SEARCH/REPLACE block at line {num}: {why}", code=ErrorCode.MALFORMED_EDIT, line=num)


def _path_before(lines: list[str], i: int) -> str | None:
    """The file path written just before a block: skip one opening fence, then read one line."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    if j >= 0 and lines[j].strip().startswith("```"):
        j -= 1
        while j >= 0 and not lines[j].strip():
            j -= 1
    if j < 0:
        return None
    raw = lines[j].strip()
    tag = _PATH_TAG.search(raw)
    if tag:
        return tag.group(1)
    raw = re.sub(r"^(#+\s*|[-*]\s+)", "", raw)
    raw = re.sub(r"^(file|path|filename)\s*:\s*", "", raw, flags=re.I)
    raw = raw.strip("*`'\" :")
    if not raw or " " in raw or raw.startswith(("```", "<", ">", "=")) or len(raw) > 300:
        return None
    return raw


def block_spans(lines: list[str]) -> list[tuple[int, int, int]]:
    """(start, divider, end) line indexes of each block; raises on a block that is not closed."""
    spans = []
    i = 0
    while i < len(lines):
        if _START.match(lines[i]):
            dividers: list[int] = []
            end = None
            j = i + 1
            while j < len(lines):
                if _START.match(lines[j]):
                    raise _malformed(i + 1, f"a new SEARCH starts at line {j + 1} before this block ended")
                if _DIVIDER.match(lines[j]):
                    dividers.append(j)
                elif dividers and _END.match(lines[j]):
                    end = j
                    break
                j += 1
            if not dividers:
                raise _malformed(i + 1, "no '=======' divider after SEARCH")
            if end is None:
                raise _malformed(i + 1, "no '>>>>>>> REPLACE' (or '+++++++ REPLACE') line closing the block")
            spans.append((i, _divider(dividers, lines, i), end))
            i = end
        i += 1
    return spans


def _divider(dividers: list[int], lines: list[str], start: int) -> int:
    """The divider when the code itself has '=====' lines (rst underlines): the one exactly 7 long."""
    if len(dividers) == 1:
        return dividers[0]
    exact = [j for j in dividers if lines[j].strip() == "======="]
    if len(exact) == 1:
        return exact[0]
    raise _malformed(start + 1, f"several '=======' lines (lines {', '.join(str(j + 1) for j in dividers)}); "
                     "cannot tell which one divides SEARCH from REPLACE")


def parse_search_replace(text: str, *, first_line: int = 1) -> list[FileOp]:
    """One FileOp per run of consecutive blocks for the same file, in order."""
    lines = normalize_newlines(text).split("\n")
    ops: list[FileOp] = []
    path: str | None = None
    for start, div, end in block_spans(lines):
        path = _path_before(lines, start) or path
        edit = Edit(old="".join(x + "\n" for x in lines[start + 1:div]),
                    new="".join(x + "\n" for x in lines[div + 1:end]))
        if ops and ops[-1].path == path:
            ops[-1].edits.append(edit)
        else:
            ops.append(FileOp(path=path, format="search_replace", edits=[edit], source_line=start + first_line))
    return ops


def apply_search_replace(original: str | bytes, text: str | bytes, *, filename: str | None = None,
                         fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
                         limits: Limits = DEFAULT_LIMITS) -> ApplyResult:
    """Apply every SEARCH/REPLACE block in `text` to `original` (the paths, if any, are not checked)."""
    started = perf_counter()
    original = ensure_text(original, "original file")
    text = ensure_text(text, "edit")
    check_size(original, limits.max_file_bytes, "original file")
    check_size(text, limits.max_update_bytes, "edit")
    edits = [e for op in parse_search_replace(text) for e in op.edits]
    if not edits:
        raise InputError("no SEARCH/REPLACE blocks found", code=ErrorCode.EMPTY_UPDATE)
    doc = Document.parse(original)
    op = FileOp(path=filename, format="search_replace", edits=edits)
    merged, outcome = run_op(op, doc.text, filename=filename, fuzzy_threshold=fuzzy_threshold)
    return make_result(original, doc.restore(merged or ""), method="search_replace", language=None,
                       filename=filename, started=started, stats=ApplyStats(segments=len(edits)),
                       warnings=outcome.warnings)


__all__ = ["apply_search_replace", "parse_search_replace", "block_spans"]
