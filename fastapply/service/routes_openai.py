"""OpenAI-compatible chat completions carrying an apply prompt, and the model list.

The prompt's dialect (Morph, Kortix FastApply, Continue's default apply prompt, OpenAI Predicted
Outputs; see fastapply.service.dialects) is recognised from the messages, and the merged file is
answered the way that dialect's clients read it. The response's `model` names the engine that merged.
Streaming sends OpenAI's `chat.completion.chunk` events and ends with `data: [DONE]`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.response import Stream

from ..errors import FastApplyError
from ..result import ApplyResult
from .dialects import ApplyPrompt, detect
from .engine import STREAM_PIECE, Engine, Job
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

# Names the engine that merged, on every chat completion (also in the body's `model`).
ENGINE_HEADER = "x-fastapply-engine"


def parse_prompt(messages: list[ChatMessage]) -> tuple[str | None, str, str]:
    """(instruction, code, update) of a Morph-format request (kept for callers of the first API)."""
    prompt = detect(ChatRequest(messages=messages))
    return prompt.instruction, prompt.original, prompt.update


def _job(data: ChatRequest, prompt: ApplyPrompt) -> Job:
    return Job(original=prompt.original, update=prompt.update, instruction=prompt.instruction,
               model=data.model, temperature=data.temperature,
               max_new_tokens=data.max_completion_tokens or data.max_tokens)


def engine_name(engine: Engine, job: Job, result: ApplyResult | None) -> str:
    """The engine that merged: `fastapply-structural`, or the loaded model's name."""
    if result is not None and result.method != "model":
        return STRUCTURAL
    model = engine.models.resolve(job.model)
    return model.name if model is not None else STRUCTURAL


@post(["/v1/chat/completions", "/v1/apply/chat/completions"], status_code=200, responses=ERROR_RESPONSES,
      tags=["openai"], summary="Apply an edit as an OpenAI chat completion",
      description="Dialects, recognised from the messages: Morph (`<instruction>`, `<code>`, `<update>`), "
      "Kortix FastApply (answer in `<updated-code>` tags), Continue's default apply prompt (`ORIGINAL CODE:` "
      "/ `SUGGESTED EDIT:`), OpenAI Predicted Outputs (`prediction.content` = the file, last user message = "
      "the snippet). Morph's large-file anchor tables (`X-Morph-Apply-Context: extralong`) are decoded.")
async def chat_completions(data: ChatRequest, state: State, request: Request) -> Response[ChatCompletion]:
    engine: Engine = state.engine
    prompt = detect(data, {key.lower(): value for key, value in request.headers.items()})
    job = _job(data, prompt)
    state.metrics.dialect(prompt.dialect + ("-anchors" if prompt.anchors else ""))
    completion_id = "chatcmpl-" + new_request_id()
    created = int(time.time())
    if data.stream:
        chunks, result = await engine.stream(job)
        name = engine_name(engine, job, result)
        if result is not None:  # structural: the whole answer is known (and checked) before streaming
            chunks = pieces(prompt.answer(result.merged_code))
        else:
            chunks = _wrapped(chunks, prompt)
        include_usage = bool(data.stream_options and data.stream_options.include_usage)
        events = _chunk_events(chunks, job, completion_id, created, name, include_usage)
        return Stream(events, media_type="text/event-stream", headers={**SSE_HEADERS, ENGINE_HEADER: name})
    result = await engine.apply(job)
    name = engine_name(engine, job, result)
    return Response(ChatCompletion(
        id=completion_id, created=created, model=name,
        choices=[ChatChoice(message=AssistantMessage(content=prompt.answer(result.merged_code)))],
        usage=usage_for(result, job.original, job.update, job.instruction)), headers={ENGINE_HEADER: name})


async def pieces(text: str) -> AsyncIterator[str]:
    for start in range(0, len(text), STREAM_PIECE):
        yield text[start:start + STREAM_PIECE]


async def _wrapped(chunks: AsyncIterator[str], prompt: ApplyPrompt) -> AsyncIterator[str]:
    # A model's stream: the dialect's wrapping around it (an anchored answer passes through as is:
    # text without placeholders expands to itself).
    if prompt.answer_prefix:
        yield prompt.answer_prefix
    async for chunk in chunks:
        yield chunk
    if prompt.answer_suffix:
        yield prompt.answer_suffix


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
