"""Two checks of YAML merges: no mapping gets a key twice, and an edited list item is no edit
when the snippet reads as well as a new item after it (check_record_edit).

A snippet that shows an edited record of a list (`- name: 30` for `- name: Mark the job`) next to
a common key (`steps:`) can be read as a new record under a second `steps:`: the merge then holds
a mapping with a duplicate key, which YAML loaders reject or silently resolve to the last one.
Where the original has no such duplicate, the merge is refused, naming the snippet line.

The scan reads indentation only (no YAML parser): a `key:` line belongs to the mapping at its
indentation; a list item (`- key: value`) opens a new mapping two columns deeper; a block scalar
(`key: |`) and its deeper lines hold no keys; a document marker (`---` at column 0) starts
afresh. O(lines).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError

if TYPE_CHECKING:
    from .anchor import Aligner
    from .splice import Spliced

_KEY = re.compile(r"""^(?:-\s+)?(?P<key>[A-Za-z0-9_.$/-]+|"[^"]*"|'[^']*')\s*:(?:\s|$)""")
_BLOCK_SCALAR = re.compile(r":\s*[|>][-+0-9]*\s*(?:#.*)?$")


def duplicate_rows(lines: list[str]) -> list[tuple[int, int]]:
    """(first row, later row) of every key given twice in one mapping, in order."""
    found: list[tuple[int, int]] = []
    stack: list[tuple[int, dict[str, int]]] = []  # (indentation, key -> row) per open mapping
    scalar_above = -1  # indentation of a block scalar's key while its lines run
    for row, line in enumerate(lines):
        text = line.strip()
        if line.rstrip() in ("---", "...") or line.startswith("--- "):
            stack, scalar_above = [], -1  # a new document (metricflow's `---` between records)
            continue
        if not text or text.startswith("#") or text in ("---", "..."):
            continue
        width = len(line) - len(line.lstrip(" "))
        if scalar_above >= 0:
            if width > scalar_above:
                continue
            scalar_above = -1
        item = text.startswith("- ")
        match = _KEY.match(text)
        if item:
            # a list item closes the mappings at or under its content's column, and its first key
            # opens a new one there
            inner = width + 2 + len(text[2:]) - len(text[2:].lstrip())
            while stack and stack[-1][0] >= inner:
                stack.pop()
            if match:
                stack.append((inner, {match.group("key"): row}))
        elif match:
            while stack and stack[-1][0] > width:
                stack.pop()
            if stack and stack[-1][0] == width:
                keys = stack[-1][1]
                key = match.group("key")
                if key in keys:
                    found.append((keys[key], row))
                keys[key] = row
            else:
                stack.append((width, {match.group("key"): row}))
        else:
            continue
        if match and _BLOCK_SCALAR.search(text):
            scalar_above = width + (2 if item else 0)
    return found


def check_duplicate_keys(language: str | None, al: Aligner, spliced: Spliced) -> None:
    """Refuse a YAML merge with more duplicate keys than the original, naming the snippet line
    that brings the second one. O(original + merged lines)."""
    if language != "yaml":
        return
    twice = duplicate_rows(spliced.lines)
    if len(twice) <= len(duplicate_rows(al.orig)):
        return
    for first, later in twice:
        s = next((spliced.origin[row][0] for row in (later, first)
                  if spliced.origin[row][0] >= 0 and spliced.origin[row][1] < 0), None)
        if s is None:
            continue
        item = al.items[s]
        key = _KEY.match(spliced.lines[later].strip())
        raise ValidationError(
            f"snippet line {item.number} ({item.text.strip()!r}) would give the key "
            f"{key.group('key') if key else item.text.strip()!r} a second time in one mapping "
            f"(merged lines {first + 1} and {later + 1}), where the original has it once. If it "
            "edits the existing entry, show the unchanged line right above or below that entry; "
            "if it adds a new entry, show the entry before it",
            code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def check_record_edit(language: str | None, al: Aligner) -> None:
    """Refuse reading an edited YAML list item (`- toolchain: beta-v2` for `- toolchain: beta`)
    as an edit when the context lines the snippet shows above it, after a marker, are that item's
    own fields in the original, and the snippet repeats them under the new item: the snippet
    reads as well as a new item added after the old one (smallvec's CI matrix). O(pairs +
    the lines compared)."""
    if language != "yaml":
        return
    for s, o in al.pairs.items():
        norm = al.snorm[s]
        if not norm.startswith("- ") or norm == al.onorm[o]:
            continue
        above = al.shown_above(s)
        if not above:
            continue
        own = [n for n in al.onorm[o + 1:o + 1 + 2 * len(above)] if n][:len(above)]
        below = [n for n in al.snorm[s + 1:s + 1 + 2 * len(above)] if n][:len(above)]
        if own == above and below == above:
            item = al.items[s]
            raise ValidationError(
                f"snippet line {item.number} ({item.text.strip()!r}) reads two ways: as an edit of "
                f"original line {o + 1} ({al.orig[o].strip()!r}), or as a new entry after that entry, "
                "whose lines the snippet shows above it. To edit it, show the line above that entry; "
                "to add one, show the whole entry before it",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
