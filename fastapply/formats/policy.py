"""The choices where the agents' own appliers differ from each other and from our precision-first default.

Every format takes a `Policy`. The defaults are ours; each field names the owner whose behaviour the
other value restores (README, section "Edit format dialects").
"""

from __future__ import annotations

from typing import Literal

import msgspec

from ..errors import ErrorCode, InputError

Ambiguity = Literal["refuse", "first"]
AMBIGUITY = ("refuse", "first")
MARKERS = ("tolerant", "strict")
UNTERMINATED = ("complete", "refuse")


class Policy(msgspec.Struct, frozen=True, kw_only=True):
    """How to settle what an edit leaves open.

    ambiguity: an edit whose text matches several places equally well (and that no line-number hint,
      such as Roo's `:start_line:` or a diff header, points at clearly): "refuse" (default) says which
      places; "first" takes the first one at or after the previous edit of the same reply, else the
      first in the file (Aider, Cline, Codex). With a hint, "first" takes the place nearest the hint.
    reindent: when a block matched only with its indentation shifted, shift its new lines the same
      way (default, as Aider and Roo Code do); False writes them as given (Codex, Cline).
    markers: "tolerant" (default) reads SEARCH/REPLACE markers with stray spaces (`-------SEARCH`,
      `======= `); "strict" reads only the markers the owners' parsers accept.
    unterminated: a final SEARCH/REPLACE block in Cline's dialect without its `+++++++ REPLACE`
      line, or a whole-file fence left open at the end of the reply: "complete" (default, as Cline
      and Aider do) runs it to the end of the reply; "refuse" treats it as cut off.
    """

    ambiguity: Ambiguity = "refuse"
    reindent: bool = True
    markers: Literal["tolerant", "strict"] = "tolerant"
    unterminated: Literal["complete", "refuse"] = "complete"


DEFAULT_POLICY = Policy()


def make_policy(policy: Policy | None = None, *, ambiguity: str | None = None) -> Policy:
    """`policy` (or the default) with `ambiguity` replaced when given; refuses unknown values."""
    base = policy or DEFAULT_POLICY
    for name, allowed in (("ambiguity", AMBIGUITY), ("markers", MARKERS), ("unterminated", UNTERMINATED)):
        value = ambiguity if name == "ambiguity" and ambiguity is not None else getattr(base, name)
        if value not in allowed:
            raise InputError(f"{name}={value!r} is not one of {', '.join(allowed)}",
                             code=ErrorCode.INVALID_ARGUMENT, details={"field": name})
    if ambiguity is None or ambiguity == base.ambiguity:
        return base
    return msgspec.structs.replace(base, ambiguity=ambiguity)  # type: ignore[arg-type]
