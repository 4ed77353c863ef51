"""The snippet as the engine sees it: lines classified as code, blank, marker or deletion note."""

from __future__ import annotations

import msgspec

from .markers import delete_target, is_marker

def normalize(line: str) -> str:
    """A line's identity for matching: no leading/trailing whitespace, inner runs of spaces collapsed."""
    return " ".join(line.split())


class SnippetLine(msgspec.Struct):
    text: str
    kind: str  # "code", "blank", "marker" (explicit), "implicit" (a marker the engine assumed), "delete"
    norm: str = ""
    number: int = 0  # 1-based line number in the snippet as sent (0 for implicit markers)
    targets: list[str] = []  # for "delete": identifiers the note names


def classify(snippet: str, original_norms: set[str]) -> list[SnippetLine]:
    """Classify every snippet line. Leading and trailing blank lines are dropped."""
    raw = snippet.split("\n")
    items: list[SnippetLine] = []
    for number, text in enumerate(raw, 1):
        norm = normalize(text)
        if not norm:
            items.append(SnippetLine(text, "blank", "", number))
        elif norm not in original_norms and is_marker(text):
            items.append(SnippetLine(text, "marker", norm, number))
        elif norm not in original_norms and (targets := delete_target(text)) is not None:
            items.append(SnippetLine(text, "delete", norm, number, targets))
        else:
            items.append(SnippetLine(text, "code", norm, number))
    while items and items[0].kind == "blank":
        items.pop(0)
    while items and items[-1].kind == "blank":
        items.pop()
    return items


def is_gap(item: SnippetLine) -> bool:
    """Markers, explicit or assumed, stand for kept original code."""
    return item.kind in ("marker", "implicit")


def indent_of(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]
