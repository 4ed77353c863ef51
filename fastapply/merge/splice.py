"""Building the merged file from the alignment: snippet lines where the snippet speaks, original
lines where a marker stands for them, nothing where the snippet dropped code between two anchors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import accumulate, repeat
from operator import attrgetter, itemgetter, sub

import msgspec

from .indent import Style, level, render
from .lines import indent_width, is_closer
from .segments import GAP_KINDS, SnippetLine, is_gap
from .gaps import gap_before_anchor
from .shapes import EMPTY, ORIG, SNIP, decorates, pep8_gap, top_level_after_block
from .blank_runs import blank_count, deleted_between, moved_gap, unedited_near
from .spacing import Spacing



class Spliced(msgspec.Struct):
    lines: list[str]
    kept: list[tuple[int, int]]  # original ranges a marker kept, [start, end)
    deleted: list[tuple[int, int]]  # original ranges dropped between anchors
    markers_resolved: int
    snippet_rows: set[int]  # indices of merged lines that came from the snippet
    # provenance of every merged line: (snippet item index or -1, original line index or -1);
    # a snippet line paired with an original line has both, a kept original line only the latter
    origin: list[tuple[int, int]]
    empty_markers: list[int]  # snippet item indices of markers that stood for no original line
    _new_rows: list[int] | None = None
    _row_of: dict[int, int] | None = None
    _from_snippet: list[int] | None = None
    _rows_kept: int | None = None

    # Facts of `origin` that several checks ask for: each computed on first use, O(merged lines),
    # then kept (nothing changes `origin` after the splice but a test, before any check runs).

    def from_snippet(self) -> list[int]:
        """The rows that came from a snippet line (a snippet item index, not -1), in order."""
        if self._from_snippet is None:
            self._from_snippet = [row for row, (s, _) in enumerate(self.origin) if s >= 0]
        return self._from_snippet

    def new_rows(self) -> list[int]:
        """The rows of snippet lines paired with no original line (new code), in order (read from
        from_snippet's rows: a long merge keeps most of its rows from the original)."""
        if self._new_rows is None:
            origin = self.origin
            self._new_rows = [row for row in self.from_snippet() if origin[row][1] < 0]
        return self._new_rows

    def row_of(self) -> dict[int, int]:
        """Original line index -> the merged row that stands for it (its keys: the lines kept)."""
        if self._row_of is None:
            # (built in C: the last row of a line wins, as in a comprehension; then the rows of no
            # original line, -1, are taken out, and counted for rows_kept)
            column = list(map(itemgetter(1), self.origin))
            row_of = dict(zip(column, range(len(column))))
            unkept = 0
            while row_of and (low := min(row_of)) < 0:
                del row_of[low]
                unkept += column.count(low)
            self._row_of = row_of
            self._rows_kept = len(column) - unkept
        return self._row_of

    def rows_kept(self) -> int:
        """How many rows stand for an original line (more than row_of's keys when one stands
        twice). Counted with row_of, O(merged lines) once."""
        self.row_of()
        assert self._rows_kept is not None
        return self._rows_kept


def splice(items: list[SnippetLine], orig: list[str], pairs: dict[int, int], *, file_style: Style,
           snip_style: Style, drop: set[int], in_string: Callable[[int], bool] | None = None,
           onorm: list[str] | None = None) -> Spliced:
    """`onorm`: the original lines normalised (segments.normalize_all), where the caller has them."""
    shifts = _segment_shifts(items, orig, pairs, file_style, snip_style)
    same_style = file_style == snip_style
    # (text, source, original index or, for an empty marker, its indentation, snippet item index)
    out: list[tuple[str, str, int, int]] = []
    empty_markers: list[int] = []
    kept: list[tuple[int, int]] = []
    deleted: list[tuple[int, int]] = []
    resolved = 0

    def snippet_line(s: int) -> str:
        text = items[s].text
        shift = shifts[s]
        if same_style and shift == 0:
            return text
        return render(text, level(text, snip_style) + shift, file_style)

    def flush(pending: list[int], start: int, stop: int, after: int | None) -> None:
        nonlocal resolved
        gaps = [i for i, s in enumerate(pending) if is_gap(items[s])]
        first_gap = _absorbing_gap(items, pending, gaps, start > 0, after)
        if first_gap is None:
            if stop > start:
                deleted.append((start, stop))
        for i, s in enumerate(pending):
            item = items[s]
            if i == first_gap:
                resolved += item.kind == "marker"
                if stop > start:
                    kept.append((start, stop))
                # (built in C where nothing in it is dropped: a long file's kept tail is one region)
                region = list(zip(orig[start:stop], repeat(ORIG), range(start, stop), repeat(-1))) \
                    if drop.isdisjoint(range(start, stop)) else \
                    [(orig[o], ORIG, o, -1) for o in range(start, stop) if o not in drop]
                if not any(map(str.strip, orig[start:stop])):
                    empty_markers.append(s)
                out.extend(region or [("", EMPTY, indent_width(item.text), s)])
            elif is_gap(item):
                resolved += item.kind == "marker"
                empty_markers.append(s)
                out.append(("", EMPTY, indent_width(item.text), s))
            elif item.kind == "blank":
                out.append((item.text, SNIP, -1, s))  # (blank: "" or a line of spaces, kept as written)
            elif item.kind == "code":
                out.append((snippet_line(s), SNIP, -1, s))

    pending: list[int] = []
    o_pos = 0
    for s in range(len(items)):
        o = pairs.get(s)
        if o is not None:
            if pending or o > o_pos:  # (nothing between two adjacent pairs: nothing to flush)
                flush(pending, o_pos, o, s)
            # a line the snippet repeats byte for byte stays as it is, whatever the indentation style
            same = items[s].text == orig[o]
            out.append((orig[o] if same else snippet_line(s), SNIP, o, s))
            o_pos = o + 1
            pending = []
        else:
            pending.append(s)
    flush(pending, o_pos, len(orig), None)
    moved = {s: (item.gap_above, item.gap_firm) for s, item in enumerate(items) if item.gap_above >= 0}
    lines, rows, origin = _merge_blank_runs(out, orig, Spacing(orig, in_string, onorm), moved)
    return Spliced(lines, kept, deleted, resolved, rows, origin, empty_markers)


def _absorbing_gap(items: list[SnippetLine], pending: list[int], gaps: list[int], after_anchor: bool,
                   next_pair: int | None) -> int | None:
    """Which of several markers between two anchors stands for the kept original lines.

    New code written between two markers goes right after the previous anchor (so the last marker
    keeps the original lines), unless the next anchor closes the enclosing block (`}` of the class):
    then the new code goes at the end of the block, just before it."""
    if not gaps:
        return None
    if len(gaps) == 1 or not after_anchor:
        return gaps[0]
    if next_pair is None:
        return gaps[0]
    closing = items[next_pair]
    new_code = [items[s] for s in pending[gaps[0] + 1:] if items[s].kind == "code"]
    if is_closer(closing.norm) and new_code and indent_width(closing.text) < indent_width(new_code[0].text):
        return gaps[0]
    return gaps[-1]


def _segment_shifts(items: list[SnippetLine], orig: list[str], pairs: dict[int, int], file_style: Style,
                    snip_style: Style) -> list[float]:
    """Per snippet line, the indentation shift (in levels) that puts its segment where it belongs.
    O(m + pairs), column by column (the per-line steps in C where they can be: a long snippet has
    a pair on most of its lines)."""
    # the segment of every snippet line: the markers (is_gap) up to and including it
    segment_of = list(accumulate(map(GAP_KINDS.__contains__, map(_KIND, items)), initial=0))[1:]
    # The outermost paired lines of a segment place it; deeper lines may be re-indented on purpose.
    s_unit, o_unit = snip_style.unit, file_style.unit
    paired = list(pairs)
    segs = list(map(segment_of.__getitem__, paired))
    # (indent.level: indent_width's no-tab case in C over all of them, a tab measured on its own)
    s_widths = _widths([items[s].text for s in paired], s_unit)
    o_widths = _widths(list(map(orig.__getitem__, pairs.values())), o_unit)
    depths = [width / s_unit for width in s_widths]
    # (the shift of a pair depends on the two widths only: rounded once per distinct couple)
    shift_of = {(width, other): round(other / o_unit - width / s_unit, 2)
                for width, other in set(zip(s_widths, o_widths))}
    deltas = list(map(shift_of.__getitem__, zip(s_widths, o_widths)))
    everything = Counter(deltas)
    # segments with a code line (more than a closer) where the original has it
    in_place = {seg for seg, delta, s in zip(segs, deltas, paired) if delta == 0 and len(items[s].norm) > 3}
    outermost: dict[int, float] = {}
    for seg, depth in zip(segs, depths):
        if depth < outermost.get(seg, depth + 1):
            outermost[seg] = depth
    # per segment, the shift most of its outermost lines vote for (the first one on a tie); none
    # when a code line of it already sits where the original has it: the snippet's indentation is
    # meant (an edit that dedents a block out of a removed `try:` moves the outermost lines)
    votes = Counter((seg, delta) for seg, depth, delta in zip(segs, depths, deltas) if depth == outermost[seg])
    chosen: dict[int, float] = {seg: 0.0 for seg in in_place}
    most: dict[int, int] = {seg: len(paired) for seg in in_place}
    for (seg, delta), count in votes.items():
        if count > most.get(seg, 0):
            most[seg], chosen[seg] = count, delta
    default = everything.most_common(1)[0][0] if everything else 0.0
    per_segment = [chosen.get(seg, default) for seg in range(segment_of[-1] + 1 if segment_of else 0)]
    return list(map(per_segment.__getitem__, segment_of))


_KIND = attrgetter("kind")


def _widths(texts: list[str], unit: int) -> list[int]:
    """indent_width(text, unit) of every text: the leading spaces, measured in full where a tab is
    among them."""
    widths = list(map(sub, map(len, texts), map(len, map(str.lstrip, texts, repeat(" ")))))
    return [indent_width(text, unit) if text[width:width + 1] == "\t" else width
            for text, width in zip(texts, widths)] if any("\t" in text for text in texts) else widths


def _merge_blank_runs(out: list[tuple[str, str, int, int]], orig: list[str], spacing: Spacing,
                      moved: dict[int, tuple[int, bool]]) -> tuple[list[str], set[int], list[tuple[int, int]]]:
    """Blank lines where kept original code meets snippet code. Two lines that were neighbours in
    the original keep the original's spacing; otherwise the blank lines from both sides merge (the
    larger count wins); around a marker that stood for nothing they go when they would sit just
    inside a block's braces. Above a moved definition (`moved`: its first snippet line -> the blank
    lines it had from its siblings, and whether both agreed), a run of the snippet's own blank
    lines is that."""
    result: list[str] = []
    rows: set[int] = set()
    origin: list[tuple[int, int]] = []
    last_index = -1  # position in `out` of the last non-blank entry
    index = 0
    size = len(out)
    add_row, add_origin, add_line = rows.add, origin.append, result.append  # (once per merged line)
    used: list[set[int]] = []

    def kept() -> set[int]:
        """The original lines the merge keeps or pairs, built on first use. O(len(out)) once."""
        if not used:
            used.append({entry[2] for entry in out if entry[2] >= 0})
        return used[0]

    while index < size:
        text, source, at, s = out[index]
        if text.strip():
            if last_index == index - 1 and last_index >= 0 and source == SNIP:
                prev = out[last_index]
                if at >= 0 and prev[1] == SNIP and prev[2] >= 0 and (at == 0 or orig[at - 1].strip()):
                    # (two paired snippet lines in a row, no blank line above the second in the
                    # original: what the calls below answer, without them; most lines of a long
                    # snippet are such)
                    count = 0
                else:
                    # no blank line at all before a new definition: the file's own spacing, if it has one;
                    # none inside a multi-line string, whose lines the snippet writes as they are
                    glued = spacing.moved_glued(out, last_index, index) or at >= 0 and spacing.in_string(at) \
                        or decorates(out, last_index, index) or spacing.most() == 0 \
                        or spacing.glued_under_new_block(out, last_index, index)
                    count = 0 if glued else \
                        spacing.before_new(out, last_index, index) or gap_before_anchor(out, last_index, index, orig, 0)
                if s in moved:
                    count = moved_gap(out, last_index, index, moved, count, 0, orig)
                if count > 0:
                    result.extend([""] * count)
                    origin.extend([(-1, -1)] * count)
            if source == SNIP:
                add_row(len(result))
            add_origin((s, at))
            add_line(text)
            last_index = index
            index += 1
            if source == ORIG:
                # the kept original lines right after it, blank lines included, stay as they are (what
                # the loop gives them one by one): copied in one go, up to the last non-blank one
                offset = at - last_index  # (out[stop] holds original line offset + stop while they run on)
                for stop in range(index, size):
                    entry = out[stop]
                    if entry[1] != ORIG or entry[2] != offset + stop:
                        break
                else:
                    stop = size
                while stop > index and not out[stop - 1][0].strip():
                    stop -= 1
                if stop > index:
                    chunk = out[index:stop]
                    # (the blank lines have no provenance; a whitespace-only line the file has
                    # stays as it is: the user's untouched lines are not re-spaced)
                    result.extend([entry[0] for entry in chunk])
                    origin.extend([(s, at) if text.strip() else (-1, -1) for text, _, at, s in chunk])
                    last_index = stop - 1
                    index = stop
            elif source == SNIP and at >= 0:
                # the paired snippet lines right after it with no blank line above them in the
                # original either: what the branch above answers for each (no blank line, a row of
                # their own), without its tests; the first other line goes back to the loop
                while index < size:
                    text, source, at, s = out[index]
                    if source != SNIP or at <= 0 or s in moved or not text.strip() or not orig[at - 1].strip():
                        break
                    add_row(len(result))
                    add_origin((s, at))
                    add_line(text)
                    last_index = index
                    index += 1
            continue
        run_end = index
        while run_end < len(out) and not out[run_end][0].strip():
            run_end += 1
        run = out[index:run_end]
        before = out[last_index] if last_index >= 0 else None
        after = out[run_end] if run_end < len(out) else None
        if before is not None and after is not None and before[1] == ORIG == after[1] \
                and after[2] - before[2] - 1 == len(run) and all(entry[1] == ORIG for entry in run):
            # kept lines with all their blank lines between (_blank_count's answer, fast), as the file writes them
            result.extend(orig[before[2] + 1:after[2]])
            origin.extend([(-1, -1)] * len(run))
            index = run_end
            continue
        elif before is not None and after is not None and before[1] == SNIP == after[1] and before[2] >= 0 \
                and after[2] - before[2] - 1 == len(run) and after[3] not in moved \
                and all(entry[1] == SNIP for entry in run) \
                and not any(map(str.strip, orig[before[2] + 1:after[2]])) \
                and (len(run) == 1 or indent_width(after[0]) == indent_width(orig[after[2]])):
            # Two paired snippet lines with the original's own blank lines between them (most blank
            # lines of a long snippet): the count below comes to the same, without the calls; the
            # file's text of them (a whitespace-only line stays).
            result.extend(orig[before[2] + 1:after[2]])
            origin.extend([(-1, -1)] * len(run))
            index = run_end
            continue
        elif after is None and before is not None:
            # the file's last blank lines are the original's own, as it writes them (a line of
            # spaces at the end of pyqtgraph's DataTreeWidget.py stays one)
            ends = [text for text, source, _, _ in run if source == ORIG]
            result.extend(ends)
            origin.extend([(-1, -1)] * len(ends))
            index = run_end
            continue
        else:
            count = blank_count(run, before, after, orig)
        snippet_run = before is not None and after is not None and all(source == SNIP for _, source, _, _ in run)
        if snippet_run and after[2] >= 0 and spacing.in_string(after[2]):
            count = len(run)  # blank lines inside a multi-line string are its text: the snippet's stand
        elif snippet_run and before[1] == SNIP == after[1] and 0 <= before[2] < after[2] and not any(map(str.strip, orig[before[2] + 1:after[2]])) \
                and unedited_near(out, last_index, -1, orig) and unedited_near(out, run_end, 1, orig):
            # Two unedited lines that were neighbours in the original, with no new or edited code
            # near the run: the snippet re-spaced them on purpose (models slip only where their
            # new code meets the file), even beyond the longest run the file had.
            count = len(run)
        elif snippet_run and not moved and deleted_between(out, last_index, run_end, orig, kept):
            # Code deleted between two unedited lines, no new code near: the blank lines the
            # snippet leaves there are as written (models slip where new code meets the file; a
            # deletion writes none), even the two a deleted block's own blank lines add up to.
            count = len(run)
        elif snippet_run:
            usual = spacing.before_new(out, last_index, run_end)
            count = gap_before_anchor(out, last_index, run_end, orig, count) if usual is None else usual
            if usual is None and len(run) > max(count, 1) + 1 and spacing.runs(indent_width(after[0]), len(run)) >= 2:
                # (three blank lines where the file writes three, twice or more, at that depth: the
                # file's style, no slip, which is one line doubled: relateurl's `var hasOwnProperty`)
                count = len(run)
            if len(run) == 2 and count == 1 and usual is None and top_level_after_block(before[0], after[0]) \
                    and spacing.most(0) >= 2 and spacing.single_after_blocks() <= 1:
                count = 2  # PEP 8's two blank lines before top-level code after a block, in a file that uses them
            elif len(run) == 2 and count < 2 and top_level_after_block(before[0], after[0]) and pep8_gap(after[0]):
                count = 2  # the snippet's two before a top-level definition after a block: PEP 8, on purpose
            if count and not pep8_gap(after[0]):
                # (the per-indentation bound, at least 1, only matters above 1: mostly not measured;
                # the file's bound is at least 1 too: a file without a blank line still gets the one
                # the snippet writes between its code and new code)
                count = min(count, max(spacing.most(), 1))
                if count > 1:
                    count = min(count, spacing.most(indent_width(after[0])) or 1)
            count = moved_gap(out, last_index, run_end, moved, count, len(run), orig)
        if snippet_run and count == len(run):
            result.extend([entry[0] for entry in run])  # (as written: a line of spaces stays one)
        else:
            result.extend([""] * count)
        origin.extend([(-1, -1)] * count)
        index = run_end
    return result, rows, origin

