"""Whole-file snippets: a snippet without markers that covers the file from top to bottom."""

from __future__ import annotations

from collections import Counter

from .lines import COMMENT_STARTS
from .segments import SnippetLine

# A snippet without markers that matches this share of the file's lines is the whole new file.
WHOLE_SHARE = 0.7
# ... and so is one that starts with the file's first line, ends with its last one and shares at
# least this much (a file with a function or two deleted, sent whole without markers).
EDGES_SHARE = 0.5
# ... and so is one that shares this much with the file both ways, wherever it starts and ends
# (a file with one function moved, or without its first comment line).
NEAR_WHOLE_SHARE = 0.95


def looks_whole(items: list[SnippetLine], onorm: list[str]) -> bool:
    """A cheap test, done before any alignment (O(n + m)): the snippet shares NEAR_WHOLE_SHARE of
    its lines with the file and the file as much with it, or it starts with the file's first line,
    ends with its last one and shares at least EDGES_SHARE of its lines. Such a snippet is the new file
    whatever the alignment would find in between (the alignment's own test is the same, and slower)."""
    code = [item.norm for item in items if item.kind == "code"]
    solid = [norm for norm in onorm if norm]
    if not code or not solid:
        return False
    shared = sum((Counter(code) & Counter(solid)).values())
    if shared >= NEAR_WHOLE_SHARE * len(solid) and shared >= WHOLE_SHARE * len(code) \
            and _reaches(code, solid) and _reaches(code[::-1], solid[::-1]):
        return True
    return code[0] == solid[0] and code[-1] == solid[-1] and shared >= EDGES_SHARE * len(solid)


def whole_text(update: str, items: list[SnippetLine]) -> str:
    """The merged text of a whole-file snippet: the snippet itself, exactly (its blank lines and final
    newline included), unless it carries deletion notes, which never reach the output."""
    if not any(item.kind == "delete" for item in items):
        return update
    lines = [item.text for item in items if item.kind in ("code", "blank")]
    return "\n".join(lines) + ("\n" if update.endswith("\n") else "")


# code lines at a file's edge that a whole-file snippet may leave out or rewrite (an import block;
# comment lines, a licence, any number)
_EDGE_SLACK = 5


def _reaches(code: list[str], solid: list[str]) -> bool:
    """The snippet's first (last) line that the file has is among the file's first (last) few
    lines, or only comment lines stand before it: a snippet that leaves out a head of imports or
    a tail of functions is one part of the file (a function of 1,300 lines shown alone), not all
    of it. O(the lines before it)."""
    known = set(solid)
    first = next((norm for norm in code if norm in known), None)
    for index, norm in enumerate(solid):
        if norm == first:
            return True
        if index >= _EDGE_SLACK and not norm.startswith(COMMENT_STARTS):
            return False
    return False
