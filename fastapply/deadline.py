"""A deadline for the current merge, seen by every stage without changing their signatures.

`with deadline(2.5): apply(...)` makes the stages that loop over the input (alignment steps, straggler
searches, fuzzy matching, diffing) call `check_deadline()`, which raises MergeTimeout once the time
is up. The service sets it around every merge in thread mode, where a merge cannot be killed; in
process mode the worker is killed instead (fastapply.service.executor). A context variable, so
threads and tasks each see their own deadline and code that sets none pays one lookup per check.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from time import monotonic

from .errors import ApplyError, ErrorCode

_DEADLINE: ContextVar[float | None] = ContextVar("fastapply_deadline", default=None)


class MergeTimeout(ApplyError):
    """The merge ran past its deadline and was stopped; nothing was written."""

    code = ErrorCode.MERGE_TIMEOUT


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Stop work inside this block after `seconds` (None: no limit; an outer, earlier deadline wins)."""
    if seconds is None:
        yield
        return
    at = monotonic() + seconds
    outer = _DEADLINE.get()
    token = _DEADLINE.set(at if outer is None else min(at, outer))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_deadline() -> None:
    """Raise MergeTimeout when the current deadline has passed. Cheap: call it once per loop step."""
    at = _DEADLINE.get()
    if at is not None and monotonic() > at:
        raise MergeTimeout("the merge ran past its time limit and was stopped; send a smaller file or "
                           "edit, or one whose lines are less repetitive", code=ErrorCode.MERGE_TIMEOUT)
