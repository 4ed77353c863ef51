"""Definitions read with tree-sitter from the original and from the snippet.

Each text is parsed with the language's own grammar and every node whose kind
the language entry lists under `definitions` (functions, methods, classes, declarations; keys in
JSON and YAML) becomes a `Definition`: kind, name, signature (its first line), line span with the
comments and attributes right above it, parent definition, scope (the enclosing names) and a hash
of its lines. Matching the two lists lives in defmatch.py.

The snippet is parsed one part (the lines between two markers) at a time: a block whose end a
marker elides must not swallow the code after the marker. A definition of the snippet is
`complete` when it parses without an error and no marker inside its block follows it: only then
does it stand for the whole definition (its body can be compared, it can move).

Bounded: texts over _MAX_BYTES are not parsed (the merge keeps its line path), one parse per text
and call (nothing is cached across calls), one query over the tree (C speed), and a single pass
over the d definitions found to nest them: O(n) for n lines plus O(d log d).
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..deadline import check_deadline
from ..languages import LanguageSpec
from .fragments import WRAPPER, parse_part
from .lines import indent_width
from .syntax import definition_nodes

_MAX_BYTES = 600_000  # beyond this the parse alone costs too much for the time a merge may take
_NAME_TYPES = {"identifier", "property_identifier", "type_identifier", "field_identifier", "name", "constant",
               "simple_identifier", "word", "tag_name", "string_content", "string_scalar", "dot_index_expression",
               "method_index_expression", "qualified_identifier", "scoped_identifier", "operator_name",
               "destructor_name", "namespace_identifier", "private_property_identifier"}
_PREAMBLE_WORDS = ("comment", "attribute", "decorator", "annotation")  # node kinds that go with what follows


class Definition(msgspec.Struct, frozen=True):
    kind: str  # the tree-sitter node kind (the inner one for `export function`, `@decorated def`)
    name: str
    signature: str  # the header line, normalized
    first: int  # 0-based first line: comments, decorators and attributes right above count
    header: int  # the line the definition itself starts on
    last: int  # its last line (inclusive)
    parent: int  # index of the enclosing definition in the same list, -1 at the top
    scope: str  # enclosing definitions' names joined with "."
    digest: int  # hash of its non-blank normalized lines, header to last
    complete: bool  # no marker inside and no parse error (always True in the original)
    open_end: bool = False  # a marker follows right after it: it may go on there (Python can't tell)


def read_definitions(spec: LanguageSpec | None, lines: list[str], norms: list[str],
                     markers: frozenset[int] = frozenset()) -> list[Definition] | None:
    """The definitions of `lines`, outermost first in line order; None without a grammar or when
    the text is too large. `markers` are line indices that stand for elided code (snippet only):
    each run of lines between two markers is parsed on its own, dedented, so that a block whose
    end a marker elides does not swallow the code after the marker. O(n + d log d)."""
    if spec is None or not spec.grammar or not spec.definitions:
        return None
    if sum(map(len, lines)) > _MAX_BYTES:
        return None
    language = spec.ts_language()
    if language is None:
        return None
    found: list[Definition] = []
    start = 0
    for stop in [*sorted(markers), len(lines)]:
        if stop > start:
            check_deadline()  # thread mode cannot kill a merge: it stops between parts instead
            found.extend(_read_part(spec, language, lines, norms, start, stop, len(found),
                                    indent_width(lines[stop]) if stop < len(lines) else -1))
        start = stop + 1
    return found


def _read_part(spec: LanguageSpec, language: Any, lines: list[str], norms: list[str], start: int, stop: int,
               offset: int, after: int) -> list[Definition]:
    """Definitions of lines[start:stop]; `after` is the indentation of the marker that follows (-1
    at the end): a definition reaching the part's end under a deeper marker goes on past it."""
    parsed = parse_part(spec, lines[start:stop], after >= 0, whole=start == 0 and stop == len(lines) and after < 0)
    if parsed is None:
        return []
    defs = _outline(definition_nodes(spec, language, parsed.tree), norms, start - parsed.head_rows, offset,
                    (start, stop - 1))
    last_code = max(r for r in range(start, stop) if norms[r])
    for index, d in enumerate(defs):
        if d.last >= last_code and after >= 0:
            complete = d.complete and not parsed.closed and after <= indent_width(lines[d.header])
            defs[index] = msgspec.structs.replace(d, complete=complete, last=min(d.last, stop - 1), open_end=True)
    return defs


def _outline(nodes: list[Any], norms: list[str], row0: int, offset: int, rows: tuple[int, int]) -> list[Definition]:
    """Definitions from query captures sorted by (start, -end); rows shifted by `row0`, parents by
    `offset` (the definitions of earlier parts)."""
    found: list[Definition] = []
    stack: list[tuple[int, int]] = []  # (end byte, index in found) of the open definitions
    index = 0
    while index < len(nodes):
        node = nodes[index]
        index += 1
        kind, name_node = node.type, node
        inner = node.child_by_field_name("declaration")  # `export function f(...);` (a signature)
        if inner is not None:
            kind = inner.type
        # `export function f`, `@decorator def f`: one definition, the outer span and the inner kind
        while index < len(nodes) and nodes[index].end_byte == name_node.end_byte \
                and nodes[index].parent == name_node:
            kind, name_node = nodes[index].type, nodes[index]
            index += 1
        name = _name_of(name_node)
        if not name or name == WRAPPER:
            continue  # (the class a part of members was parsed inside is no definition of the text)
        while stack and stack[-1][0] <= node.start_byte:
            stack.pop()
        parent = stack[-1][1] if stack else -1
        header, last = row0 + name_node.start_point[0], min(row0 + node.end_point[0], rows[1])
        if header < rows[0]:
            continue  # (a definition in the lines put before the part)
        if node.end_point[1] == 0 and last > header:
            last -= 1  # a node that ends with its newline
        first = max(row0 + _preamble_start(node), rows[0])
        digest = hash(tuple(n for n in norms[header:last + 1] if n))
        scope = (found[parent].scope + "." if parent >= 0 and found[parent].scope else "") + \
            (found[parent].name if parent >= 0 else "")
        found.append(Definition(kind, name, norms[header], first, header, last,
                                parent + offset if parent >= 0 else -1, scope, digest, not node.has_error))
        stack.append((node.end_byte, len(found) - 1))
    return found


def _preamble_start(node: Any) -> int:
    """The first line of the comments, decorators and attributes right above `node` (no blank
    line between), or the node's own first line."""
    first = node.start_point[0]
    sibling = node.prev_named_sibling
    parent = node.parent
    if sibling is None and parent is not None and parent.start_byte == node.start_byte:
        # the first statement of a body (Ruby: the comments above a class's first method belong
        # to the class, beside its body); not a comment that ends the class's own header line
        sibling = parent.prev_named_sibling
        if sibling is not None and sibling.start_point[1] > node.start_point[1]:
            sibling = None
    while sibling is not None and _is_preamble(sibling.type):
        end = sibling.end_point[0] - (sibling.end_point[1] == 0)  # a line comment holds its newline
        if end != first - 1 and not (end == first and sibling.end_point[1] == 0):
            break
        first = sibling.start_point[0]
        sibling = sibling.prev_named_sibling
    return first


def _is_preamble(kind: str) -> bool:
    return any(word in kind for word in _PREAMBLE_WORDS)


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace").strip("\"'")


def _name_of(node: Any) -> str | None:
    """A definition's name: its `name` or `key` field, the end of its `declarator` chain (C, C++),
    `Trait for Type` for a Rust impl, or the first name-like node a few levels down."""
    if node.type == "impl_item":
        kind, trait = node.child_by_field_name("type"), node.child_by_field_name("trait")
        if kind is not None:
            return (_text(trait) + " for " if trait is not None else "") + _text(kind)
    for field in ("name", "key"):
        named = node.child_by_field_name(field)
        if named is not None:
            found = _first_name(named)
            if found:
                return found
    declarator = node.child_by_field_name("declarator")
    depth = 0
    while declarator is not None and depth < 6:
        if declarator.type in _NAME_TYPES:
            return _text(declarator)
        inner = declarator.child_by_field_name("declarator") or declarator.child_by_field_name("name")
        if inner is None:
            return _first_name(declarator)
        declarator, depth = inner, depth + 1
    return _first_name(node, skip_self=True)


def _first_name(node: Any, skip_self: bool = False) -> str | None:
    """The first name-like node in `node` (breadth first, three levels at most)."""
    queue = [(node, 0)]
    while queue:
        current, depth = queue.pop(0)
        if current.type in _NAME_TYPES and not (skip_self and current is node):
            return _text(current)
        if depth < 3:
            queue.extend((child, depth + 1) for child in current.named_children
                         if not _is_preamble(child.type))
    return None
