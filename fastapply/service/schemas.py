"""Request and response bodies (msgspec Structs; litestar validates them and builds the OpenAPI schema).

Relace's clients send camelCase (`initialCode`, `editSnippet`), Python clients snake_case: both
spellings are fields here and `pick()` resolves them, so either works and the schema shows both.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from ..result import ApplyStats
from .errors import ServiceCode, ServiceError

Output = Literal["full", "diff", "both"]
Ambiguity = Literal["refuse", "first"]
MAX_BATCH_ITEMS = 1000

ModelField = Annotated[str, Meta(description="`auto` (structural, then the model if one is loaded), "
                                 "`fastapply-structural`, or a loaded model's name")]


def pick(struct: Struct, snake: str, camel: str, *, required: bool = True, where: str = "") -> str | None:
    """The value of a field sent under either spelling; a missing required field names both."""
    value = getattr(struct, snake)
    if value is None:
        value = getattr(struct, camel)
    if value is None and required:
        raise ServiceError(400, f"missing required field `{where}{snake}` (or `{where}{camel}`)",
                           code=ServiceCode.INVALID_REQUEST, details={"field": where + snake})
    return value


class Usage(Struct, kw_only=True):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0


class ErrorInfo(Struct, kw_only=True):
    code: str
    message: str
    details: dict[str, Any] = msgspec.field(default_factory=dict)


class ErrorResponse(Struct, kw_only=True):
    error: ErrorInfo


# --- POST /v1/apply (Relace-compatible) ---

class ApplyRequest(Struct, kw_only=True):
    initial_code: str | None = None
    initialCode: str | None = None
    edit_snippet: str | None = None
    editSnippet: str | None = None
    instruction: str | None = None
    filename: str | None = None
    language: str | None = None
    model: ModelField = "auto"
    stream: bool = False
    output: Output = "full"


class ApplyResponse(Struct, kw_only=True, omit_defaults=True):
    method: str
    usage: Usage
    timing_ms: float
    mergedCode: str | None = None
    merged_code: str | None = None
    diff: str | None = None
    language: str | None = None
    warnings: list[str] = msgspec.field(default_factory=list)
    stats: ApplyStats | None = None


# --- POST /v1/chat/completions (OpenAI-compatible, Morph's message format) ---

class ContentPart(Struct, kw_only=True):
    type: str = "text"
    text: str | None = None


class ChatMessage(Struct, kw_only=True):
    role: str
    content: str | list[ContentPart] | None = None


class StreamOptions(Struct, kw_only=True):
    include_usage: bool = False


class Prediction(Struct, kw_only=True):
    """OpenAI Predicted Outputs: `content` is the file the answer will mostly repeat."""

    type: str = "content"
    content: str | list[ContentPart] = ""


class ChatRequest(Struct, kw_only=True):
    messages: Annotated[list[ChatMessage], Meta(min_length=1)]
    model: ModelField = "auto"
    stream: bool = False
    stream_options: StreamOptions | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    max_completion_tokens: int | None = None
    prediction: Prediction | None = None


class AssistantMessage(Struct, kw_only=True):
    role: str = "assistant"
    content: str = ""


class ChatChoice(Struct, kw_only=True):
    index: int = 0
    message: AssistantMessage
    finish_reason: str = "stop"


class ChatCompletion(Struct, kw_only=True):
    id: str
    created: int
    model: str
    choices: list[ChatChoice]
    usage: Usage
    object: str = "chat.completion"


class ChunkDelta(Struct, kw_only=True, omit_defaults=True):
    role: str | None = None
    content: str | None = None


class ChunkChoice(Struct, kw_only=True):
    delta: ChunkDelta
    index: int = 0
    finish_reason: str | None = None


class ChatCompletionChunk(Struct, kw_only=True):
    id: str
    created: int
    model: str
    choices: list[ChunkChoice]
    object: str = "chat.completion.chunk"
    usage: Usage | None = None


class ModelCard(Struct, kw_only=True):
    id: str
    object: str = "model"
    created: int = 0
    owned_by: str = "fastapply"


class ModelList(Struct, kw_only=True):
    data: list[ModelCard]
    object: str = "list"


# --- POST /v1/apply/batch ---

class BatchItem(Struct, kw_only=True):
    id: str | None = None
    path: str | None = None
    filename: str | None = None
    initial_code: str | None = None
    initialCode: str | None = None
    edit_snippet: str | None = None
    editSnippet: str | None = None
    instruction: str | None = None
    language: str | None = None
    # The edit format of `edit_snippet`: lazy (default), search_replace, udiff, v4a, whole; or
    # replacements, which reads `edits` instead. An unknown one is a per-item error, not a failed batch.
    format: str = "lazy"
    edits: list[dict[str, Any]] | None = None
    # This item's ambiguity policy, overriding the request's.
    ambiguity: Ambiguity | None = None


class BatchRequest(Struct, kw_only=True):
    items: Annotated[list[BatchItem], Meta(max_length=MAX_BATCH_ITEMS)]
    model: ModelField = "auto"
    output: Output = "full"
    stream: bool = False
    # An edit (not a lazy snippet) that matches several places equally well: "refuse" (default) or
    # take the "first" (Aider's rule). A line-number hint (Roo's :start_line:) chooses first either way.
    ambiguity: Ambiguity = "refuse"


class BatchItemResult(Struct, kw_only=True, omit_defaults=True):
    index: int
    ok: bool
    id: str | None = None
    path: str | None = None
    mergedCode: str | None = None
    merged_code: str | None = None
    diff: str | None = None
    method: str | None = None
    usage: Usage | None = None
    timing_ms: float | None = None
    warnings: list[str] = msgspec.field(default_factory=list)
    error: ErrorInfo | None = None


class BatchSummary(Struct, kw_only=True):
    total: int
    ok: int
    failed: int


class BatchResponse(Struct, kw_only=True):
    results: list[BatchItemResult]
    summary: BatchSummary
    timing_ms: float


class Health(Struct, kw_only=True):
    status: str
    models: dict[str, str] = msgspec.field(default_factory=dict)
