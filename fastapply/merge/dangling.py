"""A deletion that leaves its definition's name in use.

nemo's parsers: a snippet shows `_normalize`'s end, then `NAME_TO_PARSER = {..., 'ru':
RUCharParser}` with no marker between, while the file has the whole `class RUCharParser` there.
Read literally, the class is deleted, but the merged file still names it: code that no longer
runs. A model that deletes a definition deletes or renames its uses too; one that forgets a marker
leaves them. The merge is refused, naming the definition and a line that still uses it.

Only top-level definitions count (a method's name may be another class's too), dropped between
two anchors, not defined again anywhere in the merged text nor imported by it (a definition moved
to a module of its own), and used as a bare word, outside comment lines and docstrings, by a line
of the snippet itself: a use elsewhere in the file is code the edit may have meant to break or fix
later, but a snippet that writes the name while it drops the definition contradicts itself. O(merged text) per such definition, and deletions of whole definitions are rare.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .lines import COMMENT_STARTS, header_key, in_triple_quotes
from .splice import Spliced

if TYPE_CHECKING:
    from .anchor import Aligner


# a line that binds names from another module (Python, JS/TS imports and re-exports, CommonJS, Rust)
_BINDS = re.compile(r"^\s*(?:import\b|from\s+\S+\s+import\b|export\s+(?:\*|\{|type\s*\{).*\bfrom\b|use\s|"
                    r"(?:const|let|var)\s.*=\s*require\()")


def _binding_rows(lines: list[str]) -> set[int]:
    """The rows of import statements, a bracketed one (`from m import (` ... `)`) whole. O(lines)."""
    rows: set[int] = set()
    depth = 0
    for row, line in enumerate(lines):
        if depth or _BINDS.match(line):
            rows.add(row)
            depth = max(0, depth + line.count("(") + line.count("{") - line.count(")") - line.count("}"))
    return rows


def check_dangling_names(al: Aligner, spliced: Spliced) -> None:
    """Refuse a merge that drops a top-level definition between two anchors while a line of the
    snippet still uses its name (see the module's docstring)."""
    names: dict[str, tuple[int, int]] = {}  # name -> (its original line, the deletion's start)
    for start, end in spliced.deleted:
        for o in range(start, end):
            if al.onorm[o] and al.owidth[o] == 0 and al.o_opens(o) and (name := al.key_of(al.onorm[o])):
                names.setdefault(name, (o, start))
    if not names:
        return
    lines = spliced.lines
    defined = {header_key(line.strip()) for line in lines if line.strip()}
    binding = _binding_rows(lines)
    prose = in_triple_quotes(lines)
    shown = sorted(row for row, (s, _) in enumerate(spliced.origin) if s >= 0)  # the snippet's own lines
    for name, (o, start) in names.items():
        use = re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")
        if name in defined or any(use.search(lines[row]) for row in binding):
            continue  # (defined again, or imported: moved or rewritten, not deleted)
        row = next((row for row in shown if row not in binding and not prose[row]
                    and not lines[row].lstrip().startswith(COMMENT_STARTS) and use.search(lines[row])), None)
        if row is not None:
            # the snippet line right above the deletion: where a marker would keep the definition
            s = max(((o2, s2) for s2, o2 in al.pairs.items() if o2 < start), default=(-1, -1))[1]
            where = f"after snippet line {al.items[s].number} ({al.items[s].text.strip()!r})" if s >= 0 else \
                "at the snippet's start"
            raise ValidationError(
                f"{where} the merge deletes `{name}` (original line {o + 1}), which no marker keeps, but the "
                f"snippet still uses it (merged line {row + 1}: {spliced.lines[row].strip()!r}). If it stays, put a '... "
                "existing code ...' marker there; if it goes, change the lines that use it too",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=al.items[s].number if s >= 0 else None,
                details={"merged_lines": [row + 1]})
