"""Blank lines around inserted definitions: models double or drop the blank line that opens an
inserted block. The file's own spacing before definitions at the same indentation, when it is
consistent, wins over the snippet's; no run of blank lines is longer than the file ever has.

Complexity: O(n) per indentation asked about (cached), a regex only on block-opening lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from .lines import COMMENT_STARTS, blank_indices, continues_block, header_key, in_triple_quotes, indent_width, is_closer, \
    opens_block
from .shapes import (BODY_END, DATA_ASSIGNMENT, EMPTY, OBJECT_KEY, PREAMBLE, PREPROCESSOR_BRANCH, SNIP, STATEMENT,
                     closes_preamble, closes_statement, in_new_string, new_definition_ends, packed_siblings, pep8_gap,
                     preamble_at, preamble_start, top_level_after_block)

# a call whose argument list opens a literal: `registerUploadMcpTools({`, `await run([`
_CALL_OPENING = re.compile(r"^(?:await\s+)?[\w$.]+\(\s*[{\[]$")
# a (typed) field or variable given a value, `description: Optional[str] = Field(`: a statement
_FIELD = re.compile(r"^[A-Za-z_]\w*\s*(?::[^=]+)?=(?!=)")
# a line of a definition's header above its name: `template <typename T>`, `static inline int`
_HEADER_PREFIX = re.compile(r"^(?:template\s*<.*>|[\w:*&<>, ]+)$")


class Spacing:
    """The number of blank lines the original puts before a definition at a given indentation,
    when it is consistent (models double or drop the blank line that opens an inserted block).
    Computed lazily, once per indentation: O(n) with a regex only on block-opening lines."""

    _SAMPLES = 5
    _SHARE = 0.9
    _ENOUGH = 200

    def __init__(self, orig: list[str], in_string: Callable[[int], bool] | None = None,
                 norms: list[str] | None = None) -> None:
        self.orig = orig
        self._norms = norms  # (segments.normalize_all of orig, where the caller has it)
        self._in_string = in_string  # (the aligner's, which the checks after the splice share)
        self._usual: dict[int, int | None] = {}
        self._most: dict[int | None, int] = {}
        self._runs: Counter[tuple[int, int]] = Counter()  # (width, run length) -> runs so, with _most
        self._lines: dict[str, int] | None = None
        self._pairs: set[tuple[str, str]] | None = None  # (_glued_pairs)
        self._strings: list[bool] | None = None  # per original line: starts inside a """ string
        self._single: int | None = None  # (single_after_blocks)

    def before_new(self, out: list[tuple[str, str, int, int]], before: int, after: int) -> int | None:
        """For the blank run between out[before] and out[after]: when out[after] starts a new
        definition (its header or the comments above it) after the end of a sibling, the count its
        neighbours or the file's usual spacing give, else None (the snippet's count stands).
        O(1) amortised: the file's spacing is measured once per indentation, the neighbours'
        in the length of one definition."""
        text, source, at, _ = out[after]
        prev, prev_source, prev_at, _ = out[before]
        if source != SNIP or not prev.strip():
            return None
        if at >= 0:
            if after - before - 1 or prev_source != SNIP or prev_at >= 0:
                return None  # (the cheap tests of the condition below, first: most paired lines stop here)
            # a paired header right after a new block's closing line: only the missing blank line
            ends_sibling = indent_width(prev) > indent_width(text) and pep8_gap(text.strip()) \
                and new_definition_ends(out, before, indent_width(text)) or \
                is_closer(prev.strip()) and indent_width(prev) == indent_width(text)
            if after - before - 1 or prev_source != SNIP or prev_at >= 0 or not ends_sibling \
                    or at > 0 and self.orig[at - 1].strip() or indent_width(text) != indent_width(self.orig[at]):
                return None  # (a paired doc comment above the header counts as its start; a header
                # the file writes right after code keeps that; one the snippet moved into a new block,
                # re-indented, is spaced as the snippet writes it: fecha's `validateFields`)
        width = indent_width(text)
        norm, prev_norm = text.strip(), prev.strip()
        if PREPROCESSOR_BRANCH.match(norm):
            return None  # (`#else` / `#endif`: the other branch of a C conditional, not a comment
            # above a definition; pysam's hts_defs.h glues `#else` to the `}` above it)
        if opens_block(prev_norm) or indent_width(prev) < width or prev_norm.startswith(PREAMBLE) \
                or indent_width(prev) == width and not is_closer(prev_norm) \
                or closes_preamble(out, before, width):
            return None  # not after the end of a sibling block
        head = after
        while norm.startswith(PREAMBLE) and head + 1 < len(out) and out[head + 1][0].strip() \
                and (indent_width(out[head + 1][0]) == width or preamble_at(out[head + 1][0], width)):
            head += 1
            norm = out[head][0].strip()
        allman = head + 1 < len(out) and out[head + 1][0].strip() == "{"
        if at < 0 and header_key(norm) is not None and header_key(norm).startswith("key:") \
                and in_new_string(out, after):
            return None  # (`Returns:` in a new docstring is text, not a key)
        if out[head][1] != SNIP or not (opens_block(norm) or allman) or header_key(norm) is None \
                or STATEMENT.match(norm) or prev_norm.endswith(";") and _CALL_OPENING.match(norm):
            return None  # (a call opening a literal under a statement, strapi's `registerUploadMcpTools({`
            # under `});`: a statement too, spaced as written)
        if width not in self._usual:
            self._usual[width] = self._measure(width)
        usual = self._usual[width]
        ends_sibling = is_closer(prev_norm) and indent_width(prev) == width \
            or pep8_gap(norm) and indent_width(prev) > width
        if at < 0 and prev_source != EMPTY and ends_sibling:
            # A new definition right after the closing line of a sibling (or a Python body) gets
            # that sibling's spacing when the snippet writes it too, whatever the rest of the file
            # does; or, when the file has no usual spacing, when the snippet is one blank line off
            # it (doubled or dropped; at the file's end, where nothing follows, only doubled). A
            # Python definition's blank lines are PEP 8's, never a slip, unless there are none.
            # Siblings packed without a blank line: a new one written so stays so (no slip to
            # mend), one written with a doubled blank line gets one.
            moved = self._original_index(out[head][0])
            written = after - before - 1
            if written and DATA_ASSIGNMENT.match(norm):
                return None  # (a literal assigned after a sibling's end is spaced as the snippet
                # writes it: tilelang's `_ascend_dispatch_map: ... = {` one blank line under `}`,
                # where the file's two set off the function below)
            if written == 0 and ((prev_norm, text.strip()) in self._glued_pairs()
                                 or prev_norm.endswith(",") and self._glued_after(prev_norm, width)):
                return None  # code that glues the two as the file does (`},` and the next key; a
                # new entry copied from its siblings, each with `test() {...},` over `describe() {`;
                # a new `path(` call in a list whose entries the file glues under `),`: an entry's
                # end, with its comma; `}` alone may end a function the file glues its code to)
            if written == 0 and width > 0 and DATA_ASSIGNMENT.match(norm) and "." in norm.split("=", 1)[0]:
                return None  # an attribute given a literal is a statement, glued as written (langchain-core)
            if prev_at < 0 and written == 0 and self._glued_run(out, before):
                return None  # new siblings glued like the first of them to the code above them
            if prev_at < 0 and written == 0 and packed_siblings(out, before, width):
                return None  # new siblings the snippet packs one under the other, every one
            if moved is not None:
                # moved here, it brings its spacing: packed where it was, or as the snippet writes
                own = self._moved_gap(moved, width)
                if own == written:
                    return None if written == 0 else written
                # written with one blank line more than it had after it where it was, and than
                # above it: a doubled one (ansicolors' escapeNumber, moved down, two blank lines
                # above it; penlight's check_cnfg brought the two it had above it)
                if own is not None and written == own + 1 and own > 0 and not pep8_gap(norm) \
                        and self.above(moved, width) != written:
                    return own
            elif (local := self.neighbours(prev_at, width)) == 0:
                if written == 2 and not pep8_gap(norm):
                    return 1
                if written == 0 and (self._starts_definition(prev_at + 1, width)
                                     or self._glued_after(prev_norm, width) or _FIELD.match(norm)):
                    return None  # (or the file never spaces code under such a closing line: metro's
                    # compiled helpers, `}` over `const debug = ...`; or the new line is a field, a
                    # statement: stackit's `description: Optional[...] = Field(` among glued fields)
                if written == 1:
                    return 1
            elif local is not None and (written == local or usual is None
                                        and self._slip(written, local, pep8_gap(norm), prev_at)):
                return local
        if after - before - 1 == 0:
            # no blank line at all between a block's closing line and the next definition is a slip
            # (an indentation-ended block: only a new Python definition before another one); a
            # literal assigned under another (`items = {` under `]`) is a statement, glued as written
            if DATA_ASSIGNMENT.match(norm) or usual is None and OBJECT_KEY.match(norm) and prev_at >= 0 \
                    and self._glued_above(prev_at, width, entries=True):
                return None  # (a definition glued to its sibling above it in the original: glued as written)
            if usual is None and (is_closer(prev_norm) and indent_width(prev) == width
                                  and not closes_statement(out, before, width)
                                  or indent_width(prev) > width and pep8_gap(norm)
                                  and new_definition_ends(out, before, width)):
                return 1
            return usual
        return None if pep8_gap(out[head][0]) else usual

    def _glued_run(self, out: list[tuple[str, str, int, int]], before: int) -> bool:
        """out[before] is a line of new code that starts glued to a kept line above it, and the
        spacing kept it glued there (xstate's bundle writes its nested helpers one under the
        other, right under the statement before them): its later definitions follow suit.
        O(the new lines above)."""
        k = before
        while k >= 0 and out[k][1] == SNIP and out[k][2] < 0:
            k -= 1
        return 0 <= k < before and out[k][2] >= 0 and out[k][0].strip() != "" \
            and out[k + 1][0].strip() != "" and self.before_new(out, k, k + 1) is None

    def neighbours(self, at: int, width: int) -> int | None:
        """The blank lines that separate the definition ending at original line `at` from its
        siblings at `width`: those after it, or, when it is the last of its block, those above
        it (a new sibling written after it gets the spacing its neighbours have), at most two.
        None when the original says nothing: no sibling on either side.
        O(length of that definition)."""
        if at < 0 or at >= len(self.orig):
            return None
        after = at + 1
        while after < len(self.orig) and not self.orig[after].strip():
            after += 1
        if after < len(self.orig):
            following = self.orig[after]
            if indent_width(following) == width and not is_closer(following.strip()):
                if after - at > 1 and following.strip().startswith(COMMENT_STARTS) and self._glued_above(at, width):
                    return None  # (glued to the sibling above; the blank line sets off a commented section)
                return min(after - at - 1, 2)
            if indent_width(following) > width:
                return None
        return self.above(self._top_of(at, width), width)

    def _glued_above(self, at: int, width: int, entries: bool = False) -> bool:
        """The definition ending at original line `at` starts right under its previous sibling's
        closing line (fastify's error table: `),` then the next entry); with `entries`, under any
        line of its previous sibling (a JSON key's list right under `"description": "..."`).
        O(its length)."""
        top = self._top_of(at, width)
        upper = self.orig[top - 1] if top > 0 else ""
        if entries and upper.strip() and indent_width(upper) == width:
            return True
        return indent_width(upper) == width and bool(BODY_END.match(upper.strip()))

    def _top_of(self, at: int, width: int) -> int:
        """The first line at `width` of the definition ending at original line `at` (its header,
        when it has one): up past its body and closing lines. O(its length)."""
        top = at
        while top > 0 and (not self.orig[top].strip() or indent_width(self.orig[top]) > width
                           or is_closer(self.orig[top].strip())):
            top -= 1
        if top > 0 and self.orig[top].strip() == "{" and self.orig[top - 1].strip():
            top -= 1  # (an Allman brace: the header is the line above it)
        return top

    def above(self, top: int, width: int) -> int | None:
        """The blank lines above the definition whose header is original line `top` (over its
        comments), at most two; None for the first of its block (or of the file), or when `top`
        is no header at `width` (-1: a line the original has more than once). O(its comments)."""
        if top < 0 or indent_width(self.orig[top]) != width or not (
                opens_block(self.orig[top].strip())
                or top + 1 < len(self.orig) and self.orig[top + 1].strip() == "{"):  # (Allman)
            return None
        while top > 0 and preamble_at(self.orig[top - 1], width):
            top -= 1
        blank = top
        while blank > 0 and not self.orig[blank - 1].strip():
            blank -= 1
        upper = self.orig[blank - 1].strip() if blank > 0 else ""
        if blank == top or blank == 0 or opens_block(upper) or indent_width(self.orig[blank - 1]) < width:
            return None  # (no blank line: the line above may still be part of a long header)
        return min(top - blank, 2)

    def _moved_gap(self, header: int, width: int) -> int | None:
        """The blank lines that followed the definition opening at original line `header` where
        it was (a moved definition brings them); None when no sibling followed it.
        O(length of the definition)."""
        if header < 0 or indent_width(self.orig[header]) != width:
            return None
        end = header + 1
        while end < len(self.orig) and (not self.orig[end].strip() or indent_width(self.orig[end]) > width
                                        or continues_block(self.orig[end].strip())):
            end += 1
        if end < len(self.orig) and is_closer(self.orig[end].strip()):
            end += 1
        while not self.orig[end - 1].strip():
            end -= 1
        after = end
        while after < len(self.orig) and not self.orig[after].strip():
            after += 1
        if after == len(self.orig) or indent_width(self.orig[after]) != width:
            return None
        return after - end

    def moved_glued(self, out: list[tuple[str, str, int, int]], before: int, after: int) -> bool:
        """out[before] closes a new definition that the original has elsewhere (moved: its header
        occurs there once), right next to the definition out[after] opens, with no blank line
        between the two, and the snippet glues them too: they stay glued (a swap of two
        neighbours written as the file has them). O(length of the two definitions)."""
        text, prev = out[after][0], out[before][0]
        width, at = indent_width(text), out[after][2]
        if at < 0 or out[before][1] != SNIP or out[before][2] >= 0 or indent_width(prev) != width \
                or not is_closer(prev.strip()):
            return False
        index = before - 1
        while index >= 0 and out[index][1] == SNIP and out[index][2] < 0:
            line = out[index][0]
            if line.strip() and indent_width(line) <= width:
                if indent_width(line) < width or is_closer(line.strip()):
                    return False
                moved = self._original_index(line)
                return moved is not None and moved >= 0 and moved != at \
                    and all(self.orig[k].strip() for k in range(min(moved, at), max(moved, at))) \
                    and is_closer(self.orig[max(moved, at) - 1].strip())
            index -= 1
        return False

    def _starts_definition(self, index: int, width: int) -> bool:
        """Original line `index` opens a definition at `width`, or the comments above one."""
        if index >= len(self.orig):
            return False
        while index + 1 < len(self.orig) and preamble_at(self.orig[index], width):
            index += 1
        norm = self.orig[index].strip()
        # (`export function createStore<`: type parameters on the lines below open it too)
        return indent_width(self.orig[index]) == width and header_key(norm) is not None \
            and not STATEMENT.match(norm) and (opens_block(norm) or norm.endswith("<") or index + 1 < len(self.orig)
                                                 and self.orig[index + 1].strip() == "{")

    def in_string(self, at: int) -> bool:
        """True when original line `at` starts inside a triple-quoted string (lines.in_triple_quotes,
        a scan of the whole file on first use, O(n))."""
        if self._in_string is not None:
            return self._in_string(at)
        if self._strings is None:
            self._strings = in_triple_quotes(self.orig)
        return self._strings[at]

    def _slip(self, written: int, local: int, python: bool, at: int) -> bool:
        """`written` blank lines where the neighbours of original line `at` have `local` are a
        doubled or dropped one (at the file's end only doubled; in Python only none at all)."""
        if python:
            return written == 0
        return written == local + 1 or written == local - 1 and not self._ends_file(at)

    def _ends_file(self, at: int) -> bool:
        """Only blank lines follow original line `at`. O(those lines)."""
        return all(not line.strip() for line in self.orig[at + 1:])

    def _original_index(self, line: str) -> int | None:
        """Where the line occurs in the original (a header that does is moved code), -1 when
        more than once, None when nowhere. O(n) once."""
        if self._lines is None:
            self._lines = {}
            for index, text in enumerate(self.orig):
                key = text.strip()
                self._lines[key] = -1 if key in self._lines else index
        return self._lines.get(line.strip())

    def _glued_pairs(self) -> set[tuple[str, str]]:
        """Every two neighbouring non-blank original lines, stripped. O(n) once."""
        if self._pairs is None:
            stripped = [line.strip() for line in self.orig]
            self._pairs = {(a, b) for a, b in zip(stripped, stripped[1:]) if a and b}
        return self._pairs

    def glued_under_new_block(self, out: list[tuple[str, str, int, int]], before: int, after: int) -> bool:
        """out[after], a paired line, right under out[before], the closing line of new code at its
        depth, where the file glues code under such closing lines and never spaces it (babel's
        compiled `}` over `const index = declare(`): a new function written glued above an old
        one stays glued, whatever blank lines the old one had above it. O(n) when asked."""
        text, source, at, _ = out[after]
        prev, prev_source, prev_at, _ = out[before]
        return source == SNIP and at >= 0 and prev_source == SNIP and prev_at < 0 \
            and is_closer(prev.strip()) and indent_width(prev) == indent_width(text) \
            and self._glued_after(prev.strip(), indent_width(text))

    def _glued_after(self, closer: str, width: int) -> bool:
        """True when the original writes the closing line `closer` at `width` with a sibling glued
        under it, and never with blank lines between it and one. O(n) per call (one per new
        block written glued under a closing line)."""
        glued = spaced = 0
        orig = self.orig
        for at, line in enumerate(orig):
            if line.strip() != closer or indent_width(line) != width:
                continue
            below = at + 1
            while below < len(orig) and not orig[below].strip():
                below += 1
            if below < len(orig) and indent_width(orig[below]) == width:
                glued, spaced = glued + (below == at + 1), spaced + (below > at + 1)
        return glued > 0 and spaced == 0

    def single_after_blocks(self) -> int:
        """How many times the original puts one blank line between an indented line and top-level
        code that is no definition (`tests.append(f)` under `def f`): its own habit there, which a
        snippet's two blank lines do not overrule when it has more than the one place being
        merged. O(n) once."""
        if self._single is None:
            self._single = 0
            for index in range(2, len(self.orig)):
                line = self.orig[index]
                if not self.orig[index - 1].strip() and self.orig[index - 2].strip() \
                        and top_level_after_block(self.orig[index - 2], line) and not pep8_gap(line):
                    self._single += 1
        return self._single

    def most(self, width: int | None = None) -> int:
        """The longest run of blank lines in the original (more is a slip of the snippet's), or,
        given a `width`, the longest run right before a line at that indentation (two blank
        lines before a top-level function say nothing about a function's body); unbounded for
        short files, which say little about their style. O(n) once, for every width at once."""
        if len(self.orig) < 20:
            return 1 << 30
        if not self._most:  # every width's answer in one pass (a long splice asks about many)
            most: dict[int | None, int] = {None: 0}
            orig = self.orig
            # (only the blank lines are read one by one, found in C where the normalised lines
            # are known: most lines of a file are code)
            blanks = blank_indices(self._norms) if self._norms is not None else \
                [index for index, line in enumerate(orig) if not line.strip()]
            run = 0
            for at, index in enumerate(blanks):
                run += 1
                if at + 1 < len(blanks) and blanks[at + 1] == index + 1:
                    continue  # the run goes on
                if index + 1 == len(orig):
                    most[None] = max(most[None], run)  # (the file's last lines: no width)
                    break
                key = indent_width(orig[index + 1])  # the line right after the run
                self._runs[(key, run)] += 1
                if run > most.get(key, 0):
                    most[key] = run
                if run > most[None]:
                    most[None] = run
                run = 0
            self._most = most
        return self._most.get(width, 0)

    def runs(self, width: int, length: int) -> int:
        """How many runs of exactly `length` blank lines the original has right before a line at
        indentation `width` (short files: none counted). O(n) once, shared with most()."""
        self.most()
        return self._runs[(width, length)]

    def _measure(self, width: int) -> int | None:
        runs: list[int] = []
        for index, line in enumerate(self.orig):
            norm = line.strip()
            if not norm or indent_width(line) != width or header_key(norm) is None or not (
                    opens_block(norm) or index + 1 < len(self.orig) and self.orig[index + 1].strip() == "{"):
                continue
            top = index
            while top > 0:
                # (doc comments and decorators, also one written over several lines: its closing
                # `)` is no sibling's end glued to the header)
                while top > 0 and preamble_at(self.orig[top - 1], width):
                    top -= 1
                start = preamble_start(self.orig.__getitem__, top - 1, width) if top > 0 else None
                if start is None:
                    break
                top = start
            blank = top
            while blank > 0 and not self.orig[blank - 1].strip():
                blank -= 1
            above = self.orig[blank - 1] if blank > 0 else ""
            if blank > 0 and indent_width(above) >= width and not opens_block(above.strip()) \
                    and not (blank == top and _HEADER_PREFIX.match(above.strip())) \
                    and not (blank == top and indent_width(above) == width and not BODY_END.match(above.strip())):
                # (a template or return type line right above the header is part of it)
                # (a header glued to a declaration without a body, an overload's `): Store<S>`,
                # says nothing of how definitions with bodies are spaced)
                # (the first definition of a block, right under its opening line, says nothing
                # about how siblings are separated)
                runs.append(top - blank)
                if len(runs) >= self._ENOUGH:
                    break  # the file's habit shows long before its end
        if len(runs) < self._SAMPLES:
            return None
        value, count = Counter(runs).most_common(1)[0]
        return value if count >= self._SHARE * len(runs) else None
