"""tree-sitter access for the engine: parsing and counting syntax errors (windows.py picks the
stretches of a merge that a syntax check needs to parse).

Imported only when a merge runs; the parsers themselves are cached by `fastapply.languages`.
"""

from __future__ import annotations

from typing import Any, AnyStr

from ..languages import LanguageSpec


def parse(spec: LanguageSpec, text: str) -> Any | None:
    """The tree for `text`, or None when the language has no usable grammar."""
    parser = spec.parser()
    if parser is None:
        return None
    return parser.parse(text.encode("utf-8"))


# From this size on, the second text of a comparison is parsed incrementally from the first's tree.
INCREMENTAL_MIN_BYTES = 256_000


def reparse(spec: LanguageSpec, tree: Any, before: bytes, after: bytes) -> Any | None:
    """The tree of `after`, given `tree`, the tree of `before`: tree-sitter reuses the subtrees of
    the unchanged head and tail (the common byte prefix and suffix), so the cost is about that of
    the changed part, not of a second whole parse. O(n) to find the changed span; when that span is
    a large part of the text (editing the tree would cost more than it saves), a fresh parse."""
    parser = spec.parser()
    if parser is None:
        return None
    head = common_prefix(before, after)
    tail = common_prefix(before[head:][::-1], after[head:][::-1])
    old_end, new_end = len(before) - tail, len(after) - tail
    if (new_end - head) * 4 > len(after):
        return parser.parse(after)
    edited = tree.copy()
    edited.edit(head, old_end, new_end, _point(before, head), _point(before, old_end), _point(after, new_end))
    return parser.parse(after, edited)


def common_prefix(a: AnyStr, b: AnyStr) -> int:
    """Length of the common prefix of two strings or byte strings: a binary search over slice
    comparisons (C speed, O(n log n))."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _point(data: bytes, offset: int) -> tuple[int, int]:
    """tree-sitter's (row, byte column) of a byte offset."""
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


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
    """1-based lines of the first few errors (for messages): the innermost ones. tree-sitter often
    wraps the rest of a file in an ERROR node that starts at its first line, around the real
    error (`total = (p * 2` left open in the last function: an ERROR from line 1); its first
    line says nothing, so an error node with errors inside is read through."""
    found: list[int] = []
    stack = [tree.root_node]
    while stack and len(found) < limit:
        node = stack.pop()
        inner = [child for child in node.children if child.has_error or child.is_missing]
        if (node.is_error or node.is_missing) and not inner:
            found.append(node.start_point[0] + 1)
            continue
        stack.extend(reversed(inner))
    return found


_BASH_CLOSERS = frozenset(("}", "fi", "done", "esac"))


def tolerated_errors(spec: LanguageSpec, tree: Any, text: str) -> list[int]:
    """1-based lines that the grammar accepts but the language rejects.
    Bash: a line that holds only a closing word (`}`, `fi`, `done`, `esac`) which tree-sitter-bash
    reads as a command of that name, not as the end of a block ("syntax error near unexpected
    token"). Python: a `try:` with neither `except` nor `finally` (tree-sitter-python accepts it;
    a merge that replaced the `except` line by new code leaves one behind), and a statement
    dedented to a column no enclosing block has ("unindent does not match any outer indentation
    level": tree-sitter-python reads it as a sibling of the block above). Other languages: none.
    O(lines) to find candidate lines, O(log n) per candidate in the tree."""
    if spec.name == "bash":
        return _stray_closers(tree, text)
    if spec.name == "python":
        return (_bare_tries(tree, text) if "try:" in text else []) + _misindented(tree, text)
    return []


def _stray_closers(tree: Any, text: str) -> list[int]:
    found = []
    for row, line in enumerate(text.split("\n")):
        word = line.strip()
        if word not in _BASH_CLOSERS:
            continue
        col = len(line) - len(line.lstrip())
        node = tree.root_node.descendant_for_point_range((row, col), (row, col + len(word)))
        while node is not None and node.type in ("word", "}", "fi", "done", "esac"):
            node = node.parent
        if node is not None and node.type == "command_name":
            found.append(row + 1)
    return found


_TRY_ENDS = frozenset(("except_clause", "except_group_clause", "finally_clause"))


def _bare_tries(tree: Any, text: str) -> list[int]:
    found = []
    for row, line in enumerate(text.split("\n")):
        if not line.lstrip().startswith("try:"):
            continue
        col = len(line) - len(line.lstrip())
        node = tree.root_node.descendant_for_point_range((row, col), (row, col + 3))
        while node is not None and node.type != "try_statement" and node.start_point[0] == row:
            node = node.parent
        if node is not None and node.type == "try_statement" \
                and not any(child.type in _TRY_ENDS for child in node.children):
            found.append(row + 1)
    return found


def _misindented(tree: Any, text: str) -> list[int]:
    """Lines that start a statement at another column than the statement before it in its
    block (the tree says so: not a continuation inside brackets or a string): a dedent to a
    column no line still open stands at, or an indent under a line that opens no block. Python
    rejects both ("unindent does not match any outer indentation level", "unexpected indent");
    tree-sitter-python reads them as siblings. The indentation alone finds the candidates (a few
    per file: continuation lines at odd columns); the tree checks only those."""
    found = []
    stack = [0]
    previous = ""
    for row, line in enumerate(text.split("\n")):
        stripped = line.lstrip()
        if not stripped or stripped[0] == "#":
            continue
        width = len(line) - len(stripped)
        above, previous = previous, stripped.split(" #", 1)[0].rstrip()
        if width > stack[-1]:
            stack.append(width)
            if not above or above.endswith(_MAY_INDENT):
                continue
        else:
            while width < stack[-1]:
                stack.pop()
            if width == stack[-1]:
                continue
            stack.append(width)
        node = tree.root_node.descendant_for_point_range((row, width), (row, width))
        while node is not None and node.parent is not None and node.parent.type not in ("block", "module"):
            if node.type in _CLAUSES and node.start_point[0] == row:
                break
            node = node.parent
        if node is not None and node.type in _CLAUSES and node.parent is not None:
            # `except:`, `elif:`, `else:`, `finally:` stand at their statement's column (a merge
            # that lost the inner `try:` of an `except` leaves the next `except` at no open column)
            if node.parent.start_point[1] != width:
                found.append(row + 1)
            continue
        if node is None or node.parent is None or node.start_point[0] != row or node.type == "comment":
            continue
        before = node.prev_named_sibling
        while before is not None and before.type == "comment":
            before = before.prev_named_sibling
        if before is not None and before.start_point[1] != width:
            found.append(row + 1)
    return found


# (a line ending so is followed by a deeper one: a block's body, a continuation; other deeper
# lines go to the tree, which finds most inside brackets or strings)
_MAY_INDENT = (":", "(", "[", "{", ",", "\\")
_CLAUSES = _TRY_ENDS | {"else_clause", "elif_clause"}  # (each stands at its statement's column)


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


def definitions(spec: LanguageSpec, tree: Any) -> list[tuple[str, str, int, int]]:
    """(name, node kind, first line, last line) of every definition the language's entry lists
    (`definitions` in grammars/<lang>.toml), 0-based lines, outermost first."""
    language = spec.ts_language()
    if language is None or not spec.definitions:
        return []
    found = []
    for node in definition_nodes(spec, language, tree):
        name = _name_of(node)
        if name:
            found.append((name, node.type, node.start_point[0], node.end_point[0]))
    return sorted(found, key=lambda d: (d[2], -d[3]))


def definition_nodes(spec: LanguageSpec, language: Any, tree: Any) -> list[Any]:
    """The tree's nodes of the kinds the language's entry lists as definitions, in source order
    (an outer node before the nodes inside it). O(nodes)."""
    from tree_sitter import Query, QueryCursor

    query = _queries.get(spec.name)
    if query is None:
        valid = [kind for kind in spec.definitions if language.id_for_node_kind(kind, True)]
        if not valid:
            return []
        query = _queries[spec.name] = Query(language, "[" + " ".join(f"({k})" for k in valid) + "] @def")
    nodes = QueryCursor(query).captures(tree.root_node).get("def", [])
    return sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte))


_queries: dict[str, Any] = {}  # compiled per language: they depend on the grammar, not on any text
_NAME_TYPES = {"identifier", "property_identifier", "type_identifier", "field_identifier", "name", "constant",
               "simple_identifier", "word", "tag_name"}


def _name_of(node: Any) -> str | None:
    """A definition's name: its `name` field, or the first identifier a level or two down."""
    queue = [(node, 0)]
    while queue:
        current, depth = queue.pop(0)
        named = current.child_by_field_name("name") or current.child_by_field_name("declarator")
        if named is not None and named.type in _NAME_TYPES:
            return named.text.decode("utf-8", "replace")
        if depth < 3:
            queue.extend((child, depth + 1) for child in current.named_children)
            if named is not None:
                queue.insert(0, (named, depth + 1))
        if current is not node and current.type in _NAME_TYPES:
            return current.text.decode("utf-8", "replace")
    return None
