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
from .lines import COMMENT_STARTS, bound_names, header_key, in_triple_quotes
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


def _defined_names(lines: list[str]) -> set[str | None]:
    """The names the merged lines define (header_key of each non-blank line). O(lines)."""
    return {header_key(line.strip()) for line in lines if line.strip()}


def _use_of(name: str) -> re.Pattern[str]:
    """`name` as a bare word: not an attribute (`.name`) nor part of a longer name."""
    return re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")


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
    defined = _defined_names(lines)
    binding = _binding_rows(lines)
    prose = in_triple_quotes(lines)
    shown = sorted(row for row, (s, _) in enumerate(spliced.origin) if s >= 0)  # the snippet's own lines
    for name, (o, start) in names.items():
        use = _use_of(name)
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


# a string literal on one line (a name in it is no use of the name), and lines that are no code
_STRING = re.compile(r"""(['"`])(?:\\.|(?!\1).)*\1""")
_NO_CODE = (*COMMENT_STARTS, '"""', "'''", "r\"\"\"")
# a TypeScript import of types only: its names may be the language's own too (react-redux dropped
# `NoInfer` from `import type { EqualityFn, NoInfer }` and kept using TypeScript 5.4's global one)
_TYPE_ONLY = re.compile(r"^(?:import|export)\s+type\b")


def check_lost_imports(al: Aligner, spliced: Spliced) -> None:
    """Refuse a merge in which a snippet line edits an import line of the file without one of its
    names while a code line of the merged file still uses it (outside strings and comments): stylelint's `import isKeyframeRule`
    written over `import isKeyframeSelector`, with the old `if (...some(isKeyframeSelector))`
    kept because the snippet's context paired with the block above it. A model that drops an
    import drops or rewrites its uses in the same edit; a use left over is a misplaced edit or a
    missing one, and the module would not run. Names bound again anywhere (another import, a
    definition, a top-level assignment) are no loss. O(import lines) to find lost names, O(merged text) per lost name."""
    if not any("import" in spliced.lines[row] for row in spliced.from_snippet()):
        return  # (the snippet writes no import line: it drops none, bar a deletion checked elsewhere)
    lines = spliced.lines
    binding = _binding_rows(lines)
    now = {name for row in binding for name in bound_names(lines[row].strip())}
    present = spliced.row_of()
    lost: dict[str, int] = {}
    for o, norm in enumerate(al.onorm):
        if norm and al.owidth[o] == 0 and ("import" in norm or "export" in norm) and not _TYPE_ONLY.match(norm):
            for name in bound_names(norm):
                if name not in now and o in present and spliced.origin[present[o]][0] >= 0 \
                        and lines[present[o]].strip() != norm:
                    lost.setdefault(name, o)  # (an import line the snippet edits: one it deletes is a
                    # deletion between anchors, which a model's cut of a file's head often is)
    if not lost:
        return
    defined = _defined_names(lines)
    prose = in_triple_quotes(lines)
    for name, o in lost.items():
        use = _use_of(name)
        assigned = re.compile(rf"^(?:export\s+)?(?:(?:const|let|var)\s+)?{re.escape(name)}\s*(?::[^=]+)?=(?!=)")
        if name in defined or any(use.search(lines[row]) for row in binding) \
                or any(assigned.match(line) for line in lines):
            continue  # (defined or assigned in the file now, or bound by a bracketed import)
        row = next((row for row, line in enumerate(lines) if row not in binding and not prose[row]
                    and use.search(line) and not line.lstrip().startswith(_NO_CODE)
                    and use.search(_STRING.sub("", line.split(" //")[0].split(" #")[0]))), None)
        if row is None:
            continue
        s = spliced.origin[present[o]][0]
        where = f"snippet line {al.items[s].number} ({al.items[s].text.strip()!r})"
        raise ValidationError(
            f"{where} drops the import of `{name}` (original line {o + 1}), but the merged file still uses "
            f"it (merged line {row + 1}: {lines[row].strip()!r}). If that use goes too, show its edit in the "
            "snippet; if the name stays, keep it in the import line",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=al.items[s].number, details={"merged_lines": [row + 1]})
