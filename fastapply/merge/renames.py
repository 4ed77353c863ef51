"""Renamed definitions: a header whose name the original does not define, in place of one that the
snippet no longer mentions (`function types.is_callable (obj)` -> `function types.is_callable_strict
(obj)`). Read as a new definition, the old one would be kept and the new one inserted next to it.

The definition match (defmatch.py) decides: a definition of the snippet whose name the original
lacks is the renamed version of the one original definition of the same kind and scope, whose name
the snippet no longer defines, with the most alike body, standing where the new one stands. A new
definition that merely looks like an old one has another body or stands elsewhere, or two old ones
fit: no match.
The aligner is then told that the new name is defined where the old one was, so the header pairs
with it like any header with an edited signature, and the lines inside align as usual.

Complexity: the snippet is parsed only when a changed line that may start a definition (it opens a
block or has a parameter list) brings a word the original text lacks (substring tests); then O(m)
to find definitions whose name the original text lacks but whose lines are mostly the original's;
only when one is found is the original parsed and matched (defmatch.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .lines import IDENTIFIER, header_key, is_trivial, opens_block

if TYPE_CHECKING:
    from .anchor import Aligner
    from .defmatch import DefIndex
    from .defs import Definition

_WORDS = re.compile(r"\w+")


def _may_define(norm: str) -> bool:
    """A cheap first look: a line that opens a block or has a parameter list may start a definition."""
    return opens_block(norm) or "(" in norm and not norm.endswith(";")


def _new_name(name: str, words: set[str]) -> bool:
    return any(word not in words for word in _WORDS.findall(name))


def _old_body(al: Aligner, d: Definition) -> bool:
    """True when most telling lines a definition shows besides its header are the original's: an
    old body under a new name, not a new definition. O(its lines)."""
    telling = [n for n in al.snorm[d.first:d.header] + al.snorm[d.header + 1:d.last + 1] if not is_trivial(n)]
    return bool(telling) and 2 * sum(1 for n in telling if n in al.opos) >= len(telling)


def find_renames(al: Aligner, defs: DefIndex, original: str) -> int:
    """Teach the aligner the renamed headers of the snippet; returns how many were found."""
    changed = [item.norm for item in al.items
               if item.kind == "code" and item.norm not in al.opos and _may_define(item.norm)]
    if not changed:
        return 0  # no changed line that may define (most edits): not even the words below
    # the original's words, once per call (a substring search per line was O(lines * n)), read from
    # its distinct lines: normalising whitespace splits or joins no word, and repeated lines add none
    words = set(_WORDS.findall("\n".join(al.opos)))
    # a changed line with a name (a word of three characters or more) that the original's words do
    # not include? Asked of all of them at once: the words of the joined lines are theirs, since no
    # word runs over a newline (one regex pass in C, where a snippet of edited headers has thousands)
    if all(len(word) < 3 or word in words for word in set(_WORDS.findall("\n".join(changed)))):
        return 0  # no changed line that may define brings a name the original lacks: nothing to parse
    snippet = defs.snippet()
    if not snippet or not any(_new_name(d.name, words) and _old_body(al, d) for d in snippet):
        return 0  # no definition with a new name over old lines: no rename (and no parse of the original)
    match = defs.match()
    if match is None or not match.renamed:
        return 0
    # an old name the snippet still mentions (in a marker: "... temperatureText unchanged ...") is kept
    mentioned = set(_WORDS.findall(" ".join(item.text for item in al.items if item.kind == "marker")))
    found = 0
    for s in match.renamed:
        new, old = match.snippet[s], match.original[match.pairs[s]]
        key = header_key(al.snorm[new.header])
        name = old.name.rsplit(".", 1)[-1]
        if key is None or al._okeys_for(key) or name in mentioned \
                or _both_used(al, name, new.name.rsplit(".", 1)[-1], new) or _ends_above(al, new, old):
            continue
        al._okeys[key] = [old.header]
        found += 1
    return found


def _both_used(al: Aligner, old: str, new_name: str, new: Definition) -> bool:
    """The snippet's code outside the new definition names the old one and, on other lines, the new
    one, as words (stripe's annotations `"AccountSessionCreateParamsComponentsPayoutsList"` shown
    and `"...ReportingChart"` added, above a new class whose body is like PayoutsList's): both
    stand in the file, the new one is a sibling. O(the snippet's text)."""
    if len(old) < 3 or len(new_name) < 3:
        return False
    lines = [item.text for k, item in enumerate(al.items) if item.kind == "code" and not new.first <= k <= new.last]
    words = [set(_WORDS.findall(text)) if old in text or new_name in text else set() for text in lines]
    return any(old in found for found in words) and any(new_name in found and old not in found for found in words)


def _ends_above(al: Aligner, new: Definition, old: Definition) -> bool:
    """The snippet's code lines right above the new definition, up to a marker, are the old
    definition's last lines (cudnn's `is_align_stack=False,`, `asm_dialect=...`, `)` over a new
    function like `tmem_combine_store_exchange_4x32dp32b32x`): they may show the old one's end as
    context, with a sibling after it, as well as the end of the definition above it; the rename is
    no surer than that. Not for lines under a header the snippet shows above the marker: they end
    that header's block (pyxdg's `def save_config_path(...)`, a marker, `return path`, then a
    renamed function). O(those lines)."""
    above: list[str] = []
    k, top = new.first - 1, -1
    while k >= 0 and al.items[k].kind in ("code", "blank") and len(above) <= _END_LINES:
        if al.snorm[k]:
            above.append(al.snorm[k])
            top = k
        k -= 1
    if not 2 <= len(above) <= _END_LINES or k >= 0 and al.items[k].kind not in ("marker", "implicit"):
        return False
    shown = next((j for j in range(k - 1, -1, -1) if al.snorm[j]), None)
    if shown is not None and al.items[shown].kind == "code" and al.swidth[shown] < al.swidth[top]:
        return False
    tail = [norm for norm in (al.onorm[o] for o in range(old.last, old.header, -1)) if norm][:len(above)]
    return tail == above


_END_LINES = 8  # snippet lines above a renamed definition compared with the old one's last lines, at most


def rewritten_in_place(al: Aligner, s: int) -> bool:
    """Snippet line s opens a definition whose name the original lacks, and its first body line is
    a line the original has once, right below an original block opener the snippet does not show,
    at the same depth below it: the header was rewritten in place (mimic-response's `module.exports
    = (fromStream, toStream) => {` became `export default function mimicResponse(...) {`), and its
    body lines are the old block's, not new code; a marker inside the new block stands for the old
    lines it does not show (without one, a new sibling above the old block whose first lines are its
    first lines: test_round_thirteen's `get` over `create`). O(the block's lines + _NEAR), and
    _named_elsewhere's index of the original's words once per call."""
    body = next((k for k in range(s + 1, len(al.items)) if al.snorm[k] or k in al.markers), None)
    if body is None or body in al.markers or al.swidth[body] <= al.swidth[s]:
        return False
    where = al.opos.get(al.snorm[body], ())
    if len(where) != 1:
        return False
    h = where[0] - 1
    while h >= 0 and not al.onorm[h]:
        h -= 1
    if h < 0 or not opens_block(al.onorm[h]) or al.onorm[h] in al.spos \
            or al.owidth[where[0]] - al.owidth[h] != al.swidth[body] - al.swidth[s]:
        return False
    # in place: the nearest lines on either side that the two texts have once, in the same part,
    # stand on the same sides of the old header (not a definition moved and renamed, nor a new
    # sibling whose first line repeats the one of the block above it, shown under a marker)
    pre, end = h, al._orig_end(h)
    while pre > 0 and al.onorm[pre - 1].startswith(("//", "#", "/*", "*", "--", "@")):
        pre -= 1  # (its doc comment and decorators go where it goes)
    if not _marker_inside(al, s):
        return False  # (nothing stands for the old lines it does not show: a new sibling above it)
    before = _unique_near(al, s - 1, -1, pre, end)
    after = _unique_near(al, body + 1, +1, pre, end)
    if before is None and pre < h and _shows_comment(al, s, pre, h):
        before = pre - 1  # (a marker, then the old header's comment as it is: prompt's `// Now,
        # iterate and assemble the result.` over `async.forEachSeries(` rewritten `eachSeries(`)
    if before is None and _shows_line_above(al, s, pre):
        before = pre - 1  # (a marker, then the line above the old header as it is, then the
        # rewritten header: reflex's `"border_top": divider_style,` over `"&:first-child": {`)
    return before is not None and before < pre and (after is None or after > end) \
        and not _named_elsewhere(al, h, pre, end)


def _shows_comment(al: Aligner, s: int, pre: int, h: int) -> bool:
    """The snippet's lines right above s, up to a marker, are the last of the original's comment
    lines [pre, h) above header h, as they are, one of them not trivial. O(h - pre)."""
    shown = al.shown_above(s)
    comment = [norm for norm in al.onorm[pre:h] if norm]
    return bool(shown) and comment[-len(shown):] == shown and any(not is_trivial(n) for n in shown)




def _shows_line_above(al: Aligner, s: int, pre: int) -> bool:
    """The one code line the snippet shows between a marker and s is the original's line right
    above `pre` (a header, or the comment over it), as it is and not trivial. O(the lines above s,
    to the marker)."""
    shown = al.shown_above(s)
    o = pre - 1
    while o >= 0 and not al.onorm[o]:
        o -= 1
    return shown is not None and len(shown) == 1 and o >= 0 and shown[0] == al.onorm[o] \
        and not is_trivial(shown[0])


def _named_elsewhere(al: Aligner, h: int, lo: int, hi: int) -> bool:
    """The name original header h defines is a word of an original line outside [lo, hi]: read in
    place, the rewrite would drop a name the file still uses (for-each's `var forEach = function
    forEach(` rewritten as `module.exports = function forEach(`, the file's last line still
    `module.exports = forEach;`). O(the original's text) once per call, then O(its uses)."""
    name = al.key_of(al.onorm[h])
    if name is None:
        return False
    if al._word_lines is None:
        al._word_lines = {}
        for o, norm in enumerate(al.onorm):
            for word in set(IDENTIFIER.findall(norm)):
                al._word_lines.setdefault(word, []).append(o)
    return any(not lo <= o <= hi for o in al._word_lines.get(name, ()))


def _marker_inside(al: Aligner, s: int) -> bool:
    """A marker stands inside the block snippet line s opens: before the first code line indented
    no deeper than s (its closer), and indented deeper than s or followed by more of the block (a
    marker at column 0 after the last line of a block that ends where the code dedents stands for
    what follows the block). O(the block's lines)."""
    marker: bool | None = False
    # (a braced block is open until its closing line: a marker written at column 0 before that
    # line, or before shallower code that closes nothing, is inside it; reflex's `"&:first-of-type": {`)
    braced = opens_block(al.snorm[s]) and not al.snorm[s].endswith(":")
    for k in range(s + 1, len(al.items)):
        if k in al.markers:
            marker = marker or braced or al.swidth[k] > al.swidth[s]
            if not marker:
                marker = None  # (inside only if the block goes on after it)
        elif al.snorm[k]:
            if al.swidth[k] <= al.swidth[s]:
                return bool(marker)
            if marker is None:
                return True
    return bool(marker)


_NEAR = 60  # snippet lines rewritten_in_place reads on each side for a unique line


def _unique_near(al: Aligner, k: int, step: int, lo: int, hi: int) -> int | None:
    """The original line, outside [lo, hi], of the nearest snippet line from k on (towards `step`)
    that both texts have once, or None when a marker or _NEAR lines come first. O(_NEAR)."""
    for index in range(k, k + step * _NEAR, step):
        if not 0 <= index < len(al.items) or index in al.markers:
            return None
        norm = al.snorm[index]
        if norm and not is_trivial(norm) and len(al.spos.get(norm, ())) == 1:
            where = al.opos.get(norm, ())
            if len(where) == 1 and not lo <= where[0] <= hi:
                return where[0]
    return None
