"""The lazy snippet an LLM writes for a set of edits, with the habits frontier models show.

`render` takes the original lines and non-overlapping edits, builds the expected file (ground truth
by construction: the edits applied to the original), cuts windows of context around the edits and
writes them with markers. Habits (each recorded as a tag when it really occurs in the snippet):
marker wording and comment style, `marker_col0` (a marker at column 0 where the code it stands for
is indented), `marker_wrong_syntax` (another language's comment syntax), `marker_before_close` +
`trivial_context` (a marker, then only the enclosing block's closing line), `out_of_order`
(windows not in file order), `head_no_marker` (the snippet starts at line 1 without a marker),
`near_whole_file` / `no_markers` (no markers at all), `blank_doubled` / `blank_missing`.

Answerability (checked on the data, never with the engine): every window keeps at least one line
that occurs once in the original, every edit has kept context on both sides inside its window
(unless it touches the file's edge), every marker stands for at least one non-blank line, and no
kept or new line looks like a marker. Cost: O(lines + edits * context).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

from .edits import TRIVIAL, Edit
from .langs import MARKER_WORDS, comment_syntaxes, foreign_syntax, render_marker
from .outline import Definition, indentation

MARKER_LIKE = re.compile(r"^\s*(//|#|--|/\*|<!--|\{/\*|;)?\s*(\.\.\.|…|\[\.\.\.\])")
# A comment that reads like a marker; code such as `...args` is not one.
COMMENT_MARKER = re.compile(r"^\s*(//|#|--|/\*|<!--|\{/\*|;)\s*(\.\.\.|…|\[\.\.\.\])")


@dataclass
class Window:
    lo: int
    hi: int
    edits: list[Edit] = field(default_factory=list)
    inner_gap: tuple[int, int] | None = None  # elided lines before the closing line (marker_before_close)


@dataclass
class Rendered:
    snippet: str
    expected: str
    tags: list[str]


def meaningful(line: str) -> bool:
    return len(line.strip()) > 3 and line.strip() not in TRIVIAL


def apply_edits(lines: list[str], edits: list[Edit]) -> list[str]:
    out: list[str] = []
    cursor = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        out += lines[cursor: edit.start] + edit.new
        cursor = edit.end
    return out + lines[cursor:]


def _step(lines: list[str], at: int, direction: int, count: int) -> int:
    """Move from `at` over `count` meaningful lines in `direction`; returns the last line reached."""
    seen = 0
    while seen < count and 0 <= at + direction < len(lines):
        at += direction
        if meaningful(lines[at]):
            seen += 1
    return at


def _windows(lines: list[str], edits: list[Edit], unique: set[int], rng: random.Random) -> list[Window]:
    windows = []
    for edit in edits:
        lo = _step(lines, edit.start, -1, rng.randint(1, 3)) if edit.start > 0 else 0
        hi = _step(lines, max(edit.end, edit.start) - 1, 1, rng.randint(1, 3)) + 1
        hi = max(hi, edit.end)
        # Widen until the window holds a line that occurs once in the original (its anchor).
        for _ in range(8):
            if any(i in unique for i in range(lo, edit.start)) or any(i in unique for i in range(edit.end, hi)):
                break
            lo = _step(lines, lo, -1, 1) if lo > 0 else 0
            hi = min(len(lines), _step(lines, hi - 1, 1, 1) + 1)
        windows.append(Window(max(0, lo), min(len(lines), hi), [edit]))
    windows.sort(key=lambda w: w.lo)
    merged = [windows[0]]
    for window in windows[1:]:
        last = merged[-1]
        elided = lines[last.hi: window.lo]
        if window.lo <= last.hi or not any(line.strip() for line in elided):
            last.hi = max(last.hi, window.hi)
            last.edits += window.edits
        else:
            merged.append(window)
    return merged


def _render_window(lines: list[str], window: Window) -> tuple[list[str], list[bool]]:
    """The window's snippet lines and, for each, whether it is a kept original line."""
    out: list[str] = []
    kept: list[bool] = []
    cursor = window.lo
    for edit in sorted(window.edits, key=lambda e: e.start):
        out += lines[cursor: edit.start]
        kept += [True] * (edit.start - cursor)
        out += edit.new
        kept += [False] * len(edit.new)
        cursor = edit.end
    out += lines[cursor: window.hi]
    kept += [True] * (window.hi - cursor)
    return out, kept


def _anchored(lines: list[str], window: Window, unique: set[int]) -> bool:
    kept_rows = set(range(window.lo, window.hi)) - {r for e in window.edits for r in range(e.start, e.end)}
    if window.inner_gap:
        kept_rows -= set(range(*window.inner_gap))
    if not any(r in unique for r in kept_rows):
        return False
    for edit in window.edits:
        before = any(meaningful(lines[r]) for r in range(window.lo, edit.start) if r in kept_rows)
        after = any(meaningful(lines[r]) for r in range(edit.end, window.hi) if r in kept_rows)
        if not (before or edit.start == 0) or not (after or edit.end >= len(lines)):
            return False
    return True


def _invisible_deletion(lines: list[str], window: Window) -> bool:
    """A deletion that the snippet cannot show: the context kept after it (up to the window's end
    or its next edit), or the context before it, occurs among the deleted lines too.
    Read the usual way (context lines where they stand, nothing deleted), such a snippet changes
    nothing there, so no merge could know the deletion was meant. The same holds for the lines an
    edit replaces: with the context before them equal to their own end (a function deleted and a
    new one written in its place, after context that also ends the deleted one), the snippet
    reads as well as new lines inserted after that copy, nothing replaced."""
    edits = sorted(window.edits, key=lambda e: e.start)
    gap_lo = window.inner_gap[0] if window.inner_gap else window.hi
    gap_hi = window.inner_gap[1] if window.inner_gap else window.lo
    for index, edit in enumerate(edits):
        gone = [lines[r].strip() for r in range(edit.start, edit.end) if lines[r].strip()]
        if not gone:
            continue
        stop = edits[index + 1].start if index + 1 < len(edits) else window.hi
        stop = min(stop, gap_lo) if gap_lo >= edit.end else stop
        after = [lines[r].strip() for r in range(edit.end, stop) if lines[r].strip()]
        start = edits[index - 1].end if index > 0 else window.lo
        start = max(start, gap_hi) if gap_hi <= edit.start else start
        before = [lines[r].strip() for r in range(start, edit.start) if lines[r].strip()]
        if after and _holds(gone, after) and (stop < len(lines) or stop == gap_lo):
            return True
        if before and _holds(gone, before) and (start > 0 or start == gap_hi):
            return True
    return False


def _invisible_insertion(lines: list[str], window: Window) -> bool:
    """An inserted line equal to a run of like lines that runs from the edit across the window's
    edge (futurist's fifth `None,` in a tuple whose last two a marker hides): the snippet shows
    some of the run and a marker the rest, so no merge could tell how many the file now has."""
    for edit in window.edits:
        new = {line.strip() for line in edit.new if line.strip()}
        for span, outside in ((range(edit.end, window.hi), range(window.hi, len(lines))),
                              (range(window.lo, edit.start), range(window.lo - 1, -1, -1))):
            run = {lines[r].strip() for r in span if lines[r].strip()}
            hidden = next((lines[r].strip() for r in outside if lines[r].strip()), None)
            if len(run) == 1 and hidden in run and hidden in new:
                return True
    return False


def _holds(gone: list[str], context: list[str]) -> bool:
    """`context` occurs as a run inside `gone`: the snippet's context next to a marker pairs as well
    with that copy among the removed lines, and the marker then stands for the rest of them
    (`if a:` / `x = None` / `elif b:` / `x = None` replaced by `if c:` / `x = None`, with only
    `x = None` kept before a marker: the `elif` kept or removed, the snippet cannot say)."""
    size = len(context)
    return any(gone[k: k + size] == context for k in range(len(gone) - size + 1))


def _close_after_marker(window: Window, defs: list[Definition], lines: list[str],
                        limit: int) -> Window | None:
    """Cut the window's tail to `marker` + the enclosing definition's closing line, when possible."""
    inside = [d for d in defs if d.closing and d.start < window.hi - 1 < d.end - 1 and d.end <= limit
              and all(e.end <= d.end - 1 for e in window.edits)]
    if not inside:
        return None
    d = min(inside, key=lambda x: x.end - x.start)
    if not any(line.strip() for line in lines[window.hi: d.end - 1]):
        return None
    return Window(window.lo, d.end, window.edits, (window.hi, d.end - 1))


LEADING_TRIVIAL = {"}", "};", "end", "break;", "break", "return;", "})", "});", "fi", "done", "esac"}


def _lead_with_trivial(lines: list[str], windows: list[Window]) -> bool:
    """Start one window with the trivial lines above it (`}`, `end`, `break;`) right after its marker."""
    for index, window in enumerate(windows):
        floor = windows[index - 1].hi if index else 0
        lo = window.lo
        while lo - 1 > floor and lines[lo - 1].strip() in LEADING_TRIVIAL:
            lo -= 1
        if lo < window.lo and any(line.strip() for line in lines[floor:lo]):
            window.lo = lo
            return True
    return False


def render(lines: list[str], edits: list[Edit], language: str, defs: list[Definition],
           rng: random.Random, unit: Definition | None = None, blank_slips: bool = True) -> Rendered | None:
    """Snippet and expected for `edits` on `lines` (the original without its final newline).

    `blank_slips=False` for real edits between releases: the blank lines around their changes are
    part of the change (moved, added or removed by the authors), so a doubled or dropped one could
    not be told from the edit itself. (The random draws are the same either way.)"""
    expected = apply_edits(lines, edits)
    counts = Counter(line.strip() for line in lines)
    unique = {i for i, line in enumerate(lines) if counts[line.strip()] == 1 and meaningful(line)}
    tags: list[str] = []
    if any(MARKER_LIKE.match(line) for edit in edits for line in edit.new):
        return None
    shrink = sum(e.end - e.start for e in edits)
    whole = rng.random()
    if any(COMMENT_MARKER.match(line) for line in expected):
        whole = 1.0  # the file holds a comment like `// ...`: only snippets with real markers
    if whole < 0.08 and len(lines) <= 800 and shrink <= max(5, len(lines) // 15):
        return Rendered("\n".join(expected) + "\n", "\n".join(expected) + "\n", ["near_whole_file"])
    if unit is not None and whole < 0.2 and all(unit.start <= e.start and e.end <= unit.end for e in edits) \
            and counts[lines[unit.header].strip()] == 1 and unit.header not in {r for e in edits for r in range(e.start, e.end)}:
        body = apply_edits(lines[unit.start: unit.end],
                           [Edit(e.start - unit.start, e.end - unit.start, e.new) for e in edits])
        return Rendered("\n".join(body) + "\n", "\n".join(expected) + "\n", ["no_markers"])

    windows = _windows(lines, sorted(edits, key=lambda e: e.start), unique, rng)
    # A marker must stand for something: blank lines alone at either end join the window.
    if not any(line.strip() for line in lines[windows[-1].hi:]):
        windows[-1].hi = len(lines)
    if not any(line.strip() for line in lines[: windows[0].lo]):
        windows[0].lo = 0
    if rng.random() < 0.12 and windows[0].lo < 30 and windows[0].lo > 0:
        windows[0].lo = 0
    if rng.random() < 0.25 and _lead_with_trivial(lines, windows):
        tags.append("trivial_context")
    if rng.random() < 0.35:
        for index, window in enumerate(windows):
            limit = windows[index + 1].lo if index + 1 < len(windows) else len(lines)
            cut = _close_after_marker(window, defs, lines, limit)
            if cut is not None:
                windows[index] = cut
                tags += ["marker_before_close", "trivial_context"]
                break
    if not all(_anchored(lines, w, unique) for w in windows) \
            or any(_invisible_deletion(lines, w) or _invisible_insertion(lines, w) for w in windows):
        return None
    # A kept comment that reads like a marker (`# ...` in the original) would make the snippet ambiguous.
    if any(COMMENT_MARKER.match(lines[r]) for w in windows for r in range(w.lo, w.hi)):
        return None

    syntaxes = comment_syntaxes(language)
    opener, closer = syntaxes[0] if rng.random() < 0.8 else rng.choice(syntaxes)
    foreign = rng.random() < 0.15
    if foreign:
        opener, closer = foreign_syntax(language)
    words = MARKER_WORDS[0] if rng.random() < 0.5 else rng.choice(MARKER_WORDS)
    col0 = rng.random() < 0.25
    marker_text = render_marker(opener, closer, words)
    marker_norm = " ".join(marker_text.split())
    if any(" ".join(line.split()) == marker_norm for line in lines):
        return None  # the file has that very comment (`#     ...`): the marker could be either

    def marker(next_row: int, prev_row: int) -> str:
        """A marker for the elided lines before `next_row` (after `prev_row` at the file end)."""
        row = next((r for r in range(max(0, next_row), len(lines)) if lines[r].strip()), None)
        if row is None:
            row = next((r for r in range(min(prev_row, len(lines) - 1), -1, -1) if lines[r].strip()), -1)
        indent = indentation(lines[row]) if 0 <= row < len(lines) else ""
        if col0 and indent:
            tags.append("marker_col0")
            return marker_text
        return indent + marker_text

    order = list(range(len(windows)))
    if len(windows) >= 2 and rng.random() < 0.3:
        while order == sorted(order):
            rng.shuffle(order)
        if windows[0].lo == 0 and any(e.start == 0 for e in windows[0].edits) and order[0] != 0:
            # an edit of the file's very first lines (a deleted `# coding:` line) can only be
            # shown by a head part that opens the snippet: after another part, the marker before
            # it says the lines above it stay
            order.remove(0)
            order.insert(0, 0)
        last = len(windows) - 1
        if windows[last].hi == len(lines) and any(e.end == len(lines) for e in windows[last].edits) \
                and order[-1] != last:
            # likewise an edit of the file's very last lines (a deleted `# End of file`) can only be
            # shown by a tail part that closes the snippet: a marker after it says the lines below stay
            order.remove(last)
            order.append(last)
        if order != sorted(order):
            tags.append("out_of_order")
    out: list[str] = []
    for position, index in enumerate(order):
        window = windows[index]
        if window.lo > 0:
            out.append(marker(window.lo, window.lo - 1))
        body, kept = _render_window(lines, window)
        if window.inner_gap:
            gap_lo, gap_hi = window.inner_gap
            cut = gap_lo - window.lo + sum(len(e.new) - (e.end - e.start) for e in window.edits)
            row = next((r for r in range(gap_lo, gap_hi) if lines[r].strip()), gap_lo)
            inner = indentation(lines[row])
            body = body[:cut] + [marker_text if col0 and inner else inner + marker_text] + body[-1:]
            if col0 and inner:
                tags.append("marker_col0")
        slipped = _blank_habits(body, kept, window, rng, tags if blank_slips else [], language)
        out += slipped if blank_slips else body
        if position == len(order) - 1 and window.hi < len(lines) or position < len(order) - 1 and \
                windows[order[position + 1]].lo == 0:
            out.append(marker(window.hi, window.hi - 1))
    if foreign and any(line.strip() == marker_text.strip() for line in out):
        tags.append("marker_wrong_syntax")
    if windows[order[0]].lo == 0 and windows[order[-1]].hi < len(lines):
        tags.append("head_no_marker")
    if order == sorted(order) and any(out[i].strip() == marker_text.strip() and out[i + 1].strip() == marker_text.strip()
                                      for i in range(len(out) - 1)):
        return None
    return Rendered("\n".join(out) + "\n", "\n".join(expected) + "\n", sorted(set(tags)))


def _blank_habits(body: list[str], kept: list[bool], window: Window, rng: random.Random,
                  tags: list[str], language: str = "") -> list[str]:
    """Double or drop the blank line that opens an inserted block (a whitespace-only difference).

    Not doubled to two before a top-level Python definition: two blank lines are PEP 8's, what a
    model writes on purpose in any module, and what today's generator expects kept (a slip must
    be one the engine can tell from a choice)."""
    if len(body) != len(kept) or rng.random() > 0.4:
        return body
    # A blank line that opens an inserted block, or the kept blank line right after one.
    starts = [i for i in range(1, len(body) - 1) if not body[i].strip() and body[i + 1].strip()
              and (not kept[i] and kept[i - 1] or kept[i] and not kept[i - 1] and body[i - 1].strip())]
    if not starts:
        return body
    at = rng.choice(starts)
    if rng.random() < 0.6:
        if language == "python" and body[at - 1].strip() and not body[at + 1][:1].isspace() \
                and body[at + 1].startswith(("def ", "class ", "async def ", "@")):
            return body
        tags.append("blank_doubled")
        return body[:at] + [""] + body[at:]
    if body[at - 1].strip():
        tags.append("blank_missing")
        return body[:at] + body[at + 1:]
    return body
