"""The snippet as the engine sees it: lines classified as code, blank, marker or deletion note."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import compress, repeat
from operator import contains, not_, or_

import msgspec

from .lines import indent_width, is_closer
from .markers import delete_target, is_marker

def normalize(line: str) -> str:
    """A line's identity for matching: no leading/trailing whitespace, inner runs of spaces collapsed."""
    return " ".join(line.split())


def normalize_all(lines: list[str]) -> list[str]:
    """normalize() of every line (it runs once per line of the original file). O(total length), in C
    but for the lines with uneven whitespace inside."""
    norms = list(map(str.strip, lines))
    # A stripped line is its own normal form unless it holds two spaces in a row, whitespace other
    # than a space, or a non-ASCII character (which may be whitespace): those are looked for in the
    # whole text at once, and only lines that may hold one are split and joined (splitting and
    # joining every line was the costliest pass over a long file).
    joined = "\0".join(norms)
    signs = [sign for sign in _UNEVEN if sign in joined]
    ascii_only = joined.isascii()
    if not signs and ascii_only:
        return norms
    uneven: Iterable[bool] = repeat(False, len(norms))
    for sign in signs:
        uneven = map(or_, uneven, map(contains, norms, repeat(sign)))
    if not ascii_only:
        uneven = map(or_, uneven, map(not_, map(str.isascii, norms)))
    for index in compress(range(len(norms)), uneven):
        norms[index] = " ".join(lines[index].split())
    return norms


# two spaces in a row, and every ASCII character but the space that str.split() and str.strip()
# take for whitespace
_UNEVEN = ("  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


class SnippetLine(msgspec.Struct, gc=False):
    text: str
    kind: str  # "code", "blank", "marker" (explicit), "implicit" (a marker the engine assumed), "delete"
    norm: str = ""
    number: int = 0  # 1-based line number in the snippet as sent (0 for implicit markers)
    targets: Sequence[str] = ()  # for "delete": identifiers the note names (no list per line: GC work)
    fresh: bool = False  # new code wherever its text also occurs (a moved definition's lines)
    # a moved definition's first line: the blank lines it had from its siblings (firm: on both sides)
    gap_above: int = -1
    gap_firm: bool = False


def classify(snippet: str, original_norms: set[str]) -> list[SnippetLine]:
    """Classify every snippet line. Leading and trailing blank lines are dropped."""
    raw = snippet.split("\n")
    items: list[SnippetLine] = []
    for number, (text, norm) in enumerate(zip(raw, normalize_all(raw)), 1):
        if not norm:
            items.append(SnippetLine(text, "blank", "", number))
        elif norm in original_norms:
            items.append(SnippetLine(text, "code", norm, number))  # (the usual line: neither test below)
        elif is_marker(text):
            items.append(SnippetLine(text, "marker", norm, number))
        elif (targets := delete_target(text)) is not None:
            items.append(SnippetLine(text, "delete", norm, number, targets))
        else:
            items.append(SnippetLine(text, "code", norm, number))
    _prose_notes(items, original_norms)
    while items and items[0].kind == "blank":
        items.pop(0)
    while items and items[-1].kind == "blank":
        items.pop()
    return items


def _prose_notes(items: list[SnippetLine], original_norms: set[str]) -> None:
    """A deletion note ("# drop the foo helper") is one comment line: one that a new comment line
    of the same indentation continues or follows ("# Drop reference to delegate as soon as no longer
    needed to reduce", "# unnecessary reference cycles") is prose, and stays a comment. O(m)."""
    for index, item in enumerate(items):
        if item.kind != "delete":
            continue
        width = indent_width(item.text)
        for other in (index - 1, index + 1):
            near = items[other] if 0 <= other < len(items) else None
            if near is not None and near.kind == "code" and near.norm not in original_norms \
                    and indent_width(near.text) == width and _comment_start(near.norm):
                item.kind = "code"
                break


def _comment_start(norm: str) -> bool:
    """A comment line's start (not `#include`, not `--flag`)."""
    return norm.startswith(("# ", "//", "-- ", "* ", "/*", "<!--")) or norm in ("#", "*")


GAP_KINDS = ("marker", "implicit")


def is_gap(item: SnippetLine) -> bool:
    """Markers, explicit or assumed, stand for kept original code."""
    return item.kind in GAP_KINDS


def code_segments(items: list[SnippetLine]) -> list[list[int]]:
    """The indices of the code lines of each segment (the stretches between markers), empty
    segments included so that segment k is the k-th stretch. O(m)."""
    segments: list[list[int]] = [[]]
    for index, item in enumerate(items):
        kind = item.kind
        if kind in GAP_KINDS:  # (is_gap, inline: once per snippet line, by several passes)
            segments.append([])
        elif kind == "code":
            segments[-1].append(index)
    return segments


def indent_of(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


def place_markers(items: list[SnippetLine]) -> list[SnippetLine]:
    """Give markers written at column 0 inside an indented block the indentation of the code around
    them: models write `// ... existing code ...` at column 0 anywhere, also right before a
    block's closing line, and a marker's indentation is read as where its block ends. The lines
    around a marker are the stronger evidence: a column-0 marker right before a closing line sits
    inside the block that line closes, one right after a block header in that block's body (at
    the depth of the line after it when that is deeper: ` public:`, marker, a member), and
    one at the end of the snippet right under an indented line continues that line's block. Between
    two indented lines it may stand for the end of one definition and the start of the next, and
    keeps column 0. One pass over the kinds, then O(log m) per marker."""
    kinds = [item.kind for item in items]
    code = [i for i, kind in enumerate(kinds) if kind == "code"]
    result = list(items)
    for index in [i for i, kind in enumerate(kinds) if kind == "marker"]:
        item = items[index]
        if item.text[:1].isspace():
            continue  # an indented marker says where it is
        position = bisect_left(code, index)  # the code lines before it
        before = items[code[position - 1]] if position > 0 else None
        after = items[code[position]] if position < len(code) else None
        prev = indent_width(before.text) if before is not None else 0
        if after is None:
            if index > 0 and items[index - 1].kind == "blank":
                continue  # set apart by a blank line: after the block, at the top level
            width = prev  # the last line, right under code: the rest of the block that code is in
        elif is_closer(after.norm) and indent_width(after.text) < prev:
            width = prev  # right before a block's closing line: inside that block
        elif before is not None and before.norm.endswith(("{", ":", "(", "[")):
            # the body of the block the line before opens (` public:`, then a marker, then a
            # member one level deeper: the marker stands for the members above it)
            width = max(prev + 1, indent_width(after.text))
        else:
            continue  # between two lines of code at column 0 it may stand for whole definitions
        if width:
            result[index] = SnippetLine(" " * width + item.text.lstrip(), item.kind, item.norm, item.number,
                                        item.targets)
    return result


def drop_closing_context(items: list[SnippetLine]) -> list[SnippetLine]:
    """Remove segments that hold nothing but closing lines (`}`, `end`, `});`) between two explicit
    markers: models show the end of a block whose inside they elide. Such a line is context that
    fits any block's end, and the two markers around it say the code around it stays: without it
    the snippet means the same, and nothing is left to misplace. O(m)."""
    kinds = [item.kind for item in items]
    # the items that end a segment (markers among them), in order: the segment after a marker
    # reaches to the next of them (the code and blank lines between are copied, not visited)
    stops = [i for i, kind in enumerate(kinds) if kind != "code" and kind != "blank"]
    result: list[SnippetLine] = []
    copied = 0  # items before this one are in `result` or dropped
    for position, index in enumerate(stops):
        if index < copied or kinds[index] != "marker":
            continue
        stop = stops[position + 1] if position + 1 < len(stops) else len(items)
        if stop < len(items) and kinds[stop] == "marker" and _closing_only(items, index + 1, stop):
            result.extend(items[copied:index + 1])
            copied = stop + 1  # the segment and the marker after it: one marker stands for it all
    result.extend(items[copied:])
    return result


def _closing_only(items: list[SnippetLine], start: int, stop: int) -> bool:
    """True when items[start:stop] hold code and all of it is closing lines (read up to the first
    line that is not one)."""
    code = False
    for index in range(start, stop):
        item = items[index]
        if item.kind == "code":
            if not is_closer(item.norm):
                return False
            code = True
    return code
