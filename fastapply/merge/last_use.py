"""A deletion that leaves a local variable assigned and never read.

pandas rewrote a regex check: a new `whitespace = {...}` set and a new `if any(... in whitespace ...)`
block above the old `if any(... in unicode_sensitive ...)` one, whose first line the snippet showed
before a marker. The alignment paired the new block's `if any(` and `):` with the old block's, and
read the old block's other lines as deleted: `unicode_sensitive = {...}` stayed, read nowhere. A
model that meant to delete a variable's last use deletes its assignment too; a merge that drops the
only lines reading a local variable, while it keeps the variable assigned, has most likely paired
new lines with the wrong block. It is refused.

Only indented assignments count (a module-level name may be read by other modules), not a read as
an attribute (`ApiVersion.V2025_07_01`: a class's member, public as well), and only names
the file reads elsewhere than in their assignments, and only when the snippet assigns a variable
the original never does and reads it where the old read stood (in the line read as its edit, or
among the new lines put where it was deleted). O(merged text + original text) when some lines are deleted between
anchors or read as edited, nothing otherwise.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .lines import COMMENT_STARTS, IDENTIFIER
from .placement import snippet_item_near
from .splice import Spliced

if TYPE_CHECKING:
    from .anchor import Aligner

# `name = ...`, `name: T = ...`, `const name = ...` (not `==`, not `+=`)
# (a space before `=`: `target=self._main_loop,` inside a call is a keyword argument)
_ASSIGN = re.compile(r"^(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)(?:\s*:[^=]*)?\s+=(?!=)")


def check_last_use_kept(al: Aligner, spliced: Spliced) -> None:
    """Refuse a merge whose deletions between anchors, or lines read as edited, remove every line
    that reads a variable the merge keeps assigned in an indented block (see the module's docstring)."""
    # (lines deleted between anchors, and lines an edited snippet line was read to replace)
    # (none without fuzzy pairs, the usual case: the merged rows are not read then)
    edited = {o: s for s, o in spliced.origin if s >= 0 and o >= 0 and s in al.fuzzy and al.snorm[s] != al.onorm[o]} \
        if al.fuzzy else {}
    dropped = sorted(o for o in [*(o for start, stop in spliced.deleted for o in range(start, stop)), *edited]
                     if al.onorm[o] and not al.onorm[o].startswith(COMMENT_STARTS))
    if not dropped:
        return
    # (and only where the snippet assigns a variable of its own that the original never assigns:
    # new code with its own data, read where the old code's read stood; a generated one-word edit
    # or a renamed read changes a read without one)
    new_vars = {_target(al.snorm[s]) for s in (spliced.origin[row][0] for row in spliced.new_rows())
                if al.swidth[s] > 0} - {None}
    if new_vars:  # (the original's assignments read only when the snippet has one: most merges stop here)
        new_vars -= {_target(norm) for norm in al.onorm if norm and "=" in norm}
    if not new_vars:
        return
    names = {word for o in dropped for word in IDENTIFIER.findall(al.onorm[o])}
    reads_before = _reads(al.onorm, names)
    reads_after = _reads([line.strip() for line in spliced.lines], names)
    assigned = _indented_assignments(spliced.lines, names)
    for o in dropped:
        for name in dict.fromkeys(IDENTIFIER.findall(al.onorm[o])):
            if name in assigned and reads_before[name] > 0 and reads_after[name] == 0 \
                    and _target(al.onorm[o]) != name and not _member_read(al.onorm[o], name) \
                    and _reads_new_variable(al, spliced, o, edited, new_vars - {name}):
                row = next((r for r, (_, at) in enumerate(spliced.origin) if at > o), len(spliced.origin) - 1)
                item = snippet_item_near(al, spliced, max(row, 0))
                raise ValidationError(
                    f"the merge would drop or rewrite original line {o + 1} ({al.orig[o].strip()!r}), near snippet line "
                    f"{item.number}, the last line that reads {name!r}, and keep {name!r} assigned: the "
                    "snippet's new lines may have been paired with the wrong block. Put a '... existing "
                    "code ...' marker where that line is if it stays, or delete the assignment too if it "
                    "goes", code=ErrorCode.CONTENT_LOST, line=item.number)


def _reads_new_variable(al: Aligner, spliced: Spliced, o: int, edited: dict[int, int], new_vars: set[str]) -> bool:
    """The snippet line read as the edit of original line o, or a new line the merge puts where o
    was deleted (between the kept lines around it), reads one of the snippet's new variables: the
    new code's own data took the old read's place (pandas's `in whitespace` for `in
    unicode_sensitive`; a generated `Ok(entry)` for `Ok(fixed_offset)` reads no new variable).
    O(the merged rows around o)."""
    if o in edited:
        return bool(new_vars.intersection(IDENTIFIER.findall(al.snorm[edited[o]])))
    row_of = spliced.row_of()
    above = next((row_of[k] for k in range(o - 1, -1, -1) if k in row_of), -1)
    below = next((row_of[k] for k in range(o + 1, len(al.orig)) if k in row_of), len(spliced.origin))
    return any(s >= 0 > at and new_vars.intersection(IDENTIFIER.findall(al.snorm[s]))
               for s, at in spliced.origin[above + 1:below])


def _member_read(norm: str, name: str) -> bool:
    """The line reads `name` as an attribute (`ApiVersion.V2025_07_01`): a class's member, which
    other modules may read, not a local variable. O(len(norm))."""
    return re.search(r"\.\s*" + re.escape(name) + r"\b", norm) is not None


def _declared(norm: str) -> str | None:
    """The name a line declares with an annotation and no value yet (`format: Optional[`, a field
    whose type goes on below): a declaration, not a read."""
    found = _DECLARATION.match(norm)
    return found.group(1) if found else None


_DECLARATION = re.compile(r"^([A-Za-z_]\w*)\s*:(?!=)\s*\S")


def _target(norm: str) -> str | None:
    found = _ASSIGN.match(norm)
    return found.group(1) if found else None


def _reads(norms: list[str], names: set[str]) -> Counter[str]:
    """How often each of `names` occurs in `norms` other than as the target of an assignment."""
    counts: Counter[str] = Counter()
    for norm in norms:
        if not norm or norm.startswith(COMMENT_STARTS):
            continue
        words = IDENTIFIER.findall(norm)
        if not names.intersection(words):
            continue
        target = _target(norm) or _declared(norm)
        for index, word in enumerate(words):
            if word in names and not (index == 0 and word == target
                                      or index == 1 and word == target and words[0] in ("const", "let", "var")):
                counts[word] += 1
    return counts


def _indented_assignments(lines: list[str], names: set[str]) -> set[str]:
    """The names of `names` that an indented line of `lines` assigns."""
    found = set()
    for line in lines:
        if line[:1].isspace():
            norm = line.strip()
            target = _target(norm)
            if target in names and not norm.endswith((",", "(")):  # (not a keyword argument)
                found.add(target)
    return found
