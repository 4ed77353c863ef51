"""The stretches of a merge that its syntax check parses: the statements around each changed place,
in the original and in the merged text, instead of two whole files (a parse costs ~3 ms per 1,000
lines). validate.check_syntax parses both versions of each window; where both parse without an
error, the merge broke nothing there, since the text around a window is the original's own.

A window starts and ends where a statement starts: a line at the window's indentation that
continues nothing above it, with no decorator right above it and, inside an indented block, no open
bracket or operator at the end of the line above it. Top-level windows (no indentation) serve every
language; Python files also get windows inside a block (a method of a class that spans most of
the file), dedented to stand alone.
"""

from __future__ import annotations

import re
from itertools import compress, count
from operator import eq, itemgetter, or_, sub

from ..text import common_affixes
from .lines import in_triple_quotes, triple_quote_states

# Top-level lines that continue a statement rather than start one.
_CONTINUES = re.compile(r"^(?:[}\])]|end\b|else\b|elif\b|except\b|finally\b|catch\b|when\b|rescue\b|ensure\b|"
                        r"fi\b|done\b|esac\b|\.|,|&&|\|\||\+|-(?!-)|\*(?!/)|/(?![/*])|\?|:)")
# Below this many lines a window saves too little to be worth a second parse, unless the file is
# this many bytes long (a few very long lines: minified code, where a parse costs ~1 s per MB).
_WINDOW_MIN_LINES = 120
_WINDOW_MIN_BYTES = 256_000
# Line ends after which the next line is inside the same statement (a bracket, an operator, a
# backslash): an indented window may not start below one.
_OPEN_END = re.compile(r"(?:[,(\[{\\:]|[-+*/%&|^=<>!~@]|(?<!\.\.)\.|\b(?:and|or|not|in|is|if|else|lambda))$")

# A block's header: a compound statement's keyword, or the end of a header over several lines.
_HEADER = re.compile(r"(?:(?:async\s+)?(?:def|class|if|elif|else|for|while|try|except|finally|with|match|case)\b.*"
                     r"|.*[)\]]\s*(?:->.*)?):$")


def changed_window(original: str, merged: str,
                   split: tuple[list[str], list[str]] | None = None) -> tuple[str, str] | None:
    """The same stretch of top-level statements around every changed line, in both texts: from the
    last line at or before the first change that starts a top-level statement (no indentation) to
    the first such line after the last change. None when that is (nearly) the whole file: half of
    its lines, or for files of _WINDOW_MIN_BYTES or more a quarter of its bytes. `split`: both
    texts' split("\n"), where the caller has them. O(n)."""
    old, new = split if split is not None else (original.split("\n"), merged.split("\n"))
    big = len(original) >= _WINDOW_MIN_BYTES
    if len(old) < _WINDOW_MIN_LINES and not big:
        return None
    if old == new:
        return "", ""
    head, tail = common_affixes(old, new)
    start = min(head, len(old) - 1)
    while start > 0 and not _starts_statement(old[start]):
        start -= 1
    start = _with_decorators(old, start, 0)
    stop = len(old) - tail  # first line of the common suffix, in `old`
    while stop < len(old) and not _starts_statement(old[stop]):
        stop += 1
    suffix = len(old) - stop
    if start == 0 and suffix == 0:
        return None
    window = "\n".join(old[start:stop]), "\n".join(new[start:len(new) - suffix])
    # a window parse is done twice (both versions), so in bytes it pays below a quarter of the file
    if len(window[0]) * 4 > len(original) if big else (stop - start) * 2 > len(old):
        return None
    return window


def changed_windows(old: list[str], new: list[str], origin: list[tuple[int, int]],
                    indented: bool = False) -> list[tuple[str, str]] | None:
    """changed_window for a merge that changed several places: one pair of windows (original text,
    merged text) per stretch of top-level statements holding changed lines, read from the
    splice's `origin` (merged row -> original line, -1 for new lines and blank ones), in which the
    merged text is the original's between the changes. `indented` (Python): a change inside a
    block gets a window of the statements around it at its own depth (_indented_span), one at the
    top level where that fails. None where a window would not pay (a short file, or
    windows holding half of its lines) or the kept lines are not in file order (a move).
    O(n) over the rows."""
    if len(old) < _WINDOW_MIN_LINES or len(origin) != len(new):
        return None
    # the merged rows that are their original line as written, one after the other (found by
    # C-level maps: a long merge keeps most rows; -1, no original line, reads the None appended)
    at = list(map(itemgetter(1), origin))
    rows = list(compress(count(), map(eq, new, map([*old, None].__getitem__, at))))
    olds = list(map(at.__getitem__, rows))
    if any(map(int.__le__, olds[1:], olds)):
        return None
    # changes: stretches between two kept rows that are not the original's lines between them
    # (blank lines aside), and before the first kept row and after the last; only the kept rows
    # not right after the one before (in both texts) can start one
    rows, olds = [-1, *rows, len(new)], [-1, *olds, len(old)]
    steps = compress(count(), map(or_, map((1).__ne__, map(sub, rows[1:], rows)),
                                  map((1).__ne__, map(sub, olds[1:], olds))))
    changes: list[tuple[int, int, int, int]] = []  # (old_lo, old_hi, new_lo, new_hi), half-open
    for k in steps:
        r1, o1, r2, o2 = rows[k], olds[k], rows[k + 1], olds[k + 1]
        old_gap, new_gap = old[o1 + 1:o2], new[r1 + 1:r2]
        if not any(map(str.strip, old_gap)) and not any(map(str.strip, new_gap)):
            continue  # (blank lines alone, however many, break no syntax)
        if indented and _remarks(old_gap) and _remarks(new_gap) and not (o1 >= 0 and old[o1].endswith("\\")):
            continue  # (Python comments and blank lines break no syntax, below a line that ends)
        changes.append((o1 + 1, o2, r1 + 1, r2))
    if not changes:
        return [("", "")]
    if indented:
        strings = in_triple_quotes(old)
        windows = _merged(_indented_windows(old, new, changes, dict(zip(olds[1:-1], rows[1:-1])), strings))
    else:
        strings = []
        windows = _merged([_top_level(old, change) for change in changes])
    if sum(o_hi - o_lo for o_lo, o_hi, _, _, _ in windows) * 2 > len(old):
        return None
    out = []
    for o_lo, o_hi, r_lo, r_hi, depth in windows:
        pair = _dedented(old[o_lo:o_hi], depth, strings[o_lo:o_hi]), \
            _dedented(new[r_lo:r_hi], depth, triple_quote_states(new, r_lo, r_hi, "")[0] if depth else [])
        if pair[0] is None or pair[1] is None:
            return None  # (a line of the window, in either text, stands left of the window's depth)
        out.append((pair[0], pair[1]))
    return out


Window = tuple[int, int, int, int, int]  # old_lo, old_hi, new_lo, new_hi (half-open), indentation


def _top_level(old: list[str], change: tuple[int, int, int, int], strings: list[bool] | None = None) -> Window:
    """A change widened to the top-level statements around it (the kept lines around a change are
    the same in both texts, so both ends move together); with `strings` (per line, inside a
    triple-quoted string), a docstring's text at column 0 starts no statement. O(the lines passed)."""
    o_lo, o_hi, r_lo, r_hi = change

    def starts(index: int) -> bool:
        return _starts_statement(old[index]) and not (strings and strings[index])

    while o_lo > 0 and not (o_lo < len(old) and starts(o_lo)):
        o_lo, r_lo = o_lo - 1, r_lo - 1
    top = _with_decorators(old, o_lo, 0, strings)
    if top < o_lo and o_hi <= o_lo:  # (the decorated definition is in)
        o_hi, r_hi = o_lo + 1, r_hi + o_lo + 1 - o_hi
    o_lo, r_lo = top, r_lo - (o_lo - top)
    while o_hi < len(old) and not starts(o_hi):
        o_hi, r_hi = o_hi + 1, r_hi + 1
    return o_lo, o_hi, r_lo, r_hi, 0


def _indented_windows(old: list[str], new: list[str], changes: list[tuple[int, int, int, int]],
                      row_of: dict[int, int], strings: list[bool]) -> list[Window]:
    """A window per change at its own depth (_indented_span), a top-level one where that fails;
    a change whose window reaches the next change takes it in (two edits in one method: one
    window). `row_of`: kept original line -> merged row; `strings`: per original line, whether it
    starts inside a triple-quoted string. O(n) over the lines passed, but for a span widened again
    when it takes in the next change."""
    out: list[Window] = []
    at = 0
    while at < len(changes):
        change = changes[at]
        span = _indented_span(old, new, change, strings)
        while span is not None and at + 1 < len(changes) and changes[at + 1][0] <= span[1]:
            at += 1  # (the next change lies inside this window: one span over both)
            change = change[0], changes[at][1], change[2], changes[at][3]
            span = _indented_span(old, new, change, strings)
        at += 1
        window = None
        if span is not None:
            lo, hi, depth = span
            o_lo, o_hi, r_lo, r_hi = change
            start = r_lo if lo == o_lo else row_of.get(lo)
            stop = len(new) if hi == len(old) else r_hi if hi == o_hi else row_of.get(hi)
            if start is not None and stop is not None and start <= r_lo and stop >= r_hi:
                window = lo, hi, start, stop, depth
        out.append(window or _top_level(old, change, strings))
    return out


def _indented_span(old: list[str], new: list[str], change: tuple[int, int, int, int],
                   strings: list[bool]) -> tuple[int, int, int] | None:
    """(first line, end, indentation) of the statements around a change at the least indentation
    of its changed code lines (both texts; a change inside a string counts the line that opens
    it), inside the block that holds them: from the nearest line above that starts a statement
    at that indentation (or the block's first line, right under its `:` header) to the first line
    below that starts one or leaves the block. Lines inside triple-quoted strings (`strings`)
    neither start nor end anything. None where the change is at the top level, or where the
    window might start inside brackets or a continued line (the code line above it ends open).
    O(the lines passed)."""
    o_lo, o_hi, r_lo, r_hi = change

    quote = ""
    if o_lo < len(old) and strings[o_lo]:  # (the quote open there, read from the string's first line)
        start = o_lo - 1
        while start > 0 and strings[start]:
            start -= 1
        quote = triple_quote_states(old, start, o_lo, "")[1]
    new_strings = triple_quote_states(new, r_lo, r_hi, quote)[0]
    widths = [_width(old[o]) for o in range(o_lo, o_hi) if _code_at(old, strings, o)]
    widths += [_width(line) for line, inside in zip(new[r_lo:r_hi], new_strings) if not inside and _code_line(line)]
    if quote:  # (the statement whose string the change edits)
        opener = _line_above(old, o_lo, strings)
        widths.append(_width(old[opener]) if opener is not None else 0)
    depth = min(widths, default=0)
    while depth > 0:
        found = _span_at(old, o_lo, o_hi, depth, strings)
        if isinstance(found, tuple):
            return found
        depth = found  # (a statement around the change starts further left: its window)
    return None


def _span_at(old: list[str], o_lo: int, o_hi: int, depth: int, strings: list[bool]) -> tuple[int, int, int] | int:
    """_indented_span at one indentation: the span, or, where the statement around the change
    starts further left (the change stands inside its brackets, or its first line is a shallower
    line that opens no block), that line's indentation to try instead (0: none)."""

    lo = min(o_lo, len(old))
    while True:  # up to the statement the window starts with
        if _code_at(old, strings, lo) and _width(old[lo]) == depth and _starts_statement(old[lo][depth:]):
            statement, lo = lo, _with_decorators(old, lo, depth, strings)
            if lo < statement:
                o_hi = max(o_hi, statement + 1)  # (the decorated definition is in)
            if _open_above(old, lo, depth, strings):
                while lo > 0 and not (_code_at(old, strings, lo) and _width(old[lo]) < depth):
                    lo -= 1
                return _width(old[lo]) if _code_at(old, strings, lo) and _width(old[lo]) < depth else 0
            break
        lo -= 1
        if lo < 0:
            return 0
        if _code_at(old, strings, lo) and _width(old[lo]) < depth:
            if not _opens_block(old[lo]):
                return _width(old[lo])
            if lo + 1 < len(old) and strings[lo + 1]:
                return 0  # (a line that ends in `:` and opens a string is no block's header)
            lo += 1  # (the block's first statement: right under its header)
            while lo < o_lo and not old[lo].strip():
                lo += 1
            break
    hi = o_hi
    while hi < len(old) and not (_code_at(old, strings, hi) and (
            _width(old[hi]) < depth or _width(old[hi]) == depth and _starts_statement(old[hi][depth:]))):
        hi += 1
    return lo, hi, depth


def _open_above(old: list[str], lo: int, depth: int, strings: list[bool]) -> bool:
    """The line above a window's first line (blank and comment lines aside) leaves a statement
    open: it ends in a bracket, a comma, an operator or a backslash, or is a shallower line that
    opens no block. The last line of a triple-quoted string is read after its closing quote (a
    docstring's text ends in anything; `\"\"\",` inside a call's arguments is open)."""
    above = lo - 1
    while above >= 0 and not (strings[above] and old[above].strip() or _code_line(old[above])):
        above -= 1
    if above < 0:
        return False
    line = old[above]
    if strings[above]:
        rest = line[max(line.rfind('"""'), line.rfind("'''")) + 3:]
        return bool(_OPEN_END.search(_code_of(rest.strip())))
    if _width(line) < depth or _code_of(line).endswith(":"):
        return not _opens_block(line)  # (a deeper one: the end of a header over several lines)
    return bool(_OPEN_END.search(_code_of(line)))


def _merged(windows: list[Window]) -> list[Window]:
    """Windows in file order, those that meet made one (at the lesser indentation)."""
    out: list[list[int]] = []
    for window in sorted(windows):
        if out and window[0] <= out[-1][1]:
            last = out[-1]
            last[1], last[3], last[4] = max(last[1], window[1]), max(last[3], window[3]), min(last[4], window[4])
        else:
            out.append(list(window))
    return [(a, b, c, d, e) for a, b, c, d, e in out]


def _dedented(lines: list[str], depth: int, strings: list[bool]) -> str | None:
    """The lines without their first `depth` characters of indentation (blank lines emptied; a
    comment, or a line inside a triple-quoted string per `strings`, that has less stays as it is),
    or None when a code line has less, or when the first code line is not at `depth` (it would
    not stand alone)."""
    if depth == 0:
        return "\n".join(lines)
    first = next((line for line, inside in zip(lines, strings) if not inside and _code_line(line)), None)
    if first is None:  # (no code: blank lines and comments, or nothing, as an insertion's original side)
        return "\n".join(line if inside else line.strip() for line, inside in zip(lines, strings))
    prefix = first[:depth]
    if _width(first) != depth or not prefix.isspace():
        return None
    out = []
    for line, inside in zip(lines, strings):
        if not line.strip():
            out.append("")
        elif line.startswith(prefix):
            out.append(line[depth:])
        elif inside or line.lstrip()[0] == "#":
            out.append(line)
        else:
            return None
    return "\n".join(out)


def _with_decorators(old: list[str], start: int, depth: int, strings: list[bool] | None = None) -> int:
    """`start` moved up over the decorator lines right above it at the same indentation: a window
    must not separate a definition from its decorators (new code inserted between them parses as a
    window, not in the file)."""
    above = _line_above(old, start, strings)
    while above is not None and _width(old[above]) == depth and old[above].lstrip().startswith("@"):
        start = above
        above = _line_above(old, start, strings)
    return start


def _line_above(old: list[str], index: int, strings: list[bool] | None = None) -> int | None:
    """The nearest line above `index` that is neither blank nor a comment (nor, with `strings`,
    inside a triple-quoted string)."""
    index -= 1
    while index >= 0 and not (_code_line(old[index]) and not (strings and strings[index])):
        index -= 1
    return index if index >= 0 else None


def _remarks(lines: list[str]) -> bool:
    """Blank lines and `#` comments only, none holding a triple quote (inside a docstring, one
    would end it)."""
    return all(not line.strip() or line.lstrip()[0] == "#" and '"""' not in line and "'''" not in line
               for line in lines)


def _code_at(old: list[str], strings: list[bool], index: int) -> bool:
    """Original line `index` exists, is outside triple-quoted strings and holds code."""
    return index < len(old) and not strings[index] and _code_line(old[index])


def _code_line(line: str) -> bool:
    stripped = line.lstrip()
    return bool(stripped) and stripped[0] != "#"


def _opens_block(line: str) -> bool:
    """A block's header, or the last line of one written over several lines; not a dict's key
    whose value stands on the next line."""
    return bool(_HEADER.match(_code_of(line).strip()))


def _code_of(line: str) -> str:
    """The line without a trailing comment (a `#` after two spaces, PEP 8's way) and spaces."""
    return line.split("  #", 1)[0].rstrip()


def _width(line: str) -> int:
    return len(line) - len(line.lstrip())


def _starts_statement(line: str) -> bool:
    return bool(line) and not line[0].isspace() and not _CONTINUES.match(line)
