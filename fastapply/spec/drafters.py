"""Draft sources for speculative decoding: copy the continuation of the output from the prompt or from
a predicted output, with a window size K that adapts to how well the drafts are accepted.

A fast-apply model copies almost everything it writes from the original file or the update snippet, so
the best draft is "whatever followed the text we are copying right now". `CopySource` keeps that copy
position: while the model keeps writing what the source says, it stays on the same occurrence (even when
an earlier occurrence of the same tokens exists); when the model deviates it jumps to the first
occurrence of the longest suffix of the output (found with a suffix automaton in amortized O(1)).
The prompt source is live: the output is appended to it, so repeated blocks of the output are drafted too.

Any object with `propose` and `accept` is a drafter. A feature drafter (an EAGLE head, fastapply.spec.
head_drafter) also sets `wants_features = True` and gets `observe(hidden)` with the target's last hidden
states of every position the decode loop keeps (the prompt after the prefill; pending + accepted drafts
after each verify step), before `accept` is called with the same step's tokens. An optional `source`
attribute ("copy", "head", "copy+head") labels the last draft for the per-source stats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from .automaton import Matcher, SuffixAutomaton

DRAFTER_KINDS = ("none", "automaton", "predicted", "auto")


@runtime_checkable
class Drafter(Protocol):
    def propose(self, max_tokens: int) -> list[int]:
        """Up to `max_tokens` draft tokens that should follow the output so far (may be empty)."""
        ...

    def accept(self, tokens: list[int]) -> None:
        """Called with every token appended to the output, in order (one call per verify step)."""
        ...


class AdaptiveK:
    """Window size policy: double after a fully accepted draft, halve after a rejection.

    Long windows are nearly free on a GPU but cost compute on a CPU, and a wrong copy position wastes the
    whole window; starting moderate and growing on success gets both cases right. (Replaying SmolLM2's
    real outputs, this beat fixed K=64 by ~30% in target compute on the CPU and scaling K by the match
    length gained under 3%, so it stays this simple.)"""

    def __init__(self, initial: int = 16, minimum: int = 4, adaptive: bool = True) -> None:
        self.k = max(1, initial)
        self.minimum = max(1, minimum)
        self.adaptive = adaptive

    def size(self, max_tokens: int) -> int:
        return min(self.k, max_tokens) if self.adaptive else max_tokens

    def update(self, proposed: int, accepted: int, cap: int) -> None:
        if not self.adaptive or proposed == 0:
            return
        if accepted == proposed:
            self.k = min(max(cap, self.minimum), self.k * 2)
        else:
            self.k = max(self.minimum, self.k // 2)


class CopySource:
    """One text to copy from (the prompt, or a predicted output) and the current copy position in it.

    A `live` source also appends every output token to its text (after a separator), so the output can
    copy from itself: a model that repeats a block it already wrote gets drafts for it. The longest
    suffix of the output that occurred before is then the suffix link of the automaton's last state,
    kept by the online construction itself in amortized O(1) per token."""

    def __init__(self, tokens: Sequence[int], *, min_match: int = 2, anchored: bool = False,
                 live: bool = False) -> None:
        self.automaton = SuffixAutomaton(tokens)
        self.live = live
        if live:
            self.automaton.add_separator()  # the output is a segment of its own
        self.text = self.automaton.text
        self.matcher = Matcher(self.automaton)
        self.min_match = max(1, min_match)
        # An anchored source (a predicted output) is aligned with the output from its first token on.
        self.pos: int | None = 0 if anchored and self._live(0) else None
        self.run = 0  # length of the match that ends just before `pos`

    def _live(self, pos: int) -> bool:
        return pos < len(self.text) and self.text[pos] >= 0

    def match_length(self) -> int:
        return self.run if self.pos is not None else -1

    def _match(self, token: int) -> tuple[int, int]:
        """(length, first end index) of the longest suffix of the output found earlier in the text."""
        if not self.live:
            return self.matcher.feed(token), self.matcher.end_position()
        a = self.automaton
        a.extend((token,))
        state = a.link[a.last]
        return a.length[state], a.first_end[state]

    def feed(self, token: int) -> None:
        continues = self.pos is not None and self.text[self.pos] == token
        length, end = self._match(token)
        if continues:
            # The model wrote what we were copying: stay on this occurrence.
            self.pos += 1
            self.run += 1
            if self._live(self.pos):
                return
        self.pos, self.run = None, 0
        if length >= self.min_match and self._live(end + 1):
            self.pos, self.run = end + 1, length

    def propose(self, max_tokens: int) -> list[int]:
        if self.pos is None or max_tokens <= 0:
            return []
        window = self.text[self.pos:self.pos + max_tokens]
        for i, token in enumerate(window):
            if token < 0:  # a segment separator: nothing to copy past it
                return window[:i]
        return window


class CopyDrafter:
    """Drafts from one or more copy sources, taking the one with the longest current match (ties go to
    the earlier source, so list the predicted output first)."""

    def __init__(self, sources: list[CopySource], *, k: AdaptiveK | None = None) -> None:
        self.sources = sources
        self.k = k or AdaptiveK()
        self._last: list[int] = []
        self._cap = 0
        self.source_used: int | None = None

    def propose(self, max_tokens: int) -> list[int]:
        self._cap = max_tokens
        size = self.k.size(max_tokens)
        best: list[int] = []
        best_len = -1
        self.source_used = None
        for index, source in enumerate(self.sources):
            length = source.match_length()
            if length > best_len:
                draft = source.propose(size)
                if draft:
                    best, best_len, self.source_used = draft, length, index
        self._last = best
        return best

    def accept(self, tokens: list[int]) -> None:
        if self._last:
            accepted = 0
            for drafted, token in zip(self._last, tokens):
                if drafted != token:
                    break
                accepted += 1
            self.k.update(len(self._last), accepted, self._cap)
            self._last = []
        for token in tokens:
            for source in self.sources:
                source.feed(token)


def make_drafter(kind: str, prompt_ids: list[int], *, predicted_ids: list[int] | None = None,
                 min_match: int = 2, k_init: int = 16, adaptive: bool = True) -> Drafter | None:
    """kind: "none" (no speculation), "automaton" (copy from the prompt), "predicted" (copy from a
    predicted output, e.g. the structural engine's merge), "auto" (both when a prediction is given)."""
    if kind not in DRAFTER_KINDS:
        raise ValueError(f"unknown drafter kind {kind!r}; expected one of {', '.join(DRAFTER_KINDS)}")
    if kind == "none":
        return None
    sources: list[CopySource] = []
    if kind in ("predicted", "auto") and predicted_ids:
        sources.append(CopySource(predicted_ids, min_match=min_match, anchored=True))
    elif kind == "predicted":
        raise ValueError("the predicted drafter needs predicted_ids")
    if kind in ("automaton", "auto"):
        sources.append(CopySource(prompt_ids, min_match=min_match, live=True))
    return CopyDrafter(sources, k=AdaptiveK(k_init, adaptive=adaptive))
