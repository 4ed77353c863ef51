"""Renamed definitions: a header whose name the original does not define, in place of one that the
snippet no longer mentions (`function types.is_callable (obj)` -> `function types.is_callable_strict
(obj)`). Read as a new definition, the old one would be kept and the new one inserted next to it.

A snippet header with an unknown name is the renamed version of an original header when, with both
names blanked out, the two lines read the same (the "skeleton"), the old name appears nowhere in
the snippet as a definition, and the line right after (or before) the snippet header is the line
right after (before) the old header, one that occurs once in the original: the header stands where
the old one stood. A new definition that merely looks like an old one has other neighbours. The aligner is then told that the new name is defined where the old one was, so the
header pairs with it like any header with an edited signature.

Complexity: O(m): each unknown header looks at a few lines around it and one position lookup.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .lines import is_trivial, opens_block

if TYPE_CHECKING:
    from .anchor import Aligner

_WORDS = re.compile(r"\w+")
_COMMENTS = ("//", "#", "--", "/*", "*", ";", "<!--")
_SKIP = 2  # trivial lines skipped to find a header's neighbour


def find_renames(al: Aligner) -> int:
    """Teach the aligner the renamed headers of the snippet; returns how many were found."""
    unknown = [s for s, item in enumerate(al.items) if item.kind == "code" and _is_header(item.norm)
               and item.norm not in al.opos]
    unknown = [(s, key) for s in unknown if (key := al.key_of(al.snorm[s])) is not None
               and not al._okeys_for(key) and len(al._skey_index().get(key, ())) == 1]
    if not unknown:
        return 0
    shown = al._skey_index()
    # an old name the snippet still mentions (in a marker: "... temperatureText unchanged ...") is kept
    mentioned = set(_WORDS.findall(" ".join(item.text for item in al.items if item.kind == "marker")))
    found = 0
    for s, key in unknown:
        olds = {o for o in (_old_header(al, s, +1), _old_header(al, s, -1)) if o is not None}
        if len(olds) != 1:
            continue
        o = olds.pop()
        old_key = al.key_of(al.onorm[o]) if _is_header(al.onorm[o]) else None
        if old_key is None or old_key in shown or old_key.rsplit(".", 1)[-1] in mentioned \
                or _skeleton(al.onorm[o], old_key) != _skeleton(al.snorm[s], key):
            continue
        al._okeys[key] = [o]
        found += 1
    return found


def _old_header(al: Aligner, s: int, step: int) -> int | None:
    """The original line that stands where snippet header s stands: found through the header's
    neighbour (the first line of its body, or its own doc comment), a line that occurs once in the
    original. O(1)."""
    s2 = _next_solid_snippet(al, s, step)
    if s2 is None or step < 0 and (s2 != s - 1 or not al.snorm[s2].startswith(_COMMENTS)):
        return None  # above a header only its own doc comment counts (a new one follows its sibling)
    where = al.opos.get(al.snorm[s2], ())
    if len(where) != 1 or len(_WORDS.findall(al.snorm[s2])) < 3:
        return None  # a shared attribute (`#[test]`, `@Override`) says nothing
    o2 = where[0]
    o = _next_solid_original(al, o2, -step)
    if o is None or step < 0 and o != o2 + 1:
        return None
    if step > 0:
        # a copy-and-edit sibling starts like the old body and then differs: the body goes on alike
        s3, o3 = _next_solid_snippet(al, s2, step), _next_solid_original(al, o2, step)
        if s3 is not None and o3 is not None and al.snorm[s3] != al.onorm[o3]:
            return None
    return o


def _is_header(norm: str) -> bool:
    return opens_block(norm) or "(" in norm and not norm.endswith(";")


def _skeleton(norm: str, key: str) -> str:
    name = key.split(":", 1)[-1].rsplit(".", 1)[-1]
    at = norm.find(name)
    return norm if at < 0 else norm[:at] + "\0" + norm[at + len(name):]


def _next_solid_snippet(al: Aligner, s: int, step: int) -> int | None:
    s2, skipped = s + step, 0
    while 0 <= s2 < len(al.items) and skipped <= _SKIP:
        item = al.items[s2]
        if item.kind != "blank" and item.kind != "code":
            return None  # a marker: the neighbour is unknown
        if item.kind == "code":
            if not is_trivial(item.norm):
                return s2
            skipped += 1
        s2 += step
    return None


def _next_solid_original(al: Aligner, o: int, step: int) -> int | None:
    o2, skipped = o + step, 0
    while 0 <= o2 < len(al.orig) and skipped <= _SKIP:
        norm = al.onorm[o2]
        if norm:
            if not is_trivial(norm):
                return o2
            skipped += 1
        o2 += step
    return None
