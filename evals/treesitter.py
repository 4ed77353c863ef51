"""Syntax checks for eval cases with the official tree-sitter grammars (independent of the engine).

Used to keep hand-written and generated expected files honest: a typo in an `old -> new`
replacement or a broken generated edit shows up as a syntax error the original did not have.
"""

from __future__ import annotations

import importlib
from functools import cache

import tree_sitter

# language -> (grammar module, function returning the language pointer)
GRAMMARS = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "jsx": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "rust": ("tree_sitter_rust", "language"),
    "go": ("tree_sitter_go", "language"),
    "html": ("tree_sitter_html", "language"),
    "java": ("tree_sitter_java", "language"), "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"), "csharp": ("tree_sitter_c_sharp", "language"),
    "ruby": ("tree_sitter_ruby", "language"), "php": ("tree_sitter_php", "language_php"),
    "kotlin": ("tree_sitter_kotlin", "language"), "swift": ("tree_sitter_swift", "language"),
    "scala": ("tree_sitter_scala", "language"), "lua": ("tree_sitter_lua", "language"),
    "css": ("tree_sitter_css", "language"), "bash": ("tree_sitter_bash", "language"),
    "yaml": ("tree_sitter_yaml", "language"), "json": ("tree_sitter_json", "language"),
}


@cache
def parser_for(language: str) -> tree_sitter.Parser | None:
    """A parser for `language`, or None when it is not in GRAMMARS."""
    if language not in GRAMMARS:
        return None
    module, function = GRAMMARS[language]
    pointer = getattr(importlib.import_module(module), function)()
    return tree_sitter.Parser(tree_sitter.Language(pointer))


def syntax_errors(text: str, language: str) -> list[int]:
    """1-based lines of ERROR and MISSING nodes ([] when clean or the language is unknown)."""
    parser = parser_for(language)
    if parser is None:
        return []
    stack, lines = [parser.parse(text.encode("utf-8")).root_node], []
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            lines.append(node.start_point[0] + 1)
        elif node.has_error:
            stack.extend(node.children)
    return sorted(lines)
