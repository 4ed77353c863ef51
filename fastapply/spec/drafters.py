"""Draft sources for speculative decoding: copy the continuation of the output from the prompt or from
a predicted output, with a window size K that adapts to how well the drafts are accepted.

A fast-apply model copies almost everything it writes from the original file or the update snippet, so
the best draft is "whatever followed the text we are copying right now". `CopySource` keeps that copy
position: while the model keeps writing what the source says, it stays on the same occurrence (even when
an earlier occurrence of the same tokens exists); when the model deviates it jumps to the first
occurrence of the longest suffix of the output (found with a suffix automaton in amortized O(1)).

Any object with `propose` and `accept` is a drafter; a model-based drafter (EAGLE heads) plugs in the
same way.
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
    whole window; starting moderate and growing on success gets both cases right."""

    def __init__(self, initial: int = 16, minimum: int = 2, adaptive: bool = True) -> None:
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
    """One text to copy from (the prompt, or a predicted output) and the current copy position in it."""

    def __init__(self, tokens: Sequence[int] | SuffixAutomaton, *, min_match: int = 2,
                 anchored: bool = False) -> None:
        self.automaton = tokens if isinstance(tokens, SuffixAutomaton) else SuffixAutomaton(tokens)
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

    def feed(self, token: int) -> None:
        length = self.matcher.feed(token)
        if self.pos is not None and self.text[self.pos] == token:
            # The model wrote what we were copying: stay on this occurrence.
            self.pos += 1
            self.run += 1
            if self._live(self.pos):
                return
        self.pos, self.run = None, 0
        if length >= self.min_match:
            candidate = self.matcher.end_position() + 1
            if self._live(candidate):
                self.pos, self.run = candidate, length

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
        sources.append(CopySource(prompt_ids, min_match=min_match))
    return CopyDrafter(sources, k=AdaptiveK(k_init, adaptive=adaptive))
