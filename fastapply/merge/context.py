"""Context lines right after a marker that are not paired yet: where in the original they are.

The lines right after a marker are often unchanged context (`store.append(e)`, `}`, `return total`)
followed by a deletion up to the next anchor. These functions find the copy of such a block that the
snippet means, or leave it unpaired when no copy is trustworthy. The lines before a marker, and
those before a deletion of whole definitions, are context_ends.py's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .chain import nearest_below
from .lines import bracket_balance, is_comment, is_trivial
from .similar import replaces, similarity

if TYPE_CHECKING:
    from .anchor import Aligner


def context_block(al: Aligner, tail: list[int], lo: int, hi: int) -> None:
    """Find where the unpaired block of lines after a marker (`tail`) occurs contiguously in the
    original range [lo, hi), closest to the next anchor (the reading that deletes least), and
    pair it. A weak block (one line, or only trivial lines) pairs only with a copy at the same
    depth that has whole blocks between it and the next anchor."""
    block: list[int] = []
    for s in tail:
        if s in al.pairs or al.in_new_definition(s) or s in al.markers:
            break
        block.append(s)
    if _context_before_edit(al, block, lo, hi):
        return
    # a lone line, or a few lines like `pass` / `return None`: it takes more to trust a copy
    weak = len(block) == 1 or all(is_trivial(al.snorm[s]) for s in block)
    if not block or weak and len(block) > 3:
        return
    first = next((s for s in block if not is_trivial(al.snorm[s])), block[0])
    offset = block.index(first)
    # the snippet line's indentation relative to the next anchor, when there is one
    after = next((s for s in range(block[-1] + 1, len(al.items)) if s in al.pairs), None)
    if after is not None and lo <= al.pairs[after] < hi:
        hi = al.pairs[after]  # the block's copy must come before the anchor that follows it
    shift = None if after is None or al.pairs[after] != hi else \
        al.swidth[first] - al.swidth[after]
    if shift is not None and (run := _unique_head(al, block, lo, hi) or _edited_block(al, block, lo, hi, after)):
        al.pairs.update(run)
        al.fuzzy.update(s for s, _ in run)
        return
    copies = nearest_below(al.opos.get(al.snorm[first], []), hi, lo)
    if shift is not None and not weak:
        # a copy at the depth the snippet shows, relative to the anchor after it, before a nearer one
        # at another depth (pycadf's `instance.__dict__[self.name] = value` in the `if` branch, not
        # the `else` branch's one, further down and shallower)
        copies = sorted(copies, key=lambda start: al.owidth[start] - al.owidth[hi] != shift)
    for start in copies:
        if weak and shift is not None and al.owidth[start] - al.owidth[hi] != shift:
            continue  # only a copy at the same depth can be it
        o, run = start, []
        for s in block[offset:]:
            o = al._skip_blank(o, hi, +1)
            if o >= hi or al.onorm[o] != al.snorm[s]:
                break
            run.append((s, o))
            o += 1
        complete = len(run) == len(block) - offset
        if weak and not complete:
            continue  # `pass` / `return result` together, further up
        # the trivial lines before `first` (`} || {` above a header), when they stand right
        # before its copy, are the head of an edited block too
        lead = _lead(al, block[:offset], start, lo) if offset and not complete and shift is not None else None
        if complete and (len(run) >= 2 and not weak
                         or shift is not None and ends_before_whole_blocks(al, run[-1], hi)) \
                or not complete and offset == 0 and shift is not None and _edits_up_to(al, block, run, hi):
            al.pairs.update(run)
            al.fuzzy.update(s for s, _ in run)
        elif lead is not None and _edits_up_to(al, block, lead + run, hi):
            al.pairs.update(lead + run)
            al.fuzzy.update(s for s, _ in lead + run)
        return


def _lead(al: Aligner, lines: list[int], start: int, lo: int) -> list[tuple[int, int]] | None:
    """The pairs of `lines` with the original lines right before `start` (blank lines skipped),
    when they are the same text; else None. O(len(lines))."""
    run: list[tuple[int, int]] = []
    o = start - 1
    for s in reversed(lines):
        o = al._skip_blank(o, lo - 1, -1)
        if o < lo or al.onorm[o] != al.snorm[s]:
            return None
        run.insert(0, (s, o))
        o -= 1
    return run


def _unique_head(al: Aligner, block: list[int], lo: int, hi: int) -> list[tuple[int, int]]:
    """The pairs of the block's head (its leading lines that the original has) when one of them
    occurs once in the original, in [lo, hi), the head stands there line for line, and the
    block's other lines (new or edited) replace the original lines from there up to the next
    anchor `hi`, as many or fewer, none of them the same (`return true;` / `}` once in the file,
    then a rewritten declaration before the anchor). Else none. O(block + lines up to hi)."""
    head: list[int] = []
    for s in block:
        if not al.opos.get(al.snorm[s]):
            break
        head.append(s)
    key = next((k for k, s in enumerate(head) if len(al.opos[al.snorm[s]]) == 1), None)
    if key is None or len(head) == len(block) or not lo <= al.opos[al.snorm[head[key]]][0] < hi:
        return []
    at = al.opos[al.snorm[head[key]]][0]
    run = [(head[key], at)]
    o = at
    for s in reversed(head[:key]):
        o = al._skip_blank(o - 1, lo - 1, -1)
        if o < lo or al.onorm[o] != al.snorm[s]:
            return []
        run.insert(0, (s, o))
    o = at
    for s in head[key + 1:]:
        o = al._skip_blank(o + 1, hi, +1)
        if o >= hi or al.onorm[o] != al.snorm[s]:
            return []
        run.append((s, o))
    rest = {al.snorm[s] for s in block[len(head):]}
    between = [o for o in range(run[-1][1] + 1, hi) if al.onorm[o]]
    if len(between) > len(block) - len(head) or any(al.onorm[o] in rest for o in between) \
            or hi < len(al.orig) and any(al.owidth[o] < al.owidth[hi] for o in between):
        return []  # (more lines, one shown, or a block's end: not what those lines replace)
    return run


def _edited_block(al: Aligner, block: list[int], lo: int, hi: int, after: int) -> list[tuple[int, int]]:
    """The pairs of the block's first and last lines when it opens with a trivial line the original
    has (`() => {`, `{`), goes on with a new line, and its copy of that opening line nearest the
    next anchor `hi`, at the same depth relative to it, starts as many code lines before the
    anchor as the block has, the last of them the block's last line (`},`): that block of the
    original, edited (a callback's body rewritten); read as new code, it would stand next to its
    old copy. Else none. O(block + lines up to hi)."""
    code = [s for s in block if al.snorm[s]]
    if len(code) < 3 or not is_trivial(al.snorm[code[0]]) or al.snorm[code[1]] in al.opos:
        return []
    copies = nearest_below(al.opos.get(al.snorm[code[0]], []), hi, lo)
    if not copies or al.owidth[copies[0]] - al.owidth[hi] != al.swidth[code[0]] - al.swidth[after]:
        return []
    between = [o for o in range(copies[0], hi) if al.onorm[o]]
    if len(between) != len(code) or al.onorm[between[-1]] != al.snorm[code[-1]]:
        return []
    return [(code[0], copies[0]), (code[-1], between[-1])]


def _edits_up_to(al: Aligner, block: list[int], run: list[tuple[int, int]], hi: int) -> bool:
    """True when the block's lines after its matched head `run` (edited lines) are as many as
    the original lines between the run's copy and the next anchor `hi`, the first of them not
    the same: context, then a run of lines that replaces the original's lines one for one up to
    the anchor (`matches,` / `slots,` then four edited arguments before `)`; `"enabled": {`, an
    edited value, then the same `},` before the next key). Also true, with counts that differ,
    for comment lines rewritten into comment lines, and for a line split after its opening
    bracket into more. O(block + lines up to hi)."""
    if not run or all(is_trivial(al.snorm[s]) for s, _ in run):
        return False
    rest = block[len(run):]
    between = [o for o in range(run[-1][1] + 1, hi) if al.onorm[o]]
    if not rest or not between or al.snorm[rest[0]] == al.onorm[between[0]]:
        return False
    if len(rest) == len(between) or all(is_comment(al.onorm[o]) for o in between) \
            and all(is_comment(al.snorm[s]) for s in rest):
        return True  # (a comment rewritten into fewer or more lines takes nothing else with it)
    if edits_dropping_comments(al, rest, between) or _rewrites_body(al, run[-1], rest, between, hi):
        return True
    # fewer original lines, the first split after its opening bracket (`searchpath: t.Union[`, then
    # the rest of a long annotation over more lines): what the snippet shows replaces them
    first = al.snorm[rest[0]]
    if len(between) < len(rest) and first.endswith(("(", "[", "{")) and len(first) > 3 \
            and al.onorm[between[0]].startswith(first):
        return True
    return _replaces_statements(al, run, rest, between, hi)


_REPLACED_MAX = 30  # original lines that context, new lines and the next anchor may replace


def _rewrites_body(al: Aligner, header: tuple[int, int], rest: list[int], between: list[int], hi: int) -> bool:
    """The context ends with a block header whose whole body in the original is what stands
    between it and the next anchor `hi` (which is no deeper than the header), and the lines after
    it in the snippet are all deeper than the header too: the snippet gives the block a new body
    (streamlink's `if hasattr(self.fd, "close"):` over `with suppress(Exception):` where a
    `try:` / `except Exception: pass` stood). Read as new code instead, the header would stand
    twice. O(between + rest)."""
    s, o = header
    if hi >= len(al.orig) or not al.o_opens(o) or len(between) > _REPLACED_MAX or al.owidth[hi] > al.owidth[o] \
            or any(al.owidth[k] <= al.owidth[o] for k in between):
        return False
    if not all(al.swidth[t] > al.swidth[s] for t in rest if al.snorm[t]):
        return False
    # every statement of the old body the new one gives again, or a line of the try statement
    # around it: a statement neither shows (`log_found(found)` under an edited line) is no
    # rewrite's to drop
    shown = {al.snorm[t] for t in rest}
    return all(al.onorm[k] in shown or is_trivial(al.onorm[k]) or is_comment(al.onorm[k])
               or _TRY_LINE.match(al.onorm[k]) for k in between)


_TRY_LINE = re.compile(r"^(?:try\s*:|finally\s*:|else\s*:|except\b.*:|pass)$")


def _replaces_statements(al: Aligner, run: list[tuple[int, int]], rest: list[int], between: list[int],
                         hi: int) -> bool:
    """Context of two code lines or more at the copy nearest above the anchor, new lines, then the
    anchor with no marker between: the snippet replaces what lies between, when that is whole
    statements (brackets balanced) inside the anchor's block and at the context's depth or deeper,
    and the new lines are whole statements too (cirq's `with cirq.testing.assert_deprecated(...):`
    block and the call under it rewritten below the tail of a call the file has four times). Read
    the other way, the context would be new code, the tail of a call nobody opened. O(between)."""
    if sum(1 for s, _ in run if not is_trivial(al.snorm[s])) < 2 or len(between) > _REPLACED_MAX:
        return False
    depth = min(al.owidth[hi], al.owidth[run[0][1]])
    if any(al.owidth[o] < depth for o in between) or al.owidth[between[0]] != al.owidth[hi]:
        return False
    return _balanced(al.onorm[o] for o in between) and _balanced(al.snorm[s] for s in rest)


def _balanced(lines: Iterable[str]) -> bool:
    """The lines open as many brackets as they close, and never close one they did not open."""
    level = 0
    for line in lines:
        level += bracket_balance(line)
        if level < 0:
            return False
    return level == 0


def edits_dropping_comments(al: Aligner, rest: list[int], between: list[int]) -> bool:
    """True when the original lines up to the anchor are the new lines' old versions, in order and
    one for one, with only comment lines besides (`found = self._exclude(p)` and the commented-out
    code under it became `self._exclude(p)`): the new lines replace all of them. O(len(between))
    similarity tests."""
    code = [s for s in rest if al.snorm[s]]
    if not code or len(code) >= len(between) or any(is_comment(al.snorm[s]) for s in code) \
            or {al.snorm[s] for s in code} & {al.onorm[o] for o in between}:
        return False  # (a line the original has there unchanged is context, not an edit)
    k = 0
    for o in between:
        if k < len(code) and not _commented(al.onorm[o]) and _resembles(al.snorm[code[k]], al.onorm[o]):
            k += 1
        elif not _commented(al.onorm[o]):
            return False
    return k == len(code)


# a C preprocessor line, which `#` does not comment out (`#if not found:` is Python commented out)
_C_DIRECTIVE = re.compile(r"^#\s*(?:include|define|undef|pragma|ifdef|ifndef|endif|elif|else|error|line|import)\b"
                          r"|^#\s*if\s*(?:defined\b|[!(\dA-Z_])")


def _commented(norm: str) -> bool:
    return is_comment(norm) or norm[:1] == "#" and not _C_DIRECTIVE.match(norm)


def _resembles(new: str, old: str) -> bool:
    """One line holds the other (`x = f(a)` -> `f(a)`), or they are mostly the same text."""
    return len(new) > 3 and len(old) > 3 and (new in old or old in new) or similarity(new, old) >= _CLOSE


_CLOSE = 80.0


def _context_before_edit(al: Aligner, block: list[int], lo: int, hi: int) -> bool:
    """Common context lines (`return true;`, `}`) right after a marker, then new lines, then
    the next anchor: the context is the copy nearest the anchor, at the same depth relative to it,
    when no more original lines stand between that copy and the anchor than the new lines that
    replace them (the reading that deletes least, and the literal one); a single context line
    only when the new lines replace as many, the first an edit of the first (`return None`, then
    a reworded comment above the anchor), or one more that they fold into themselves (_folds:
    freqtrade's `continue` over `if erase:` / `if purge(pair):` written `if erase and purge(pair):`,
    the anchor below then shallower). Pairs it; True when done.
    O(len(block)) plus one lookup of the nearest copy."""
    lead: list[int] = []
    for s in block:
        if al.snorm[s] not in al.opos:
            break
        lead.append(s)
    rest = [s for s in block[len(lead):] if al.snorm[s]]
    if not 1 <= len(lead) <= 3 or not rest or not all(is_trivial(al.snorm[s]) for s in lead):
        return False
    after = next((s for s in range(block[-1] + 1, len(al.items)) if s in al.pairs), None)
    if after is None or not lo <= al.pairs[after] <= hi:
        return False
    hi = al.pairs[after]
    copies = nearest_below(al.opos[al.snorm[lead[0]]], hi, lo)
    if not copies:
        return False
    o, run = copies[0], []
    for s in lead:
        o = al._skip_blank(o, hi, +1)
        if o >= hi or al.onorm[o] != al.snorm[s]:
            return False
        run.append((s, o))
        o += 1
    between = [k for k in range(o, hi) if al.onorm[k]]
    # depth is read against the anchor, or, when the new lines fold the nesting they replace (the
    # anchor then written shallower), against the first line they replace
    folds = _folds(al, rest, between)
    unwraps = _unwraps_anchor(al, between, hi, after)
    o_ref, s_ref = (between[0], rest[0]) if folds else (between[-1], after) if unwraps else (hi, after)
    if any(al.owidth[o] - al.owidth[o_ref] != al.swidth[s] - al.swidth[s_ref] for s, o in run):
        return False
    if not folds and (len(between) > len(rest) or len(lead) == 1 and not unwraps and not (
            len(between) == len(rest) and replaces(al.snorm[rest[0]], al.onorm[between[0]]))):
        return False  # (one trivial line is context only right above the lines the new ones edit)
    al.pairs.update(run)
    al.fuzzy.update(s for s, _ in run)
    return True


_WORDS = re.compile(r"\w+")


def _unwraps_anchor(al: Aligner, between: list[int], hi: int, after: int) -> bool:
    """The last original line before the anchor `hi` is the header of the anchor's block, and the
    snippet writes the anchor (`after`) at that header's depth: the new lines replace the header
    and what stands above it, and the anchor leaves the block (openbb's `continue`, then new lines,
    then `overrides[key] = value` out of the `if existing in (None, "", []):` it stood in).
    O(1), _header_of memoised."""
    return bool(between) and hi < len(al.orig) and al._header_of(hi) == between[-1] \
        and al.swidth[after] == al.owidth[between[-1]] < al.owidth[hi]


def _folds(al: Aligner, rest: list[int], between: list[int]) -> bool:
    """The new lines `rest` replace one original line more than they are, folded into them: the
    first starts as the first original line does (`if erase`) and every word of the original
    lines is in the new ones (`if erase:` over `if purge(pair):` -> `if erase and purge(pair):`)."""
    if len(between) != len(rest) + 1 or any(is_trivial(al.onorm[o]) for o in between):
        return False
    new = [word for s in rest for word in _WORDS.findall(al.snorm[s])]
    first, old = _WORDS.findall(al.onorm[between[0]]), [_WORDS.findall(al.onorm[o]) for o in between]
    return len(first) >= 2 and new[:2] == first[:2] and all(set(words) <= set(new) for words in old)


def ends_before_whole_blocks(al: Aligner, pair: tuple[int, int], hi: int) -> bool:
    """For a lone context line (`return success`) right before the next anchor `hi`: True when
    the original lines between its closest copy and that anchor are whole blocks at the anchor's
    level (a deleted function), so that reading it as context that deletes them is sound. A
    decorator or comment right above the anchor, at its level, is more likely new and its own."""
    s, o = pair
    if hi >= len(al.orig) or not al.snorm[s]:
        return False
    base = al.owidth[hi]
    attached = s + 1 < len(al.items) and bool(al.snorm[s + 1])  # no blank line before the anchor
    if attached and al.swidth[s] <= base and \
            al.snorm[s].startswith(("@", "#", "//", "/*", "--")):
        return False
    between = [index for index in range(o + 1, hi) if al.onorm[index]]
    return bool(between) and al.owidth[between[0]] == base and \
        all(al.owidth[index] >= base for index in between)
