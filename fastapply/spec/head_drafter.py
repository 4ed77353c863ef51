"""Drafters that use an EAGLE head: `HeadDrafter` (the head alone) and `HybridDrafter` (copy drafts where
the copy index has a long match, the head elsewhere, or a short copy draft continued by the head).

Both are feature drafters (`wants_features = True`): the decode loop hands them the target's last hidden
states of every position it keeps, from the verify pass that runs anyway (no extra target pass).
"""

from __future__ import annotations

import time
from typing import Any

import torch

from . import policy
from .drafters import CopyDrafter
from .eagle import EagleHead


class HeadDrafter:
    """Drafts a chain of up to `depth` tokens with the head, autoregressively on its own features.

    State: `tokens` (prompt + output) and `features` (target features of positions 0..F-1, with
    len(tokens) == F + 1 between steps). The head's KV cache holds its pairs for positions 0..fed-1; each
    propose first feeds the pairs that became final since the last call (the accepted tokens), then drafts
    on a speculative tail of the cache that the next call crops away. Cost per call: O(new + depth) head
    positions; the LM head (N x H over a draft vocabulary of N, else the target's V x H) runs once per
    drafted token.
    """

    wants_features = True
    source = "head"

    def __init__(self, head: EagleHead, target: Any, prompt_ids: list[int], *, depth: int = policy.HEAD_DEPTH,
                 min_confidence: float = policy.HEAD_CONFIDENCE, keep_confidences: bool = False) -> None:
        from transformers import DynamicCache

        self.head = head
        self.embed = target.get_input_embeddings()
        self.lm_head = target.get_output_embeddings()
        self.depth = max(1, depth)
        # Stop the chain at a token the head gives less than this probability (EAGLE-2's insight: the
        # head's confidence predicts acceptance). On a CPU each drafted token costs an LM-head matmul and
        # widens the verify window, so a hopeless tail is worth cutting. 0 = always draft `depth`.
        self.min_confidence = min_confidence
        self.tokens = list(prompt_ids)
        self._features: list[torch.Tensor] = []  # [n, H] chunks not yet fed to the head
        self._known = 0  # positions with a target feature
        self.fed = 0  # positions whose pair is in the head's cache
        self._tail: torch.Tensor | None = None  # the head's output at the last fed position
        self.cache = DynamicCache()
        # The head's probability of each token it drafted in the last propose (for policy tuning).
        self.keep_confidences = keep_confidences
        self.confidences: list[float] = []
        self.draft_s = 0.0  # time spent in propose (the head's cost, for benchmarks)
        self.drafted = 0  # tokens the head drafted (forced copy tokens not counted)

    def observe(self, features: torch.Tensor) -> None:
        """Target features [n, H] of the next n positions (the prefill's prompt, or pending + accepted)."""
        self._features.append(features)
        self._known += features.shape[0]

    def accept(self, tokens: list[int]) -> None:
        self.tokens.extend(tokens)

    def _step(self, token_ids: list[int], features: torch.Tensor, start: int) -> torch.Tensor:
        ids = torch.tensor([token_ids], device=features.device)
        positions = torch.arange(start, start + len(token_ids), device=features.device)[None]
        embeds = self.embed(ids).to(features.dtype)
        return self.head(embeds, features[None], positions, self.cache)[0]

    def propose(self, max_tokens: int, forced: list[int] | None = None) -> list[int]:
        """`forced` tokens (a copy draft) are fed as if accepted before the head drafts after them; the
        result starts with them. Returns at most max_tokens tokens."""
        started = time.perf_counter()
        with torch.inference_mode():
            draft = self._propose(max_tokens, list(forced or []))
        self.draft_s += time.perf_counter() - started
        self.drafted += len(draft) - min(len(forced or []), max_tokens)
        return draft

    def _propose(self, max_tokens: int, forced: list[int]) -> list[int]:
        forced = list(forced or [])[:max_tokens]
        extra = self.cache.get_seq_length() - self.fed
        if extra > 0:
            self.cache.crop(-extra)  # drop the previous call's speculative positions
        if self._features:
            new = torch.cat(self._features).to(next(self.head.parameters()).dtype)
            self._features = []
            start = self.fed
            out = self._step(self.tokens[start + 1:start + 1 + new.shape[0]], new, start)
            self.fed = self._known
            self._tail = out[-1:]
        feature = self._tail  # a second call with nothing new drafts again from the same place
        if feature is None:  # no target feature yet
            return forced
        draft: list[int] = []
        self.confidences = []
        position = self.fed
        for token in forced:
            draft.append(token)
            feature = self._step([token], feature, position)[-1:]
            position += 1
        while len(draft) < max_tokens and len(draft) - len(forced) < self.depth:
            logits = self.head.logits(feature, self.lm_head)[0]
            index = int(logits.argmax())
            if self.min_confidence > 0 or self.keep_confidences:
                confidence = float(torch.softmax(logits.float(), -1)[index])
                if confidence < self.min_confidence:
                    break
                self.confidences.append(confidence)
            token = self.head.to_target(index)
            draft.append(token)
            if len(draft) >= max_tokens or len(draft) - len(forced) >= self.depth:
                break
            feature = self._step([token], feature, position)[-1:]
            position += 1
        return draft


class HybridDrafter:
    """Copy drafts when the copy index's current match is at least `min_copy_match` tokens, else the head;
    a short copy draft (fewer than `head_after` tokens) is continued by the head.

    Defaults (fastapply/spec/policy.py) chosen by `evals.head_policy` on dev prompts with SmolLM2-135M:
    copy whenever the copy index has a match (2 tokens, its own minimum), the head only where it has none,
    and head chains cut at a token below 50% confidence. A copy draft is accepted far more often than a
    head chain, and on a CPU every drafted token widens the verify pass, so the head pays only where the
    copy index has nothing to offer and the head is sure. The old threshold of 8 (untuned) was 25% slower
    than copy drafts alone with the same head; the tuned policy is ~4% faster."""

    wants_features = True

    def __init__(self, copy: CopyDrafter, head: HeadDrafter, *, min_copy_match: int = policy.MIN_COPY_MATCH,
                 head_after: int = 4) -> None:
        self.copy = copy
        self.head = head
        self.min_copy_match = min_copy_match
        self.head_after = head_after
        self.source = "none"
        self.copied = 0  # length of the copy part of the last draft

    def observe(self, features: torch.Tensor) -> None:
        self.head.observe(features)

    def propose(self, max_tokens: int) -> list[int]:
        match = max((s.match_length() for s in self.copy.sources), default=-1)
        copy = self.copy.propose(max_tokens)
        if copy and match >= self.min_copy_match:
            self.source, self.copied = "copy", len(copy)
            return copy
        if len(copy) >= self.head_after:
            copy = copy[:self.head_after]
        self.copy._last = []  # not (entirely) a copy draft: leave the copy window size alone
        draft = self.head.propose(max_tokens, forced=copy)
        self.copied = len(copy)
        self.source = "copy+head" if copy and len(draft) > len(copy) else ("copy" if copy else "head")
        return draft

    def accept(self, tokens: list[int]) -> None:
        self.copy.accept(tokens)
        self.head.accept(tokens)
