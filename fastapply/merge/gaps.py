"""Blank lines between new snippet code and the paired line after it.

Models double or drop the blank line where their edit ends and the file resumes; the splice asks
gap_before_anchor how many the merged file gets there (splice._merge_blank_runs holds the other
cases). Complexity: O(the new lines between the two anchors) per call.
"""

from __future__ import annotations

import re

from .lines import header_key, indent_width, is_closer, is_comment, opens_block
from .shapes import DATA_ASSIGNMENT, EMPTY, PREPROCESSOR_BRANCH, SNIP, STATEMENT, new_code_opener, new_definition_ends


def gap_before_anchor(out: list[tuple[str, str, int, int]], before: int, after: int, orig: list[str],
                       count: int) -> int:
    """Blank lines between new snippet code and the paired line after it (original line b): the
    file's count where the snippet's looks like a slip (_file_gap), but never more than a snippet
    that writes some blank lines there asks for. The slips models make are a doubled blank line
    and a lone one left out; fewer, but some, is what the edit meant (pythran: the two blank lines
    above `def prepare` became one when the method above it went)."""
    gap = _file_gap(out, before, after, orig, count)
    return count if 1 <= count < gap else gap


def _file_gap(out: list[tuple[str, str, int, int]], before: int, after: int, orig: list[str], count: int) -> int:
    """Blank lines between new snippet code and the paired line after it (original line b).

    Models double or drop the blank line where their edit ends and the file resumes. When the new
    code replaced original lines that lay above b's blank lines, b keeps its own blank lines (even
    if the snippet dropped them) when it starts a section (a definition, a comment, a table), and
    so after an edited line paired with the original's; before a plain statement, the edit took
    them with the lines it replaced (real release edits do, far more often than a model drops
    one: 55 whitespace-only wrong merges against 2 on the tuned cases); when it
    was inserted into a run of blank lines, a blank line the snippet writes there stands for the
    file's run (a doubled one is a slip), and with no blank line around or inside the new code the
    run follows it."""
    text, source, b, _ = out[after]
    if source != SNIP or b <= 0 or out[before][1] != SNIP or indent_width(text) != indent_width(orig[b]):
        return count  # (b re-indented: the snippet moved it into a new block, and spaces it as it writes it)
    gap = 0
    while b - gap - 1 >= 0 and not orig[b - gap - 1].strip():
        gap += 1
    if gap == 0:
        return count
    last = out[before][0]
    a = out[before][2]
    if count == 0 and a < 0 and _documents(out, before, after):
        return 0  # (remix's new `/** @param {string} name */` over `const validateHeaderName = ...`)
    if a < 0 and _under_new_header(out, before, after):
        return count  # (b now opens a new block's body, spaced as the snippet writes it)
    if opens_block(last.strip()) and indent_width(out[after][0]) > indent_width(last) and a + 1 != b - gap:
        # b's blank lines set it off from code the edit removed, not from its new header (an
        # edited header the file wrote right above them keeps them: Go's blank line under `func`)
        return count
    if a >= 0:  # an edited line paired with original line a: b keeps its blank lines
        edited = out[before][0].strip() != orig[a].strip()
        if not edited and count == 0 and a + 1 < b - gap and not orig[a + 1].strip() \
                and indent_width(orig[a]) >= indent_width(orig[b]) \
                and any(header_key(orig[o].strip()) is not None for o in range(a + 1, b - gap)) \
                and _sets_off(orig[b].strip()):
            # the definitions between a and b went (moved elsewhere or deleted) and the file set
            # them off with blank lines on both sides: their two neighbours keep the file's blank
            # line, which the snippet, gluing them, left out (models do not delete the blank line
            # between methods; a statement block is another matter: monty's `with
            # contextlib.suppress(...)` went with the blank lines around it; and so is a plain
            # statement after them: orbax's `return tuple(...)` glued to the docstring once the
            # local `async def _safe_exists` between them went)
            return gap
        if edited and count == 0 and _removed_block_above(orig, a + 1, b - gap, indent_width(orig[b])):
            return count  # the blank line set off a block the edit removed (glued as the snippet writes it)
        return gap if edited else count
    index = _previous_anchor(out, before)
    if index is None or out[index][2] >= b - gap:
        return count
    if out[index][2] == b - gap - 1:  # pure insertion into the blank lines between a and b
        if count == 0 and _bare_comments_between(out, index, after):
            return 0  # (griffecli's license header: each blank line between its paragraphs became `#`)
        if count == 0 and all(out[k][0].strip() for k in range(index + 1, after)) \
                and (indent_width(out[before][0]) > indent_width(out[after][0]) and _sets_off(out[after][0].strip())
                     or _starts_section(out[after][0]) and not _call_statement(out[after][0])):
            # no blank line around or inside new code that ends the block or record above b, which
            # starts a section: the file's run follows it (a statement written right above a
            # statement at its own depth took the blank line's place, and so did a block ended
            # right above a plain statement: sympy's new `if 0 in self.shape:` / `return ...`
            # over `return f(...)`)
            return gap
        if count == 0 and is_closer(last.strip()) and indent_width(last) >= indent_width(out[after][0]) \
                and not _closes_new_conditional(out, before, after) \
                and not (_closes_literal(out, before) and header_key(out[after][0].strip()) is None) \
                and not _closes_call(out, before):
            # a new block closed right before its next sibling (or its block's end): the file's
            # spacing; not a literal (`__all__ = [` .. `]`) glued to the statement after it, nor a
            # call statement's arguments (protobuf's `_runtime_version.Validate...(` .. `)`)
            return gap
        if count == 0 and _extends_comment(out, index, after):
            return gap  # a line added to the comment block above keeps that block's blank line below it
        if count == 0 and new_definition_ends(out, before, indent_width(out[after][0])) \
                and not _glued_definitions(orig, b) and not _overload_above(last, out[after][0]):
            return gap  # (the same for a new Python definition that its body's indentation ends;
            # not among one-line definitions the file glues, a stub's `def f(...) -> T: ...` lines)
        return min(count, gap)
    if count == 0 and _statements_for_block(out, index, after, orig, b - gap):
        return 0
    if count == 0 and is_closer(out[after][0].strip()) and indent_width(last) > indent_width(out[after][0]):
        return 0  # a rewritten body ends right at its closing line: the old body's last blank line went with it
    if count == 0 and indent_width(last) > indent_width(out[after][0]) and not opens_block(last.strip()) \
            and not is_closer(last.strip()) \
            and (not _starts_section(out[after][0]) or STATEMENT.match(out[after][0].strip())):
        return 0  # a rewritten block's body glued to the statement after it, as the snippet writes it
    if count == 0 and not _sets_off(out[after][0].strip()):
        # new lines in the place of old ones, glued to a plain statement after them: the edit took
        # the blank line with the lines it replaced (seaborn's `pd_key = (` .. `)` right above
        # `try:`); before a definition, a comment or a table the file's blank line stays, a
        # model's slip, which the file's structure outweighs
        return 0
    return gap


def _closes_new_conditional(out: list[tuple[str, str, int, int]], before: int, after: int) -> bool:
    """out[after] is `#else` / `#elif` / `#endif` and the new lines right above it open the C
    conditional it continues (`#ifdef HAVE___BUILTIN_PREFETCH` ... `}` / `#else`: pysam's
    hts_defs.h glues it to the function above); one that continues a conditional of the file's
    keeps the file's blank line (a new function inserted above triton's `#endif /* __cplusplus
    */`). O(the new lines above)."""
    if not PREPROCESSOR_BRANCH.match(out[after][0].strip()):
        return False
    depth = 0
    for k in range(before, -1, -1):
        text, source, at, _ = out[k]
        if source != SNIP or at >= 0:
            return False
        norm = text.strip()
        if _PREPROCESSOR_END.match(norm):
            depth += 1
        elif _PREPROCESSOR_IF.match(norm):
            if depth == 0:
                return True
            depth -= 1
    return False


_PREPROCESSOR_IF = re.compile(r"^#\s*if(?:n?def)?\b")
_PREPROCESSOR_END = re.compile(r"^#\s*endif\b")


def _overload_above(above: str, line: str) -> bool:
    """`above` is a one-line stub of the function `line` defines: an overload glued to its
    implementation (rigetti-quax's `@overload` stubs over `def _batched_kron(a: ArrayT, ...)`)."""
    stub, norm = above.strip(), line.strip()
    return stub.startswith(("def ", "async def ")) and stub.endswith(": ...") \
        and header_key(stub) is not None and header_key(stub) == header_key(norm)


def _glued_definitions(orig: list[str], b: int) -> bool:
    """Original line b opens a definition (after its decorators, when b is one) and the next line
    is another at its depth, glued to it (a stub file's `def write_i16_le(...) -> None: ...` over
    `def write_i16_be(...)`; `@classmethod` over `def from_proto(...) -> T: ...` over `def
    to_proto(...)`). O(decorators)."""
    width = indent_width(orig[b])
    while b + 1 < len(orig) and orig[b].strip().startswith("@") and indent_width(orig[b + 1]) == width:
        b += 1
    return b + 1 < len(orig) and indent_width(orig[b + 1]) == width \
        and header_key(orig[b].strip()) is not None and header_key(orig[b + 1].strip()) is not None


def _removed_block_above(orig: list[str], start: int, end: int, width: int) -> bool:
    """Original lines start..end (before a run of blank lines) hold a block at `width`: its first
    line opens it there (not the continuation lines of the statement above start) and its last
    line ends it; the blank lines under it set that block off. O(end - start)."""
    first = next((o for o in range(start, end) if orig[o].strip()), None)
    if first is None or indent_width(orig[first]) != width or not opens_block(orig[first].strip()):
        return False
    last = next(o for o in range(end - 1, start - 1, -1) if orig[o].strip())
    norm, depth = orig[last].strip(), indent_width(orig[last])
    return last > first and (depth > width or depth == width and is_closer(norm))


def _closes_literal(out: list[tuple[str, str, int, int]], before: int) -> bool:
    """out[before], a closing line of new code, ends a literal assigned to a name (`__all__ = [`),
    not a block of code. O(length of the literal)."""
    width = indent_width(out[before][0])
    index = new_code_opener(out, before - 1, width) if before > 0 else None
    line = out[index][0] if index is not None else ""
    return indent_width(line) == width and DATA_ASSIGNMENT.match(line.strip()) is not None


def _closes_call(out: list[tuple[str, str, int, int]], before: int) -> bool:
    """out[before], a closing line of new code, ends the arguments of a call statement that the
    new lines opened at its indentation (`logger.warning(` .. `)`), not a block. O(the call)."""
    width = indent_width(out[before][0])
    index = new_code_opener(out, before - 1, width) if before > 0 else None
    return index is not None and indent_width(out[index][0]) == width and _call_statement(out[index][0])


def _extends_comment(out: list[tuple[str, str, int, int]], index: int, after: int) -> bool:
    """The new lines between the anchor out[index] and out[after] are comment lines written right
    under the anchor, itself a comment line at their indentation, and out[after] is code: they
    continue the comment block above (`# See the changelog ...` under a file's header comment),
    not a comment on the code below, which the file set apart by blank lines. O(those lines)."""
    anchor = out[index][0]
    new = [out[k][0] for k in range(index + 1, after)]
    return bool(new) and is_comment(anchor.strip()) and not is_comment(out[after][0].strip()) \
        and all(line.strip() and is_comment(line.strip()) and indent_width(line) == indent_width(anchor)
                for line in new)


def _documents(out: list[tuple[str, str, int, int]], before: int, after: int) -> bool:
    """The new lines right above out[after], a line the file sets off, are a comment block glued
    to it, with a blank line of the snippet's own above them: the comment documents out[after], and
    the file's blank line goes where the snippet writes its own, above the comment. O(the comment's
    lines)."""
    if not _sets_off(out[after][0].strip()):
        return False
    k, width = before, indent_width(out[after][0])
    while k >= 0 and out[k][1] == SNIP and out[k][2] < 0 and out[k][0].strip() and is_comment(out[k][0].strip()) \
            and indent_width(out[k][0]) >= width:
        k -= 1
    # (its first line at the depth of the line it documents; ` */` and ` * @param` lie one deeper)
    return k < before and k >= 0 and not out[k][0].strip() and indent_width(out[k + 1][0]) == width


def _bare_comments_between(out: list[tuple[str, str, int, int]], index: int, after: int) -> bool:
    """The new lines between the anchors out[index] and out[after], both comment lines, are bare
    comment markers (`#`, `//`) at their indentation: they take the place of the blank lines
    between two comment paragraphs, joining them. O(those lines)."""
    anchor, below = out[index][0], out[after][0]
    new = [out[k][0] for k in range(index + 1, after)]
    width = indent_width(anchor)
    return bool(new) and is_comment(anchor.strip()) and is_comment(below.strip()) and indent_width(below) == width \
        and all(line.strip() in _BARE_COMMENTS and indent_width(line) == width for line in new)


_BARE_COMMENTS = frozenset({"#", "//", "--", ";", "*", "%"})


def _statements_for_block(out: list[tuple[str, str, int, int]], index: int, after: int, orig: list[str],
                          end: int) -> bool:
    """The new lines between the anchors out[index] and out[after] are plain statements at the
    depth of out[after], written without a blank line, and the original lines they replace
    (out[index]'s line + 1 .. end) ended with a block or a definition: the blank lines above
    out[after] set off that block (a `try:` import, stub definitions), which is gone, so the
    snippet's spacing stands. O(the new lines + the replaced ones)."""
    width = indent_width(out[after][0])
    start = index + 1
    while start < after and not out[start][0].strip():
        start += 1  # (the blank lines that set the new lines off from the anchor above)
    for k in range(start, after):
        text = out[k][0]
        norm = text.strip()
        if not norm or out[k][2] >= 0 or indent_width(text) != width or opens_block(norm) \
                or header_key(norm) is not None:
            return False
    last = next((o for o in range(end - 1, out[index][2], -1) if orig[o].strip()), None)
    if last is None or last == out[index][2]:
        return False
    norm, depth = orig[last].strip(), indent_width(orig[last])
    # (a block ends deeper in Python, with its closing line in the others; a stub definition is one line)
    return depth > width or depth == width and (is_closer(norm) or header_key(norm) is not None)


def _starts_section(line: str) -> bool:
    """A line that starts a block, a record or a section: a header, a TOML table, a YAML list
    item, a comment."""
    norm = line.strip()
    if _plain_declaration(norm):
        return False
    return opens_block(norm) or header_key(norm) is not None or norm.startswith(("[", "- ")) or is_comment(norm)


def _call_statement(line: str) -> bool:
    """A statement that only opens a call's parentheses (`logger.critical(`): no section starts
    there, and a statement written right above it at its depth took the blank line's place
    (pip's `req_disp = req.format_without_marker()`). O(len)."""
    norm = line.strip()
    return norm.endswith("(") and header_key(norm) is None and not is_comment(norm)


def _previous_anchor(out: list[tuple[str, str, int, int]], index: int) -> int | None:
    """The position in `out` of the nearest paired or kept line before out[index]; None past a
    marker that stood for nothing or the file's start."""
    while index >= 0:
        source, at = out[index][1], out[index][2]
        if source == EMPTY:
            return None
        if at >= 0:
            return index
        index -= 1
    return None


def _sets_off(norm: str) -> bool:
    """A line the file sets off with blank lines for what it is, whatever stood above: a
    definition's header or decorator (a Rust attribute too), a comment, a TOML table, a YAML list
    item; not a variable declared with a plain value (rollup's `const location = ...` under a new
    `if (...) { ... }`, glued as the snippet writes it)."""
    if _plain_declaration(norm):
        return False
    return header_key(norm) is not None or norm.startswith(("@", "#[", "[", "- ")) or is_comment(norm)


# a JavaScript declaration (header_key reads it as a definition) and what makes one define a function,
# a class or a literal block
_PLAIN_DECLARATION = re.compile(r"^(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*\S.*;?$")
_DEFINING = re.compile(r"=>|\bfunction\b|\bclass\b|[{\[(]\s*$")


def _plain_declaration(norm: str) -> bool:
    """A variable given a plain value (`const location = fileURLToPath(...)`): a statement, though
    header_key reads `const x` as a definition."""
    return bool(_PLAIN_DECLARATION.match(norm)) and not _DEFINING.search(norm)


def _under_new_header(out: list[tuple[str, str, int, int]], before: int, after: int) -> bool:
    """The new lines right above out[after] are a block header shallower than it, then comment lines
    at its depth or none: out[after] is the first statement of a new block (app-model's `if QT6:`
    and its two comment lines over the kept `def _get_qmods`), spaced as the snippet writes it.
    O(those comment lines)."""
    width = indent_width(out[after][0])
    k = before
    while k >= 0 and out[k][1] == SNIP and out[k][2] < 0 and is_comment(out[k][0].strip()) \
            and indent_width(out[k][0]) == width:
        k -= 1
    return k >= 0 and out[k][1] == SNIP and out[k][2] < 0 and opens_block(out[k][0].strip()) \
        and indent_width(out[k][0]) < width
