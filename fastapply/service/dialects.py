"""The apply prompts that clients send to `/v1/chat/completions`, recognised from the messages.

| dialect | request | answer |
| --- | --- | --- |
| `morph` | user: `<instruction>..</instruction>` (optional) `<code>..</code>` `<update>..</update>` | the merged file |
| `kortix` | Kortix FastApply's merge prompt: the same `<code>`/`<update>` plus its "<updated-code>" instruction | `<updated-code>`merged`</updated-code>` |
| `continue` | Continue's default apply prompt: user `ORIGINAL CODE:` and `SUGGESTED EDIT:` fenced blocks, then an assistant message prefilled with a fence | the merged file in a fence, which Continue's line filters turn back into the file |
| `predicted` | OpenAI Predicted Outputs: `prediction.content` is the file, the last user message the snippet | the merged file |

Morph's large-file protocol (fastapply.service.anchors) rides on the `morph` dialect. Anything else is a
400 naming these shapes. Cost: one linear scan of the last user message (plus a `rfind` per tag).
"""

from __future__ import annotations

import re

import msgspec

from . import anchors as anchor_protocol
from .errors import ServiceCode, ServiceError
from .schemas import ChatMessage, ChatRequest

ACCEPTED = ("accepted shapes: Morph (<code>...</code><update>...</update>, optional <instruction>), "
            "Kortix FastApply (its merge prompt with <code> and <update>), Continue's default apply prompt "
            "(ORIGINAL CODE: and SUGGESTED EDIT: fenced blocks), or OpenAI Predicted Outputs "
            "(prediction.content = the file, last user message = the edit snippet)")
FENCE = "```"


class ApplyPrompt(msgspec.Struct, kw_only=True):
    dialect: str
    original: str
    update: str
    instruction: str | None = None
    # The merged file is sent as answer_prefix + merged + answer_suffix.
    answer_prefix: str = ""
    answer_suffix: str = ""
    anchors: anchor_protocol.AnchorTable | None = None

    def answer(self, merged: str) -> str:
        body = anchor_protocol.compact(merged, self.anchors) if self.anchors is not None else merged
        return self.answer_prefix + body + self.answer_suffix


def text_of(message: ChatMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    return "".join(part.text or "" for part in message.content or [] if part.type == "text")


def _unwrap(body: str) -> str:
    # `<code>\n...\n</code>` is the common layout: drop the newline pair it adds, but keep a
    # file's own final newline when the client wrote `<code>...</code>` tightly.
    for newline in ("\n", "\r\n"):
        if body.startswith(newline):
            body = body[len(newline):]
            return body[:-len(newline)] if body.endswith(newline) else body
    return body


# The code ends at the first `</code>` that is followed by `<update>`, so code may mention the tags.
_CODE_END = re.compile(r"</code>\s*<update>")
_CODE_AT_LINE_START = re.compile(r"(?:\A|\n)[ \t]*<code>")


def parse_tags(text: str, where: str) -> tuple[str | None, str, str, str, str]:
    """(instruction, code, update, text before <code>, text after </update>) of a Morph-style message."""
    # Prose may name the tags ("merge the <update> into the <code> below", Kortix's prompt): the code
    # opens after a leading <instruction> block, else at the first <code> that starts a line, else at
    # the first <code>. (Plain finds: linear on any input.)
    after = 0
    if text.lstrip().startswith("<instruction>") and "</instruction>" in text:
        after = text.index("</instruction>") + len("</instruction>")
    line_start = _CODE_AT_LINE_START.search(text, after)
    code_start = line_start.end() - 6 if line_start else text.find("<code>", after)
    end = _CODE_END.search(text, code_start + 6) if code_start >= 0 else None
    update_end = text.rfind("</update>")
    if code_start < 0 or end is None or update_end < end.end():
        missing = "<code>" if code_start < 0 else "</code><update>" if end is None else "</update>"
        raise ServiceError(400, f"field `{where}`: expected <code>...</code> then <update>...</update> "
                           f"(Morph's apply format); {missing} not found; {ACCEPTED}",
                           code=ServiceCode.INVALID_REQUEST, details={"field": where})
    head = text[:code_start]
    instruction = None
    if "<instruction>" in head and "</instruction>" in head:
        instruction = head.split("<instruction>", 1)[1].rsplit("</instruction>", 1)[0].strip() or None
    code = _unwrap(text[code_start + 6:end.start()])
    return instruction, code, _unwrap(text[end.end():update_end]), head, text[update_end + 9:]


# Continue's default apply prompt (core/llm/templates/edit/gpt.ts, `defaultApplyPrompt`). The template
# is dedented in Continue's source, so tolerate indentation before the fixed lines.
_CONTINUE_HEAD = re.compile(r"\A\s*ORIGINAL CODE:\r?\n(?P<indent>[ \t]*)```[^\n]*\n")
_CONTINUE_SEP = re.compile(r"\n[ \t]*```[ \t]*\r?\n\s*SUGGESTED EDIT:\r?\n[ \t]*```[^\n]*\n")
_CONTINUE_TAIL = re.compile(r"\n[ \t]*```[ \t]*\r?\n\s*Apply the SUGGESTED EDIT")


def _continue(text: str) -> tuple[str, str] | None:
    head = _CONTINUE_HEAD.match(text)
    if head is None:
        return None
    tails = list(_CONTINUE_TAIL.finditer(text, head.end() - 1))
    if not tails:
        return None
    tail = tails[-1]
    # The last separator before the tail: the original (usually longer) may itself quote the prompt.
    seps = [m for m in _CONTINUE_SEP.finditer(text, head.end() - 1, tail.start() + 1)]
    if not seps:
        return None
    sep = seps[-1]
    original, update = text[head.end():sep.start()], text[sep.end():tail.start()]
    # A dedent that measures the indentation over the interpolated code too removes nothing when the
    # code has a line at column 0, so the template's own indentation stays on its lines, and on the
    # first line of each code block (it follows that indentation in the template): take it off there.
    indent = head.group("indent")
    if indent:
        original, update = original.removeprefix(indent), update.removeprefix(indent)
    return original, update


def _is_kortix(head: str, tail: str, system: str) -> bool:
    return "updated-code" in head or "updated-code" in tail or "updated-code" in system


def detect(data: ChatRequest, headers: dict[str, str] | None = None) -> ApplyPrompt:
    """The apply prompt in a chat request, or a 400 that names the accepted shapes."""
    messages = data.messages
    users = [i for i, message in enumerate(messages) if message.role == "user"]
    if not users:
        raise ServiceError(400, f"no user message; {ACCEPTED}", code=ServiceCode.INVALID_REQUEST,
                           details={"field": "messages"})
    where = f"messages[{users[-1]}].content"
    text = text_of(messages[users[-1]])
    last = messages[-1]
    prefill = text_of(last) if last.role == "assistant" else ""
    found = _continue(text)
    if found is not None:
        original, update = found
        # Continue keeps the lines between the first fence line and the closing one; our fence comes
        # first even when the request prefilled one (its filter drops leading fence lines).
        return ApplyPrompt(dialect="continue", original=original, update=update,
                           answer_prefix=FENCE + "\n", answer_suffix="\n" + FENCE + "\n")
    if "<code>" in text or "<update>" in text or data.prediction is None:
        instruction, code, update, head, tail = parse_tags(text, where)
        system = "".join(text_of(m) for m in messages if m.role == "system")
        if _is_kortix(head, tail, system):
            opened = prefill.strip().startswith("<updated-code>")
            return ApplyPrompt(dialect="kortix", original=code, update=update, instruction=instruction,
                               answer_prefix="" if opened else "<updated-code>",
                               answer_suffix="</updated-code>")
        prompt = ApplyPrompt(dialect="morph", original=code, update=update, instruction=instruction)
        if anchor_protocol.is_anchored(code):
            prompt.original, prompt.anchors = anchor_protocol.decode(code)
            prompt.instruction = anchor_protocol.strip_note(instruction)
        elif (headers or {}).get(anchor_protocol.HEADER, "").lower() == "extralong" and "⟪MORPH_" in code[:64]:
            anchor_protocol.decode(code)  # raises the 400 that says what is malformed
        return prompt
    prediction = data.prediction.content
    original = prediction if isinstance(prediction, str) else "".join(p.text or "" for p in prediction)
    return ApplyPrompt(dialect="predicted", original=original, update=text)
