"""Aligning snippet lines with original lines, in monotone order.

Patience-style: inside a pair of ranges, lines that occur exactly once on both sides (after
whitespace normalisation) are candidate anchors; definition headers whose text changed but whose
name did not (`add(number) {` -> `static add(a, b) {`) are weaker candidates, and so is the closing
line of a block whose opening line is a candidate. The heaviest increasing chain of candidates is
kept, and the ranges between chain links are aligned the same way, recursively. Where no unique
line is left, the lines next to a range's fixed ends are matched greedily within a short window.
Lookups go through per-text position lists, so nothing is quadratic in the file size.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict

from rapidfuzz.fuzz import ratio
from rapidfuzz.process import extract

from .lines import _next_code, block_end, continues_block, header_key, indent_width, is_closer, is_trivial, opens_block
from .segments import SnippetLine, is_gap

_FUZZY_MIN = 60.0
_DP_LIMIT = 300  # candidates up to which the chain search weighs deletions (quadratic in this)
_DROP_COST = 0.1
_DROP_CAP = 6.0
_WORDS = re.compile(r"\w")


class Aligner:
    def __init__(self, items: list[SnippetLine], orig: list[str], onorm: list[str]) -> None:
        self.orig = orig
        self.onorm = onorm
        self.opos: dict[str, list[int]] = defaultdict(list)
        for index, norm in enumerate(onorm):
            if norm:
                self.opos[norm].append(index)
        self._okeys: dict[str, list[int]] = {}
        self._all_keys: dict[str, list[int]] | None = None
        self.rebase(items, {})
        self.fuzzy: set[int] = set()

    def rebase(self, items: list[SnippetLine], pairs: dict[int, int]) -> None:
        """Use a new snippet line list (with assumed markers added) and its pairs."""
        self.items = items
        self.stext = [item.text for item in items]
        self.snorm = [item.norm if item.kind == "code" else "" for item in items]
        self.markers = {i for i, item in enumerate(items) if is_gap(item)}
        self.marker_list = sorted(self.markers)
        self.spos: dict[str, list[int]] = defaultdict(list)
        for index, norm in enumerate(self.snorm):
            if norm:
                self.spos[norm].append(index)
        self._skeys: dict[str, list[int]] | None = None
        self._fresh: list[bool] | None = None
        self._blocks: dict[tuple[str, int], int | None] = {}
        self.pairs = pairs

    def in_new_definition(self, s: int) -> bool:
        """True for lines inside a definition the original does not have (a new function): they
        are new code even where their text also occurs elsewhere in the file."""
        if self._fresh is None:
            parents = _parents(self.stext, self.snorm, self.markers)
            fresh = [False] * len(self.items)
            last_at: dict[int, int] = {}  # indentation -> last line with it (a closer's opener)
            for index, norm in enumerate(self.snorm):
                if index in self.markers:
                    last_at = {}
                if not norm:
                    continue
                width = indent_width(self.stext[index])
                parent = parents[index]
                if parent is not None and fresh[parent]:
                    fresh[index] = True
                elif is_closer(norm) and width in last_at:
                    fresh[index] = fresh[last_at[width]]
                elif _opens(self.snorm, index):
                    key = header_key(norm)
                    fresh[index] = key is not None and not self._okeys_for(key) and norm not in self.opos
                    back = index - 1
                    while fresh[index] and back >= 0 and self.snorm[back] and back not in self.markers \
                            and indent_width(self.stext[back]) == width \
                            and self.snorm[back].startswith(("@", "#[", "//", "/*", "*", "#", "--")):
                        fresh[back] = True  # its decorators and doc comment are new too
                        back -= 1
                last_at[width] = index
            self._fresh = fresh
        return self._fresh[s]

    # -- public -------------------------------------------------------------------------------

    def align(self) -> dict[int, int]:
        stack = [(0, len(self.items), 0, len(self.orig))]
        while stack:
            stack.extend(self._step(*stack.pop()))
        return self.pairs

    def prune_orphans(self) -> None:
        """Drop pairs that contradict the nesting: a snippet line inside a block whose opening line is
        paired must pair inside that block of the original, and a line inside a new definition (an
        unpaired header) pairs with nothing: `if order is None:` in a new function is new code, not
        the same line of some other function."""
        parents = _parents(self.stext, self.snorm, self.markers)
        ends: dict[int, int] = {}
        for s in sorted(self.pairs):
            o = self.pairs[s]
            if s not in self.fuzzy and self._isolated_common(s, o):
                del self.pairs[s]
                continue
            anc = parents[s]
            while anc is not None and anc not in self.pairs and header_key(self.snorm[anc]) is None:
                anc = parents[anc]
            if anc is None:
                continue
            if anc in self.pairs:
                a = self.pairs[anc]
                if a not in ends:
                    ends[a] = self._orig_end(a)
                if a < o <= ends[a]:
                    continue
            del self.pairs[s]

    def covered(self) -> set[int]:
        """Original lines that a complete block in the snippet replaces although nothing pairs them.

        When the snippet gives a paired header's whole block (no marker inside it), every line of
        the original block belongs to that block, also those after the snippet's last paired line
        (Python has no closing brace to pair): a marker after the block must not keep them."""
        gone: set[int] = set()
        for s, o in self.pairs.items():
            if not _opens(self.snorm, s):
                continue
            width = indent_width(self.stext[s])
            body: list[int] = []
            complete = False
            for index in range(s + 1, len(self.items)):
                if index in self.markers:
                    complete = indent_width(self.stext[index]) <= width
                    break
                if not self.snorm[index] or continues_block(self.snorm[index]):
                    continue
                if indent_width(self.stext[index]) <= width:
                    complete = True
                    break
                body.append(index)
            else:
                complete = True
            if complete and body and body[-1] not in self.pairs:
                # the lines after the block's last paired line are replaced by its unpaired tail
                start = max((self.pairs[b] for b in body if b in self.pairs), default=o)
                gone.update(range(start + 1, self._orig_end(o) + 1))
        return gone

    def place_stragglers(self) -> None:
        """A segment with no paired line at all (one edited line between two markers) is matched
        to the one original line, between its neighbours' anchors, that it is an edited version of."""
        segments: list[list[int]] = [[]]
        for index, item in enumerate(self.items):
            if is_gap(item):
                segments.append([])
            elif item.kind == "code":
                segments[-1].append(index)
        ordered = sorted(self.pairs.items())
        keys = [s for s, _ in ordered]
        for seg in segments:
            if not seg or any(s in self.pairs for s in seg):
                continue
            at = bisect_left(keys, seg[0])
            lo = ordered[at - 1][1] + 1 if at > 0 else 0
            hi = ordered[at][1] if at < len(ordered) else len(self.orig)
            for s in seg:
                if is_trivial(self.snorm[s]) or self.in_new_definition(s):
                    continue
                found = extract(self.snorm[s], {o: self.onorm[o] for o in range(lo, hi) if self.onorm[o]},
                                scorer=ratio, score_cutoff=_FUZZY_MIN, limit=3)
                good = [(score, o) for _, score, o in found
                        if edited_version(self.snorm[s], self.onorm[o], assignments=True)]
                if len(good) == 1 or len(good) > 1 and good[0][0] - good[1][0] >= 10:
                    o = good[0][1]
                    self.pairs[s] = o
                    self.fuzzy.add(s)
                    self._pair_closer(s, o, len(self.items), hi)
                    break  # its neighbours are paired by extend_fuzzy, next to it

    def _pair_closer(self, s: int, o: int, s_hi: int, o_hi: int) -> None:
        ends = self._block_ends(s, o, s_hi, o_hi)
        if ends is not None and ends[0] not in self.pairs:
            self.pairs[ends[0]] = ends[1]

    def _monotone(self, s: int, o: int) -> bool:
        """True when pairing (s, o) keeps the pairs in the same order on both sides."""
        before = max((p for p in self.pairs if p < s), default=None)
        after = min((p for p in self.pairs if p > s), default=None)
        return (before is None or self.pairs[before] < o) and (after is None or self.pairs[after] > o)

    def _memo(self, key: tuple[str, int], compute):  # type: ignore[no-untyped-def]
        if key not in self._blocks:
            self._blocks[key] = compute()
        return self._blocks[key]

    def _orig_end(self, o: int) -> int:
        return self._memo(("oe", o), lambda: _orig_block_end(self.orig, self.onorm, o))

    def _block_ends(self, s: int, o: int, s_hi: int, o_hi: int) -> tuple[int, int] | None:
        """The last lines of the blocks opened at snippet line s and original line o, when they are
        the same text: the closing `}` or `end`, or in Python the block's last line when the snippet
        gives the whole block (it ends where the code dedents, or with the snippet)."""
        if not (_opens(self.snorm, s) and _opens(self.onorm, o)):
            return None
        sc = _within(self._memo(("sc", s), lambda: block_end(self.stext, self.snorm, s, len(self.items),
                                                              self.markers)), s_hi)
        oc = _within(self._memo(("oc", o), lambda: block_end(self.orig, self.onorm, o, len(self.orig))), o_hi)
        if sc is None and oc is None:
            sc = _within(self._memo(("sl", s), lambda: _block_last(self.stext, self.snorm, s, len(self.items),
                                                                    self.markers)), s_hi)
            oc = self._orig_end(o)
            if oc >= o_hi or oc == o:
                return None
        if sc is not None and oc is not None and self.snorm[sc] == self.onorm[oc]:
            return sc, oc
        return None

    def _isolated_common(self, s: int, o: int) -> bool:
        """A line found all over the file (`if err != nil {`) anchors nothing on its own: keep it
        only when a distinctive line close to it (same segment) is paired close to it too, or it
        closes a paired block."""
        norm = self.snorm[s]
        if len(self.opos.get(norm, ())) < 3 or is_closer(norm) and self._closer_ok(s):
            return False
        for step in (-1, 1):
            s2, seen = s + step, 0
            while 0 <= s2 < len(self.items) and s2 not in self.markers and seen < 3:
                other = self.snorm[s2]
                if other:
                    seen += 1
                    o2 = self.pairs.get(s2)
                    if o2 is not None and not is_trivial(other) and len(self.opos.get(other, ())) < 3 \
                            and abs((o2 - o) - (s2 - s)) <= 2 and (o2 - o) * step > 0:
                        return False
                s2 += step
        return True

    def extend_fuzzy(self) -> None:
        """Pair changed lines at a segment's edge with the original line they replace.

        A segment whose first line was edited (a new signature) leaves that line unpaired, and the
        marker before it would keep the old line too. When the unpaired snippet line and the original
        line just before the segment's first anchor look alike, they are paired (same for the end).
        """
        ordered = sorted(self.pairs.items())
        self._taken = set(self.pairs.values())
        if self.items and self.items[0].kind == "code":
            self._walk_fuzzy(-1, -1, +1)
        if self.items and self.items[-1].kind == "code":
            self._walk_fuzzy(len(self.items), len(self.orig), -1)
        for s, o in ordered:
            self._walk_fuzzy(s, o, -1)
            self._walk_fuzzy(s, o, +1)

    # -- recursion ----------------------------------------------------------------------------

    def _step(self, s_lo: int, s_hi: int, o_lo: int, o_hi: int) -> list[tuple[int, int, int, int]]:
        if s_lo >= s_hi or o_lo >= o_hi:
            return []
        cands: list[tuple[int, int, float]] = []
        for s in range(s_lo, s_hi):
            norm = self.snorm[s]
            if not norm or is_trivial(norm) or self.in_new_definition(s):
                continue
            where = self.opos.get(norm)
            if where:
                first, last = _span(where, o_lo, o_hi)
                if last - first == 1 and _count(self.spos[norm], s_lo, s_hi) == 1:
                    cands.append((s, where[first], 1.0 + min(len(_WORDS.findall(norm)), 40) / 10))
                if last > first:
                    continue
            key = self._skey(s)
            if key is not None:
                okeys = self._okeys_for(key)
                first, last = _span(okeys, o_lo, o_hi)
                if last - first == 1 and _count(self._skey_index()[key], s_lo, s_hi) == 1:
                    o = okeys[first]
                    if not self._paired_exactly(o, s_lo, s_hi):
                        cands.append((s, o, 1.0))
        for s, o, weight in list(cands):
            ends = self._block_ends(s, o, s_hi, o_hi)
            if ends is not None:
                cands.append((*ends, weight))
        chain = _heaviest_chain(cands) if len(cands) > _DP_LIMIT else self._best_chain(cands)
        if not chain:
            self._edges(s_lo, s_hi, o_lo, o_hi)
            return []
        gaps = []
        prev_s, prev_o = s_lo - 1, o_lo - 1
        for s, o in chain:
            self.pairs[s] = o
            gaps.append((prev_s + 1, s, prev_o + 1, o))
            prev_s, prev_o = s, o
        gaps.append((prev_s + 1, s_hi, prev_o + 1, o_hi))
        return gaps

    def _best_chain(self, cands: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
        """Heaviest increasing chain where dropping original lines between two links that no marker
        separates costs a little per line: anchors that would delete a stretch of code the snippet
        says nothing about must earn it."""
        cands = sorted(set(cands))
        best = [0.0] * len(cands)
        back = [-1] * len(cands)
        for j, (s2, o2, w2) in enumerate(cands):
            top, arg = 0.0, -1
            for i in range(j):
                s1, o1, _ = cands[i]
                if s1 >= s2 or o1 >= o2:
                    continue
                score = best[i]
                if not self._marker_between(s1, s2):
                    score -= min(max(0, (o2 - o1) - (s2 - s1)) * _DROP_COST, _DROP_CAP)
                if score > top:
                    top, arg = score, i
            best[j], back[j] = top + w2, arg
        if not cands:
            return []
        index = max(range(len(cands)), key=best.__getitem__)
        chain = []
        while index >= 0:
            chain.append((cands[index][0], cands[index][1]))
            index = back[index]
        return chain[::-1]

    def _marker_between(self, s1: int, s2: int) -> bool:
        return _count(self.marker_list, s1 + 1, s2) > 0

    def _paired_exactly(self, o: int, s_lo: int, s_hi: int) -> bool:
        """True when the original line `o` also occurs verbatim in the snippet range (keep that one)."""
        return _count(self.spos.get(self.onorm[o], []), s_lo, s_hi) > 0

    def _edges(self, s_lo: int, s_hi: int, o_lo: int, o_hi: int) -> None:
        code = [s for s in range(s_lo, s_hi) if self.snorm[s]]
        if not code:
            return
        gaps = [s for s in range(s_lo, s_hi) if s in self.markers]
        head = [s for s in code if not gaps or s < gaps[0]]
        tail = [s for s in code if gaps and s > gaps[-1]]
        stop = self._greedy(head, o_lo, o_hi, +1)
        self._greedy(tail[::-1], o_hi - 1, stop - 1, -1)
        if tail and tail[0] not in self.pairs:
            self._context_block(tail, stop, o_hi)

    def _context_block(self, tail: list[int], lo: int, hi: int) -> None:
        """The lines right after a marker are often unchanged context (`store.append(e)`, `}`, `}`)
        followed by a deletion up to the next anchor. Find where that block of lines occurs,
        contiguously, closest to the next anchor (the reading that deletes least), and pair it."""
        block: list[int] = []
        for s in tail:
            if s in self.pairs or self.in_new_definition(s) or s in self.markers:
                break
            block.append(s)
        if not block or all(is_trivial(self.snorm[s]) for s in block):
            return
        first = next(s for s in block if not is_trivial(self.snorm[s]))
        offset = block.index(first)
        for start in reversed(self.opos.get(self.snorm[first], [])):
            if not lo <= start < hi:
                continue
            o, run = start, []
            for s in block[offset:]:
                o = self._skip_blank(o, hi, +1)
                if o >= hi or self.onorm[o] != self.snorm[s]:
                    break
                run.append((s, o))
                o += 1
            if len(run) == len(block) - offset and len(run) >= 2:
                self.pairs.update(run)
                self.fuzzy.update(s for s, _ in run)
            return

    def _greedy(self, lines: list[int], start: int, stop: int, step: int) -> int:
        """Match `lines` in order against the original lines from `start` towards `stop` while they
        agree (blank lines skipped). A few new lines may sit in between, and an edited line may
        replace one or two original lines; an unmatched closing line ends the run. Returns the
        position after the last match."""
        o = start
        matched = False
        inserted = 0
        for s in lines:
            if self.in_new_definition(s):
                continue  # a new definition is inserted here; the code around it goes on matching
            o = self._skip_blank(o, stop, step)
            if (o - stop) * step >= 0:
                break
            norm = self.snorm[s]
            target = None
            if self.onorm[o] == norm:
                target = o
            elif not is_trivial(norm) or is_closer(norm):
                nxt = self._skip_blank(o + step, stop, step)
                if (nxt - stop) * step < 0 and self.onorm[nxt] == norm:
                    target = nxt
            if target is not None and self._closer_ok(s):
                self.pairs[s] = target
                o = target + step
                matched, inserted = True, 0
                continue
            if is_closer(norm) or is_trivial(norm):
                break
            inserted += 1
            if inserted > 3:
                break
        return o if matched else start

    def _skip_blank(self, o: int, stop: int, step: int) -> int:
        while (o - stop) * step < 0 and not self.onorm[o]:
            o += step
        return o

    def _closer_ok(self, s: int) -> bool:
        """A closing line (`}`, `end`, `</div>`) may only be matched on its own when the block it
        closes was opened in an earlier segment or its opening line is matched too."""
        if not is_closer(self.snorm[s]):
            return True
        width = indent_width(self.stext[s])
        for index in range(s - 1, -1, -1):
            if index in self.markers:
                return True
            if not self.snorm[index]:
                continue
            other = indent_width(self.stext[index])
            if other < width:
                return True
            if other == width:
                return index in self.pairs or not opens_block(self.snorm[index])
        return True

    def _walk_fuzzy(self, s: int, o: int, step: int) -> None:
        """From the anchor (s, o), pair the unpaired snippet lines next to it (up to a marker) with
        the unpaired original lines next to it that they are edited versions of, in order."""
        taken = self._taken
        run: list[int] = []
        s2 = s + step
        while 0 <= s2 < len(self.items) and s2 not in self.pairs and not is_gap(self.items[s2]):
            if self.items[s2].kind == "code":
                run.append(s2)
            s2 += step
        if not run:
            return
        olines: list[int] = []
        o2 = o + step
        while 0 <= o2 < len(self.orig) and o2 not in taken and len(olines) < len(run) + 2:
            if self.onorm[o2]:
                olines.append(o2)
            o2 += step
        base_s = indent_width(self.stext[s]) if 0 <= s < len(self.items) else None
        base_o = indent_width(self.orig[o]) if 0 <= o < len(self.orig) else None
        cursor = misses = 0
        for s2 in run:
            # an unchanged line must be the very next one; an edited line may replace two
            reach = 1 if self.snorm[s2] in self.opos else 2
            for k in range(cursor, min(cursor + reach, len(olines))):
                o2 = olines[k]
                same = self.snorm[s2] == self.onorm[o2] and not is_closer(self.snorm[s2])
                if not same and not edited_version(self.snorm[s2], self.onorm[o2]):
                    continue
                if base_s is not None and base_o is not None and \
                        indent_width(self.stext[s2]) - base_s != indent_width(self.orig[o2]) - base_o:
                    continue
                self.pairs[s2] = o2
                taken.add(o2)
                self.fuzzy.add(s2)
                self.fuzzy.add(s)
                closer = self._block_ends(s2, o2, len(self.items), len(self.orig))
                if closer is not None and closer[0] not in self.pairs and closer[1] not in taken \
                        and self._monotone(*closer):
                    self.pairs[closer[0]] = closer[1]
                    taken.add(closer[1])
                    self.fuzzy.add(closer[0])
                cursor, misses = k + 1, -1
                break
            misses += 1
            if misses > 3:
                return

    # -- definition-name index (built only when a changed header needs it) ---------------------

    def _skey(self, s: int) -> str | None:
        return header_key(self.snorm[s]) if opens_block(self.snorm[s]) or "(" in self.snorm[s] else None

    def _okeys_for(self, key: str) -> list[int]:
        """Original lines that define `key` (found by text search first: most keys are rare)."""
        found = self._okeys.get(key)
        if found is None:
            if len(self._okeys) >= 16:  # many lookups (a long snippet): index every header once
                if self._all_keys is None:
                    self._all_keys = defaultdict(list)
                    for index, norm in enumerate(self.onorm):
                        if norm and (norm[0].isalpha() or norm[0] in "<.#@_$"):
                            name = header_key(norm)
                            if name is not None:
                                self._all_keys[name].append(index)
                return self._all_keys.get(key, [])
            needle = key.split(":", 1)[-1].split("#", 1)[-1]
            found = [index for index, norm in enumerate(self.onorm)
                     if needle in norm and header_key(norm) == key]
            self._okeys[key] = found
        return found

    def _skey_index(self) -> dict[str, list[int]]:
        if self._skeys is None:
            self._skeys = defaultdict(list)
            for index, norm in enumerate(self.snorm):
                if norm:
                    key = header_key(norm)
                    if key is not None:
                        self._skeys[key].append(index)
        return self._skeys


def _opens(norms: list[str], index: int) -> bool:
    """True when the line opens a block, also in Allman style (the brace on the next line)."""
    if opens_block(norms[index]):
        return True
    after = _next_code(norms, index)
    return after < len(norms) and norms[after] == "{"


def _parents(texts: list[str], norms: list[str], markers: set[int]) -> list[int | None]:
    """For each snippet line, the nearest earlier line with less indentation in the same segment."""
    parents: list[int | None] = [None] * len(texts)
    stack: list[tuple[int, int]] = []  # (indent, index)
    previous: int | None = None
    for index, norm in enumerate(norms):
        if index in markers:
            stack, previous = [], None
            continue
        if not norm:
            continue
        if norm == "{" and previous is not None:
            # Allman style: a brace on its own line belongs to the header above it (the line with
            # the brace's indentation, above a long parameter list)
            width = indent_width(texts[index])
            header = next((i for w, i in reversed(stack) if w == width), previous)
            parents[index] = header
            continue
        width = indent_width(texts[index])
        while stack and stack[-1][0] >= width:
            stack.pop()
        parents[index] = stack[-1][1] if stack else None
        stack.append((width, index))
        previous = index
    return parents


def _within(index: int | None, stop: int) -> int | None:
    return index if index is not None and index < stop else None


def _block_last(texts: list[str], norms: list[str], start: int, stop: int, markers: set[int]) -> int | None:
    """The last line of the snippet block opened at `start`, if the snippet gives all of it."""
    base = indent_width(texts[start])
    last = None
    for index in range(start + 1, stop):
        if index in markers:
            if indent_width(texts[index]) <= base:
                return None
            continue
        if not norms[index]:
            continue
        if indent_width(texts[index]) <= base:
            break
        last = index
    return last


def _orig_block_end(lines: list[str], norms: list[str], start: int) -> int:
    """The last original line that belongs to the block opened at `start` (its closer included)."""
    base = indent_width(lines[start])
    last = start
    for index in range(start + 1, len(lines)):
        if not norms[index] or continues_block(norms[index]):
            continue
        width = indent_width(lines[index])
        if width > base:
            last = index
            continue
        if width == base and continues_block(norms[index]):
            last = index
            continue
        if width == base and is_closer(norms[index]):
            last = index
        break
    return last


_ASSIGNED = re.compile(r"^((?:(?:const|let|var|local|val|export|static|final|public|private)\s+)*"
                       r"[A-Za-z_$][\w$.\[\]'\"]*\s*(?::[^=]*)?)\s*[:=]\s")
_TOKEN = re.compile(r"\w+|[^\w\s]")


def edited_version(new: str, old: str, *, assignments: bool = False) -> bool:
    """True when `new` reads as an edit of `old`, not a different line: the same definition name, or
    one line's tokens contain the other's (an import that gained a name, an argument appended)."""
    if new and old and not is_closer(old) and (new.startswith(old + " ") or old.startswith(new + " ")):
        return True  # words appended: `return` -> `return None`, `pass` -> `pass  # todo`
    if is_trivial(new) or is_trivial(old):
        return False
    key, old_key = header_key(new), header_key(old)
    if key is not None and key == old_key:
        return True
    if key is not None and old_key is not None:
        return False
    new_target, old_target = _ASSIGNED.match(new), _ASSIGNED.match(old)
    if assignments and new_target and old_target and new_target.group(1).strip() == old_target.group(1).strip():
        return True  # the same name given a new value: `TIMEOUT = 30` -> `TIMEOUT = 60`
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    if a[0] != b[0] or ratio(new, old) < _FUZZY_MIN:
        return False
    if opens_block(new) and opens_block(old) and ratio(new, old) >= 85:
        return True  # a block header with a changed condition: `if x > 1 {` -> `if x > 2 {`
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    remaining = Counter(large)
    missing = 0
    for token in small:
        if remaining[token] > 0:
            remaining[token] -= 1
        elif token[0].isalnum() or token[0] == "_":
            return False  # a word of one line is not in the other: a different line, not an edit
        else:
            missing += 1
    return missing <= 1


def _span(positions: list[int], lo: int, hi: int) -> tuple[int, int]:
    return bisect_left(positions, lo), bisect_left(positions, hi)


def _count(positions: list[int], lo: int, hi: int) -> int:
    first, last = _span(positions, lo, hi)
    return last - first


def _heaviest_chain(cands: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
    """The heaviest chain of candidates strictly increasing in both coordinates (Fenwick tree)."""
    if not cands:
        return []
    cands = sorted(set(cands))
    ranks = {o: r + 1 for r, o in enumerate(sorted({o for _, o, _ in cands}))}
    size = len(ranks)
    tree_best = [0.0] * (size + 1)
    tree_arg = [-1] * (size + 1)
    best = [0.0] * len(cands)
    back = [-1] * len(cands)
    start = 0
    while start < len(cands):
        end = start
        while end < len(cands) and cands[end][0] == cands[start][0]:
            end += 1
        for index in range(start, end):
            _, o, weight = cands[index]
            r, top, arg = ranks[o] - 1, 0.0, -1
            while r > 0:
                if tree_best[r] > top:
                    top, arg = tree_best[r], tree_arg[r]
                r -= r & -r
            best[index], back[index] = top + weight, arg
        for index in range(start, end):
            r = ranks[cands[index][1]]
            while r <= size:
                if best[index] > tree_best[r]:
                    tree_best[r], tree_arg[r] = best[index], index
                r += r & -r
        start = end
    index = max(range(len(cands)), key=best.__getitem__)
    chain = []
    while index >= 0:
        chain.append((cands[index][0], cands[index][1]))
        index = back[index]
    return chain[::-1]
