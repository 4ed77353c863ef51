"""Indentation style: carrying snippet lines over into the file's own style (tabs or spaces, width)."""

from __future__ import annotations

from collections import Counter
from itertools import chain, compress, islice, repeat
from operator import itemgetter, ne, sub

import msgspec

from .lines import indent_width


class Style(msgspec.Struct, frozen=True):
    tabs: bool
    unit: int


def detect_style(lines: list[str]) -> Style:
    """Tabs or spaces, and the usual indentation step, read from the first 600 non-blank lines
    (plenty to tell the style, and files can be long). O(those lines), most of it in C."""
    sample = list(islice(filter(str.strip, lines), 600))
    firsts = list(map(itemgetter(0), sample))  # (a non-blank line has a first character)
    tabbed, spaced = firsts.count("\t"), firsts.count(" ")
    untabbed = list(compress(sample, map(ne, firsts, repeat("\t"))))
    # a line's width is measured from the last one not indented by a tab; each step deeper counts
    widths = list(map(sub, map(len, untabbed), map(len, map(str.lstrip, untabbed))))
    steps: Counter[int] = Counter([step for step in map(sub, widths, chain((0,), widths)) if step > 0])
    unit = 4
    for step, _ in steps.most_common():
        if step in (2, 3, 4, 8):
            unit = step
            break
    return Style(tabs=tabbed > spaced, unit=unit)


def level(text: str, style: Style) -> float:
    return indent_width(text, style.unit) / style.unit


def render(text: str, new_level: float, style: Style) -> str:
    body = text.lstrip()
    if not body:
        return ""
    new_level = max(new_level, 0.0)
    if style.tabs:
        whole = int(new_level)
        return "\t" * whole + " " * round((new_level - whole) * style.unit) + body
    return " " * round(new_level * style.unit) + body
