"""Block structure by indentation: which line opens a block, where it ends, which line encloses which."""

from __future__ import annotations

from .lines import Widths, next_code, opens_block, width_lookup


def opens_at(norms: list[str], index: int) -> bool:
    """True when the line opens a block, also in Allman style (the brace on the next line)."""
    if opens_block(norms[index]):
        return True
    after = next_code(norms, index)
    return after < len(norms) and norms[after] == "{"


def enclosing(texts: list[str], norms: list[str], markers: set[int],
              widths: Widths | None = None) -> list[int | None]:
    """For each snippet line, the nearest earlier line with less indentation in the same segment."""
    width_of = width_lookup(texts, widths)
    parent: list[int | None] = [None] * len(texts)
    stack: list[tuple[int, int]] = []  # (indent, index)
    previous: int | None = None
    for index, norm in enumerate(norms):
        if index in markers:
            stack, previous = [], None
            continue
        if not norm:
            continue
        if norm == "{" and previous is not None:
            # Allman style: a brace on its own line belongs to the header above it (the line with
            # the brace's indentation, above a long parameter list)
            width = width_of(index)
            header = next((i for w, i in reversed(stack) if w == width), previous)
            parent[index] = header
            continue
        width = width_of(index)
        while stack and stack[-1][0] >= width:
            stack.pop()
        parent[index] = stack[-1][1] if stack else None
        stack.append((width, index))
        previous = index
    return parent


def within(index: int | None, stop: int) -> int | None:
    return index if index is not None and index < stop else None


def block_last(texts: list[str], norms: list[str], start: int, stop: int, markers: set[int],
               widths: Widths | None = None) -> int | None:
    """The last line of the snippet block opened at `start`, if the snippet gives all of it: a
    marker inside the block after its last shown line stands for more of the block, so the line
    before it need not be the block's last (`return False` under an `if`, then a marker: the
    function's own `return False` is further down)."""
    width_of = width_lookup(texts, widths)
    base = width_of(start)
    last = None
    elided = False
    for index in range(start + 1, stop):
        if index in markers:
            if width_of(index) <= base:
                return None
            elided = True
            continue
        if not norms[index]:
            continue
        if width_of(index) <= base:
            break
        last, elided = index, False
    return None if elided else last


def shallower_before(texts: list[str], norms: list[str], widths: Widths | None = None) -> list[int]:
    """For each line, the nearest earlier non-blank line with less indentation (-1 when none): the
    header of the block it sits in. One pass with a stack of (indentation, line)."""
    width_of = width_lookup(texts, widths)
    found = [-1] * len(texts)
    stack: list[tuple[int, int]] = []
    for index, norm in enumerate(norms):
        if not norm:
            continue
        width = width_of(index)
        while stack and stack[-1][0] >= width:
            stack.pop()
        found[index] = stack[-1][1] if stack else -1
        stack.append((width, index))
    return found
