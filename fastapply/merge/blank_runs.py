"""Blank runs where snippet code meets kept code: the helpers splice._merge_blank_runs asks, one
question each (how many blank lines a run between two lines keeps; whether code was deleted
between two unedited lines; the spacing of a moved definition). Each is O(the run or _NEAR lines)
unless its docstring says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

from .lines import indent_width, is_closer, opens_block
from .shapes import EMPTY, ORIG, SNIP


_NEAR = 3


def deleted_between(out: list[tuple[str, str, int, int]], before: int, after: int, orig: list[str],
                     kept: Callable[[], set[int]]) -> bool:
    """out[before] and out[after] are unedited snippet lines (not re-indented) whose original
    lines have code between them that the merge drops (no line of it is kept or paired anywhere; the caller asks
    only of a splice without moved code, whose old place holds no paired line either), with
    no edited or new code within _NEAR lines of either. O(_NEAR + the lines between: the spans of
    one splice are disjoint, O(n) in all), the set of kept original lines built once per splice."""
    a, b = out[before][2], out[after][2]
    if not 0 <= a < b or not any(map(str.strip, orig[a + 1:b])) \
            or indent_width(out[before][0]) != indent_width(orig[a]) \
            or indent_width(out[after][0]) != indent_width(orig[b]) \
            or not unedited_near(out, before, -1, orig) or not unedited_near(out, after, 1, orig):
        return False
    used = kept()
    return not any(i in used for i in range(a + 1, b))


def unedited_near(out: list[tuple[str, str, int, int]], index: int, step: int, orig: list[str]) -> bool:
    """The _NEAR lines from out[index] on (towards `step`, blank lines passed over) are paired
    snippet lines equal to their original lines, or lines a marker kept. O(_NEAR)."""
    seen = 0
    while 0 <= index < len(out) and seen < _NEAR:
        text, source, at, _ = out[index]
        if text.strip():
            if source == SNIP and (at < 0 or text.strip() != orig[at].strip()):
                return False
            seen += 1
        index += step
    return True


_COMMENT_ENDS = ("]]", "]=", "*/", "-->")  # closing lines of comments, not of code blocks


def moved_gap(out: list[tuple[str, str, int, int]], before: int, after: int, moved: dict[int, tuple[int, bool]],
               count: int, shown: int, orig: list[str]) -> int:
    """The blank lines between out[before] and out[after] when out[after] is a moved definition's
    first line and not the first thing in its block: the blank lines it had from its siblings when
    they agree on both sides, or when the snippet glued it to the code above (`shown`: the
    snippet's blank lines there); else `count`."""
    s = out[after][3]
    if s not in moved or out[before][1] == EMPTY or opens_block(out[before][0].strip()) \
            or indent_width(out[before][0]) < indent_width(out[after][0]):
        return count  # (the first thing in its block: under Ruby's `else`, which opens_block misses)
    a = out[before][2]
    gap, firm = moved[s]
    if shown == 0 and 0 <= a < len(orig) - 1 and orig[a + 1].strip() and not is_closer(orig[a + 1].strip()) \
            and not (firm and is_closer(above := out[before][0].strip()) and not above.startswith(_COMMENT_ENDS)):
        # glued to a line the file glues to the code after it: the snippet spaces it as the file
        # (not after a sibling's closing line, when its siblings agree on their spacing)
        return 0
    return gap if firm or shown == 0 else count


def blank_count(run: list[tuple[str, str, int, int]], before: tuple[str, str, int, int] | None,
                 after: tuple[str, str, int, int] | None, orig: list[str]) -> int:
    if after is None or before is None:
        # blank lines at the start or end of the file are the original's own, never the snippet's
        return sum(1 for _, source, _, _ in run if source == ORIG) if (before or after) else 0
    a, b = before[2], after[2]
    touches_kept = ORIG in (before[1], after[1]) or any(source == ORIG for _, source, _, _ in run)
    if touches_kept and a >= 0 and b > a and before[1] != EMPTY and after[1] != EMPTY and \
            all(not orig[i].strip() for i in range(a + 1, b)):
        return b - a - 1
    empties = [i for i, (_, source, _, _) in enumerate(run) if source == EMPTY]
    blanks = [source for _, source, _, _ in run if source != EMPTY]
    if not empties:
        if len(set(blanks)) <= 1:
            return len(blanks)
        return max(blanks.count(ORIG), blanks.count(SNIP))
    marker_indent = run[empties[0]][2]
    left = sum(1 for _, source, _, _ in run[: empties[0]] if source != EMPTY)
    right = sum(1 for _, source, _, _ in run[empties[-1] + 1:] if source != EMPTY)
    if indent_width(after[0]) < marker_indent or \
            opens_block(before[0].strip()) and indent_width(before[0]) < marker_indent:
        return 0
    return max(left, right)
