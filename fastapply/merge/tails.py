"""The end of a file a snippet without a last marker stops short of: tests that read the
original lines after its last pair as code the snippet meant to drop (moved elsewhere, or taken
out of `__all__`). Asked by edges.py; complexity in each docstring.
"""

from __future__ import annotations

import re
from itertools import pairwise

from .lines import COMMENT_STARTS, SOURCE_MAP, header_key, is_closer, is_trivial
from .segments import SnippetLine, is_gap

_MOVED_TAIL = 12  # lines a snippet may move from the file's end (each one written higher up)
_CJS_TAIL = 40  # lines of CommonJS exports that a snippet turning them into `export` lines may drop
_CJS_START = re.compile(r"^(?:module\.)?exports(?:\.[\w$]+)?\s*=")
_CJS_INSIDE = re.compile(r"^(?:[\w$]+(?:\s*:\s*[\w$]+)?,?|}\)?;?)$")  # `a: a,`, `b`, `};`
_ESM_DECL = re.compile(r"^export\s+(?:async\s+)?(?:const|let|var|function\*?|class)\s+([\w$]+)")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


def source_map_tail(items: list[SnippetLine], pairs: dict[int, int], last_s: int, onorm: list[str]) -> bool:
    """The one original line after the snippet's last pair is a compiled file's source map comment
    (`//# sourceMappingURL=index.js.map`), and the snippet ends on that pair, the file's last
    statement: it ends where the file now ends, the comment gone with the build that wrote it (the
    babel 8 packages' releases, 271 lazy snippets of them, none that kept it). O(the lines after).
    """
    rest = [norm for norm in onorm[pairs[last_s] + 1:] if norm]
    return len(rest) == 1 and SOURCE_MAP.match(rest[0]) is not None \
        and not any(item.kind == "code" for item in items[last_s + 1:])


def unexported_tail(items: list[SnippetLine], pairs: dict[int, int], last_o: int, orig: list[str],
                     onorm: list[str]) -> bool:
    """The original lines after the one the snippet ends on are top-level definitions, and the
    snippet edits a line that named each of them into one that does not (pyqtgraph's
    `__all__ = [..., "metaArrayWrapper"]` without it, the file's last function deleted under
    unchanged lines): the snippet ends where the file now ends. O(n + m)."""
    names = [key for o in range(last_o + 1, len(orig))
             if onorm[o] and not orig[o][:1].isspace() and (key := header_key(onorm[o])) is not None]
    if not names or any(onorm[o] and not orig[o][:1].isspace() and header_key(onorm[o]) is None
                        and not onorm[o].startswith(COMMENT_STARTS) and not is_closer(onorm[o])
                        for o in range(last_o + 1, len(orig))):
        return False  # (top-level code that is no definition: statements the snippet may keep)
    edited = [(items[s].norm, onorm[o]) for s, o in pairs.items() if items[s].norm != onorm[o]]
    return all(any(_names(name, old) and not _names(name, new) for new, old in edited) for name in names)


def _names(name: str, line: str) -> bool:
    """`name` occurs in `line` as a whole word. O(len(line))."""
    return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", line) is not None


def moved_tail(items: list[SnippetLine], pairs: dict[int, int], last_o: int, onorm: list[str]) -> bool:
    """The original lines after the one the snippet ends on are at most _MOVED_TAIL statements
    that the snippet writes higher up, unpaired or paired elsewhere: it moved them (tsc moving
    `exports.build = build;` from a file's end to its head, ansi-styles its four `export const`
    lines above a function) and ends as the file now ends. O(m + _MOVED_TAIL)."""
    tail: list[int] = []
    for o in range(last_o + 1, len(onorm)):
        if onorm[o]:
            tail.append(o)
            if len(tail) > _MOVED_TAIL:
                return False
    if not tail:
        return False
    written: dict[str, list[int]] = {}
    for s, item in enumerate(items):
        if item.kind == "code":
            written.setdefault(item.norm, []).append(s)
    return all(not is_closer(onorm[o]) and not is_trivial(onorm[o])
               and any(pairs.get(s) != o for s in written.get(onorm[o], ())) for o in tail)


def commonjs_tail(items: list[SnippetLine], last_o: int, onorm: list[str]) -> bool:
    """The original lines after the one the snippet ends on are the file's CommonJS exports
    (`module.exports = { swap32LE: swap32LE };`, `exports.f = f;`), and every name they export
    is declared by a new `export` line of the snippet, one the original does not have
    (unicode-trie's `const swap32LE` -> `export const swap32LE`): the file moved to ES module
    exports, and the snippet ends where the file now ends. O(m + _CJS_TAIL)."""
    tail = [norm for norm in onorm[last_o + 1:last_o + 2 + _CJS_TAIL] if norm]
    if not tail or len(onorm) - last_o - 1 > _CJS_TAIL or not _CJS_START.match(tail[0]) \
            or not all(_CJS_START.match(norm) or _CJS_INSIDE.match(norm) for norm in tail):
        return False
    names = {name for norm in tail for name in _IDENT.findall(norm)} - {"module", "exports"}
    old = set(onorm)
    declared = {match.group(1) for item in items
                if item.kind == "code" and item.norm not in old and (match := _ESM_DECL.match(item.norm))}
    return bool(names) and names <= declared


def dependent_tail(items: list[SnippetLine], pairs: dict[int, int], last_o: int, orig: list[str],
                   onorm: list[str]) -> bool:
    """The original lines after the one the snippet ends on are top-level definitions, each of
    which uses a top-level definition that the snippet drops between two of its lines with no
    marker between them (and does not write again): they went with it (nemo's diarizer config,
    `class MSDDConfig` deleted and `NeuralDiarizerInferenceConfig`, built on it, gone from the
    file's end). O(n + m + the tail's text per dropped name)."""
    tail = [o for o in range(last_o + 1, len(orig)) if onorm[o]]
    if not tail or orig[tail[0]][:1].isspace() \
            or header_key(onorm[tail[0]]) is None and not onorm[tail[0]].startswith("@"):
        return False
    written = {key for item in items if item.kind == "code" and (key := header_key(item.norm)) is not None}
    dropped: set[str] = set()
    ordered = sorted(pairs.items())
    for (s1, o1), (s2, o2) in pairwise(ordered):
        if o2 > o1 + 1 and not any(is_gap(item) for item in items[s1 + 1:s2]):
            dropped.update(key for o in range(o1 + 1, o2) if onorm[o] and not orig[o][:1].isspace()
                           and (key := header_key(onorm[o])) is not None and key not in written)
    if not dropped:
        return False
    starts = [o for o in tail if not orig[o][:1].isspace() and not onorm[o].startswith(("@", ")"))
              and not is_closer(onorm[o])]
    if any(header_key(onorm[o]) is None and not onorm[o].startswith(COMMENT_STARTS) for o in starts):
        return False  # (top-level statements: code the snippet may keep)
    bounds = [o for o in starts if header_key(onorm[o]) is not None] + [len(orig)]
    names = "|".join(map(re.escape, sorted(dropped)))
    uses = re.compile(rf"(?<![\w$])(?:{names})(?![\w$])")
    return all(uses.search("\n".join(onorm[a:b])) for a, b in pairwise(bounds))


# the first word of a line, and the words that go on a statement rather than start one
_FIRST_WORD = re.compile(r"^\s*([\w@]+)")
_CONTINUATIONS = frozenset(("except", "else", "elif", "finally", "catch"))
# top-level statements that run, not define (a run of definitions, the snippet ending on one of
# them, keeps the next: test_round_six)
_RUN = frozenset(("try", "if", "for", "while", "with"))


def sibling_tail(items: list[SnippetLine], orig: list[str], last_o: int) -> bool:
    """The snippet's last top-level statement starts with the same word as the top-level statement
    right after its last pair, and that word starts a statement that runs (`try`, `if`, ...):
    pymeasure's `try:` / `import ...` / `except ImportError:` blocks, one per optional adapter. A
    snippet ending there, with markers elsewhere, may have deleted the next block of the run or
    left out its last marker, and the two readings look alike. O(the snippet's lines from its last
    top-level statement on + the blank lines after last_o)."""
    top = None
    for item in reversed(items):
        if item.kind == "code" and item.text[:1] not in (" ", "\t") and (found := _FIRST_WORD.match(item.text)) \
                and found[1] not in _CONTINUATIONS:
            top = found[1]
            break
    k = last_o + 1
    while k < len(orig) and not orig[k].strip():
        k += 1
    if top is None or k == len(orig) or orig[k][:1] in (" ", "\t"):
        return False
    found = _FIRST_WORD.match(orig[k])
    return found is not None and found[1] == top and top in _RUN
