"""Recognising the lines in a snippet that stand for unchanged code ("... existing code ...").

Models write these markers in every comment syntax, often the wrong one for the file, with or
without a description. A line is a marker when, once its comment delimiters are removed, it is a
bare ellipsis, starts with an ellipsis, or is one of the usual "existing code" phrases ending in
one. A comment that merely contains an ellipsis ("// wait for it...") is not a marker, and neither
is any line that occurs verbatim in the original file.
"""

from __future__ import annotations

import re

from .lines import IDENTIFIER

# Comment openers and closers of every language we know, longest first so `{/*` wins over `/*`.
_OPEN = r"(?:\{\s*/\*+|<!--|/\*+|//+|#+|--+(?:\[\[)?|;+|%+|\(\*|\"\"\"|'''|')?"
_CLOSE = r"(?:\*+/\s*\}|-->|\*+/|\*\)|\]\]|\"\"\"|''')?"
_LINE = re.compile(rf"^\s*{_OPEN}\s*(?P<body>.*?)\s*{_CLOSE}\s*$")
_ELLIPSIS = r"(?:\.{3,}|…)"
_PHRASE = (r"(?:the\s+)?(?:rest|remaining|remainder|existing|unchanged|same|keep|other|previous|omitted|"
           r"more|original|prior|etc|code|lines?|methods?|functions?|imports?|props?|fields?|"
           r"properties|styles?|rules?|elements?|content|body|implementation|logic|cases?|tests?)\b")
_BODY = re.compile(
    rf"^(?:\[?\s*{_ELLIPSIS}.*"  # "... existing code ...", "...", "[... 20 lines ...]"
    rf"|{_PHRASE}.*{_ELLIPSIS}\]?"  # "rest of the code ...", "existing methods …"
    rf"|(?:rest of (?:the )?(?:code|file|class|function|method|component|module|body)|"
    rf"existing code|unchanged code|keep existing code|remaining code)(?: (?:here|unchanged|as before|"
    rf"remains? (?:the )?same|stays? the same))?)$",
    re.IGNORECASE,
)
_HAS_COMMENT = re.compile(r"^\s*(?:\{\s*/\*|<!--|/\*|//|#|--|;|%|\(\*)")
_DELETE = re.compile(r"^\s*(?://+|#+|--+|/\*+|<!--)\s*\(?\s*(?:remove|removed|delete|deleted|drop|dropped)\b"
                     r"(?P<what>.*?)\)?\s*(?:\*/|-->)?\s*$", re.IGNORECASE)


def is_marker(line: str) -> bool:
    """True when `line` (one line of a snippet) stands for elided unchanged code."""
    stripped = line.strip()
    if not stripped or "..." not in stripped and "…" not in stripped and not _HAS_COMMENT.match(stripped):
        return False
    match = _LINE.match(stripped)
    if match is None:
        return False
    body = match.group("body").strip()
    if not body:
        return False
    if not _HAS_COMMENT.match(stripped):
        # Without a comment around it only a bare ellipsis counts ("..." alone on a line).
        return re.fullmatch(_ELLIPSIS, body) is not None
    return _BODY.match(body) is not None


_LEFTOVER = re.compile(rf"{_ELLIPSIS}\s*(?:existing|rest of|unchanged|remaining)\b", re.IGNORECASE)


def marker_text_in(line: str) -> bool:
    """True when a merged line still carries marker text (the validator's check)."""
    if "..." not in line and "…" not in line and not _HAS_COMMENT.match(line):
        return False
    return is_marker(line) or bool(_LEFTOVER.search(line))


def delete_target(line: str) -> list[str] | None:
    """For an explicit deletion note ("// remove the foo function"), the names it mentions, most
    specific first: called names (`foo()`, `Note.matches()`) and quoted ones before plain words."""
    match = _DELETE.match(line)
    if match is None or len(match.group("what").split()) > 12:
        return None
    what = re.split(r":\s|\s[-\u2014]+\s|;|,\s", match.group("what"), maxsplit=1)[0]
    called = [name.rsplit(".", 1)[-1].rsplit("::", 1)[-1]
              for name in re.findall(r"([A-Za-z_$][\w$.:]*)\s*\(", what)]
    quoted = re.findall(r"[`'\"]([A-Za-z_$][\w$]*)[`'\"]", what)
    words = [w for w in IDENTIFIER.findall(what) if w.lower() not in _FILLER]
    ordered: list[str] = []
    for name in [*called, *quoted, *words]:
        if name not in ordered:
            ordered.append(name)
    return ordered


_FILLER = {"the", "a", "an", "function", "method", "class", "this", "old", "unused", "field", "property",
           "import", "line", "lines", "block", "here", "and", "of", "code", "from", "struct", "def", "fn",
           "func", "call", "to", "it", "its", "is", "no", "longer", "needed", "now", "not", "any", "more",
           "helper", "legacy", "deprecated", "dead", "route", "endpoint", "test", "rule", "style", "section",
           "element", "variable", "constant", "type", "interface", "enum", "handler", "entire", "whole"}
