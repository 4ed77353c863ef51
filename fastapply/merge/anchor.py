"""Aligning snippet lines with original lines, in monotone order.

Patience-style: inside a pair of ranges, lines that occur exactly once on both sides (after
whitespace normalisation) are candidate anchors; definition headers whose text changed but whose
name did not (`add(number) {` -> `static add(a, b) {`) are weaker candidates, and so is the closing
line of a block whose opening line is a candidate. The heaviest increasing chain of candidates is
kept, and the ranges between chain links are aligned the same way, recursively. Where no unique
line is left, the lines next to a range's fixed ends are matched in order from those ends.
Lookups go through per-text position lists, so nothing is quadratic in the file size. One step's
candidates, chain and edge matching live in steps.py; later passes over the alignment in refine.py
and fuzzy_pairs.py.
"""

from __future__ import annotations

from collections import defaultdict
from bisect import bisect_right
from itertools import accumulate, compress

from .blocks import block_last, enclosing, opens_at, within
from .chain import SortedIndices
from .fresh import new_code_flags
from .lines import LazyWidths, Widths, block_end, block_stop, header_key, is_closer, is_trivial, opens_block, \
    triple_quote_states, widths_of
from .segments import GAP_KINDS, SnippetLine, code_segments
from .steps import align_range
from .walk import is_ruler

# How many times, on average, the recursion may visit each line before the rest is matched greedily.
STEP_PASSES = 8
_EAGER_WIDTHS = 5_000  # original lines from which their indentation is measured all at once


def _opens_all(norms: list[str]) -> list[bool]:
    """blocks.opens_at of every line at once: opens_block once per distinct text (code repeats `}`,
    `return 1;` all over), and the Allman brace (the next non-empty line is `{`) read walking back
    from the end. O(m); many passes ask it of most lines of a long snippet, each a list look-up."""
    block = {norm: opens_block(norm) for norm in set(norms)}
    opens = [False] * len(norms)
    after: str | None = None  # the first non-empty line after the one at hand
    for index in range(len(norms) - 1, -1, -1):
        norm = norms[index]
        opens[index] = block[norm] or after == "{"
        if norm:
            after = norm
    return opens


class Aligner:
    def __init__(self, items: list[SnippetLine], orig: list[str], onorm: list[str]) -> None:
        self.orig = orig
        self.onorm = onorm
        # Per-line facts, each computed at most once per call and only for the lines asked about:
        # the original's indentation widths and whether a line opens a block.
        # (measured on first use for a usual file, of which a merge asks about a few lines; all at
        # once for a long one, where most are asked about and a list is read faster)
        self.owidth: Widths = widths_of(orig) if len(orig) > _EAGER_WIDTHS else LazyWidths(orig)
        self._oopens: list[bool | None] = [None] * len(orig)
        self.opos: dict[str, list[int]] = defaultdict(list)
        opos = self.opos  # (a local name: once per line of the file)
        for index, norm in enumerate(onorm):
            if norm:
                opos[norm].append(index)
        self._okeys: dict[str, list[int]] = {}
        self._oparent: dict[int, int] = {}
        self._oclose: dict[int, int | None] = {}  # block_end / block_stop of original lines (_block_ends)
        self._ostop: dict[int, int] = {}
        self._all_keys: dict[str, list[int]] | None = None
        self._word_lines: dict[str, list[int]] | None = None  # (renames.named_elsewhere)
        self._joined: str | None = None
        self._in_strings: list[bool] = []  # (o_in_string: the lines read so far)
        self._open_quote = ""  # (o_in_string: the quote open after them)
        self._keys: dict[str, str | None] = {}
        self._weights: dict[str, float] = {}  # a candidate anchor's weight by its text (steps.align_range)
        # similar.edited_version / rewrites by (snippet text, original text), for fuzzy_pairs.walk_fuzzy
        self.edited_memo: dict[tuple[str, str], bool] = {}
        self.rewrites_memo: dict[tuple[str, str], bool] = {}
        self.items: list[SnippetLine] = []
        self._gone: list[int] | None = None  # moved-away original lines before each line (set_moved)
        self._moved: set[int] = set()
        self.rebase(items, {})
        self.fuzzy: set[int] = set()
        self.joined: set[int] = set()  # original lines a formatter's join or split folded into a pair (joined.py)
        self._hidden_ends: set[tuple[int, int]] = set()  # closing lines seen through a marker (steps.align_range)
        # snippet line -> original lines [first, last] of the definition matched with the one holding
        # it (defmatch.ranges), where the parse was done anyway: its copy is looked for there
        self.def_range: dict[int, tuple[int, int]] = {}
        self.sibling_doubt: SnippetLine | None = None  # context fitting a new sibling and an edit (siblings.py)
        self.split_heads: set[int] = set()  # new headers that hold an old definition's body (splits.py)

    def rebase(self, items: list[SnippetLine], pairs: dict[int, int]) -> None:
        """Use a new snippet line list (with assumed markers added) and its pairs."""
        if items is not self.items:  # (the same lines: their per-line facts, markers included, still hold)
            self.stext = [item.text for item in items]
            kinds = [item.kind for item in items]
            self.snorm = [item.norm if kind == "code" else "" for item, kind in zip(items, kinds)]
            self.swidth = widths_of(self.stext)
            # is_trivial / is_closer of every snippet line: O(m) once, asked for by many passes
            # (once per distinct text: code repeats `}`, `end`, `return;` all over)
            texts = set(self.snorm)
            trivial = {norm: is_trivial(norm) for norm in texts}
            closer = {norm: is_closer(norm) for norm in texts}
            self.strivial = list(map(trivial.__getitem__, self.snorm))  # (the look-ups in C)
            self.scloser = list(map(closer.__getitem__, self.snorm))
            self.sopens = _opens_all(self.snorm)  # blocks.opens_at of every snippet line
            gap = list(map(GAP_KINDS.__contains__, kinds))  # (is_gap)
            self.marker_list = list(compress(range(len(gap)), gap))
            self.markers = set(self.marker_list)
            self._markers_upto = list(accumulate(gap, initial=0))  # markers before each snippet line
            self._code_upto = list(accumulate(map("code".__eq__, kinds), initial=0))  # code lines
            self.segments = code_segments(items)  # (find_moves, place_stragglers, _check_placeable)
            self.spos: dict[str, list[int]] = defaultdict(list)
            for index, norm in enumerate(self.snorm):
                if norm:
                    self.spos[norm].append(index)
            # the memos below are facts of the lines too (fresh_flags: also of the definition names,
            # which renames.py settles before anything asks)
            self._sparent: list[int] | None = None
            self._parents: list[int | None] | None = None
            self._skeys: dict[str, list[int]] | None = None
            self._fresh: list[bool] | None = None
            self._sclose: dict[int, int | None] = {}  # block_end / block_last of snippet lines (_block_ends)
            self._slast: dict[int, int | None] = {}
            self.split_hits: dict[int, list[int]] = {}  # joined.split_piece's original lines, per line
        self.items = items
        self.pairs = pairs

    def shown_above(self, s: int) -> list[str] | None:
        """The normalised code lines of s's part above s, in order (from the marker before it), or
        None when the snippet's start comes before a marker. O(the lines above, to the marker)."""
        above = []
        k = s - 1
        while k >= 0 and k not in self.markers:
            if self.snorm[k]:
                above.append(self.snorm[k])
            k -= 1
        return above[::-1] if k >= 0 else None

    def code_above(self, s: int) -> int:
        """The nearest snippet line above s that holds code, or -1 when a marker or the snippet's
        start comes first. O(blank lines skipped)."""
        k = s - 1
        while k >= 0 and not self.snorm[k] and k not in self.markers:
            k -= 1
        return k if k >= 0 and k not in self.markers else -1

    def beside_marker(self, s: int, step: int) -> bool:
        """True when the nearest non-blank snippet line from s in direction `step` (-1 above, +1
        below) is a marker. O(blank lines skipped)."""
        k = s + step
        while 0 <= k < len(self.items) and not self.snorm[k] and k not in self.markers:
            k += step
        return 0 <= k < len(self.items) and k in self.markers

    def unpaired_code(self) -> list[int]:
        """The code lines of the snippet that have no pair, in order: set operations in C over the
        segments (every code line is in one) and the pairs, O(m) in C plus O(k log k) for k lines."""
        return sorted(set().union(*self.segments).difference(self.pairs))

    def set_moved(self, drop: set[int]) -> None:
        """The original lines of definitions the snippet moves elsewhere (moves.py): an anchor
        chain that passes over them deletes nothing there, and lines matched in order from an
        anchor pass over them like blank lines. O(n) once."""
        self._moved = set(drop)
        self._gone = list(accumulate((o in drop for o in range(len(self.orig))), initial=0)) if drop else None

    def moved_between(self, o1: int, o2: int) -> int:
        """How many original lines strictly between o1 and o2 (either order) were moved away. O(1)."""
        if self._gone is None:
            return 0
        low, high = min(o1, o2), max(o1, o2)
        return self._gone[high] - self._gone[low + 1] if high > low else 0

    def key_of(self, norm: str) -> str | None:
        """lines.header_key, memoised per text for the call: several passes ask it of the same lines."""
        keys = self._keys
        if norm in keys:
            return keys[norm]
        found = keys[norm] = header_key(norm)
        return found

    def snippet_parents(self) -> list[int | None]:
        """blocks.enclosing of the snippet lines, computed once per rebase (several passes use it)."""
        if self._parents is None:
            self._parents = enclosing(self.stext, self.snorm, self.markers, self.swidth)
        return self._parents

    def s_opens(self, s: int) -> bool:
        """blocks.opens_at of snippet line s (sopens, computed at the rebase)."""
        return self.sopens[s]

    def o_opens(self, o: int) -> bool:
        """blocks.opens_at of original line o, memoised for the call."""
        found = self._oopens[o]
        if found is None:
            found = self._oopens[o] = opens_at(self.onorm, o)
        return found

    def in_new_definition(self, s: int) -> bool:
        """True for lines inside a definition the original does not have (a new function): they
        are new code even where their text also occurs elsewhere in the file."""
        return self.fresh_flags()[s] or self.items[s].fresh

    def fresh_flags(self) -> list[bool]:
        """in_new_definition's per-line answers from the snippet's structure (fresh.py; computed
        once per rebase, O(m)); a line is also new when its item was marked fresh later (moves.py)."""
        if self._fresh is None:
            self._fresh = new_code_flags(self)
        return self._fresh

    # -- public -------------------------------------------------------------------------------

    def align(self) -> dict[int, int]:
        """O((n + m) * STEP_PASSES) snippet-line visits at most: ranges left when the budget is spent
        are matched from their ends only (steps._edges), which is linear."""
        self._work_left = STEP_PASSES * (len(self.items) + len(self.orig)) + 10_000
        stack = [(0, len(self.items), 0, len(self.orig))]
        code_upto = self._code_upto
        while stack:
            s_lo, s_hi, o_lo, o_hi = stack.pop()
            if code_upto[s_hi] == code_upto[s_lo] and s_lo < s_hi and o_lo < o_hi:
                # what align_range does with a range without a code line (the blank lines between two
                # anchors, about every other step of a long snippet), without the call
                self._work_left -= s_hi - s_lo
                continue
            if s_hi - s_lo == 1 and o_hi - o_lo == 1 and self._same_line(s_lo, o_lo):
                # one snippet line across from one original line with its text (the body line
                # between a paired header and its closer, about every other step of a long
                # snippet): what align_range pairs there, without the call. A lone candidate between
                # two adjacent pairs orphans no block, so steps._best_chain would take it.
                self._work_left -= 1
                self.pairs[s_lo] = o_lo
                continue
            stack.extend(align_range(self, s_lo, s_hi, o_lo, o_hi))
        return self.pairs

    def _same_line(self, s: int, o: int) -> bool:
        """True when align_range would make (s, o) its only candidate: the same text, and a line it reads
        (not new code, not a trivial line that is no ruler)."""
        norm = self.snorm[s]
        if not norm or norm != self.onorm[o] \
                or s in self.def_range and not self.def_range[s][0] <= o <= self.def_range[s][1]:
            return False
        fresh = self._fresh or self.fresh_flags()
        return not (fresh[s] or self.items[s].fresh or self.strivial[s] and not is_ruler(norm))

    def _pair_closer(self, s: int, o: int, s_hi: int, o_hi: int) -> None:
        ends = self._block_ends(s, o, s_hi, o_hi)
        if ends is not None and ends[0] not in self.pairs:
            self.pairs[ends[0]] = ends[1]

    def _monotone(self, s: int, o: int, order: SortedIndices | None = None) -> bool:
        """True when pairing (s, o) keeps the pairs in the same order on both sides. O(log m) with
        `order` (the paired snippet lines, kept up to date by a pass that adds pairs), else O(pairs)."""
        if order is not None:
            before, after = order.below(s), order.above(s)
        else:
            before = max((p for p in self.pairs if p < s), default=None)
            after = min((p for p in self.pairs if p > s), default=None)
        return (before is None or self.pairs[before] < o) and (after is None or self.pairs[after] > o)

    def pair_order(self) -> SortedIndices:
        """The paired snippet lines as a SortedIndices, for _monotone in passes that add pairs: O(m)."""
        return SortedIndices(len(self.items), self.pairs)

    # Plain dict look-ups by line index (no closures, no key tuples): _block_ends runs for every
    # candidate anchor of every alignment step. The original's memos outlive a rebase.

    def _orig_end(self, o: int) -> int:
        if o not in self._ostop:
            # a closing line block_end found for o (_block_ends) is where block_stop would stop too
            close = self._oclose.get(o)
            self._ostop[o] = close if close is not None else block_stop(self.orig, self.onorm, o, self.owidth)
        return self._ostop[o]

    def _block_ends(self, s: int, o: int, s_hi: int, o_hi: int) -> tuple[int, int] | None:
        """The last lines of the blocks opened at snippet line s and original line o, when they are
        the same text: the closing `}` or `end`, or in Python the block's last line when the snippet
        gives the whole block (it ends where the code dedents, or with the snippet)."""
        if not (self.sopens[s] and self.o_opens(o)):
            return None
        sclose, oclose, slast = self._sclose, self._oclose, self._slast
        sc = sclose[s] if s in sclose else \
            sclose.setdefault(s, block_end(self.stext, self.snorm, s, len(self.items), self.markers, self.swidth))
        if sc is not None and sc >= s_hi:
            sc = None  # (blocks.within, inline: once per candidate anchor)
        oc = oclose[o] if o in oclose else \
            oclose.setdefault(o, block_end(self.orig, self.onorm, o, len(self.orig), None, self.owidth))
        if oc is not None and oc >= o_hi:
            oc = None
        if sc is None and oc is None:
            if s not in slast:
                slast[s] = block_last(self.stext, self.snorm, s, len(self.items), self.markers, self.swidth)
            sc = within(slast[s], s_hi)
            oc = self._orig_end(o)
            if oc >= o_hi or oc == o:
                return None
        if sc is not None and oc is not None and self.snorm[sc] == self.onorm[oc] \
                and self._tail_fits(s, sc, o, oc):
            return sc, oc
        return None

    def _tail_fits(self, s: int, sc: int, o: int, oc: int) -> bool:
        """False when the snippet block s..sc elides part of itself with a marker and a line between
        the last such marker and its closing line is an original line found elsewhere but nowhere
        inside the original block o..oc (`done`, `fi` after a marker, while that block has
        neither): the closing line then ends a later block, which the marker reaches into.
        O(tail lines * log n)."""
        if self._markers_upto[sc] == self._markers_upto[s + 1]:
            return True  # (no marker inside the snippet block)
        for t in range(sc - 1, s, -1):
            if t in self.markers:
                return True
            where = self.opos.get(self.snorm[t], ()) if self.snorm[t] else ()
            if where:  # (a new or edited line says nothing about where it stands)
                at = bisect_right(where, o)
                if at >= len(where) or where[at] >= oc:
                    return False
        return True

    def deletes(self, s1: int, o1: int, s2: int, o2: int) -> bool:
        """True when linking (s1, o1) to (s2, o2) drops original code lines (more of them between
        the two than snippet code lines). O(o2 - o1 + s2 - s1)."""
        solid = sum(1 for o in range(o1 + 1, o2) if self.onorm[o])
        return solid > sum(1 for s in range(s1 + 1, s2) if self.snorm[s])

    def _marker_between(self, s1: int, s2: int) -> bool:
        return s2 > s1 + 1 and self._markers_upto[s2] > self._markers_upto[s1 + 1]

    def _header_of(self, o: int) -> int:
        """The nearest earlier original line with less indentation than `o` (-1 when none)."""
        found = self._oparent.get(o)
        if found is None:
            width, found = self.owidth[o], -1
            for index in range(o - 1, -1, -1) if width else ():
                if self.onorm[index] and self.owidth[index] < width:
                    found = index
                    break
            self._oparent[o] = found
        return found

    def _skip_blank(self, o: int, stop: int, step: int) -> int:
        while (o - stop) * step < 0 and (not self.onorm[o] or o in self._moved):
            o += step
        return o

    def _closer_ok(self, s: int) -> bool:
        """A closing line (`}`, `end`, `</div>`) may only be matched on its own when the block it
        closes was opened in an earlier segment or its opening line is matched too."""
        if not self.scloser[s]:
            return True
        width = self.swidth[s]
        for index in range(s - 1, -1, -1):
            if index in self.markers:
                return True
            if not self.snorm[index]:
                continue
            other = self.swidth[index]
            if other < width:
                return True
            if other == width:
                return index in self.pairs or not opens_block(self.snorm[index])
        return True

    # -- definition-name index (built only when a changed header needs it) ---------------------

    def _skey(self, s: int) -> str | None:
        norm = self.snorm[s]
        return self.key_of(norm) if "(" in norm or opens_block(norm) else None  # (the cheap test first)

    def _okeys_for(self, key: str) -> list[int]:
        """Original lines that define `key` (found by text search first: most keys are rare)."""
        found = self._okeys.get(key)
        if found is None:
            if len(self._okeys) >= 16:  # many lookups (a long snippet): index every header once
                if self._all_keys is None:
                    self._all_keys = self._index_keys()
                return self._all_keys.get(key, [])
            needle = key.split(":", 1)[-1].split("#", 1)[-1]
            found = [index for index in self._lines_containing(needle) if self.key_of(self.onorm[index]) == key]
            self._okeys[key] = found
        return found

    def _index_keys(self) -> dict[str, list[int]]:
        """Every original line header_key may name, by that name, in line order: read per distinct
        text (opos: a line that repeats, `}` or `return 1;`, is one entry), the positions of the
        texts of one name merged in order. O(n) for the texts, O(k log k) for a name of k lines."""
        index: dict[str, list[int]] = {}
        mixed: list[str] = []  # names that more than one text defines (their lists are sorted below)
        for norm, where in self.opos.items():
            # (every line header_key may name, so that the answer is the text search's)
            if norm[0] not in "})]/*-;#" or norm.startswith("#["):
                name = self.key_of(norm)
                if name is None:
                    continue
                if name in index:
                    index[name] = index[name] + where
                    mixed.append(name)
                else:
                    index[name] = where  # (shared with opos, never changed: callers only read it)
        for name in mixed:
            index[name].sort()
        return index

    def o_in_string(self, o: int) -> bool:
        """Original line o starts inside a triple-quoted string (lines.in_triple_quotes). The file is
        read from the top only as far as asked (an edit in the middle of a long file asks about lines
        there), then on from where it stopped: O(n) in all."""
        known = self._in_strings
        if not 0 <= o < len(known):
            # (on to o, or further: as many lines again as were read, so that asking line by line
            # down the file reads it in a few steps; a negative o counts from the end, as in a list)
            stop = len(self.orig) if o < 0 else min(len(self.orig), max(o + 1, 2 * len(known)))
            states, self._open_quote = triple_quote_states(self.orig, len(known), stop, self._open_quote)
            known.extend(states)
        return known[o]

    def _lines_containing(self, needle: str) -> list[int]:
        """Original lines containing `needle` (normalised), in order: str.find over the joined text
        (built once per call, O(n) in C), each hit's line number by counting the newlines from the
        previous hit (str.count, C): O(n) in C per needle."""
        if not self.onorm:
            return []
        if self._joined is None:
            self._joined = "\n".join(self.onorm)
        joined, found = self._joined, []
        line = pos = 0  # the line number at offset `pos`
        at = joined.find(needle)
        while at >= 0:
            line += joined.count("\n", pos, at)
            found.append(line)
            pos = joined.find("\n", at)  # the end of that line: the next hit is on a later line
            if pos < 0:
                break
            at = joined.find(needle, pos + 1)
        return found

    def _skey_index(self) -> dict[str, list[int]]:
        """The snippet lines by the name they define, in order: read per distinct text (spos), the
        positions of the texts of one name merged in order. O(m) once per rebase."""
        if self._skeys is None:
            self._skeys = defaultdict(list)
            mixed: set[str] = set()  # names that more than one text defines (sorted below)
            for norm, where in self.spos.items():
                key = self.key_of(norm) if where else None
                if key is not None:
                    if key in self._skeys:
                        mixed.add(key)
                    self._skeys[key].extend(where)
            for key in mixed:
                self._skeys[key].sort()
        return self._skeys
