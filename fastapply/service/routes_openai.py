"""OpenAI-compatible chat completions in Morph's apply format, and the model list.

The single user message carries `<instruction>...</instruction>` (optional), `<code>...</code>` and
`<update>...</update>`; the assistant message is the merged file. Streaming sends OpenAI's
`chat.completion.chunk` events and ends with `data: [DONE]`, so the `openai` SDK works unchanged.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator

from litestar import Response, get, post
from litestar.datastructures import State
from litestar.response import Stream

from ..errors import FastApplyError
from .engine import Engine, Job
from .errors import ServiceCode, ServiceError
from .middleware import new_request_id
from .models import AUTO, STRUCTURAL, Models
from .routes_apply import (
    ERROR_RESPONSES,
    INTERNAL_STREAM_ERROR,
    SSE_HEADERS,
    estimate_tokens,
    log,
    sse,
    usage_for,
)
from .schemas import (
    AssistantMessage,
    ChatChoice,
    ChatCompletion,
    ChatCompletionChunk,
    ChatMessage,
    ChatRequest,
    ChunkChoice,
    ChunkDelta,
    ModelCard,
    ModelList,
    Usage,
)

# The code ends at the first `</code>` that is followed by `<update>`, so code may mention the tags.
_CODE_END = re.compile(r"</code>\s*<update>")


def _text(message: ChatMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    return "".join(part.text or "" for part in message.content or [] if part.type == "text")


def _unwrap(body: str) -> str:
    # `<code>\n...\n</code>` is the common layout: drop the newline pair it adds, but keep a
    # file's own final newline when the client wrote `<code>...</code>` tightly.
    if body.startswith("\n"):
        body = body[1:]
        if body.endswith("\n"):
            body = body[:-1]
    elif body.startswith("\r\n"):
        body = body[2:]
        if body.endswith("\r\n"):
            body = body[:-2]
    return body


def parse_prompt(messages: list[ChatMessage]) -> tuple[str | None, str, str]:
    """(instruction, code, update) from the last user message."""
    users = [i for i, message in enumerate(messages) if message.role == "user"]
    if not users:
        raise ServiceError(400, "no user message; send one with <code>...</code><update>...</update>",
                           code=ServiceCode.INVALID_REQUEST, details={"field": "messages"})
    where = f"messages[{users[-1]}].content"
    text = _text(messages[users[-1]])
    code_start = text.find("<code>")
    end = _CODE_END.search(text, code_start + 6) if code_start >= 0 else None
    update_end = text.rfind("</update>")
    if code_start < 0 or end is None or update_end < end.end():
        missing = "<code>" if code_start < 0 else "</code><update>" if end is None else "</update>"
        raise ServiceError(400, f"field `{where}`: expected <code>...</code> then <update>...</update> "
                           f"(Morph's apply format); {missing} not found",
                           code=ServiceCode.INVALID_REQUEST, details={"field": where})
    code = _unwrap(text[code_start + 6:end.start()])
    update = _unwrap(text[end.end():update_end])
    instruction = None
    head = text[:code_start]
    if "<instruction>" in head and "</instruction>" in head:
        instruction = head.split("<instruction>", 1)[1].rsplit("</instruction>", 1)[0].strip() or None
    return instruction, code, update


def _job(data: ChatRequest) -> Job:
    instruction, code, update = parse_prompt(data.messages)
    return Job(original=code, update=update, instruction=instruction, model=data.model,
               temperature=data.temperature, max_new_tokens=data.max_completion_tokens or data.max_tokens)


@post(["/v1/chat/completions", "/v1/apply/chat/completions"], status_code=200, responses=ERROR_RESPONSES,
      tags=["openai"], summary="Apply an edit as an OpenAI chat completion (Morph's message format)")
async def chat_completions(data: ChatRequest, state: State) -> Response[ChatCompletion]:
    engine: Engine = state.engine
    job = _job(data)
    completion_id = "chatcmpl-" + new_request_id()
    created = int(time.time())
    if data.stream:
        chunks, result = await engine.stream(job)
        include_usage = bool(data.stream_options and data.stream_options.include_usage)
        events = _chunk_events(chunks, job, completion_id, created, data.model, include_usage)
        return Stream(events, media_type="text/event-stream", headers=SSE_HEADERS)
    result = await engine.apply(job)
    return Response(ChatCompletion(
        id=completion_id, created=created, model=data.model,
        choices=[ChatChoice(message=AssistantMessage(content=result.merged_code))],
        usage=usage_for(result, job.original, job.update, job.instruction)))


async def _chunk_events(chunks: AsyncIterator[str], job: Job, completion_id: str, created: int, model: str,
                        include_usage: bool) -> AsyncIterator[bytes]:
    def chunk(delta: ChunkDelta, finish: str | None = None) -> bytes:
        return sse(ChatCompletionChunk(id=completion_id, created=created, model=model,
                                       choices=[ChunkChoice(delta=delta, finish_reason=finish)]))

    yield chunk(ChunkDelta(role="assistant", content=""))
    produced = 0
    try:
        async for text in chunks:
            produced += len(text)
            yield chunk(ChunkDelta(content=text))
    except FastApplyError as exc:
        # Headers are gone already: report in-band, as OpenAI-compatible servers do, and stop.
        yield sse({"error": exc.to_dict()})
        return
    except Exception:
        log.exception("stream failed")
        yield sse({"error": INTERNAL_STREAM_ERROR})
        return
    yield chunk(ChunkDelta(), "stop")
    if include_usage:
        prompt, completion = estimate_tokens(job.original, job.update, job.instruction), (produced + 3) // 4
        usage = Usage(prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion)
        yield sse(ChatCompletionChunk(id=completion_id, created=created, model=model, choices=[],
                                      usage=usage))
    yield b"data: [DONE]\n\n"


@get("/v1/models", tags=["openai"], summary="Models this server answers to")
async def list_models(state: State) -> ModelList:
    models: Models = state.engine.models
    return ModelList(data=[ModelCard(id=name) for name in (AUTO, STRUCTURAL, *models.names())])
