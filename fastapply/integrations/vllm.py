"""Our copy drafter inside vLLM, as its custom proposer (vllm/v1/spec_decode/custom_class_proposer.py).

    vllm serve MODEL --speculative-config '{"num_speculative_tokens": 32,
        "custom_proposer_backend": "fastapply.integrations.vllm.FastApplyProposer"}'

vLLM builds the class with its VllmConfig and, after every step, calls
`propose(sampled_token_ids, num_tokens_no_spec, token_ids_cpu, slot_mappings)`: for each request row of
the batch, the tokens sampled this step and the row's whole token sequence (prompt + output) in
`token_ids_cpu[i, :num_tokens_no_spec[i]]`; it wants up to num_speculative_tokens draft ids per row.
Each request gets fastapply.spec's CopyDrafter: a suffix automaton over its prompt (live: the output is
appended, so repeated blocks are drafted too) and, as a second source, the structural engine's merge of
the `<code>` and `<update>` the prompt carries (our templates put them there), tokenized as the answer.
Drafts never change the output (vLLM verifies them); they only decide how many tokens a step accepts.

This module never imports vLLM (it only receives its config), so the proposal logic is unit-tested
without it. Cost per step: amortized O(tokens sampled) per request for the automaton, O(64) to
recognize a request whose row moved; O(prompt) once per new request (automaton, candidate merge).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..spec.drafters import AdaptiveK, CopyDrafter, CopySource

log = logging.getLogger("fastapply.vllm")

TAIL = 64  # tokens compared to recognize a request whose row index changed
STALE_STEPS = 16  # a request unseen this many steps (finished or preempted) is forgotten
ANSWER_PREFIX = "<updated-code>"
ANSWER_STOP = "</updated-code>"

Candidate = Callable[[list[int]], "list[int] | None"]


@dataclass
class Track:
    """One request: its drafter, how many of its tokens were fed, and their last TAIL tokens."""

    drafter: CopyDrafter
    length: int
    tail: list[int]
    seen_step: int

    def follows(self, row: Sequence[int], n: int, sampled: int) -> bool:
        """Is `row` (n tokens, the last `sampled` new this step) this request, continued?"""
        if self.length + sampled != n:
            return False
        start = max(0, self.length - len(self.tail))
        return list(row[start:self.length]) == self.tail


def prompt_parts(text: str) -> tuple[str, str] | None:
    """(original, update) from a prompt rendered with one of our templates (the last <code> and
    <update> blocks: the templates' instructions mention the tags first)."""
    parts = []
    for tag in ("code", "update"):
        end = text.rfind(f"</{tag}>")
        start = text.rfind(f"<{tag}>", 0, end)
        if end < 0 or start < 0:
            return None
        body = text[start + len(tag) + 2:end]
        parts.append(body[1:] if body.startswith("\n") else body)  # the copy template's newline
    return parts[0], parts[1]


def structural_candidate(tokenizer: Any) -> Candidate:
    """A Candidate: the structural merge of the prompt's code and update, as the model's answer ids."""

    def candidate(prompt_ids: list[int]) -> list[int] | None:
        from ..api import apply
        from ..errors import ApplyError

        text = tokenizer.decode(prompt_ids, skip_special_tokens=False)
        parts = prompt_parts(text)
        if parts is None:
            return None
        try:
            merged = apply(parts[0], parts[1], engine="structural").merged_code
        except ApplyError:
            return None  # the edit cannot be placed structurally: the prompt automaton drafts alone
        answer = merged + ANSWER_STOP if text.rstrip().endswith(ANSWER_PREFIX) else merged
        return list(tokenizer(answer, add_special_tokens=False)["input_ids"])

    return candidate


class CopyProposals:
    """The proposal logic, independent of vLLM: per-request CopyDrafters kept across steps."""

    def __init__(self, k: int, max_model_len: int, *, candidate: Candidate | None = None,
                 adaptive: bool = True, min_match: int = 2) -> None:
        self.k = k
        self.max_model_len = max_model_len
        self.candidate = candidate
        self.adaptive = adaptive
        self.min_match = min_match
        self.step = 0
        self.tracks: list[Track] = []  # live requests, including ones not in the last batch
        self.rows: dict[int, Track] = {}  # row index at the last step -> its request (a hint)
        self.candidates_used = 0

    def _new_track(self, row: Sequence[int], n: int, sampled: list[int]) -> Track:
        prompt = [int(t) for t in row[:n - len(sampled)]]
        sources: list[CopySource] = []
        predicted = None
        if self.candidate is not None:
            try:
                predicted = self.candidate(prompt)
            except Exception:  # a draft source must never fail a request
                log.warning("the structural candidate failed; drafting from the prompt only", exc_info=True)
        if predicted:
            self.candidates_used += 1
            sources.append(CopySource(predicted, min_match=self.min_match, anchored=True))
        sources.append(CopySource(prompt, min_match=self.min_match, live=True))
        drafter = CopyDrafter(sources, k=AdaptiveK(self.k, minimum=min(4, self.k), adaptive=self.adaptive))
        return Track(drafter=drafter, length=len(prompt), tail=prompt[-TAIL:], seen_step=self.step)

    def _find(self, index: int, row: Sequence[int], n: int, sampled: int, taken: set[int]) -> Track | None:
        track = self.rows.get(index)
        if track is not None and id(track) not in taken and track.follows(row, n, sampled):
            return track
        for other in self.tracks:  # the batch was condensed or reordered, or a request came back
            if id(other) not in taken and other.follows(row, n, sampled):
                return other
        return None

    def propose(self, sampled_token_ids: Sequence[Sequence[int]], num_tokens_no_spec: Any,
                token_ids_cpu: Any) -> list[list[int]]:
        self.step += 1
        drafts: list[list[int]] = []
        rows: dict[int, Track] = {}
        taken: set[int] = set()
        for index, sampled_row in enumerate(sampled_token_ids):
            sampled = [int(t) for t in sampled_row]
            n = int(num_tokens_no_spec[index]) if hasattr(num_tokens_no_spec, "__len__") else int(num_tokens_no_spec)
            if not sampled or n <= 0:
                drafts.append([])  # still in prefill, or not scheduled this step
                continue
            row = token_ids_cpu[index, :n].tolist()
            track = self._find(index, row, n, len(sampled), taken)
            if track is None:
                track = self._new_track(row, n, sampled)
                self.tracks.append(track)
            track.drafter.accept(sampled)
            track.length = n
            track.tail = row[-TAIL:]
            track.seen_step = self.step
            taken.add(id(track))
            rows[index] = track
            room = min(self.k, self.max_model_len - n - 1)
            drafts.append(track.drafter.propose(room) if room > 0 else [])
        # Keep requests not in this batch for a while (a preempted one comes back); forget the rest.
        self.tracks = [t for t in self.tracks if self.step - t.seen_step < STALE_STEPS]
        self.rows = rows
        return drafts


class FastApplyProposer:
    """vLLM's custom proposer interface around CopyProposals. FASTAPPLY_VLLM_CANDIDATE=0 turns the
    structural candidate off; FASTAPPLY_VLLM_ADAPTIVE=0 always drafts num_speculative_tokens."""

    def __init__(self, vllm_config: Any, *, tokenizer: Any = None) -> None:
        spec = vllm_config.speculative_config
        model_config = vllm_config.model_config
        candidate = None
        if os.environ.get("FASTAPPLY_VLLM_CANDIDATE", "1") != "0":
            if tokenizer is None:
                from transformers import AutoTokenizer

                tokenizer = AutoTokenizer.from_pretrained(
                    model_config.tokenizer, trust_remote_code=bool(getattr(model_config, "trust_remote_code", False)))
            candidate = structural_candidate(tokenizer)
        self.proposals = CopyProposals(int(spec.num_speculative_tokens), int(model_config.max_model_len),
                                       candidate=candidate,
                                       adaptive=os.environ.get("FASTAPPLY_VLLM_ADAPTIVE", "1") != "0")

    def propose(self, sampled_token_ids: list[list[int]], num_tokens_no_spec: Any, token_ids_cpu: Any,
                slot_mappings: Any = None) -> list[list[int]]:
        return self.proposals.propose(sampled_token_ids, num_tokens_no_spec, token_ids_cpu)

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        """No draft model: drafts are copied from the prompt and the candidate merge."""
