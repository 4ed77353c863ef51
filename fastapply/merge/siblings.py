"""A new sibling written like the one above it: context, new lines, the same context again.

Models add a branch, a case or an `except` clause by copying its neighbour: after a marker the
snippet shows the end of the block above (`buffer = ""; break;`), the new branch, which ends the
same way, and the next unchanged line. The original has that ending right above the unchanged line,
and earlier copies of it too (every sibling ends alike). Read from the left, the context pairs with
the first copy and the new branch goes over the sibling between the two copies (rrweb-cssom's
`@layer` branch over `@container`); a line the new branch copies from its neighbour can also pair
with that neighbour (bleak's `del self._disconnect_callbacks[...]`), and the neighbour's other lines
are lost. Read as written, the marker stands for everything up to the copy right above the unchanged
line, the context pairs there, and nothing is lost. That reading is the one kept here.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .ambiguity import paired_above
from .lines import header_key, is_trivial, opens_block
from .shapes import PREAMBLE
from .heads import assigned_name
from .similar import FUZZY_MIN, edited_version, extracted, similarity, swapped_token

if TYPE_CHECKING:
    from .anchor import Aligner

_MAX_CONTEXT = 4  # context lines repeated at both ends of the new lines
_MAX_NEW = 60  # new lines between them
_MAX_COPIES = 20  # copies of the context looked at for the sibling above


def pair_copied_siblings(al: Aligner) -> None:
    """For each run of code lines between a marker and the paired line after it shaped H + X + H:
    - H: up to _MAX_CONTEXT lines that end a block (no header, no line that opens one, not ending
      with a decorator or comment), which the original has right above the paired line;
    - X: two lines or more, no deeper than H, its first line one the original does not have and no
      header of a name the original defines, no definition the original has once among them;
    pair the first H right above the paired line and leave X and the second H new, unless X reads
    as an edit of the sibling between that copy of H and the one above it (_edits_sibling). When X
    is as many lines as that sibling, each like its own, both readings fit: `al.sibling_doubt` is
    set (plan.py refuses). O(markers x (_MAX_CONTEXT + _MAX_NEW) x _MAX_CONTEXT) tests, each
    O(_MAX_NEW) plus, for the few that get that far, _MAX_COPIES copies of H looked at."""
    for marker in al.marker_list:
        _check_run(al, marker)


def _check_run(al: Aligner, marker: int) -> None:
    lines: list[int] = []
    s = marker + 1
    while s < len(al.items) and s not in al.markers and len(lines) <= 2 * _MAX_CONTEXT + _MAX_NEW:
        if al.snorm[s]:
            lines.append(s)
        s += 1
    for end, anchor in enumerate(lines):
        if end >= 3 and anchor in al.pairs and al.snorm[anchor] == al.onorm[al.pairs[anchor]] \
                and _pair_sibling(al, marker, lines[:end], al.pairs[anchor]):
            return


def _pair_sibling(al: Aligner, marker: int, run: list[int], oa: int) -> bool:
    """The test and the pairing for one run ending right above the snippet line paired with oa."""
    norms = [al.snorm[t] for t in run]
    for k in range(min(_MAX_CONTEXT, (len(run) - 1) // 2), 0, -1):
        if norms[:k] != norms[-k:]:
            continue
        if norms[k - 1].startswith(PREAMBLE) or any(header_key(n) is not None or opens_block(n) for n in norms[:k]):
            continue  # the end of a sibling, not a decorator or comment (they go with what follows)
            # nor a header (returns' overloads, each opening `def maybe_to_result(`)
        middle = run[k:-k]
        key = _defines(al, run, k)
        if al.opos.get(norms[k]) or al.swidth[middle[0]] > al.swidth[run[0]] or key is not None and al._okeys_for(key):
            continue  # its first new line is one the original has (an edit of that line's block), or
            # a header of a name the original defines (go-playground's `registrationFunc` with a
            # new signature), or it opens no sibling (deeper than the context)
        if any((name := _defines(al, run, i)) is not None and len(al._okeys_for(name)) == 1
               for i in range(k, len(run) - k)):
            continue  # it shows a definition the file has once (symfony's castConf under a new method)
        above = _lines_above(al, oa, k)
        if above is None or [al.onorm[o] for o in above] != norms[:k]:
            continue
        sibling = _sibling_above(al, above, norms[:k])
        # an entry under a key of its own beside one under another key is a new entry, not an edit
        # of that one, whatever its other lines (stripe's import map: `"...PaymentIntentData": (`
        # written between `False,` `),` and `False,` `),` above `"...ShippingOption": (`)
        new_key = bool(sibling) and (not _same_key(norms[k], al.onorm[sibling[0]])
                                     or _new_target(al, norms[k], al.onorm[sibling[0]])
                                     or _renamed_copy(al, middle, sibling))
        if len(middle) < 2 and not new_key:
            continue  # one new line (`- toolchain: beta-v2`): as likely an edit of the sibling above,
            # unless it is an entry under its own key
        if sibling and not new_key and _edits_sibling(al, middle, sibling):
            continue
        if sibling and not new_key and _line_for_line(al, middle, sibling):
            # as many lines, each like the sibling's (go-isatty's `token[0] !=` run edited to
            # `options[0] !=`; rrweb-cssom's `@layer` branch written like the `@container` one):
            # an edit of it or a new one after it, the lines cannot tell
            al.sibling_doubt = al.items[run[0]]
            return True
        if al.pairs.get(run[0]) == above[0]:
            return False  # already read so
        if paired_above(al, marker) >= above[0]:
            continue
        for t in run:
            al.pairs.pop(t, None)
            al.fuzzy.discard(t)
        for t, o in zip(run[:k], above):
            al.pairs[t] = o
        return True
    return False


def _defines(al: Aligner, run: list[int], i: int) -> str | None:
    """The name run[i] defines when it opens a definition's block (on its line or the next one):
    `var ms = ...` names no definition here."""
    norm = al.snorm[run[i]]
    key = al.key_of(norm)
    if key is None or not (opens_block(norm) or i + 1 < len(run) and al.snorm[run[i + 1]] == "{"):
        return None
    return key


def _sibling_above(al: Aligner, above: list[int], context: list[str]) -> list[int] | None:
    """The non-blank original lines between the copy of `context` nearest above `above` and `above`
    itself (the sibling the new lines may edit), or None without such a copy. O(copies + the lines
    between)."""
    copies = al.opos.get(context[0], [])
    at = bisect_left(copies, above[0])
    for start in reversed(copies[max(0, at - _MAX_COPIES):at]):
        rows = [o for o in range(start, above[0]) if al.onorm[o]][:len(context)]
        if [al.onorm[o] for o in rows] == context:
            return [o for o in range(rows[-1] + 1, above[0]) if al.onorm[o]]
    return None


def _line_for_line(al: Aligner, new: list[int], sibling: list[int]) -> bool:
    return len(new) == len(sibling) and all(similarity(al.snorm[t], al.onorm[o]) >= FUZZY_MIN
                                            for t, o in zip(new, sibling))


def _edits_sibling(al: Aligner, new: list[int], sibling: list[int]) -> bool:
    """The new lines may as well edit the sibling: they are mostly its lines (`}` aside), or they
    carry half or more of the lines it alone has in the file (tmp's template check rewritten under
    its `/* istanbul ignore else */`, keeping its one `throw new Error(`Invalid template...`)`).
    O(len(new) + len(sibling))."""
    texts = {al.onorm[o] for o in sibling}
    if 2 * sum(1 for t in new if al.snorm[t] in texts and not al.strivial[t]) >= len(new):
        return True
    own = {al.onorm[o] for o in sibling if len(al.opos[al.onorm[o]]) == 1}
    carried = sum(1 for t in new if al.snorm[t] in own)
    if carried > 0 and 2 * carried >= len(own):
        return True
    # or every line of the sibling but its trivial ones has an edited version among them (flashinfer's
    # `if not 0 < config.blocks <= CE_MAX_PIECES:` as `... <= min(CE_MAX_PIECES, max_blocks):` under
    # a new comment; an `if` turned `elif` after a new branch; a line under another key is no
    # version of it), or with a literal pulled out into a variable the new lines assign
    # (weasyprint's `if ident.lower_value not in values:` under `values = (...)`)
    solid = [al.onorm[o] for o in sibling if al.onorm[o] and not is_trivial(al.onorm[o])]
    if not solid or len(solid) > _EDITED_MOST:
        return False
    if _bare(al.snorm[t] for t in new) == _bare(solid):
        return True  # (the same condition wrapped in parentheses over three lines: urllib3-future's `if (`)
    names = {name for t in new if (name := assigned_name(al.snorm[t])) is not None}
    return all(any(_same_key(al.snorm[t], norm) and (edited_version(_as_if(al.snorm[t]), _as_if(norm))
                                                     or extracted(al.snorm[t], norm, names))
                   for t in new if al.snorm[t])
               for norm in solid)


def _bare(norms: Iterable[str]) -> str:
    """Lines joined without their whitespace, parentheses and trailing comments."""
    return "".join(_TRAILING_COMMENT.sub("", norm) for norm in norms).translate(_UNWRAP)


_TRAILING_COMMENT = re.compile(r"\s+(?:#|//)\s.*$")
_UNWRAP = str.maketrans("", "", " \t()")
_EDITED_MOST = 4  # sibling lines looked for among the new lines as edited versions
# an entry's key: `"AccountUpdateParams": (`, `'key': value`, `name: value` (not `else:`, not `std::`)
_ENTRY_KEY = re.compile(r"""^(?:(["'])(?P<quoted>[^"']+)\1|(?P<bare>[A-Za-z_$][\w$-]*))\s*:(?!:)\s*\S""")


def _same_key(new: str, old: str) -> bool:
    """False when both lines are entries (`"name": (`, `key: value`) under different keys."""
    a, b = _ENTRY_KEY.match(new), _ENTRY_KEY.match(old)
    return a is None or b is None or (a["quoted"] or a["bare"]) == (b["quoted"] or b["bare"])


# an attribute or dotted assignment's target: `self.firewall_rules = FirewallRulesOperations(`
_TARGET = re.compile(r"^((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)\s*=(?![=>])")


def _new_target(al: Aligner, new: str, old: str) -> bool:
    """Both lines assign an attribute, the new line one that the original never mentions: an entry of
    its own beside the sibling (azure's `self.virtual_network_rules = VirtualNetworkRulesOperations(`
    written between two `self._client, ...)` lines above `self.trusted_id_providers = ...`), not a
    rename of the sibling's. O(n) in C (one substring search)."""
    a, b = _TARGET.match(new), _TARGET.match(old)
    return a is not None and b is not None and a[1] != b[1] and not al._lines_containing(a[1])


def _renamed_copy(al: Aligner, middle: list[int], sibling: list[int]) -> bool:
    """The new lines are the sibling's, line for line, but for one new name in the first
    (_new_name): a copy of the sibling for another name. O(len(middle)) plus _new_name."""
    return len(middle) == len(sibling) and _new_name(al, al.snorm[middle[0]], al.onorm[sibling[0]]) \
        and all(al.snorm[t] == al.onorm[o] for t, o in zip(middle[1:], sibling[1:]))


def _new_name(al: Aligner, new: str, old: str) -> bool:
    """The lines differ in one token, a name in the new line that the original never mentions: a new
    entry written like the sibling (strapi's `Object.defineProperty(this, _rolledBack, {` after the one
    for `_diagnostics`), not a rename of the sibling's. O(n) in C (one substring search)."""
    name = swapped_token(new, old)
    return name is not None and len(name) > 2 and name.isidentifier() and not al._lines_containing(name)


_ELSE_IF = re.compile(r"^(?:\}\s*)?(?:elif|else\s+if)\b")


def _as_if(norm: str) -> str:
    """`elif x:` / `} else if (x) {` read as the `if` they were: a branch's condition kept."""
    return _ELSE_IF.sub("if", norm, count=1)


def _lines_above(al: Aligner, o: int, count: int) -> list[int] | None:
    """The `count` non-blank original lines right above line o, in order; None at the file's top."""
    found: list[int] = []
    o -= 1
    while o >= 0 and len(found) < count:
        if al.onorm[o]:
            found.append(o)
        o -= 1
    return found[::-1] if len(found) == count else None


def pair_reopened_header(al: Aligner) -> None:
    """P, H + X, H, marker: after a paired line P, a new block written like the one below it (its
    opening line H, new lines X ending with a closing line at H's depth) and then H again, right
    before a marker that stands for H's body (langgraph's second `from ... import (` block, written
    above the first one). The alignment pairs the first H, right under P, and the second one is left
    over; but a marker cannot stand for the body of a block the snippet opens anew, so the second H
    is the original's, and the first H with X is new. Only where the first H is paired right under
    P's line, and unless the original's block under it is followed by another H and X starts as
    that block's body does (then X rewrites that block and the second H is the next one).
    O(markers x the lines between the two copies of H, and the original block's length)."""
    for marker in al.marker_list:
        s = al.code_above(marker)
        if s < 0 or s in al.pairs or not opens_block(al.snorm[s]):
            continue
        k = s - 1
        while k >= 0 and k not in al.markers and al.snorm[k] != al.snorm[s]:
            k -= 1
        if k < 0 or k in al.markers or k not in al.pairs:
            continue
        o = al.pairs[k]
        new = [t for t in range(k + 1, s) if al.snorm[t]]
        above = al.code_above(k)
        if len(new) < 2 or any(t in al.pairs and al.snorm[t][:1] not in ")]}" for t in new) \
                or al.swidth[new[-1]] != al.swidth[s] \
                or al.swidth[k] != al.swidth[s] or al.snorm[new[-1]][:1] not in ")]}" or above < 0 \
                or al.pairs.get(above) != next((p for p in range(o - 1, -1, -1) if al.onorm[p]), None):
            continue
        end = al._orig_end(o)
        after = next((p for p in range(end + 1, len(al.onorm)) if al.onorm[p]), None)
        body = next((p for p in range(o + 1, end) if al.onorm[p]), None)
        if after is not None and al.onorm[after] == al.snorm[s] and body is not None \
                and _first_word(al.onorm[body]) == _first_word(al.snorm[new[0]]):
            continue  # (the original's block is followed by another H, and X starts as its body
            # does: X may rewrite that block and the second H be the next one, autograd's
            # `defjvp(` blocks, `anp.prod, lambda ...` rewritten over three lines)
        for t in (k, *new):  # (a closing line of X may have paired with H's own)
            al.pairs.pop(t, None)
            al.fuzzy.discard(t)
        al.pairs[s] = o


_WORD = re.compile(r"^\W*([\w.]+)")


def _first_word(norm: str) -> str | None:
    """The first name or word of a line (`anp.prod` of `anp.prod, lambda g: ...`). O(len)."""
    match = _WORD.match(norm)
    return match.group(1) if match else None


def pair_copied_heads(al: Aligner) -> None:
    """P, X, H, marker: after a paired line P, new lines X that end with a new entry, and then H,
    the first lines of the entry right below P in the file (a doc comment's opening lines, a
    decorator), right before a marker (effect's barrel files: `export * as Mac`, then `/**`,
    ` * @stability unstable`, `@since`, `*/`, a new `export * as Password`, then `/**`,
    ` * @stability unstable` and the marker). The alignment pairs H with a later copy of it (X
    copies H's lines at its start, which take the ones under P), and X replaces the entry between,
    which is lost. Read with H right under P, X is new and the marker stands for the rest of that
    entry: nothing is lost. Kept unless X reads as an edit of that entry under the same name
    (_edits_sibling), or is as many lines, each like its own (then both readings fit:
    `al.sibling_doubt`, refused). O(markers x _MAX_CONTEXT x (_MAX_CONTEXT + _MAX_NEW)) line
    comparisons at most; the few runs that get that far O(_MAX_NEW) more."""
    for marker in al.marker_list:
        code: list[int] = []  # the code lines above the marker, back to the one before it
        s = marker - 1
        while s >= 0 and s not in al.markers and len(code) <= 2 * _MAX_CONTEXT + _MAX_NEW:
            if al.snorm[s]:
                code.append(s)
            s -= 1
        code.reverse()
        for k in range(min(_MAX_CONTEXT, len(code) - 3), 0, -1):
            if _pair_head_copy(al, code, k):
                break


def _pair_head_copy(al: Aligner, code: list[int], k: int) -> bool:
    """The test and the pairing for the last k lines of `code` as H."""
    tail = code[-k:]
    norms = [al.snorm[t] for t in tail]
    if any(len(al.opos.get(n, ())) < 2 or not n.startswith(PREAMBLE) for n in norms):
        return False  # (doc comment or decorator lines the file repeats: the start of any entry;
        # a statement the file has twice is no entry's start: inkling's second `transpose(1, 2)`)
    for i in range(len(code) - k - 3, -1, -1):  # P = code[i], at least two lines of X after it
        p = code[i]
        if p not in al.pairs or al.snorm[p] != al.onorm[al.pairs[p]]:
            continue
        below = _lines_below(al, al.pairs[p], k)
        if below is not None and [al.onorm[o] for o in below] == norms:
            break
    else:
        return False
    new = code[i + 1:-k]
    if all(al.opos.get(al.snorm[t]) for t in new) or any(len(al.opos.get(al.snorm[t], ())) == 1 for t in new) \
            or any((key := al.key_of(al.snorm[t])) is not None and al._okeys_for(key) for t in new) \
            or all(al.pairs.get(t) == o for t, o in zip(tail, below)):
        return False  # (no line of X the file lacks, or one it has once, or a definition of a name
        # it defines: X is no new entry (opencv's new overloads above the file's
        # `def generateImageMarker`; fakeredis's `client_info` rewritten under its `@property`);
        # or already read so)
    sibling = _entry_below(al, below[-1], norms)
    shown = {al.snorm[t] for t in new}
    if not sibling or any(al.onorm[o] in shown and len(al.opos[al.onorm[o]]) <= 2 for o in sibling):
        return False  # (X shows a line the file has at most twice from that entry: it holds that
        # entry, edited, not only a new one: flashinfer's `--sm` option with a new help text, under
        # `@click.option(` like every option)
    new_key = _names_differ(al, new, sibling)
    if not new_key and _edits_sibling(al, new, sibling):
        return False
    if not new_key and _line_for_line(al, new, sibling):
        al.sibling_doubt = al.items[new[0]]
        return True
    for t in code[i + 1:]:
        al.pairs.pop(t, None)
        al.fuzzy.discard(t)
    for t, o in zip(tail, below):
        al.pairs[t] = o
    return True


def _lines_below(al: Aligner, o: int, count: int) -> list[int] | None:
    """The `count` non-blank original lines right below line o, in order; None at the file's end."""
    found: list[int] = []
    o += 1
    while o < len(al.onorm) and len(found) < count:
        if al.onorm[o]:
            found.append(o)
        o += 1
    return found if len(found) == count else None


def _entry_below(al: Aligner, o: int, context: list[str]) -> list[int]:
    """The non-blank original lines after line o up to the next copy of `context` (the rest of the
    entry H opens), or none when no copy comes within _MAX_NEW lines. O(_MAX_NEW)."""
    rows: list[int] = []
    o += 1
    while o < len(al.onorm) and len(rows) <= _MAX_NEW:
        if al.onorm[o] == context[0]:
            return rows
        if al.onorm[o]:
            rows.append(o)
        o += 1
    return []


# the name an entry gives: `export * as Name from "./Name.ts"`, `name: value`, a definition's header
_EXPORT_AS = re.compile(r"^export\s+\*\s+as\s+([\w$]+)")


def _names_differ(al: Aligner, new: list[int], sibling: list[int]) -> bool:
    """The first line of each that names something names two different things. O(lines)."""
    def name(norm: str) -> str | None:
        match = _EXPORT_AS.match(norm) or _ENTRY_KEY.match(norm)
        if match is not None:
            return match.group(1) if match.re is _EXPORT_AS else match["quoted"] or match["bare"]
        return header_key(norm)
    ours = next((n for t in new if (n := name(al.snorm[t])) is not None), None)
    theirs = next((n for o in sibling if (n := name(al.onorm[o])) is not None), None)
    return ours is not None and theirs is not None and ours != theirs
