"""Blocks a merge leaves empty, which the grammars accept and the languages reject.

tree-sitter-python parses `try:` with nothing under it, or a header whose body the snippet's line
replaced at the header's own depth, without an error; tree-sitter-bash parses an empty `{ }` group.
Python and bash reject both: check_empty_blocks refuses such a merge, naming the snippet line.
Moved out of syntax.py (parsing and error counts), which the engine asks for the tree-sitter side.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from ..languages import LanguageSpec
from .lines import indent_width

if TYPE_CHECKING:
    from .segments import SnippetLine
    from .splice import Spliced


# A Python line that opens a block: tree-sitter-python accepts the block with no statement in it
# (or ends a header wrapped over several lines: `):`, `) -> int:`)
_PY_BLOCK = re.compile(r"^(?:(?:if|elif|else|for|while|with|try|except|finally|def|class|async\s+(?:def|for|with))\b.*|"
                       r"[)\]].*):$")
# a comment after a header's colon (`):  # pragma: NO COVER`), quotes aside
_TRAILING_COMMENT = re.compile(r"\s+#[^'\"]*$")
_PY_KEYWORD = re.compile(r"^(?:if|elif|while|with|for|except|def|class|async\s+(?:def|for|with))\b")
_WRAP_WALK = 40  # continuation lines looked through for a wrapped header's first line


def check_empty_blocks(spec: LanguageSpec | None, spliced: Spliced, items: list[SnippetLine],
                       orig: list[str]) -> None:
    """Python: refuse a merge in which a block is left with no statement where the original had
    one: a new line of the snippet opening a block right before the next top-level definition
    (`try:`), or a kept header whose body the snippet's line replaced at the header's own depth
    (`except ImportError:` over a column-0 import). tree-sitter-python parses both without an
    error, Python does not: the snippet's line was placed where its body is not (a column-0
    marker after it read as standing for code after the block, not for its body).
    Bash: the same for a brace group or function body left empty (see _check_empty_groups).
    O(snippet rows + the blank lines next to them)."""
    if spec is not None and spec.name == "bash":
        _check_empty_groups(spliced, items)
    if spec is None or spec.name != "python":
        return
    lines, origin = spliced.lines, spliced.origin
    headers = set(spliced.new_rows())
    for row in spliced.snippet_rows:  # (the line above a snippet line: a kept header over a new body)
        above = row - 1
        while above >= 0 and not lines[above].strip():
            above -= 1
        if above >= 0 and origin[above][0] < 0:
            headers.add(above)
    for row in sorted(headers):
        if not _PY_BLOCK.match(_TRAILING_COMMENT.sub("", lines[row].strip())) or not _empty_block(lines, row) \
                or lines[row].strip()[0] in ")]" and not _wrapped_header_end(lines, row):
            continue
        s, o = origin[row]
        if s < 0 and o >= 0 and _empty_block(orig, o):
            continue  # (empty in the original too: not this merge's doing)
        if s >= 0:
            number = items[s].number
            raise ValidationError(
                f"snippet line {number} ({lines[row].strip()!r}) would open a block with nothing in it "
                f"(merged line {row + 1}), which Python rejects: the code that belongs in it was placed "
                "elsewhere. Show the block's first line of body after it, or put the marker indented "
                "inside the block", code=ErrorCode.SYNTAX_REGRESSED, line=number)
        body = next(r for r in range(row + 1, len(lines)) if lines[r].strip())  # (a snippet row: see above)
        number = items[origin[body][0]].number
        raise ValidationError(
            f"snippet line {number} ({lines[body].strip()!r}) would stand at the depth of original line "
            f"{o + 1} ({lines[row].strip()!r}) right below it, leaving that block with nothing in it "
            f"(merged line {row + 1}), which Python rejects. Indent the line as the block's body, or "
            "show the block's header in the snippet if the block goes", code=ErrorCode.SYNTAX_REGRESSED,
            line=number)


def _wrapped_header_end(lines: list[str], row: int) -> bool:
    """lines[row] (`):`) ends a header wrapped over several lines at the column the header starts
    (black's style: `while (`, its conditions one level deeper, `):`), so the block's body goes
    deeper than it; a `):` hung deeper than its `def` is no such column. O(_WRAP_WALK)."""
    width = indent_width(lines[row])
    for above in range(row - 1, max(-1, row - _WRAP_WALK), -1):
        if lines[above].strip() and indent_width(lines[above]) <= width:
            return indent_width(lines[above]) == width and bool(_PY_KEYWORD.match(lines[above].strip()))
    return False


def _empty_block(lines: list[str], row: int) -> bool:
    """True when no line deeper than lines[row] follows it (blank and comment lines skipped: a
    comment is no statement, glances' `for i in plugin_stats:` over a comment line, then the code
    after the loop)."""
    after = next((r for r in range(row + 1, len(lines)) if lines[r].strip() and lines[r].lstrip()[0] != "#"), None)
    return after is None or indent_width(lines[after]) <= indent_width(lines[row])


def _check_empty_groups(spliced: Spliced, items: list[SnippetLine]) -> None:
    """Bash: refuse a merge that puts a line opening a brace group (`_have grep-status && {`,
    `name()` + `{`) right above a line that closes one (`}`, `} || {`) where the original does
    not have the two together: bash rejects an empty group, tree-sitter-bash does not (the only
    function of a group deleted, or a group's lines placed where its body is not).
    O(merged lines), a test only on lines that end with `{`."""
    lines, origin = spliced.lines, spliced.origin
    for row, line in enumerate(lines):
        if not line.rstrip().endswith("{") or line.lstrip().startswith("#"):
            continue
        after = next((r for r in range(row + 1, len(lines)) if lines[r].strip()), None)
        if after is None or not lines[after].lstrip().startswith("}"):
            continue
        was, now = origin[row][1], origin[after][1]
        if was >= 0 and now >= 0 and now - was == after - row:
            continue  # (the original's own two lines, as they were)
        s = next((origin[r][0] for r in (after, row) if origin[r][0] >= 0), -1)
        number = items[s].number if s >= 0 else after + 1
        raise ValidationError(
            f"the merge would leave the block opened on merged line {row + 1} ({line.strip()!r}) empty, "
            "which bash rejects: the code that belongs in it was deleted or placed elsewhere. Show the "
            "block's first line of body after it, or keep a command in it",
            code=ErrorCode.SYNTAX_REGRESSED, line=number)
