"""SEARCH/REPLACE blocks as LLMs write them in free text -> FileOps, in each owner's dialect.

    path/to/file.py                    Aider: the path on the line before the block or its fence
    ```python
    <<<<<<< SEARCH
    old lines
    =======
    new lines
    >>>>>>> REPLACE
    ```

Dialects, told apart by their markers:
- aider: `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`; a block with no path line reuses the
  previous block's path; a path written in its own small fence before the block (DeepSeek) is found
  up to three lines back; an empty SEARCH appends to the file (or creates it).
- cline: `------- SEARCH` / `=======` / `+++++++ REPLACE` with any run of 3 or more marker characters;
  a final block whose `+++++++ REPLACE` is missing runs to the end of the reply
  (Policy.unterminated); an empty SEARCH replaces the whole file.
- roo (Roo Code, Kilo Code): aider's markers with `:start_line:N` / `:end_line:N` and a `-------` line
  after `<<<<<<< SEARCH`; the start line chooses among identical matches; `N | ` line-number prefixes
  copied from Roo's file reader are stripped when every SEARCH line has one; escaped markers
  (`\\=======`) in the content are unescaped; an empty SEARCH is refused.
Prose and other fences between blocks are ignored. Parsing is one pass over the lines, O(reply).
"""

from __future__ import annotations

import re
from time import perf_counter

import msgspec

from ..errors import ErrorCode, InputError
from ..result import ApplyResult, ApplyStats, make_result
from ..text import DEFAULT_LIMITS, Document, Limits, normalize_newlines, read_inputs
from .matching import DEFAULT_FUZZY_THRESHOLD
from .ops import FileOp, run_op
from .policy import DEFAULT_POLICY, Policy, make_policy
from .replacements import Edit

# Tolerant markers (Policy.markers="tolerant"): any run of 3+ marker characters, stray spaces.
_START = re.compile(r"^\s*(?:<{3,}\s*SEARCH\b.*|-{3,}\s*SEARCH>?\s*)$")
_DIVIDER = re.compile(r"^\s*={3,}\s*$")
_END = re.compile(r"^\s*(?:>{3,}|\+{3,})\s*REPLACE\b.*$")
# What the owners' parsers accept (Policy.markers="strict"): Cline matches its lines exactly
# (`^-{3,} SEARCH>?$`, `^={3,}$`, `^\+{3,} REPLACE>?$`); Aider and Roo strip the line first.
_STRICT_START = re.compile(r"^(?:\s*<{3,} SEARCH>?\s*|-{3,} SEARCH>?)$")
_STRICT_DIVIDER = {"cline": re.compile(r"^={3,}$"), "angle": re.compile(r"^\s*={3,}\s*$")}
_STRICT_END = {"cline": re.compile(r"^\+{3,} REPLACE>?$"), "angle": re.compile(r"^\s*>{3,} REPLACE>?\s*$")}
_HINT = re.compile(r"^\s*:(start|end)_line:\s*(\d+)\s*$")
# Exactly seven, as Roo's own pattern: YAML's `---` as the first SEARCH line stays content.
_ROO_SEPARATOR = re.compile(r"^-{7}\s*$")
_LINE_NUMBER = re.compile(r"^\s*(\d+)\s+\|(?!\|)")
_LINE_NUMBER_STRIP = re.compile(r"^\s*\d+\s+\|(?!\|) ?")
_ESCAPED = re.compile(r"^(\s*)\\(?=<{3,}|={3,}|>{3,}|-{3,}|\+{3,}|:start_line:|:end_line:)")
_PATH_TAG = re.compile(r"<path>\s*(.+?)\s*</path>")
_FILE_LIKE = re.compile(r"^[\w.\-/\\]*[./][\w.\-/\\]*$")


class Block(msgspec.Struct, kw_only=True):
    """One SEARCH/REPLACE block: line indexes (0-based) of its markers and what its dialect says."""

    start: int  # the SEARCH line
    body: int  # first SEARCH content line (after Roo's hint and `-------` lines)
    divider: int
    end: int  # the REPLACE line, or one past the last content line of a completed final block
    dialect: str  # aider | cline | roo
    start_line: int | None = None
    completed: bool = False


def _malformed(num: int, why: str) -> InputError:
    return InputError(f"SEARCH/REPLACE block at line {num}: {why}", code=ErrorCode.MALFORMED_EDIT, line=num)


def _clean_name(raw: str) -> str | None:
    tag = _PATH_TAG.search(raw)
    if tag:
        return tag.group(1)
    raw = re.sub(r"^(#+\s*|[-*]\s+)", "", raw.strip())
    raw = re.sub(r"^(file|path|filename)\s*:\s*", "", raw, flags=re.I)
    raw = raw.strip("*`'\" :")
    if not raw or raw == "..." or " " in raw or raw.startswith(("```", "<", ">", "=")) or len(raw) > 300:
        return None
    return raw


def _path_before(lines: list[str], i: int) -> str | None:
    """The file path written before a block: the nearest line that is not a fence, looking back
    through at most two fence lines (Aider reads three lines back, for DeepSeek's `name` in its own
    fence before the block's fence)."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    fences = 0
    while j >= 0 and lines[j].strip().startswith("```") and fences < 2:
        fences += 1
        j -= 1
        while j >= 0 and not lines[j].strip():
            j -= 1
    if j < 0 or lines[j].strip().startswith("```"):
        return None
    name = _clean_name(lines[j])
    if fences == 2 and name is not None and not _FILE_LIKE.match(name):
        return None  # the last line of an unrelated code block, not a name in its own fence
    return name


def _dialect_of(line: str) -> str:
    return "cline" if line.strip().startswith("-") else "aider"


def _find_blocks(lines: list[str], policy: Policy = DEFAULT_POLICY) -> list[Block]:
    """Every block in order; raises on a block that is not closed (or that strict markers refuse)."""
    strict = policy.markers == "strict"
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if not _START.match(lines[i]):
            i += 1
            continue
        if strict and not _STRICT_START.match(lines[i]):
            raise _malformed(i + 1, f"{lines[i].strip()!r} is not a SEARCH marker the format's owner accepts "
                             "(markers='strict'); write '<<<<<<< SEARCH' or '------- SEARCH'")
        dialect = _dialect_of(lines[i])
        kind = "cline" if dialect == "cline" else "angle"
        is_divider = _STRICT_DIVIDER[kind].match if strict else _DIVIDER.match
        is_end = _STRICT_END[kind].match if strict else _END.match
        block = Block(start=i, body=i + 1, divider=-1, end=-1, dialect=dialect)
        j = _read_hints(lines, block)
        dividers: list[int] = []
        while j < len(lines):
            if _START.match(lines[j]):
                raise _malformed(i + 1, f"a new SEARCH starts at line {j + 1} before this block ended")
            if is_divider(lines[j]):
                dividers.append(j)
            elif dividers and is_end(lines[j]):
                block.end = j
                break
            j += 1
        if not dividers:
            raise _malformed(i + 1, "no '=======' divider after SEARCH")
        block.divider = _divider(dividers, lines, i)
        if block.end < 0:
            _complete(lines, block, policy)
        blocks.append(block)
        i = block.end + 1
    return blocks


def _read_hints(lines: list[str], block: Block) -> int:
    """Roo's `:start_line:` / `:end_line:` lines and its `-------` line, right after SEARCH."""
    j = block.body
    while j < len(lines) and (m := _HINT.match(lines[j])):
        if m.group(1) == "start":
            block.start_line = int(m.group(2)) or None
        block.dialect = "roo"
        j += 1
    if block.dialect != "cline" and j < len(lines) and _ROO_SEPARATOR.match(lines[j]):
        block.dialect = "roo"
        j += 1
    block.body = j
    return j


def _complete(lines: list[str], block: Block, policy: Policy) -> None:
    """A final block without its REPLACE line: Cline completes it once the reply is complete."""
    if block.dialect != "cline" or policy.unterminated != "complete":
        raise _malformed(block.start + 1, "no '>>>>>>> REPLACE' (or '+++++++ REPLACE') line closing the block")
    # The block runs to the fence the reply closed around it, else to the end of the reply.
    fence = next((j for j in range(block.divider + 1, len(lines)) if re.fullmatch(r"\s*`{3,}\s*", lines[j])), None)
    end = len(lines) if fence is None else fence
    while end > block.divider + 1 and not lines[end - 1].strip():
        end -= 1
    block.end, block.completed = end, True


def _divider(dividers: list[int], lines: list[str], start: int) -> int:
    """The divider when the code itself has '=====' lines (rst underlines): the one exactly 7 long."""
    if len(dividers) == 1:
        return dividers[0]
    exact = [j for j in dividers if lines[j].strip() == "======="]
    if len(exact) == 1:
        return exact[0]
    raise _malformed(start + 1, f"several '=======' lines (lines {', '.join(str(j + 1) for j in dividers)}); "
                     "cannot tell which one divides SEARCH from REPLACE")


def block_spans(lines: list[str], policy: Policy = DEFAULT_POLICY) -> list[tuple[int, int, int]]:
    """(start, divider, end) line indexes of each block; raises on a block that is not closed."""
    return [(b.start, b.divider, b.end) for b in _find_blocks(lines, policy)]


def _edit(lines: list[str], block: Block) -> Edit:
    old = [_ESCAPED.sub(r"\1", x) for x in lines[block.body:block.divider]]
    new = [_ESCAPED.sub(r"\1", x) for x in lines[block.divider + 1:block.end]]
    for k, line in enumerate(new):
        if _HINT.match(line):
            raise _malformed(block.divider + 2 + k, f"{line.strip()!r} belongs in the SEARCH section, "
                             "not in REPLACE")
    start_line = block.start_line
    # Roo's rule: strip `N | ` prefixes when every SEARCH line has one and REPLACE has them too
    # (or is empty); the first number is then the start line unless one was given.
    if old and all(_LINE_NUMBER.match(x) for x in old) and all(_LINE_NUMBER.match(x) for x in new):
        first = _LINE_NUMBER.match(old[0])
        start_line = start_line or (int(first.group(1)) if first else None) or None
        old = [_LINE_NUMBER_STRIP.sub("", x) for x in old]
        new = [_LINE_NUMBER_STRIP.sub("", x) for x in new]
    return Edit(old="".join(x + "\n" for x in old), new="".join(x + "\n" for x in new),
                start_line=start_line, dialect=block.dialect)


def parse_search_replace(text: str, *, first_line: int = 1, policy: Policy = DEFAULT_POLICY) -> list[FileOp]:
    """One FileOp per run of consecutive blocks for the same file, in order."""
    lines = normalize_newlines(text).split("\n")
    ops: list[FileOp] = []
    path: str | None = None
    for block in _find_blocks(lines, policy):
        path = _path_before(lines, block.start) or path
        edit = _edit(lines, block)
        if ops and ops[-1].path == path:
            ops[-1].edits.append(edit)
        else:
            ops.append(FileOp(path=path, format="search_replace", edits=[edit],
                              source_line=block.start + first_line))
        if block.completed:
            ops[-1].warnings.append(f"the block at line {block.start + first_line} had no '+++++++ REPLACE' "
                                    "line; it was completed at the end of the reply")
    for op in ops:
        if any(e.dialect == "roo" and e.start_line for e in op.edits):
            # Roo applies its blocks in the order of their start lines.
            op.edits.sort(key=lambda e: e.start_line or 0)
    return ops


def apply_search_replace(original: str | bytes, text: str | bytes, *, filename: str | None = None,
                         fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
                         limits: Limits = DEFAULT_LIMITS, ambiguity: str | None = None,
                         policy: Policy | None = None) -> ApplyResult:
    """Apply every SEARCH/REPLACE block in `text` to `original` (the paths, if any, are not checked).

    `ambiguity`: "refuse" (default) or "first"; `policy`: every dialect choice (fastapply.formats.policy).
    """
    started = perf_counter()
    policy = make_policy(policy, ambiguity=ambiguity)
    original, text = read_inputs(original, text, limits, "edit")
    parsed = parse_search_replace(text, policy=policy)
    edits = [e for op in parsed for e in op.edits]
    if not edits:
        raise InputError("no SEARCH/REPLACE blocks found", code=ErrorCode.EMPTY_UPDATE)
    doc = Document.parse(original)
    op = FileOp(path=filename, format="search_replace", edits=edits,
                warnings=[w for p in parsed for w in p.warnings])
    merged, outcome = run_op(op, doc.text, filename=filename, fuzzy_threshold=fuzzy_threshold, policy=policy,
                             max_edits=limits.max_edits)
    return make_result(original, doc.restore(merged or ""), method="search_replace", language=None,
                       filename=filename, started=started, stats=ApplyStats(segments=len(edits)),
                       warnings=outcome.warnings)


__all__ = ["apply_search_replace", "parse_search_replace", "block_spans"]
