"""What a located region is (`Match`) and how new lines are shifted to its indentation (`Reindent`).

Shared by every edit format. Cost: `indent_plan` makes one pass over the paired lines per tab size
tried (4, 8, 2), so O(n) in the needle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import msgspec


class Reindent(msgspec.Struct, kw_only=True):
    """How to shift new lines so they sit at the indentation the matched region has in the file."""

    delta: int
    tabsize: int
    use_tabs: bool
    mapping: dict[str, str]

    def line(self, text: str) -> str:
        body = text.lstrip(" \t")
        if not body:
            return text
        indent = text[: len(text) - len(body)]
        mapped = self.mapping.get(indent)
        if mapped is not None:
            return mapped + body
        width = max(0, _width(indent, self.tabsize) + self.delta)
        if self.use_tabs:
            return "\t" * (width // self.tabsize) + " " * (width % self.tabsize) + body
        return " " * width + body


class Match(msgspec.Struct, kw_only=True):
    """Where a needle sits: file lines [start, end); pairs[k] is the file line of needle line k or None."""

    start: int
    end: int
    kind: str  # exact | whitespace | indent | blank_lines | fuzzy
    similarity: float
    pairs: list[int | None]
    reindent: Reindent | None = None

    @property
    def fuzzed(self) -> bool:
        return self.kind != "exact"

    def new_line(self, text: str) -> str:
        return self.reindent.line(text) if self.reindent else text


def _width(indent: str, tabsize: int) -> int:
    return len(indent.expandtabs(tabsize))


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


# Typographic dashes, quotes and spaces read as their ASCII forms (as Codex's apply_patch does).
_PUNCT = str.maketrans({**dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
                        **dict.fromkeys("\u2018\u2019\u201a\u201b", "'"),
                        **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
                        **dict.fromkeys("\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                                        "\u202f\u205f\u3000", " ")})


def _squash(line: str) -> str:
    return " ".join(line.translate(_PUNCT).split())


def indent_plan(needle: Sequence[str], hay: Sequence[str], pairs: Sequence[int | None], *,
                strict: bool) -> tuple[bool, Reindent | None]:
    """Work out the indentation shift between paired lines. (ok, plan); plan None means no shift.

    strict: the shift must be the same on every non-blank line (tiers 3-4); otherwise the most
    common shift is used (fuzzy tier).
    """
    paired = [(needle[k], hay[j]) for k, j in enumerate(pairs)
              if j is not None and needle[k].strip() and hay[j].strip()]
    if all(_indent(a) == _indent(b) for a, b in paired):
        return True, None
    use_tabs = any("\t" in _indent(b) for _, b in paired)
    for tabsize in (4, 8, 2):
        deltas = Counter(_width(_indent(b), tabsize) - _width(_indent(a), tabsize) for a, b in paired)
        if strict and len(deltas) != 1:
            continue
        delta = deltas.most_common(1)[0][0]
        mapping: dict[str, str] = {}
        for a, b in paired:
            if _width(_indent(b), tabsize) - _width(_indent(a), tabsize) == delta:
                mapping.setdefault(_indent(a), _indent(b))
        return True, Reindent(delta=delta, tabsize=tabsize, use_tabs=use_tabs, mapping=mapping)
    return False, None
