"""Which snippet lines are new code wherever their text also occurs in the original.

A line inside a definition the original does not have (a new function, a new YAML record) is new
even when the same text stands elsewhere in the file (`return None`, `name: x`): aligned as context,
it would pull the new definition onto an old one. The answer comes from the snippet's structure
alone: a block opener whose name the original does not define starts a new definition, and its
body, closing line, decorators and doc comment go with it.

Complexity: O(m) for m snippet lines, plus the aligner's name index once (anchor.Aligner._okeys_for).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .branches import new_first_branches
from .heads import assigned_name
from .lines import call_inside_call, name_count
from .renames import rewritten_in_place

if TYPE_CHECKING:
    from .anchor import Aligner

_SCALAR_FIELD = re.compile(r"^[\w.-]+: \S")
_PREAMBLE = ("@", "#[", "//", "/*", "*", "#", "--")  # decorators and comments that go with a definition


def new_code_flags(al: Aligner) -> list[bool]:
    """Per snippet line: True for a line of a definition the original does not have. O(m)."""
    parent_of = al.snippet_parents()
    fresh = [False] * len(al.items)
    records: set[int] = set()
    last_at: dict[int, int] = {}  # indentation -> last line with it (a closer's opener)
    snorm, markers, swidth, opos = al.snorm, al.markers, al.swidth, al.opos  # (per line: local)
    scloser, sopens = al.scloser, al.sopens
    for index, norm in enumerate(snorm):
        if index in markers:
            last_at = {}
        if not norm:
            continue
        width = swidth[index]
        parent = parent_of[index]
        if parent is not None and parent in records:
            # a new record's own `key: value` fields are new wherever the same pair occurs
            # elsewhere; a nested block (`notes:` and its items) may be context
            fresh[index] = bool(_SCALAR_FIELD.match(norm))
        elif parent is not None and fresh[parent] and (not scloser[parent] or sopens[parent]):
            fresh[index] = True  # (not under a closing line: ` * ` of a doc comment after a new `}`;
            # but under one that opens the body, `) -> dict[str, Any]:` of a wrapped signature)
        elif (scloser[index] or norm[0] in ")]") and width in last_at:
            # (a wrapped signature's `) -> dict[str, Any]:` and `]:` too; not `},{}],3:[function(`
            # of a bundle, which closes one module and opens the next)
            fresh[index] = fresh[last_at[width]]
        elif norm.startswith("- ") and norm not in opos and _has_children(al, index):
            records.add(index)  # a new record of a YAML list: its `key: value` lines are its own
        elif sopens[index]:
            # (a line the original has is not new: its name is not asked; `highlighter(`
            # inside an open `(` or `[` of its parent is a call: no definition)
            fresh[index] = norm not in opos and ((key := al.key_of(norm)) is not None
                                                 and not al._okeys_for(key) or _new_constant(al, norm)) \
                and not call_inside_call(norm, snorm[parent] if parent is not None else None) \
                and not rewritten_in_place(al, index)
            back = index - 1
            while fresh[index] and back >= 0 and snorm[back] and back not in markers \
                    and swidth[back] == width and snorm[back].startswith(_PREAMBLE) \
                    and not _kept_comment(al, back):
                fresh[back] = True  # its decorators and doc comment are new too
                back -= 1
        last_at[width] = index
    new_first_branches(al, fresh)
    return fresh


def _new_constant(al: Aligner, norm: str) -> bool:
    """An assignment that opens a bracket (`_LOG_REDACTED_HEADERS = frozenset(`) to a name the
    original never mentions: a new constant, whose lines are new even where they equal lines
    elsewhere (azure's header names, also in a class's set 800 lines below). O(n) in C."""
    name = assigned_name(norm)
    return name is not None and len(name) > 2 and norm.endswith(("(", "[", "{")) and not al._lines_containing(name)


def _kept_comment(al: Aligner, s: int) -> bool:
    """A comment line above a new definition that the original has once, as the snippet does,
    with two names or more: the comment of the code the new definition replaces, kept (pip's
    "# Kinds of temporary directories." over a new enum class), not a new one. O(1)."""
    norm = al.snorm[s]
    return norm[:1] in "#/-" and len(al.opos.get(norm, ())) == 1 and len(al.spos.get(norm, ())) == 1 \
        and name_count(norm) >= 2


def _has_children(al: Aligner, s: int) -> bool:
    """True when the next code line of the same segment is indented deeper than line s."""
    for index in range(s + 1, len(al.items)):
        if index in al.markers:
            return False
        if al.snorm[index]:
            return al.swidth[index] > al.swidth[s]
    return False
