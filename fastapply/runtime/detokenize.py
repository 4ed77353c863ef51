"""Incremental detokenization: text for tokens as they arrive, never splitting a multi-byte character.

Byte-level BPE tokens can end in the middle of a UTF-8 sequence, and some tokenizers change how a token
prints depending on its left neighbour. So each push decodes a short window that starts a few tokens
back (at `prefix_offset`) and emits only what the new tokens added, waiting while the text ends in the
replacement character U+FFFD (an incomplete character).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

REPLACEMENT = "\ufffd"


class IncrementalDecoder:
    def __init__(self, tokenizer: Any, *, skip_ids: Iterable[int] = ()) -> None:
        self.tokenizer = tokenizer
        self.skip_ids = set(skip_ids)
        self.ids: list[int] = []
        self.prefix_offset = 0  # start of the window decoded for context
        self.read_offset = 0  # tokens before this were emitted as text

    def _decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=True, clean_up_tokenization_spaces=False)

    def push(self, ids: Iterable[int]) -> str:
        self.ids.extend(t for t in ids if t not in self.skip_ids)
        return self._emit(final=False)

    def flush(self) -> str:
        """Whatever is still held back (an invalid byte sequence at the very end prints as U+FFFD)."""
        return self._emit(final=True)

    def _emit(self, *, final: bool) -> str:
        if self.read_offset >= len(self.ids):
            return ""
        prefix = self._decode(self.ids[self.prefix_offset:self.read_offset])
        full = self._decode(self.ids[self.prefix_offset:])
        if len(full) <= len(prefix) or (full.endswith(REPLACEMENT) and not final):
            return ""
        self.prefix_offset, self.read_offset = self.read_offset, len(self.ids)
        return full[len(prefix):]
