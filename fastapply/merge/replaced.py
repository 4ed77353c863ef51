"""The words test: do the new lines that take the place of original lines say what they replace?

A run of new snippet lines between a copy of a common line and an anchor replaces the original
lines between the two only when it names what they do (copies.py): a dropped statement that the
new lines do not mention is more likely code the snippet left out than code it rewrote. Comments,
docstring prose and imports are not asked, and in a long block one unnamed statement in eight may
go with the rest. Complexity: O(the lines read).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .lines import is_comment

_WORDS = re.compile(r"[A-Za-z_]\w{2,}")
_COMMON = frozenset({"self", "this", "return", "None", "null", "nil", "True", "False", "true", "false", "def",
                     "function", "for", "while", "not", "and", "else", "elif", "const", "let", "var"})
# what rules a line out as docstring prose: code punctuation, `a.b`, `a_b`, an opening line's end
_CODE_MARKS = re.compile(r"\w[._]\w|[=(){}\[\]<>\\|&%$@#\"]|->|::|[:{(\[,;]$")
_KEYWORDS = frozenset(("return", "if", "elif", "else", "for", "while", "raise", "yield", "import", "from", "def",
                       "class", "assert", "await", "async", "with", "try", "except", "finally", "del", "pass",
                       "break", "continue", "global", "nonlocal", "lambda", "not", "print", "throw", "const",
                       "let", "var", "new", "case", "switch", "do", "end", "fn", "pub", "use", "func", "go"))
# dropped statements the new lines need not name, per statement they do name (a block rewritten as
# a call, inkling's `causal_conv1d_forward(...)`, names nearly all it replaces: one local
# `conv_state = None` in eight it does not name is part of the rewrite)
_SLACK = 1 / 8
_EVEN_SLACK = 1 / 2


def named_words(lines: Iterable[str]) -> set[str]:
    """The names the (normalised) lines use, three characters or more, common keywords aside."""
    return {word for norm in lines for word in _WORDS.findall(norm)} - _COMMON


def names_what_it_replaces(dropped: list[str], words: set[str], even: bool = False) -> bool:
    """True when the new lines (their `words`) name the dropped statements: every one, or all but
    one in eight of those they name (one in two for an `even` rewrite, as many new lines as
    dropped ones: a loop rewritten line for line keeps its role, not its local names)."""
    named = [found for norm in dropped if (found := statement_names(norm))]
    unnamed = sum(1 for found in named if found.isdisjoint(words))
    return unnamed <= (_EVEN_SLACK if even else _SLACK) * (len(named) - unnamed)


def statement_names(norm: str) -> set[str]:
    """The names of a dropped line that counts: not blank, a comment, docstring prose or an import."""
    if not norm or is_comment(norm) or prose(norm) or norm.startswith(("import ", "from ")):
        return set()
    return set(_WORDS.findall(norm)) - _COMMON


def prose(norm: str) -> bool:
    """A line of docstring prose, dropped like a comment line: four words or more and nothing of
    code (monty's `- The order of the items in the namedtuple is not deterministic if`). O(len)."""
    text = norm.lstrip("-* ")
    words = text.split()
    return len(words) >= 4 and words[0] not in _KEYWORDS and not _CODE_MARKS.search(text)
