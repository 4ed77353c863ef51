"""The garbage collector paused while a large merge runs.

A merge of a large file builds a few hundred thousand small containers (the per-text position
lists, the splice's rows, candidate tuples), none of them cyclic garbage: reference counting frees
them when the merge returns. CPython's generational collector still walks them again and again
while they pile up (each full pass over the whole, growing heap), which cost 5-10% of a 2 MB
merge. So from PAUSE_MIN_CHARS of input on, automatic collection is paused for the merge and
resumed after it. The pause is process-wide: nested or concurrent merges (thread mode) share one
count, and the last one to finish resumes the collector, only if it was running when the first one
started (a program that turned it off keeps it off). Small merges, the usual ones, never pause it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

PAUSE_MIN_CHARS = 256_000

_lock = threading.Lock()
_active = 0  # merges running with the collector paused
_resume = False  # whether the collector was enabled when the first of them started


@contextmanager
def collector_paused(chars: int) -> Iterator[None]:
    """Pause automatic garbage collection inside the block when `chars` (the input's size) is large."""
    global _active, _resume
    if chars < PAUSE_MIN_CHARS:
        yield
        return
    with _lock:
        if _active == 0:
            _resume = gc.isenabled()
            gc.disable()
        _active += 1
    try:
        yield
    finally:
        with _lock:
            _active -= 1
            if _active == 0 and _resume:
                gc.enable()
