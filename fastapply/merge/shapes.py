"""The shapes of the lines around a run of blank lines, for spacing.py and gaps.py: where a
merged line came from, decorators and the definitions under them, the ends of statements and of
new definitions, PEP 8's two blank lines. Plain predicates over the merged lines (`out`: text,
source, original index, snippet index); each costs O(the lines it walks), said in its docstring.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .lines import header_key, indent_width, is_closer

# where a merged line came from (splice.py): an original line, a snippet line, a marker that kept nothing
ORIG, SNIP, EMPTY = "o", "s", "m"

# (also a match arm, `Ref::Named(name) => {`: an `=>` with no `=` before it, unlike `f = (x) => {`)
STATEMENT = re.compile(r"^(?:(?:return|if|for|while|switch|else|try|do|catch|case|with|match|loop|import|from)\b"
                        r"|[^=]*=>\s*\{$)")
# a name given a literal that opens on its line: `filtered = {`, `const ROUTES = [`
DATA_ASSIGNMENT = re.compile(r"^(?:(?:const|let|var|final|static|private|public|protected)\s+)*[\w.]+(?:\s*:\s*[^=]+)?\s*=\s*[\[{(]$")
PREAMBLE = ("@", "#[", "//", "#", "/*", "*", "///", "--", "<!--")
# a C preprocessor line that continues or ends a conditional: no comment, and no sibling of a block
PREPROCESSOR_BRANCH = re.compile(r"^#\s*(?:else|elif|endif)\b")
# the line that ends a block's body: closing brackets only (`}`, `),`), or `end`; not an
# overload's `): Type` or `} else {`
BODY_END = re.compile(r"^(?:[}\])]+[;,]?|end\b.*)$")
# an entry of an object literal or table (`FST_ERR_X: createError(`, `'key': {`), not a declaration
OBJECT_KEY = re.compile(r"^(?:[A-Za-z_$][\w$]*|'[^']*'|\"[^\"]*\")\s*:\s*\S")


def decorates(out: list[tuple[str, str, int, int]], before: int, after: int) -> bool:
    """out[before] is a decorator or attribute (one line, or the closing line of one written over
    several) right above the definition header out[after], at its indentation: no blank line
    goes between them, whatever blank lines the original had above the header (typeshed's new
    `@deprecated(` ... `)` over a class the file had set off by one). O(DECORATOR_LINES)."""
    prev, text = out[before][0], out[after][0]
    width = indent_width(text)
    if indent_width(prev) != width or header_key(text.strip()) is None:
        return False
    norm = prev.strip()
    return norm.startswith(("@", "#[")) and not norm.endswith(("(", "[", ",")) or closes_preamble(out, before, width)


def closes_preamble(out: list[tuple[str, str, int, int]], before: int, width: int) -> bool:
    """out[before] closes a decorator or attribute written over several lines
    (`@pytest.mark.parametrize(` ... `)`, `#[cfg(any(` ... `))]`), or a Lua block comment
    (`--[[` ... `]]`): the definition below belongs to it. O(DECORATOR_LINES)."""
    return preamble_start(lambda index: out[index][0], before, width) is not None


def preamble_start(text: Callable[[int], str], before: int, width: int) -> int | None:
    """Where the decorator, attribute or Lua block comment that line `before` closes starts (see
    closes_preamble; `text(i)` is line i), or None when that line closes none. O(DECORATOR_LINES)."""
    closing = text(before).strip()
    if indent_width(text(before)) > width and closing.endswith((")", "]")):
        return _hanging_decorator(text, before, width)
    if not is_closer(closing) or indent_width(text(before)) != width:
        return None
    in_string = False
    for index in range(before - 1, max(-1, before - DECORATOR_LINES), -1):
        line = text(index).strip()
        if closing.startswith("]]") and line.startswith("--["):
            return index  # (the comment's own lines may stand at any indentation)
        if (line.count('"""') + line.count("'''")) % 2:
            in_string = not in_string  # (a string's lines may stand at any indentation: `"""` at column 0)
            continue
        if line and not in_string and indent_width(text(index)) <= width and not closing.startswith("]]"):
            # (a Python or Java decorator, a Rust attribute)
            return index if line.startswith(("@", "#[")) else None
    return None


DECORATOR_LINES = 50


def _hanging_decorator(text: Callable[[int], str], before: int, width: int) -> int | None:
    """Where a decorator whose arguments hang under its `(` starts, when line `before` (deeper
    than `width`) closes it: `@pytest.mark.xfail(cairo_version() < 11800,` then
    `                   reason='Cairo version too low')`. O(DECORATOR_LINES)."""
    depth = 0
    for index in range(before, max(-1, before - DECORATOR_LINES), -1):
        line = text(index)
        if not line.strip() or indent_width(line) < width:
            return None
        depth += sum(line.count(c) for c in ")]") - sum(line.count(c) for c in "([")
        if indent_width(line) == width:
            return index if depth == 0 and line.strip().startswith(("@", "#[")) else None
    return None


def closes_statement(out: list[tuple[str, str, int, int]], before: int, width: int) -> bool:
    """out[before], a closing line at `width`, ends a statement block (`for ... do`, `if`), not a
    definition: no sibling definition ends there. O(length of that block)."""
    index = before - 1
    while index >= 0 and (not out[index][0].strip() or indent_width(out[index][0]) > width):
        index -= 1
    return index >= 0 and bool(STATEMENT.match(out[index][0].strip()))


def new_definition_ends(out: list[tuple[str, str, int, int]], before: int, width: int) -> bool:
    """out[before] ends new snippet code that opened with a Python definition at `width` (a new
    sibling, not statements inserted at the end of a body). A new decorator line is no such end:
    it belongs to the definition under it. O(length of the new code)."""
    index = new_code_opener(out, before, width)
    line = out[index][0] if index is not None else ""
    return indent_width(line) == width and pep8_gap(line.strip()) \
        and not (index == before and line.lstrip().startswith("@"))


def new_code_opener(out: list[tuple[str, str, int, int]], before: int, width: int) -> int | None:
    """The position of the last line at or above out[before], among the new snippet lines that end
    there, indented `width` or less: the line that opened the block out[before] belongs to. None
    when the new lines above hold none. O(those lines)."""
    index = before
    while index >= 0 and out[index][1] == SNIP and out[index][2] < 0:
        line = out[index][0]
        if line.strip() and indent_width(line) <= width:
            return index
        index -= 1
    return None


def preamble_at(line: str, width: int) -> bool:
    """A comment or attribute line above a definition at `width`; the ` * ` and ` */` lines of a
    doc block sit one column deeper than its `/**`."""
    norm = line.strip()
    if not norm.startswith(PREAMBLE):
        return False
    return indent_width(line) == width or norm.startswith("*") and indent_width(line) == width + 1


def top_level_after_block(above: str, below: str) -> bool:
    """`below` starts top-level code (column 0, not a closing line) right after an indented line."""
    return indent_width(above) > 0 and indent_width(below) == 0 and bool(below.strip()) \
        and not is_closer(below.strip())


def pep8_gap(text: str) -> bool:
    """Two blank lines around top-level Python definitions are PEP 8, never a slip. A Python
    header ends its line with `:` or opens a signature written over several lines; Ruby's
    `def coalesce(value, fallback = nil)` and `class Foo < Bar` do neither."""
    if text.startswith("@"):
        return True
    return text.startswith(("def ", "class ", "async def ")) and bool(_PYTHON_HEADER.match(text))


# a Python definition's header: its `:` after the name, parameters and return type (`def f(x) -> None:
# ...`, `class A(B):  # noqa`), or the first line of a signature written over several lines
_PYTHON_HEADER = re.compile(r"^(?:async\s+)?(?:def|class)\s+\w+\s*(?:\(.*\))?\s*(?:->\s*.+?)?:(?:\s|$)"
                            r"|^(?:async\s+)?def\s+\w+\s*\((?:.*,)?\s*$")


_REACH = 400  # new lines looked at on each side of a junction by _packed


def packed_siblings(out: list[tuple[str, str, int, int]], before: int, width: int) -> bool:
    """The run of new lines around the junction after out[before] holds two or more places where a
    block's closing line at `width` is followed by the next definition's first line, and every one
    of them is glued: the snippet packs its new siblings (yauzl's four new `...Promise` helpers,
    one right under the other), a style and no slip. O(_REACH)."""
    glued = 0
    lo = before
    while lo > 0 and before - lo < _REACH and out[lo - 1][1] == SNIP and out[lo - 1][2] < 0:
        lo -= 1
    hi = before
    while hi + 1 < len(out) and hi - before < _REACH and out[hi + 1][1] == SNIP and out[hi + 1][2] < 0:
        hi += 1
    for k in range(lo, hi):
        line = out[k][0]
        if not line.strip() or indent_width(line) != width or not is_closer(line.strip()):
            continue
        nxt = k + 1
        while nxt <= hi and not out[nxt][0].strip():
            nxt += 1
        if nxt > hi or indent_width(out[nxt][0]) != width or header_key(out[nxt][0].strip()) is None:
            continue
        if nxt > k + 1:
            return False  # one of them is set off by a blank line: the file's spacing decides
        glued += 1
    return glued >= 2


def in_new_string(out: list[tuple[str, str, int, int]], index: int) -> bool:
    """out[index] stands inside a triple-quoted string that new snippet lines above it opened
    (razorpay's new method's docstring, its `Returns:` glued to the `Args:` lines as written):
    its lines are text, spaced as the snippet writes them. The new lines above are read back to
    the nearest line that is not new, _STRING_WALK at most. O(_STRING_WALK)."""
    quotes = 0
    k = index - 1
    while k >= 0 and index - k <= _STRING_WALK and out[k][1] == SNIP and out[k][2] < 0:
        quotes += out[k][0].count('"""') + out[k][0].count("'''")
        k -= 1
    return quotes % 2 == 1


_STRING_WALK = 60  # new lines read back for an opening triple quote
