"""Parsing one part of a snippet (the lines between two markers) as well as it goes.

A part is a piece of a file: it may start inside a doc comment or a class body, or by closing a
block opened before it, and end inside a block or a parameter list that the next marker elides.
Parsed as it is, tree-sitter's error recovery often turns a cut definition into an ERROR node, and
the definition is lost. So the lines closing blocks opened before the part (or, in Python, a
docstring opened before it) are blanked out, and a
few variants are parsed, the one with the fewest errors kept: the part as it is (dedented; PHP
after `<?php`; one starting inside `/* ... */` after `/*`); with the brackets left open closed
(or one to three `end`s); for an indented part of a language whose members live in classes
(`public function f()` alone in PHP), inside `class __part { ... }`; a JSON part that is no
document by itself, inside `{ ... }`. The original, a whole file, is parsed once as it is.

Complexity: at most _MAX_VARIANTS parses of the part, each linear in its length.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..languages import LanguageSpec
from .lines import header_key
from .segments import normalize
from .syntax import error_count, parse

WRAPPER = "__part"  # the name of the class a member part is parsed inside
_MAX_VARIANTS = 8
_HEADS = {"php": "<?php"}
_MEMBER_LANGUAGES = {"php", "typescript", "tsx", "javascript", "jsx", "java", "csharp", "kotlin", "scala",
                     "swift", "cpp"}
_END = re.compile(r"end\b")
_SHELL_OPENERS = {"if": "fi", "case": "esac", "for": "done", "while": "done", "until": "done", "select": "done"}
_OBJECT_LANGUAGES = {"json"}  # `"key": {` alone is no document: put it inside `{ ... }`


class Parsed:
    __slots__ = ("tree", "head_rows", "closed")

    def __init__(self, tree: Any, head_rows: int, closed: bool) -> None:
        self.tree, self.head_rows, self.closed = tree, head_rows, closed


def parse_part(spec: LanguageSpec, part: list[str], cut_short: bool, whole: bool = False) -> Parsed | None:
    """The best parse of `part` (lines, dedented here). `cut_short`: a marker follows, so the part
    may end inside a block; `whole`: the part is a whole file (the original), parsed as it is.
    `head_rows` says how many lines were put before the part."""
    widths = [len(line) - len(line.lstrip()) for line in part if line.strip()]
    if not widths:
        return None
    cut = min(widths)
    lines = [line[cut:] if line.strip() else "" for line in part]
    if whole:
        tree = parse(spec, "\n".join(lines))
        return Parsed(tree, 0, False) if tree is not None else None
    lines = _without_open_string(_without_open_tail(lines, spec), spec)
    rest = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    if rest and min(rest) > 0:  # (the blanked closing lines were the least indented: dedent again)
        lines = [line[min(rest):] if line.strip() else "" for line in lines]
        cut += min(rest)
    heads: list[str] = []  # lines before everything (`<?php`)
    if spec.name in _HEADS and not any(_HEADS[spec.name] in line for line in lines):
        heads.append(_HEADS[spec.name])
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("*") and not first.startswith("*/") and ["/*", "*/"] in spec.block_comments:
        lines = ["/*", *lines]  # it starts inside a doc comment (the wrapper goes above this line)
    rows = len(lines) - len(part)
    body = "\n".join(lines)
    if ["/*", "*/"] in spec.block_comments and body.rfind("/*") > body.rfind("*/"):
        body += "\n*/"  # it ends inside a doc comment the next marker elides: close it
    best: Parsed | None = None
    best_errors = 0
    wrap = cut > 0 or spec.name in _OBJECT_LANGUAGES and not first.startswith(("{", "["))
    for tried, (text, added, closed) in enumerate(_variants(spec, heads, body, cut_short, wrap)):
        tree = parse(spec, text)
        if tree is None:
            return None
        errors = error_count(tree)
        if best is None or errors < best_errors:
            best, best_errors = Parsed(tree, added + rows, closed), errors
        if best_errors == 0 or tried + 1 >= _MAX_VARIANTS:
            break
    return best


def _without_open_tail(lines: list[str], spec: LanguageSpec) -> list[str]:
    """The lines with the ones that close blocks opened before the part blanked out (the end of a
    function whose start a marker elides): unmatched, they would end whatever the part opens."""
    if spec.block_style == "end":
        last = -1  # the `end`s at the part's own depth before anything else opens there
        for row, line in enumerate(lines):
            if not line.strip() or line[:1].isspace():
                continue
            if not _END.match(line):
                break
            last = row
        return ["" if row <= last else line for row, line in enumerate(lines)]
    if spec.block_style != "braces" and spec.name != "python":
        return lines  # (Python's brackets too: the end of an import list a marker cut, `...)`)
    depth, lowest = 0, 0
    lows: list[int] = []  # rows where the depth falls below anything before: they close outer blocks
    after: list[int] = []  # the depth after each row
    for row, line in enumerate(lines):
        for char in line:
            if char in "{([":
                depth += 1
            elif char in "})]":
                depth -= 1
        after.append(depth)
        if depth < lowest:
            lowest = depth
            lows.append(row)
    if not lows:
        return lines
    # The part's head, up to such a row, is the end of elided blocks (`}` of a loop, `return`, `}`
    # of its function) as long as no block opens on the way. A later one (a class's `}` after the
    # methods the part shows) goes alone: the definitions before it are the part's own.
    head = lows[0]
    if any(_opens_definition(lines, after, row) for row in range(head)):
        head = -1  # a whole definition before it: it ends an outer block after it (a class's `}`)
    for row in lows[1:] if head >= 0 else ():
        if max(after[head + 1:row], default=after[head]) > after[head]:
            break
        head = row
    gone = {row for row in lows if row > head}
    return ["" if row <= head or row in gone else line for row, line in enumerate(lines)]


def _opens_definition(lines: list[str], after: list[int], row: int) -> bool:
    """The line at `row` is a definition's header that opens its block there or on the next line
    (Allman's `{`), by the bracket depths `after` each row. O(1) but for the blank lines skipped."""
    if header_key(normalize(lines[row])) is None:
        return False
    if after[row] > (after[row - 1] if row else 0):
        return True
    below = next((lines[k].strip() for k in range(row + 1, len(lines)) if lines[k].strip()), "")
    return below == "{"


_TRIPLE_QUOTES = ('"' * 3, "'" * 3)
# what stands before a triple quote that opens a string (`x = `, `(`, `return `, a prefix `r`)
_OPENS_STRING = re.compile(r"(?:[=(\[{,:+]|\breturn|(?:^|\W)[rRbBfFuU]{1,2})\s*$")


def _without_open_string(lines: list[str], spec: LanguageSpec) -> list[str]:
    """The lines with a Python part's head blanked out when the part starts inside a triple-quoted
    string (the end of a docstring whose start a marker elides): read as an opening quote, its
    end would turn the definitions after it into a string. Its first triple quote ends a line of
    text (`applicable).` and the quote, not `x = ` and the quote) and the part holds an odd
    number of them. O(part)."""
    if spec.name != "python":
        return lines
    for row, line in enumerate(lines):
        text = line.strip()
        quote = next((q for q in _TRIPLE_QUOTES if q in text), None)
        if quote is None:
            continue
        before = text[:-3]
        if text.count(quote) != 1 or not text.endswith(quote) or not before.strip() or _OPENS_STRING.search(before) \
                or sum(other.count(quote) for other in lines) % 2 == 0:
            return lines
        return ["" for _ in lines[:row + 1]] + lines[row + 1:]
    return lines


def _variants(spec: LanguageSpec, heads: list[str], body: str, cut_short: bool,
              wrap: bool) -> Iterator[tuple[str, int, bool]]:
    """(text, lines put before the body, closed) to try, in order."""
    plain = "\n".join([*heads, body])
    yield plain, len(heads), False
    for tail in _closers(spec, plain) if cut_short else []:
        yield plain + tail, len(heads), True
    opener = f"class {WRAPPER} {{" if spec.name in _MEMBER_LANGUAGES else "{" if spec.name in _OBJECT_LANGUAGES \
        else None
    if wrap and opener is not None:
        wrapped = "\n".join([*heads, opener, body])
        yield wrapped + "\n}", len(heads) + 1, False
        for tail in _closers(spec, plain) if cut_short else []:
            yield wrapped + tail + "\n}", len(heads) + 1, True


def _closers(spec: LanguageSpec, text: str) -> list[str]:
    """Closing lines for a part that ends inside a block: the brackets left open (a plain count,
    strings aside; and the shell's `fi`, `esac`, `done`), also with an empty body after a parameter
    list (`{}`, or `: pass` in Python); or one to three `end`s."""
    if spec.block_style == "end":
        return ["\nend" * k for k in (1, 2, 3)]
    if spec.block_style not in ("braces", "indent"):
        return []
    stack: list[str] = []
    pairs = {"{": "}", "(": ")", "[": "]"}
    shell = spec.name == "bash"
    for line in text.split("\n"):
        words = line.split()
        if shell and words and words[0] in _SHELL_OPENERS:
            stack.append(_SHELL_OPENERS[words[0]])  # `case $x in` ... `esac`
        elif shell and words and stack and words[0] == stack[-1]:
            stack.pop()
            continue
        for char in line:
            if char in pairs:
                stack.append(pairs[char])
            elif stack and char == stack[-1]:
                stack.pop()
    if not stack:
        return []
    closing = list(reversed(stack))
    found = ["\n" + "\n".join(closing)]
    if ")" in closing:  # cut inside a signature: give it a body
        at = closing.index(")")
        body = ") {}" if spec.block_style == "braces" else "):\n    pass"
        found.append("\n" + "\n".join([*closing[:at], body, *closing[at + 1:]]))
        if closing[0] == ")":  # cut inside an expression (`return (`): give it one
            found.append("\n" + "\n".join(["0)", *closing[1:]]))
    return found
