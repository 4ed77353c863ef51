"""Prompt templates for fast-apply models, and how to pull the merged code back out of their answer.

Two families are known:
- "fastapply" (Kortix FastApply): a system prompt plus a user turn holding `<code>` and `<update>`; the
  answer is the merged file inside `<updated-code>...</updated-code>`. We prefill the opening tag, so
  generation starts with code and stops at the closing tag.
- "morph" (Morph / Relace style): the user turn is `<instruction>..</instruction>\n<code>..</code>\n
  <update>..</update>` and the answer is the bare merged file.
- "copy": for general instruct models (SmolLM2 in the benchmarks): a one-line merge system prompt and the
  answer prefilled with `<updated-code>` and a newline, so the model starts copying the file at once.
The tokenizer's chat template wraps the turns when it has one; otherwise plain text is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ErrorCode, InputError

FENCE = "```"


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    system: str | None
    user: str  # str.format template with {instruction}, {original} and {update}
    answer_prefix: str = ""  # prefilled at the start of the assistant turn
    stop: str | None = None  # the merged code ends where this text starts
    default_instruction: str = "Apply the update to the code."

    def user_message(self, original: str, update: str, instruction: str | None) -> str:
        return self.user.format(instruction=instruction or self.default_instruction, original=original,
                                update=update)

    def prompt_text(self, tokenizer: Any, original: str, update: str, instruction: str | None) -> str:
        """The full prompt as text, ending where the model's answer (after answer_prefix) begins."""
        user = self.user_message(original, update, instruction)
        if getattr(tokenizer, "chat_template", None):
            messages = [{"role": "user", "content": user}]
            if self.system:
                messages.insert(0, {"role": "system", "content": self.system})
            text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        else:
            text = (f"{self.system}\n\n" if self.system else "") + user + "\n\n"
        return text + self.answer_prefix

    def encode(self, tokenizer: Any, original: str, update: str, instruction: str | None) -> list[int]:
        text = self.prompt_text(tokenizer, original, update, instruction)
        # A chat template already writes the special tokens it needs (BOS included).
        special = not getattr(tokenizer, "chat_template", None)
        return list(tokenizer(text, add_special_tokens=special)["input_ids"])

    def predicted_answer(self, merged: str) -> str:
        """What a perfect answer to this template looks like, given the merged file (a draft source)."""
        return merged + (self.stop or "")

    def extractor(self) -> CodeExtractor:
        return CodeExtractor(self.stop)

    def extract(self, output: str) -> str:
        """The merged code inside a complete model answer (the text after answer_prefix)."""
        ex = self.extractor()
        return ex.feed(output) + ex.finish()


class CodeExtractor:
    """Incrementally strips a stop marker (and whatever follows it) and an enclosing code fence.

    feed() returns the code that is certain to be final; text that could still turn out to be a stop
    marker or a fence line is held back. Feeding an answer in any pieces yields the same total text.
    """

    def __init__(self, stop: str | None) -> None:
        self.stop = stop
        self.buffer = ""  # unprocessed text: at most the current, incomplete line
        self.first_line = True
        self.fenced = False  # the answer opened with a ``` line, so a closing ``` line is dropped
        self.pending_fence = ""  # ``` lines held until we know they are not the closing fence
        self.line_open = False  # part of the current line was already emitted
        self.done = False
        self.finished = False

    def feed(self, text: str) -> str:
        if self.done:
            return ""
        self.buffer += text
        if self.stop:
            cut = self.buffer.find(self.stop)
            if cut >= 0:
                self.buffer = self.buffer[:cut]
                self.done = True
        out = []
        while "\n" in self.buffer:
            line, self.buffer = self.buffer.split("\n", 1)
            out.append(self._line(line + "\n"))
        out.append(self.finish() if self.done else self._partial())
        return "".join(out)

    def finish(self) -> str:
        if self.finished:
            return ""
        self.finished = self.done = True
        rest, self.buffer = self.buffer, ""
        if self.line_open:
            return rest
        s = rest.strip()
        if self.fenced and (not s or s == FENCE):
            return ""  # the closing fence (and blank space after it)
        if self.first_line and s.startswith(FENCE):
            return ""  # an answer that is only an opening fence
        out, self.pending_fence = self.pending_fence + rest, ""
        return out

    def _line(self, line: str) -> str:
        if self.line_open:
            self.line_open = False
            return line
        s = line.strip()
        if self.first_line:
            self.first_line = False
            if s.startswith(FENCE):
                self.fenced = True
                return ""
        if self.fenced and s == FENCE:
            self.pending_fence += line
            return ""
        out, self.pending_fence = self.pending_fence + line, ""
        return out

    def _partial(self) -> str:
        if not self.buffer:
            return ""
        if not self.line_open:
            s = self.buffer.lstrip()
            if not s or s.startswith(FENCE) or FENCE.startswith(s):
                return ""  # may become a fence line: wait for the newline
        keep = self._stop_prefix_length()
        safe, self.buffer = self.buffer[:len(self.buffer) - keep], self.buffer[len(self.buffer) - keep:]
        if not safe:
            return ""
        self.first_line = False
        if self.line_open:
            return safe
        self.line_open = True
        out, self.pending_fence = self.pending_fence + safe, ""
        return out

    def _stop_prefix_length(self) -> int:
        """Length of the longest tail of the buffer that is a proper prefix of the stop marker."""
        if not self.stop:
            return 0
        for k in range(min(len(self.stop) - 1, len(self.buffer)), 0, -1):
            if self.buffer.endswith(self.stop[:k]):
                return k
        return 0


FASTAPPLY = PromptTemplate(
    name="fastapply",
    system="You are a coding assistant that helps merge code updates, ensuring every modification is "
           "fully integrated.",
    user="Merge all changes from the <update> snippet into the <code> below.\n"
         "- Preserve the code's structure, order, comments, and indentation exactly.\n"
         "- Output only the updated code, enclosed within <updated-code> and </updated-code> tags.\n"
         "- Do not include any additional text, explanations, placeholders, ellipses, or code fences.\n\n"
         "<code>{original}</code>\n\n<update>{update}</update>\n\n"
         "Provide the complete updated code.",
    answer_prefix="<updated-code>",
    stop="</updated-code>",
)

MORPH = PromptTemplate(
    name="morph",
    system=None,
    user="<instruction>{instruction}</instruction>\n<code>{original}</code>\n<update>{update}</update>",
)

# For instruct models not trained on merging: a short system prompt plus an answer prefilled with the
# opening tag makes them start copying the file at once instead of writing prose first; generation stops
# at the closing tag. The same prompt suits fast-apply models, whose answers copy the file anyway.
COPY = PromptTemplate(
    name="copy",
    system="You merge code edits. Answer with the complete updated file only, in one code block.",
    # No instruction sentence in the user turn: the system prompt says it, and the prompt stays shorter
    # than the Morph one (SmolLM2's chat template adds a default system prompt when none is given).
    user="<code>\n{original}</code>\n<update>\n{update}</update>",
    answer_prefix="<updated-code>\n",
    stop="</updated-code>",
)

TEMPLATES: dict[str, PromptTemplate] = {"fastapply": FASTAPPLY, "morph": MORPH, "copy": COPY}
ALIASES = {"kortix": "fastapply", "relace": "morph"}


def get_template(name: str) -> PromptTemplate:
    key = ALIASES.get(name.lower(), name.lower())
    if key not in TEMPLATES:
        known = ", ".join(sorted([*TEMPLATES, *ALIASES]))
        raise InputError(f"unknown prompt template {name!r}; known: {known}", code=ErrorCode.INVALID_ARGUMENT)
    return TEMPLATES[key]


def template_for(model_name: str | None) -> PromptTemplate:
    """The template a model was trained with, guessed from its name; Kortix FastApply's by default."""
    lowered = (model_name or "").lower()
    if "morph" in lowered or "relace" in lowered:
        return MORPH
    return FASTAPPLY


def resolve_template(template: str | PromptTemplate | None, model_name: str | None) -> PromptTemplate:
    if isinstance(template, PromptTemplate):
        return template
    return get_template(template) if template else template_for(model_name)
