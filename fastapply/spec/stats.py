"""Counters one decode run fills in; the runtime copies them into ApplyStats."""

from __future__ import annotations

import msgspec


class DecodeStats(msgspec.Struct, kw_only=True):
    prompt_tokens: int = 0
    generated_tokens: int = 0
    # Target forward passes, the prefill included: without speculation it equals generated_tokens.
    forward_passes: int = 0
    # Draft tokens accepted at each verify step (0..K, the target's own extra token not counted).
    accepted_lengths: list[int] = msgspec.field(default_factory=list)
    # What drafted each verify step: "none", "copy", "head" or "copy+head" (aligned with accepted_lengths).
    draft_sources: list[str] = msgspec.field(default_factory=list)
    prefill_s: float = 0.0
    decode_s: float = 0.0  # time spent in verify steps after the prefill
    ttft_s: float = 0.0  # from the call to the first token

    @property
    def mean_accepted_length(self) -> float:
        steps = self.accepted_lengths
        return sum(steps) / len(steps) if steps else 0.0

    @property
    def passes_per_token(self) -> float:
        return self.forward_passes / self.generated_tokens if self.generated_tokens else 0.0

    def per_source(self) -> dict[str, dict[str, float]]:
        """{source: {"passes": verify steps it drafted, "mean_accepted": mean accepted draft tokens}}."""
        out: dict[str, dict[str, float]] = {}
        for source, accepted in zip(self.draft_sources, self.accepted_lengths):
            entry = out.setdefault(source, {"passes": 0, "accepted": 0})
            entry["passes"] += 1
            entry["accepted"] += accepted
        return {source: {"passes": e["passes"], "mean_accepted": round(e["accepted"] / e["passes"], 4)}
                for source, e in out.items()}
