"""tree-sitter access for the engine: parsing and counting syntax errors.

Imported only when a merge runs; the parsers themselves are cached by `fastapply.languages`.
"""

from __future__ import annotations

from typing import Any

from ..languages import LanguageSpec


def parse(spec: LanguageSpec, text: str) -> Any | None:
    """The tree for `text`, or None when the language has no usable grammar."""
    parser = spec.parser()
    if parser is None:
        return None
    return parser.parse(text.encode("utf-8"))


def error_count(tree: Any) -> int:
    """ERROR and MISSING nodes in `tree`, visiting only subtrees that contain an error."""
    root = tree.root_node
    if not root.has_error:
        return 0
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
            if node.is_error:
                continue
        stack.extend(child for child in node.children if child.has_error)
    return count


def error_lines(tree: Any, limit: int = 3) -> list[int]:
    """1-based lines of the first few errors (for messages)."""
    found: list[int] = []
    stack = [tree.root_node]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.is_error or node.is_missing:
            found.append(node.start_point[0] + 1)
            continue
        stack.extend(reversed([child for child in node.children if child.has_error]))
    return found
