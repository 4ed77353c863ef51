"""From a model's answer text to the merged file: extraction, newline restoration and the safety checks.

Shared by the in-process decode loop (ApplyModel) and the upstream backend (UpstreamModel), so an
answer from vLLM is held to exactly the same rules as one decoded here. Each piece of answer text costs
O(len(piece)) (plus the stop-marker hold-back); `verify` runs the validator once, O(file) plus a parse.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import ApplyError, ErrorCode, InputError
from ..text import Document, ensure_text, normalize_newlines
from .templates import PromptTemplate


def read_request(original: str | bytes, update: str | bytes) -> tuple[Document, str]:
    """The checks both model backends start with: the original parsed (newline style, BOM kept
    aside) and the snippet as text with '\n' newlines; an empty snippet is refused."""
    original = ensure_text(original, "original file")
    update = ensure_text(update, "update snippet")
    if not update.strip():
        raise InputError("the update snippet is empty", code=ErrorCode.EMPTY_UPDATE)
    return Document.parse(original), normalize_newlines(update)


class RestoreChunks:
    """Maps streamed '\\n' text back to the original's newline style and BOM, chunk by chunk."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.last = ""  # the last non-empty chunk, in '\n' form

    def __call__(self, text: str) -> str:
        first = not self.last
        self.last = text
        if self.doc.newline != "\n":
            text = text.replace("\n", self.doc.newline)
        return ("\ufeff" + text) if first and self.doc.bom else text


class AnswerText:
    """Feed the answer (the text after the template's answer_prefix) in pieces; get the merged file's
    chunks back. `close` flushes the held-back tail; `verify` refuses an unfinished, empty or unsafe
    answer and returns the last chunk (a final newline the model dropped), if any."""

    def __init__(self, template: PromptTemplate, doc: Document, language: str | None) -> None:
        self.extractor = template.extractor()
        self.restore = RestoreChunks(doc)
        self.doc = doc
        self.language = language
        self.produced: list[str] = []  # the answer in '\n' form, validated once complete

    @property
    def done(self) -> bool:
        """The stop marker ended the answer: whatever the model writes next is not code."""
        return self.extractor.done

    def feed(self, text: str) -> str:
        code = self.extractor.feed(text)
        if not code:
            return ""
        self.produced.append(code)
        return self.restore(code)

    def close(self, text: str = "") -> str:
        tail = self.extractor.feed(text) + self.extractor.finish()
        if not tail:
            return ""
        self.produced.append(tail)
        return self.restore(tail)

    def finish(self, text: str = "", *, finished: bool, max_new_tokens: int) -> Iterator[str]:
        """The answer's last chunks: `close(text)`, then `verify`, each yielded when not empty."""
        tail = self.close(text)
        if tail:
            yield tail
        last = self.verify(finished=finished, max_new_tokens=max_new_tokens)
        if last:
            yield last

    def verify(self, *, finished: bool, max_new_tokens: int) -> str:
        """`finished`: the model ended the answer itself (stop marker or EOS), not a token limit."""
        if not finished:
            raise ApplyError(f"the model did not finish the merged file within {max_new_tokens} new "
                             "tokens; raise max_new_tokens", code=ErrorCode.OUTPUT_TRUNCATED,
                             details={"max_new_tokens": max_new_tokens})
        if not self.restore.last and self.doc.text.strip():
            # Deleting a whole file is not what a lazy edit asks for: an empty answer is a failed one.
            raise ApplyError("the model answered with an empty file", code=ErrorCode.CONTENT_LOST)
        last = ""
        if self.restore.last and not self.restore.last.endswith("\n") and self.doc.text.endswith("\n"):
            self.produced.append("\n")  # models often drop the final newline before the closing tag
            last = self.restore("\n")
        # Same safety checks as a structural merge: a stream's consumer gets the error as its last event.
        from ..merge.validate import check_generated

        check_generated(self.language, self.doc.text, "".join(self.produced))
        return last
