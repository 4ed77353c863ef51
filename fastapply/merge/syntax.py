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


def embedded_error_count(spec: LanguageSpec, tree: Any) -> int:
    """Errors inside embedded code (JavaScript in <script>, CSS in <style>), parsed with its own grammar."""
    if not spec.embedded:
        return 0
    from ..languages import find_language

    total = 0
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        inner = spec.embedded.get(node.type)
        if inner is None:
            stack.extend(node.children)
            continue
        inner_spec = find_language(inner)
        for child in node.children:
            if child.type == "raw_text" and inner_spec is not None:
                sub = parse(inner_spec, child.text.decode("utf-8", "replace"))
                total += error_count(sub) if sub is not None else 0
    return total
