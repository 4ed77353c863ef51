"""Aligning snippet lines with original lines, in monotone order.

Patience-style: inside a pair of ranges, lines that occur exactly once on both sides (after
whitespace normalisation) are candidate anchors; definition headers whose text changed but whose
name did not (`add(number) {` -> `static add(a, b) {`) are weaker candidates, and so is the closing
line of a block whose opening line is a candidate. The heaviest increasing chain of candidates is
kept, and the ranges between chain links are aligned the same way, recursively. Where no unique
line is left, the lines next to a range's fixed ends are matched in order from those ends.
Lookups go through per-text position lists, so nothing is quadratic in the file size. Later passes
over the alignment live in refine.py and fuzzy_pairs.py.
"""

from __future__ import annotations

import re
from collections import defaultdict
from bisect import bisect_left, bisect_right
from itertools import accumulate, compress, islice

from ..deadline import check_deadline
from .blocks import block_last, enclosing, opens_at, shallower_before, within
from .chain import SortedIndices, count_in, heaviest_chain, span
from .closers import block_shell_up, edited_opener, end_in_doubt, whole_block_up
from .context import context_before_deletion, context_before_marker, context_block, edit_before_marker
from .lines import (DROPPED_STUBS, LazyWidths, Widths, block_end, block_stop, call_inside_call, header_key, is_closer,
                    is_trivial, opens_block, widths_of)
from .segments import GAP_KINDS, SnippetLine, code_segments
# How many times, on average, the recursion may visit each line before the rest is matched greedily.
STEP_PASSES = 8
_AFTER_MARKER = 3.0  # extra weight of a line right after a marker: where models put their context
_DP_LIMIT = 300  # candidates up to which the chain search weighs deletions (quadratic in this)
_DROP_COST = 0.1
_DROP_CAP = 6.0
_ORPHAN_MIN = 3  # deleted lines from which a dropped block header means a misplaced anchor
_RULER = 12  # a line without a word this long (`# -----`) anchors where it is unique
_WORDS = re.compile(r"\w")
_SCALAR_FIELD = re.compile(r"^[\w.-]+: \S")
_HIDDEN_END = 0.5  # weight of a block's closing line paired through a marker (below any unique line)
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


def _ruler(norm: str) -> bool:
    """A long line of punctuation (`# ------------`, `/* ====== */`): trivial by its lack of words,
    but where it occurs once it says where it is as well as any line."""
    return len(norm) >= _RULER and not _WORDS.search(norm)


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
        for index, norm in enumerate(onorm):
            if norm:
                self.opos[norm].append(index)
        self._okeys: dict[str, list[int]] = {}
        self._oparent: dict[int, int] = {}
        self._oclose: dict[int, int | None] = {}  # block_end / block_stop of original lines (_block_ends)
        self._ostop: dict[int, int] = {}
        self._all_keys: dict[str, list[int]] | None = None
        self._joined: str | None = None
        self._keys: dict[str, str | None] = {}
        self._weights: dict[str, float] = {}  # a candidate anchor's weight by its text (_step)
        # similar.edited_version / rewrites by (snippet text, original text), for fuzzy_pairs.walk_fuzzy
        self.edited_memo: dict[tuple[str, str], bool] = {}
        self.rewrites_memo: dict[tuple[str, str], bool] = {}
        self.items: list[SnippetLine] = []
        self._gone: list[int] | None = None  # moved-away original lines before each line (set_moved)
        self._moved: set[int] = set()
        self.rebase(items, {})
        self.fuzzy: set[int] = set()
        self._hidden_ends: set[tuple[int, int]] = set()  # closing lines seen through a marker (_step)

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
        self.items = items
        self.pairs = pairs

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
        """in_new_definition's per-line answers from the snippet's structure (computed once per
        rebase, O(m)); a line is also new when its item was marked fresh later (moves.py)."""
        if self._fresh is None:
            parent_of = self.snippet_parents()
            fresh = [False] * len(self.items)
            records: set[int] = set()
            last_at: dict[int, int] = {}  # indentation -> last line with it (a closer's opener)
            snorm, markers, swidth, opos = self.snorm, self.markers, self.swidth, self.opos  # (per line: local)
            scloser, sopens = self.scloser, self.sopens
            for index, norm in enumerate(snorm):
                if index in markers:
                    last_at = {}
                if not norm:
                    continue
                width = swidth[index]
                parent = parent_of[index]
                if parent is not None and parent in records:
                    # a new record's own `key: value` fields are new wherever the same pair occurs
                    # elsewhere; a nested block (`notes:` and its items) may be context
                    fresh[index] = bool(_SCALAR_FIELD.match(norm))
                elif parent is not None and fresh[parent] and not scloser[parent]:
                    fresh[index] = True  # (not under a closing line: ` * ` of a doc comment after a new `}`)
                elif scloser[index] and width in last_at:
                    fresh[index] = fresh[last_at[width]]
                elif norm.startswith("- ") and norm not in opos and self._has_children(index):
                    records.add(index)  # a new record of a YAML list: its `key: value` lines are its own
                elif sopens[index]:
                    # (a line the original has is not new: its name is not asked; `highlighter(`
                    # inside an open `(` or `[` of its parent is a call: no definition)
                    fresh[index] = norm not in opos and (key := self.key_of(norm)) is not None \
                        and not self._okeys_for(key) \
                        and not call_inside_call(norm, snorm[parent] if parent is not None else None)
                    back = index - 1
                    while fresh[index] and back >= 0 and snorm[back] and back not in markers \
                            and swidth[back] == width \
                            and snorm[back].startswith(("@", "#[", "//", "/*", "*", "#", "--")):
                        fresh[back] = True  # its decorators and doc comment are new too
                        back -= 1
                last_at[width] = index
            self._fresh = fresh
        return self._fresh

    def _has_children(self, s: int) -> bool:
        """True when the next code line of the same segment is indented deeper than line s."""
        for index in range(s + 1, len(self.items)):
            if index in self.markers:
                return False
            if self.snorm[index]:
                return self.swidth[index] > self.swidth[s]
        return False

    # -- public -------------------------------------------------------------------------------

    def align(self) -> dict[int, int]:
        """O((n + m) * STEP_PASSES) snippet-line visits at most: ranges left when the budget is spent
        are matched from their ends only (_edges), which is linear."""
        self._work_left = STEP_PASSES * (len(self.items) + len(self.orig)) + 10_000
        stack = [(0, len(self.items), 0, len(self.orig))]
        code_upto = self._code_upto
        while stack:
            s_lo, s_hi, o_lo, o_hi = stack.pop()
            if code_upto[s_hi] == code_upto[s_lo] and s_lo < s_hi and o_lo < o_hi:
                # what _step does with a range without a code line (the blank lines between two
                # anchors, about every other step of a long snippet), without the call
                self._work_left -= s_hi - s_lo
                continue
            if s_hi - s_lo == 1 and o_hi - o_lo == 1 and self._same_line(s_lo, o_lo):
                # one snippet line across from one original line with its text (the body line
                # between a paired header and its closer, about every other step of a long
                # snippet): what _step pairs there, without the call. A lone candidate between
                # two adjacent pairs orphans no block, so _best_chain would take it.
                self._work_left -= 1
                self.pairs[s_lo] = o_lo
                continue
            stack.extend(self._step(s_lo, s_hi, o_lo, o_hi))
        return self.pairs

    def _same_line(self, s: int, o: int) -> bool:
        """True when _step would make (s, o) its only candidate: the same text, and a line it reads
        (not new code, not a trivial line that is no ruler)."""
        norm = self.snorm[s]
        if not norm or norm != self.onorm[o]:
            return False
        fresh = self._fresh or self.fresh_flags()
        return not (fresh[s] or self.items[s].fresh or self.strivial[s] and not _ruler(norm))

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

    # -- recursion ----------------------------------------------------------------------------

    def _step(self, s_lo: int, s_hi: int, o_lo: int, o_hi: int) -> list[tuple[int, int, int, int]]:
        if s_lo >= s_hi or o_lo >= o_hi:
            return []
        check_deadline()
        self._work_left -= s_hi - s_lo
        if self._code_upto[s_hi] == self._code_upto[s_lo]:
            return []  # no code line (blank lines between two anchors): nothing to pair, nor to _edges
        if self._work_left < 0:  # a pathological recursion (one anchor per level): stop refining
            self._edges(s_lo, s_hi, o_lo, o_hi)
            return []
        cands: list[tuple[int, int, float]] = []
        snorm, opos, spos, items = self.snorm, self.opos, self.spos, self.items
        trivial, fresh, weights = self.strivial, self._fresh or self.fresh_flags(), self._weights
        for s in range(s_lo, s_hi):
            norm = snorm[s]
            if not norm or fresh[s] or items[s].fresh or trivial[s] and not _ruler(norm):
                continue  # (fresh: in_new_definition, inline)
            where = opos.get(norm)
            if where:
                # (chain.span and count_in, inlined: once per code line of every step; a text the
                # snippet has once is there once in any range around it)
                first, last = bisect_left(where, o_lo), bisect_left(where, o_hi)
                if last - first == 1 and (len(copies := spos[norm]) == 1
                                          or bisect_left(copies, s_hi) - bisect_left(copies, s_lo) == 1):
                    weight = weights.get(norm)
                    if weight is None:  # (per text: a common line is a candidate in many small steps)
                        weight = weights[norm] = 1.0 + min(len(_WORDS.findall(norm)), 40) / 10
                    if s - 1 in self.markers:
                        weight += _AFTER_MARKER
                    cands.append((s, where[first], weight))
                if last > first:
                    continue
            key = self._skey(s)
            if key is not None:
                okeys = self._okeys_for(key)
                first, last = span(okeys, o_lo, o_hi)
                if last - first == 1 and count_in(self._skey_index()[key], s_lo, s_hi) == 1:
                    o = okeys[first]
                    if not self._paired_exactly(o, s_lo, s_hi):
                        cands.append((s, o, 1.0))
        several = self._code_upto[s_hi] - self._code_upto[s_lo] > 1
        if several:  # (with one code line there is one candidate at most: _best_chain reads no set)
            self._hidden_ends = set()
        # (with one code line in the range no block can end inside it: _block_ends finds nothing)
        for s, o, weight in list(cands) if several else ():
            ends = self._block_ends(s, o, s_hi, o_hi)
            if ends is not None and not self._marker_between(s, ends[0]):
                cands.append((*ends, weight))
            elif ends is not None:
                # A marker inside the snippet's block may hide where the original's block ends: it
                # may stand for the rest of this block and more, up to another block's end. Such
                # a closing line never anchors a deletion right after it (_best_chain: the `}`
                # before the next anchor is meant), and it yields to the lines that say so.
                cands.append((*ends, _HIDDEN_END if end_in_doubt(self, s, *ends) else weight))
                self._hidden_ends.add(ends)
        chain = heaviest_chain(cands) if len(cands) > _DP_LIMIT else \
            self._best_chain(cands, (s_lo - 1, o_lo - 1), (s_hi, o_hi))
        if not chain:
            self._edges(s_lo, s_hi, o_lo, o_hi)
            return []
        gaps = []
        prev_s, prev_o = s_lo - 1, o_lo - 1
        for s, o in chain:
            self.pairs[s] = o
            if prev_s + 1 < s and prev_o + 1 < o:  # (an empty range is a step that does nothing)
                gaps.append((prev_s + 1, s, prev_o + 1, o))
            prev_s, prev_o = s, o
        if prev_s + 1 < s_hi and prev_o + 1 < o_hi:
            gaps.append((prev_s + 1, s_hi, prev_o + 1, o_hi))
        return gaps

    def _best_chain(self, cands: list[tuple[int, int, float]], left: tuple[int, int],
                    right: tuple[int, int]) -> list[tuple[int, int]]:
        """Heaviest increasing chain where dropping original lines between two links that no marker
        separates costs a little per line: anchors that would delete a stretch of code the snippet
        says nothing about must earn it. No link may orphan a block's body (see _orphans), also
        not the links to the anchors around the range (`left`, `right`) when they are pairs."""
        if not cands:
            return []  # (most steps of a long snippet: skip the set-up below)
        if len(cands) == 1:  # (and most others: one candidate, a chain of itself unless it orphans a body)
            s2, o2, _ = cands[0]
            if left[0] >= 0 and self.pairs.get(left[0]) == left[1] and not self._marker_between(left[0], s2) \
                    and self._orphans(*left, s2, o2) or self.pairs.get(right[0]) == right[1] \
                    and not self._marker_between(s2, right[0]) and self._orphans(s2, o2, *right):
                return []
            return [(s2, o2)]
        cands = sorted(set(cands))
        best = [0.0] * len(cands)
        back = [-1] * len(cands)
        fixed_left = self.pairs.get(left[0]) == left[1] and left[0] >= 0
        fixed_right = self.pairs.get(right[0]) == right[1]
        for j, (s2, o2, w2) in enumerate(cands):
            top, arg = 0.0, -1
            if fixed_left and not self._marker_between(left[0], s2) and self._orphans(*left, s2, o2):
                top = float("-inf")  # it cannot be the chain's first link
            for i in range(j):
                s1, o1, _ = cands[i]
                if s1 >= s2 or o1 >= o2:
                    continue
                score = best[i]
                if not self._marker_between(s1, s2):
                    if self._orphans(s1, o1, s2, o2) or (s1, o1) in self._hidden_ends \
                            and self.deletes(s1, o1, s2, o2):
                        continue
                    gone = self.moved_between(o1, o2)
                    score -= min(max(0, (o2 - o1) - (s2 - s1) - gone) * _DROP_COST, _DROP_CAP)
                if score > top:
                    top, arg = score, i
            best[j], back[j] = top + w2, arg
        if fixed_right:
            for j, (s1, o1, _) in enumerate(cands):
                if not self._marker_between(s1, right[0]) and self._orphans(s1, o1, *right):
                    best[j] = float("-inf")  # it cannot be the chain's last link
        if not cands or max(best) == float("-inf"):
            return []
        index = max(range(len(cands)), key=best.__getitem__)
        chain = []
        while index >= 0:
            chain.append((cands[index][0], cands[index][1]))
            index = back[index]
        return chain[::-1]

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

    def _orphans(self, s1: int, o1: int, s2: int, o2: int) -> bool:
        """True when linking (s1, o1) to (s2, o2) with no marker between them would delete the
        header of the block that o2 sits in (a line with less indentation between o1 and o2) and
        keep its body, while the snippet gives no header of its own for s2 there (or one that
        stands for blocks inside a definition the link drops) and does not dedent s2 (unwrapping a
        block), and the stretch is more than a line or two: an anchor on a copy of the line
        somewhere else. O(o2's enclosing blocks), memoised."""
        if self._header_of(o2) <= o1:
            return False  # (the cheap test of the two below first)
        solid = (o for o in range(o1 + 1, o2) if self.onorm[o])
        if next(islice(solid, _ORPHAN_MIN - 1, None), None) is None:
            return False  # a header or two dropped on purpose (an unwrapped `try:`) is no sign
        if self._sparent is None:
            self._sparent = shallower_before(self.stext, self.snorm, self.swidth)
        own = self._sparent[s2]
        if own > s1:
            # the snippet's own headers for s2 stand for o2's enclosing blocks down to the depth of
            # the shallowest of them only: a definition shallower still that opens between o1 and
            # o2 is dropped, its body kept (an `} else {` of the snippet paired across another
            # class's method)
            while self._sparent[own] > s1:
                own = self._sparent[own]
            depth = self.owidth[o2] - (self.swidth[s2] - self.swidth[own])
            above = self._header_of(o2)
            while above > o1 and self.owidth[above] >= depth:
                above = self._header_of(above)
            return above > o1 and header_key(self.onorm[above]) is not None
        snip_step = self.swidth[s2] - self.swidth[s1]
        return snip_step >= self.owidth[o2] - self.owidth[o1]

    def _paired_exactly(self, o: int, s_lo: int, s_hi: int) -> bool:
        """True when the original line `o` also occurs verbatim in the snippet range (keep that one)."""
        return count_in(self.spos.get(self.onorm[o], []), s_lo, s_hi) > 0

    def _edges(self, s_lo: int, s_hi: int, o_lo: int, o_hi: int) -> None:
        code = [s for s in range(s_lo, s_hi) if self.snorm[s]]
        if not code:
            return
        gaps = [s for s in range(s_lo, s_hi) if s in self.markers]
        head = [s for s in code if not gaps or s < gaps[0]]
        tail = [s for s in code if gaps and s > gaps[-1]]
        stop = self._greedy(head, o_lo, o_hi, +1)
        if not gaps and self.pairs.get(s_hi) == o_hi:
            # no marker up to the next anchor: what the walk down left unpaired is matched up
            # from that anchor (context right above it, after new code)
            rest = head[next((i for i in range(len(head) - 1, -1, -1) if head[i] in self.pairs), -1) + 1:]
            self._greedy(rest[::-1], o_hi - 1, stop - 1, -1)
        self._greedy(tail[::-1], o_hi - 1, stop - 1, -1)
        if tail and tail[0] not in self.pairs and not (
                self.pairs.get(s_hi) == o_hi and context_before_deletion(self, tail, stop, o_hi, s_hi)):
            context_block(self, tail, stop, o_hi)
        if gaps and head and head[-1] not in self.pairs:
            upto = min((self.pairs[s] for s in tail if s in self.pairs), default=o_hi)
            context_before_marker(self, head, o_lo, upto)
            if head[-1] not in self.pairs:
                edit_before_marker(self, head, upto)

    def _greedy(self, lines: list[int], start: int, stop: int, step: int) -> int:
        """Match `lines` in order against the original lines from `start` towards `stop` while they
        agree (blank lines skipped). A few new lines may sit in between, and an edited line may
        replace one or two original lines; an unmatched closing line ends the run, unless it
        closes what a new line of the run opened (`x: t.Union[` ... `],`). Returns the
        position after the last match."""
        o = start
        matched = False
        inserted = 0
        opened: list[int] = []  # the indentation of new lines in the run that open a bracket
        index = 0
        while index < len(lines):
            s = lines[index]
            index += 1
            if self.in_new_definition(s):
                continue  # a new definition is inserted here; the code around it goes on matching
            o = self._skip_blank(o, stop, step)
            if (o - stop) * step >= 0:
                break
            norm = self.snorm[s]
            target = None
            if self.onorm[o] == norm:
                target = o
            elif not self.strivial[s] or self.scloser[s]:
                nxt = self._skip_blank(o + step, stop, step)
                if (nxt - stop) * step < 0 and self.onorm[nxt] != norm and self.onorm[nxt] in DROPPED_STUBS:
                    # (an edited line took a stub body with it: `) -> T:` + `...` became `) -> T: ...`)
                    nxt = self._skip_blank(nxt + step, stop, step)
                if (nxt - stop) * step < 0 and self.onorm[nxt] == norm:
                    target = nxt
                    if inserted > 1:
                        # the unmatched lines before it would be new and one original line gone:
                        # when the copy as many lines on stands there too, they are edits of the
                        # lines they replace one for one (a run of edited `case` lines, then a
                        # `return` that every case has)
                        target = self._one_for_one(o, inserted, stop, step, norm) or nxt
            if target is not None and (self._closer_ok(s) or step > 0 and edited_opener(self, s, target)):
                self.pairs[s] = target
                o = target + step
                matched, inserted, opened = True, 0, []
                continue
            if target is not None and step < 0:
                # walking up, a closing line comes before its opening line: the whole block, as
                # the original has it right there, is context (`if (!x) { ... }` above an anchor)
                whole = whole_block_up(self, lines, index - 1, target, stop)
                if whole:
                    self.pairs.update(whole)
                    o = whole[-1][1] + step
                    index += len(whole) - 1
                    matched, inserted = True, 0
                    continue
                shell = block_shell_up(self, lines, index - 1, target, stop)
                if shell:  # the same block with its body rewritten: its ends pair, the body is new
                    self.pairs.update(shell)
                    o = shell[-1][1] + step
                    index = lines.index(shell[-1][0], index) + 1
                    matched, inserted = True, 0
                    continue
            if self.scloser[s] and step > 0 and opened and opened[-1] == self.swidth[s]:
                opened.pop()  # it closes a bracket that new lines of this run opened: new code too
            elif self.scloser[s] or self.strivial[s]:
                break
            elif step > 0 and self.snorm[s].endswith(("(", "[", "{")):
                opened.append(self.swidth[s])
            inserted += 1
            if inserted > 3:
                break
        return o if matched else start

    def _one_for_one(self, o: int, count: int, stop: int, step: int, norm: str) -> int | None:
        """The original line `count` non-blank lines on from `o` when its text is `norm`. O(count)."""
        for _ in range(count):
            o = self._skip_blank(o + step, stop, step)
        o = self._skip_blank(o, stop, step)
        return o if (o - stop) * step < 0 and self.onorm[o] == norm else None

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


