"""`ApplyModel`: a loaded fast-apply LM that merges an edit by writing the whole file, speculatively.

Every output token of a fast-apply model copies a span of the prompt (or of the structural engine's
candidate merge), so decoding drafts long windows from those sources and verifies them in one forward
pass each (fastapply.spec). The text is identical to plain decoding; only the number of passes drops.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, Literal

from ..errors import ApplyError, ErrorCode, InputError, ModelError
from ..languages import detect_language
from ..result import ApplyResult, ApplyStats, make_result
from ..spec import policy
from ..text import Document, ensure_text
from .answer import AnswerText, RestoreChunks, read_request  # noqa: F401 (RestoreChunks: re-exported)
from .detokenize import IncrementalDecoder
from .templates import PromptTemplate

Speculation = Literal["auto", "none", "automaton", "predicted", "eagle"]
SPECULATION = ("auto", "none", "automaton", "predicted", "eagle")
# Headroom over the prompt length when the caller sets no max_new_tokens: the merged file is about
# as long as the original plus the update, both of which are in the prompt.
EXTRA_NEW_TOKENS = 256


@dataclass
class Job:
    """One merge request on its way through the model; `stats` is filled as decoding runs."""

    doc: Document
    snippet: str
    language: str | None
    prompt_ids: list[int]
    max_new_tokens: int
    stats: Any  # fastapply.spec.DecodeStats
    warnings: list[str] = field(default_factory=list)


class ApplyModel:
    def __init__(self, model: Any, tokenizer: Any, *, template: PromptTemplate, name: str,
                 draft_head: Any = None) -> None:
        self.model = model
        # An EAGLE head (fastapply.spec.EagleHead) for this model, or None: "auto" speculation then
        # drafts with the copy index where it has a long match and with the head elsewhere.
        self.draft_head = draft_head
        # The hybrid drafter's policy (defaults tuned by evals.head_policy, see fastapply/spec/policy.py):
        # the copy match length from which it trusts the copy index over the head, the head's confidence
        # below which a chain stops, and the chain's length.
        self.min_copy_match = policy.MIN_COPY_MATCH
        self.head_confidence = policy.HEAD_CONFIDENCE
        self.head_depth = policy.HEAD_DEPTH
        self.tokenizer = tokenizer
        self.template = template
        self.name = name
        self.eos_token_ids = self._eos_ids()
        # KV cache of the decode loop: "dynamic" (best on a CPU) or "static" (position-indexed, the
        # layout CUDA graphs need). Set the attribute to switch.
        self.kv_cache = "dynamic"

    def __repr__(self) -> str:
        return (f"ApplyModel({self.name!r}, template={self.template.name!r}, device={self.device}, "
                f"dtype={self.model.dtype})")

    @property
    def device(self) -> Any:
        return self.model.device

    def _eos_ids(self) -> set[int]:
        ids: set[int] = set()
        for source in (getattr(self.model, "generation_config", None), self.model.config, self.tokenizer):
            value = getattr(source, "eos_token_id", None)
            ids.update([value] if isinstance(value, int) else value or [])
        return ids

    def merge(self, original: str | bytes, update: str | bytes, *, instruction: str | None = None,
              speculation: Speculation = "auto", max_new_tokens: int | None = None, temperature: float = 0.0,
              top_p: float = 1.0, seed: int | None = None, k_max: int = 64, filename: str | None = None,
              language: str | None = None) -> ApplyResult:
        """Merge `update` into `original` with the model. Raises ApplyError (output_truncated when the
        answer did not finish within max_new_tokens). The result's stats carry the decode counters."""
        started = perf_counter()
        job = self._prepare(original, update, instruction=instruction, max_new_tokens=max_new_tokens,
                            filename=filename, language=language, speculation=speculation)
        chunks = self._texts(job, speculation=speculation, temperature=temperature, top_p=top_p, seed=seed,
                             k_max=k_max)
        merged = "".join(chunks)
        s = job.stats
        stats = ApplyStats(prompt_tokens=s.prompt_tokens, generated_tokens=s.generated_tokens,
                           forward_passes=s.forward_passes,
                           mean_accepted_length=round(s.mean_accepted_length, 4),
                           draft_sources=s.per_source(),
                           prefill_s=round(s.prefill_s, 6), decode_s=round(s.decode_s, 6))
        original_text = original if isinstance(original, str) else ensure_text(original, "original file")
        return make_result(original_text, merged, method="model", language=job.language, filename=filename,
                           started=started, stats=stats, warnings=job.warnings)

    def stream(self, original: str | bytes, update: str | bytes, *, instruction: str | None = None,
               speculation: Speculation = "auto", max_new_tokens: int | None = None, temperature: float = 0.0,
               top_p: float = 1.0, seed: int | None = None, k_max: int = 64, filename: str | None = None,
               language: str | None = None) -> Iterator[str]:
        """Yield the merged file's text as tokens are accepted; the chunks join to merge()'s merged_code.
        Closing the iterator (or breaking out of a for loop over it) stops generation."""
        job = self._prepare(original, update, instruction=instruction, max_new_tokens=max_new_tokens,
                            filename=filename, language=language, speculation=speculation)
        return self._texts(job, speculation=speculation, temperature=temperature, top_p=top_p, seed=seed,
                           k_max=k_max)

    def _prepare(self, original: str | bytes, update: str | bytes, *, instruction: str | None,
                 max_new_tokens: int | None, filename: str | None, language: str | None,
                 speculation: str) -> Job:
        from ..spec import DecodeStats

        if speculation not in SPECULATION:
            raise InputError(f"unknown speculation {speculation!r}; use one of {', '.join(SPECULATION)}",
                             code=ErrorCode.INVALID_ARGUMENT)
        if speculation == "eagle" and self.draft_head is None:
            raise InputError("speculation 'eagle' needs a draft head: load_model(spec, draft_head=DIR) or "
                             "--draft-head DIR (train one with `fastapply train-head`)",
                             code=ErrorCode.MODEL_NOT_CONFIGURED)
        doc, snippet = read_request(original, update)
        prompt_ids = self.template.encode(self.tokenizer, doc.text, snippet, instruction)
        limit = getattr(self.model.config, "max_position_embeddings", None)
        room = (limit - len(prompt_ids)) if limit else None
        if room is not None and room <= 0:
            raise InputError(f"the prompt has {len(prompt_ids)} tokens, more than the model's context of "
                             f"{limit}", code=ErrorCode.INPUT_TOO_LARGE)
        wanted = max_new_tokens if max_new_tokens is not None else len(prompt_ids) + EXTRA_NEW_TOKENS
        if wanted <= 0:
            raise InputError("max_new_tokens must be positive", code=ErrorCode.INVALID_ARGUMENT)
        return Job(doc=doc, snippet=snippet, language=detect_language(filename, doc.text, language),
                   prompt_ids=prompt_ids, max_new_tokens=min(wanted, room) if room else wanted,
                   stats=DecodeStats())

    def _predicted_ids(self, job: Job) -> list[int] | None:
        """The structural engine's merge, tokenized as the model would write it: a second draft source."""
        from ..api import apply

        try:
            merged = apply(job.doc.text, job.snippet, language=job.language, engine="structural").merged_code
        except ApplyError:
            return None
        answer = self.template.predicted_answer(merged)
        return list(self.tokenizer(answer, add_special_tokens=False)["input_ids"])

    def _texts(self, job: Job, *, speculation: str, temperature: float, top_p: float, seed: int | None,
               k_max: int) -> Iterator[str]:
        from ..spec import iter_decode

        predicted = self._predicted_ids(job) if speculation in ("auto", "predicted") else None
        if speculation == "predicted" and predicted is None:
            job.warnings.append("the structural engine gave no candidate merge to draft from; "
                                "drafted from the prompt instead (speculation 'automaton')")
            speculation = "automaton"
        drafter = self._drafter(speculation, job.prompt_ids, predicted)
        decoder = IncrementalDecoder(self.tokenizer, skip_ids=self.eos_token_ids)
        answer = AnswerText(self.template, job.doc, job.language)
        tokens = iter_decode(self.model, job.prompt_ids, max_new_tokens=job.max_new_tokens,
                             eos_token_ids=self.eos_token_ids, drafter=drafter, k_max=k_max,
                             temperature=temperature, top_p=top_p, seed=seed, stats=job.stats,
                             cache=self.kv_cache)
        finished = False
        try:
            for chunk in tokens:
                finished = finished or any(t in self.eos_token_ids for t in chunk)
                text = answer.feed(decoder.push(chunk))
                if text:
                    yield text
                if answer.done:  # the stop marker ended the answer; the EOS after it is not needed
                    finished = True
                    break
        except RuntimeError as exc:  # e.g. out of memory on the device
            raise ModelError(f"the model failed while decoding: {exc}", code=ErrorCode.MODEL_FAILED) from exc
        finally:
            tokens.close()
        yield from answer.finish(decoder.flush(), max_new_tokens=job.max_new_tokens,
                                 finished=finished or job.stats.generated_tokens < job.max_new_tokens)

    def _drafter(self, speculation: str, prompt_ids: list[int], predicted: list[int] | None) -> Any:
        """Copy drafts as asked; with a draft head, "eagle" drafts with it alone and "auto" is hybrid."""
        from ..spec import HeadDrafter, HybridDrafter, make_drafter

        if speculation == "eagle":
            return HeadDrafter(self.draft_head, self.model, prompt_ids, min_confidence=self.head_confidence,
                               depth=self.head_depth)
        copy = make_drafter(speculation, prompt_ids, predicted_ids=predicted)
        if speculation == "auto" and self.draft_head is not None and copy is not None:
            head = HeadDrafter(self.draft_head, self.model, prompt_ids, min_confidence=self.head_confidence,
                               depth=self.head_depth)
            return HybridDrafter(copy, head,
                                 min_copy_match=self.min_copy_match)
        return copy
