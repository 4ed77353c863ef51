"""Indentation style: carrying snippet lines over into the file's own style (tabs or spaces, width)."""

from __future__ import annotations

from collections import Counter

import msgspec

from .lines import indent_width


class Style(msgspec.Struct, frozen=True):
    tabs: bool
    unit: int


def detect_style(lines: list[str]) -> Style:
    tabbed = spaced = 0
    steps: Counter[int] = Counter()
    previous = 0
    seen = 0
    for line in lines:
        stripped = line.lstrip()
        if not stripped:
            continue
        seen += 1
        if seen > 600:
            break  # plenty to tell the style, and files can be long
        if line.startswith("\t"):
            tabbed += 1
        elif line.startswith(" "):
            spaced += 1
        width = len(line) - len(stripped) if not line.startswith("\t") else 0
        if not line.startswith("\t") and width > previous:
            steps[width - previous] += 1
        if not line.startswith("\t"):
            previous = width
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
