"""POST /v1/apply: Relace's apply API (also served at Relace's own path, /v1/code/apply)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import msgspec
from litestar import Response, post
from litestar.datastructures import State
from litestar.openapi import ResponseSpec
from litestar.response import Stream

from ..errors import FastApplyError
from ..result import ApplyResult
from .engine import Engine, Job
from .errors import ServiceCode
from .schemas import ApplyRequest, ApplyResponse, ErrorResponse, Output, Usage, pick

log = logging.getLogger("fastapply.service")

ERROR_RESPONSES = {
    status: ResponseSpec(ErrorResponse, description=text, generate_examples=False)
    for status, text in ((400, "Malformed request (the message names the field)"),
                         (401, "Missing or wrong API key"),
                         (404, "Unknown model"),
                         (413, "Request body over the limit"),
                         (422, "The edit could not be applied safely (the code says why)"),
                         (429, "Saturated; retry after Retry-After seconds"),
                         (504, "Timed out"))
}
INTERNAL_STREAM_ERROR = {"code": ServiceCode.INTERNAL, "message": "internal error; it was logged",
                         "details": {}}
SSE_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no"}


def estimate_tokens(*texts: str | None) -> int:
    # The structural engine has no tokenizer; ~4 characters per token is the usual rule of thumb.
    return sum((len(text) + 3) // 4 for text in texts if text)


def usage_for(result: ApplyResult, original: str, update: str, instruction: str | None) -> Usage:
    stats = result.stats
    if stats.prompt_tokens or stats.generated_tokens:
        prompt, completion = stats.prompt_tokens, stats.generated_tokens
    else:
        prompt = estimate_tokens(original, update, instruction)
        completion = estimate_tokens(result.merged_code)
    return Usage(prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion)


def shape(result: ApplyResult, output: Output) -> dict[str, str | None]:
    """The merged code and/or diff fields for `output` (full | diff | both)."""
    merged = result.merged_code if output in ("full", "both") else None
    return {"mergedCode": merged, "merged_code": merged, "diff": result.diff if output != "full" else None}


def sse(payload: object) -> bytes:
    return b"data: " + msgspec.json.encode(payload) + b"\n\n"


def job_from(data: ApplyRequest) -> Job:
    return Job(original=pick(data, "initial_code", "initialCode") or "",
               update=pick(data, "edit_snippet", "editSnippet") or "",
               filename=data.filename, language=data.language, instruction=data.instruction, model=data.model)


@post(["/v1/apply", "/v1/code/apply"], status_code=200, responses=ERROR_RESPONSES, tags=["apply"],
      summary="Merge an edit snippet into a file (Relace-compatible)",
      description="Accepts `initial_code`/`initialCode` and `edit_snippet`/`editSnippet`. With "
      "`stream: true` the merged file arrives as server-sent events `{\"delta\": text}`, then "
      "`{\"done\": true, \"method\", \"usage\"}` and `[DONE]`.")
async def apply_route(data: ApplyRequest, state: State) -> Response[ApplyResponse]:
    engine: Engine = state.engine
    job = job_from(data)
    if data.stream:
        chunks, result = await engine.stream(job)
        return Stream(_apply_events(chunks, result, job), media_type="text/event-stream", headers=SSE_HEADERS)
    result = await engine.apply(job)
    usage = usage_for(result, job.original, job.update, job.instruction)
    body = ApplyResponse(method=result.method, usage=usage, timing_ms=result.stats.elapsed_ms,
                         language=result.language, warnings=result.warnings, stats=result.stats,
                         **shape(result, data.output))
    return Response(body)


async def _apply_events(chunks: AsyncIterator[str], result: ApplyResult | None,
                        job: Job) -> AsyncIterator[bytes]:
    merged = []
    try:
        async for chunk in chunks:
            merged.append(chunk)
            yield sse({"delta": chunk})
    except FastApplyError as exc:
        yield sse({"error": exc.to_dict()})
        return
    except Exception:
        log.exception("stream failed")
        yield sse({"error": INTERNAL_STREAM_ERROR})
        return
    if result is not None:
        usage = usage_for(result, job.original, job.update, job.instruction)
        method = result.method
    else:
        prompt, completion = estimate_tokens(job.original, job.update), estimate_tokens("".join(merged))
        usage, method = Usage(prompt_tokens=prompt, completion_tokens=completion,
                              total_tokens=prompt + completion), "model"
    yield sse({"done": True, "method": method, "usage": usage})
    yield b"data: [DONE]\n\n"
