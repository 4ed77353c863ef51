"""When a changed snippet line is an edited version of an original line rather than a new one."""

from __future__ import annotations

import re
from collections import Counter

from rapidfuzz.fuzz import ratio

from .lines import JS_FROM, header_key, is_closer, is_trivial, opens_block
from .syntax import common_prefix

FUZZY_MIN = 60.0
# Past this length (minified code, embedded data) two lines are compared by their common prefix
# and suffix (linear), not rapidfuzz's ratio: that is quadratic in the length of two long lines
# (a 500 KB line against its edited copy took 7 s).
FUZZY_MAX_CHARS = 5_000

_ASSIGNED = re.compile(r"^((?:(?:const|let|var|local|val|export|static|final|public|private)\s+)*"
                       r"[A-Za-z_$][\w$.\[\]'\"]*\s*(?::[^=]*)?)\s*[:=]\s")
_TOKEN = re.compile(r"\w+|[^\w\s]")
_DOTTED_TOKEN = re.compile(r"\w+(?:\.\w+)*|[^\w\s]")
_WORD = re.compile(r"\w")


# A formatter's pass (prettier, black) changes quote styles and statement-ending punctuation only.
_QUOTES = str.maketrans({"'": '"', "`": '"'})


def _reformatted(new: str, old: str) -> bool:
    """The same line but for its quote style or a closing `;` / `,`: `'use strict';` ->
    `"use strict";`, `require('./a')` -> `require("./a");`."""
    a, b = new.translate(_QUOTES).rstrip(";,"), old.translate(_QUOTES).rstrip(";,")
    return a == b and new != old and _WORD.search(a) is not None


_PY_IMPORT = re.compile(r"^from\s+\S+\s+(import\s+\w.*)$")
_PY_PLAIN_IMPORT = re.compile(r"^import\s+\w+(?:\s+as\s+\w+)?(?:\s*#.*)?$")


def _imported(line: str) -> str | None:
    """What an import (or re-export) line takes, apart from where it takes it from; None for
    other lines and for `export * from` (no name of its own)."""
    found = JS_FROM.match(line)
    if found:
        return " ".join(found.groups()) if _WORD.search(found.group(2)) else None
    found = _PY_IMPORT.match(line)
    if found:
        return found.group(1)
    return line if _PY_PLAIN_IMPORT.match(line) else None  # `import x` takes what `from y import x` does


def edited_version(new: str, old: str, *, assignments: bool = False) -> bool:
    """True when `new` reads as an edit of `old`, not a different line: the same definition name, or
    one line's tokens contain the other's (an import that gained a name, an argument appended)."""
    if new and old and not is_closer(old) and _WORD.search(old) and _WORD.search(new) \
            and (new.startswith(old + " ") or old.startswith(new + " ")):
        return True  # words appended: `return` -> `return None`, `pass` -> `pass  # todo` (not `//` -> `// x`)
    if _reformatted(new, old):
        return True
    if new.startswith("elif ") != old.startswith("elif ") and new.startswith(("if ", "elif ")) \
            and old.startswith(("if ", "elif ")):
        # an `if` become an `elif` under a new branch (or the reverse), its condition kept or cut
        # to a part of it (cudnn's `if device is not None and tuple(device()) != ...:` as `elif
        # tuple(device()) != ...:`); not `elif x == 3:` against `if x == 2:`, two branches of one
        # chain (gluonts' rank checks)
        a, b = new.removeprefix("el"), old.removeprefix("el")
        return a == b or similarity(a, b) >= FUZZY_MIN and _tokens_contained(_TOKEN.findall(a), _TOKEN.findall(b))
    if _handler_widened(new, old) or _handler_widened(old, new):
        return True  # `except:` -> `except Exception:`, `rescue` -> `rescue StandardError => e`
    if is_trivial(new) or is_trivial(old):
        return False
    key, old_key = header_key(new), header_key(old)
    if key is not None and key == old_key:
        return True
    if key is not None and old_key is not None:
        return False
    names, old_names = _imported(new), _imported(old)
    if names is not None and names == old_names:
        return True  # the same names from a moved module: `import { s } from './a.mjs'` -> './b.mjs'
    new_target, old_target = _ASSIGNED.match(new), _ASSIGNED.match(old)
    if assignments and new_target and old_target and new_target.group(1).strip() == old_target.group(1).strip():
        return True  # the same name given a new value: `TIMEOUT = 30` -> `TIMEOUT = 60`
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    if a[0] != b[0] or similarity(new, old) < FUZZY_MIN:
        return False
    if opens_block(new) and opens_block(old) and similarity(new, old) >= 85:
        return True  # a block header with a changed condition: `if x > 1 {` -> `if x > 2 {`
    return _tokens_contained(a, b)


def _tokens_contained(a: list[str], b: list[str]) -> bool:
    """The shorter token list's words all occur in the longer one, and at most one of its
    punctuation tokens does not. O(len(a) + len(b))."""
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    remaining = Counter(large)
    missing = 0
    for token in small:
        if remaining[token] > 0:
            remaining[token] -= 1
        elif token[0].isalnum() or token[0] == "_":
            return False  # a word of one line is not in the other: a different line, not an edit
        else:
            missing += 1
    return missing <= 1


def replaces(new: str, old: str) -> bool:
    """`new` is an edit of `old`: edited_version's answer, or the same first two tokens (`if e`,
    `return self`) and most of the text (a condition rewritten: `==` to `in {...}`). For a line
    already placed by its neighbours, next to the one it may replace."""
    if edited_version(new, old):
        return True
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    return len(a) >= 2 and a[:2] == b[:2] and similarity(new, old) >= FUZZY_MIN


_CONDITIONS = frozenset(("if", "elif", "while", "unless", "until"))


_HANDLERS = frozenset(("except", "catch", "rescue"))


def _handler_widened(long: str, short: str) -> bool:
    """`long` is the exception handler `short` with tokens added in one place, its keyword and its
    ending kept: a bare handler narrowed to a type, or a type list grown."""
    a, b = _TOKEN.findall(long), _TOKEN.findall(short)
    if not b or b[0] not in _HANDLERS or len(a) <= len(b) or a[0] != b[0]:
        return False
    head = 1
    while head < len(b) and a[head] == b[head]:
        head += 1
    return a[len(a) - (len(b) - head):] == b[head:]


def rewrites_condition(new: str, old: str) -> bool:
    """`new` and `old` open a block with the same conditional keyword (`if isinstance(x, bool):`
    for `if x is True or x is False:`): a condition rewritten, whatever text it shares, when the
    caller knows the body after it is the old one's."""
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    return bool(a) and bool(b) and a[0] == b[0] and a[0] in _CONDITIONS and opens_block(new) and opens_block(old)


def rewrites(new: str, old: str) -> bool:
    """Looser than edited_version, for the one original line right next to an anchor that a snippet
    line takes the place of: a new value for the same assignment target, or the same kind of exit
    (`raise ArgumentError, "..." unless ...`) with most of its text shared. Keeping both would leave
    two near-copies side by side, which a careful reader would not mean. Sibling lines (imports,
    calls, markup elements) are left alone: a new one next to an old one is an ordinary insertion."""
    if is_trivial(new) or is_trivial(old) or opens_block(new) or opens_block(old) or is_closer(old) \
            or header_key(new) is not None or header_key(old) is not None:
        return False  # block headers and definitions are edited_version's business
    if new.startswith("- ") and old.startswith("- "):
        new, old = new[2:], old[2:]  # the same field of a YAML list item
    new_target, old_target = _ASSIGNED.match(new), _ASSIGNED.match(old)
    if new_target and old_target:
        return new_target.group(1).strip() == old_target.group(1).strip()
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    if len(a) < 3 or len(b) < 3 or similarity(new, old) < FUZZY_MIN:
        return False
    if a[0] in _EXITS:
        return a[:2] == b[:2]
    # a process exit is an exit too: a second `sys.exit(...)` after the first would never run
    width = 4 if len(a) > 3 and a[1] == "." else 2
    return a[width - 2] in _EXIT_CALLS and a[width - 1] == "(" and a[:width] == b[:width]


_EXITS = {"raise", "throw", "return", "assert", "panic", "fail", "abort", "die", "error"}
_EXIT_CALLS = {"exit", "_exit"}  # sys.exit(, os._exit(, process.exit(, os.exit( (Lua), exit(


def similarity(a: str, b: str) -> float:
    """rapidfuzz's ratio (0-100); for lines longer than FUZZY_MAX_CHARS a lower bound of it in linear
    time: the share of both lines that their common prefix and suffix cover (one edit in a long
    minified line keeps almost all of it; a different line shares little)."""
    if len(a) <= FUZZY_MAX_CHARS and len(b) <= FUZZY_MAX_CHARS:
        return ratio(a, b)
    if not a and not b:
        return 100.0
    head = common_prefix(a, b)
    tail = common_prefix(a[head:][::-1], b[head:][::-1])
    return 200.0 * (head + tail) / (len(a) + len(b))


def long_matches(query: str, choices: dict[int, str], limit: int = 3) -> list[tuple[str, float, int]]:
    """rapidfuzz.process.extract(query, choices, scorer=ratio, score_cutoff=FUZZY_MIN) for a query
    longer than FUZZY_MAX_CHARS, with `similarity`: only choices whose length allows a score of
    FUZZY_MIN are compared (at least 3/7 of the query's), so at most (file size / that length) of
    them, each in linear time."""
    shortest, longest = len(query) * 3 / 7, len(query) * 7 / 3
    found = [(text, score, key) for key, text in choices.items() if shortest <= len(text) <= longest
             and (score := similarity(query, text)) >= FUZZY_MIN]
    return sorted(found, key=lambda match: -match[1])[:limit]


def swapped_token(new: str, old: str) -> str | None:
    """The one token of `new` that differs from `old`'s, when they are one_token_apart; else None."""
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    if len(a) != len(b) or len(a) < 2:
        return None
    differ = [x for x, y in zip(a, b) if x != y]
    return differ[0] if len(differ) == 1 else None


def one_token_apart(new: str, old: str) -> bool:
    """`new` and `old` have the same tokens but one (`def initialize_safe(app)` for `def
    initialize(app)`): a definition renamed, nothing else about it changed."""
    return swapped_token(new, old) is not None


def substituted(new: str, old: str) -> bool:
    """True when `new` is `old` with a few tokens swapped, in place (a one-word edit, a literal
    replaced by a named constant, an annotation changed): the same number of tokens, at most one
    in three of them different and a word in common (or one token of three or more swapped)."""
    if is_trivial(new) or is_trivial(old):
        return False
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    if len(a) != len(b):
        # (a name swapped for a dotted one counts as one token: albucore's `-> np.ndarray: ...`
        # became `-> ImageArrayT: ...`)
        a, b = _DOTTED_TOKEN.findall(new), _DOTTED_TOKEN.findall(old)
    if len(a) != len(b) or len(a) < 2:
        return False
    differ = sum(x != y for x, y in zip(a, b))
    same_words = sum(x == y and x[0].isalnum() for x, y in zip(a, b))
    return 0 < differ <= max(1, len(a) // 3) and same_words >= 1 or differ == 1 and len(a) >= 3


def extracted(new: str, old: str, names: set[str]) -> bool:
    """True when `new` is `old` with one literal (a bracketed or quoted span) replaced by a name
    that `names` holds, the names the lines around it assign (weasyprint's `if ident.lower_value
    not in values:` for `... not in ('first', 'start', 'last', 'first-except'):` under `values =
    (...)`): the literal pulled out into a variable. O(len(new) + len(old))."""
    a, b = _TOKEN.findall(new), _TOKEN.findall(old)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middle, span = a[head:len(a) - tail], b[head:len(b) - tail]
    return len(middle) == 1 and middle[0] in names and len(span) >= 3 and span[0] in "([{'\"" \
        and head + tail >= 3
