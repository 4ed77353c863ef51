"""Explicit deletion notes in a snippet ("// remove the foo() method"): the original lines of the
definition a note names. Complexity: O(n) for the definitions of the original (one tree-sitter
parse, only when the snippet has a note) plus O(n) per note.
"""

from __future__ import annotations

from ..errors import ErrorCode, MergeError
from ..languages import LanguageSpec
from .lines import block_extent, header_key
from .segments import SnippetLine


def _definition_spans(spec: LanguageSpec | None, original: str) -> dict[str, list[tuple[int, int]]]:
    """Definitions by name from the syntax tree, [first, stop) lines, outermost ones only."""
    if spec is None or spec.grammar is None:
        return {}
    from .syntax import definitions, parse

    tree = parse(spec, original)
    spans: dict[str, list[tuple[int, int]]] = {}
    for name, _, first, last in definitions(spec, tree) if tree is not None else []:
        nested_same = any(first >= a and last < b for a, b in spans.get(name, []))
        if not nested_same:
            spans.setdefault(name, []).append((first, last + 1))
    return spans


def deletions(items: list[SnippetLine], orig: list[str], onorm: list[str],
               spec: LanguageSpec | None, original: str) -> set[int]:
    """Original lines that explicit deletion notes ("// remove foo") name. A note that names no
    single definition of the original is an ordinary comment after all (its kind becomes code)."""
    drop: set[int] = set()
    has_code = any(i.kind == "code" for i in items)
    found: dict[str, list[tuple[int, int]]] | None = None
    shown: set[str | None] = set()
    for item in items:
        if item.kind != "delete":
            continue
        if found is None:
            found = _definition_spans(spec, original)
            # (a definition the snippet itself writes is not what a note deletes: timm's `# drop /
            # act are present when converted ... (see convert_splitbn_model)` above that function)
            shown = {header_key(i.norm) for i in items if i.kind == "code"}
        for name in item.targets:
            if name in shown:
                continue
            spans = found.get(name, [])
            heads = [i for i, n in enumerate(onorm) if n and header_key(n) == name] if not spans else []
            if len(spans) == 1 or len(heads) == 1:
                first, stop = block_extent(orig, onorm, heads[0]) if heads else spans[0]
                while first > 0 and (onorm[first - 1].startswith(("//", "# ", "##", "/*", "*", "--", "@", "<!--"))
                                     or onorm[first - 1] == "#"):
                    first -= 1  # its doc comment and decorators go with it
                if first > 0 and not onorm[first - 1] and stop < len(orig) and not onorm[stop]:
                    stop += 1  # one of the two blank lines around it goes with it
                drop.update(range(first, stop))
                break
        else:
            if not has_code:
                raise MergeError(
                    f"snippet line {item.number} ({item.text.strip()!r}) asks to delete something, but no "
                    "single definition of that name was found in the original. Show the lines around "
                    "the code to delete instead (code left out between two shown lines is deleted)",
                    code=ErrorCode.ANCHOR_NOT_FOUND, line=item.number)
            item.kind = "code"
    return drop
