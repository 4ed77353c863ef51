"""The outline of a source file: its definitions (functions, methods, classes) with line spans.

Found with the official tree-sitter grammars (through `fastapply.languages`, which only maps a language
name to its grammar wheel), so one code path serves every language. Cost: one parse, O(nodes).
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapply.languages import find_language

# Node kinds that define a callable with a body, across the grammars in grammars/*.toml.
FUNCTION_KINDS = {
    "function_definition", "function_declaration", "method_declaration", "method_definition",
    "function_item", "method", "singleton_method", "local_function", "constructor_declaration",
    "init_declaration", "secondary_constructor",
}
# Node kinds that hold other definitions (a function inside one of them is a method).
CONTAINER_KINDS = {
    "class_definition", "class_declaration", "class_specifier", "struct_specifier", "impl_item",
    "trait_item", "class", "module", "object_definition", "trait_definition", "interface_declaration",
    "object_declaration", "class_body", "declaration_list", "namespace_definition",
    "namespace_declaration", "abstract_class_declaration", "enum_declaration", "record_declaration",
    "struct_declaration", "protocol_declaration", "extension_declaration",
}
IDENTIFIER_KINDS = {"identifier", "property_identifier", "field_identifier", "simple_identifier",
                    "constant", "name", "type_identifier", "shorthand_property_identifier"}


@dataclass
class Definition:
    """A function or method: lines [start, end) 0-based; `header` holds its name."""

    name: str
    kind: str
    start: int
    header: int
    end: int
    body_start: int  # first line of the body (after the header lines)
    indent: str
    nested: bool  # inside a class/impl/module: a method
    closing: str  # the last line stripped ("}" / "end" / "" for indentation languages)
    in_function: bool  # defined inside another function
    first_statement: int  # first body line after a docstring (= body_start without one)
    parent: tuple[int, int]  # line span of the enclosing node (the file for top-level ones)


@dataclass
class Outline:
    language: str
    lines: list[str]
    definitions: list[Definition]
    identifiers: dict[int, list[tuple[int, int, str]]]  # line -> [(col_start, col_end, text)]
    literals: dict[int, list[tuple[int, int, str]]]
    error_count: int
    top_spans: list[tuple[int, int]]  # line spans [start, end) of the file's top-level nodes

    def top_span(self, line: int) -> tuple[int, int] | None:
        return next((span for span in self.top_spans if span[0] <= line < span[1]), None)


def _name_of(node) -> str | None:
    name = node.child_by_field_name("name")
    if name is None:
        declarator = node.child_by_field_name("declarator")
        while declarator is not None and declarator.type not in IDENTIFIER_KINDS:
            inner = declarator.child_by_field_name("declarator")
            if inner is None:
                inner = next((c for c in declarator.children if c.type in IDENTIFIER_KINDS), None)
            declarator = inner
        name = declarator
    if name is None:
        name = next((c for c in node.children if c.type in IDENTIFIER_KINDS), None)
    if name is None or name.start_point[0] != name.end_point[0]:
        return None
    return name.text.decode("utf-8", "replace")


def indentation(line: str) -> str:
    """The line's leading whitespace (the generator's modules share it)."""
    return line[: len(line) - len(line.lstrip())]


def parse_outline(text: str, language: str) -> Outline | None:
    """The outline, or None when the language has no grammar here."""
    spec = find_language(language)
    parser = spec.parser() if spec else None
    if parser is None:
        return None
    data = text.encode("utf-8")
    tree = parser.parse(data)
    lines = text.split("\n")
    defs: list[Definition] = []
    identifiers: dict[int, list[tuple[int, int, str]]] = {}
    literals: dict[int, list[tuple[int, int, str]]] = {}
    errors = 0
    # Byte columns equal character columns only on ASCII lines; other lines get no token edits.
    ascii_line = [line.isascii() for line in lines]
    root = tree.root_node
    top_spans = [(c.start_point[0], c.end_point[0] + 1) for c in root.children]
    stack = [(root, False, False, (0, len(lines)))]
    while stack:
        node, nested, in_function, parent = stack.pop()
        if node.is_error or node.is_missing:
            errors += 1
        kind = node.type
        row = node.start_point[0]
        if node.child_count == 0 and row == node.end_point[0] and row < len(lines) and ascii_line[row]:
            token = (node.start_point[1], node.end_point[1], node.text.decode("utf-8", "replace"))
            if kind in IDENTIFIER_KINDS:
                identifiers.setdefault(row, []).append(token)
            elif kind in ("integer", "number", "integer_literal", "int_literal", "float",
                          "decimal_integer_literal", "float_literal", "number_literal"):
                literals.setdefault(row, []).append(token)
        if kind in FUNCTION_KINDS and node.end_point[0] > row + 1:
            name = _name_of(node)
            body = node.child_by_field_name("body")
            if name and body is not None:
                start = row
                wrapper = node.parent
                if wrapper is not None and wrapper.type == "decorated_definition":
                    start = wrapper.start_point[0]
                end = node.end_point[0] + 1
                body_row = body.start_point[0]
                last = lines[end - 1].strip() if end - 1 < len(lines) else ""
                closing = last if last in ("}", "};", "end", "},") else ""
                if body_row == row:  # brace on the header line: the body starts on the next line
                    body_row = row + 1
                if body_row < len(lines) and lines[body_row].strip() == "{":  # Allman braces
                    body_row += 1
                statements = [c for c in body.named_children if c.type not in ("comment", "{")]
                first_statement = body_row
                if statements and statements[0].type == "expression_statement" and \
                        statements[0].named_children and statements[0].named_children[0].type == "string":
                    first_statement = statements[1].start_point[0] if len(statements) > 1 else end
                header_lines_ok = body_row <= end - 1 - (1 if closing else 0) and first_statement < end
                if header_lines_ok:
                    defs.append(Definition(name, kind, start, row, end, body_row, indentation(lines[row]),
                                           nested, closing, in_function, first_statement, parent))
        is_container = kind in CONTAINER_KINDS and node is not root  # (Python's root is a `module` too)
        is_function = kind in FUNCTION_KINDS
        span = (node.start_point[0], node.end_point[0] + 1) if is_container or is_function else parent
        for child in node.children:
            stack.append((child, nested or is_container, in_function or is_function, span))
    defs.sort(key=lambda d: d.start)
    return Outline(language, lines, defs, identifiers, literals, errors, top_spans)


def error_count(text: str, language: str) -> int | None:
    """ERROR and MISSING nodes in a parse of `text` (None without a grammar)."""
    spec = find_language(language)
    parser = spec.parser() if spec else None
    if parser is None:
        return None
    stack, count = [parser.parse(text.encode("utf-8")).root_node], 0
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
        elif node.has_error:
            stack.extend(node.children)
    return count
