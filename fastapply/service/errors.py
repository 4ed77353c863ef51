"""Every error leaves the service as JSON `{"error": {"code", "message", "details"}}`.

Status codes: 400 for a malformed request (bad JSON, wrong types, missing fields; the message names the
field), 401 for a missing or wrong API key, 404/405 for unknown routes or models, 413 for an oversize
body, 422 for an edit that cannot be applied (the ApplyError's code), 429 when saturated, 504 on
timeout, and 500 with `internal_error` only for bugs, which are logged with their traceback.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, ValidationException

from ..errors import ApplyError, ErrorCode, FastApplyError

log = logging.getLogger("fastapply.service")


class ServiceCode:
    """Error codes the service adds to fastapply's own (fastapply.errors.ErrorCode)."""

    INVALID_JSON = "invalid_json"
    INVALID_REQUEST = "invalid_request"
    UNAUTHORIZED = "unauthorized"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    CORS_ORIGIN_DENIED = "cors_origin_denied"
    CORS_PREFLIGHT_DENIED = "cors_preflight_denied"
    MODEL_NOT_FOUND = "model_not_found"
    MODEL_NOT_READY = "model_not_ready"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    RATE_LIMITED = "rate_limited"
    TIMEOUT = "timeout"
    MERGE_TIMEOUT = "merge_timeout"
    GENERATION_TIMEOUT = "generation_timeout"
    MALFORMED_ANCHORS = "malformed_anchor_table"
    INTERNAL = "internal_error"


_CODE_BY_STATUS = {
    400: ServiceCode.INVALID_REQUEST,
    401: ServiceCode.UNAUTHORIZED,
    404: ServiceCode.NOT_FOUND,
    405: ServiceCode.METHOD_NOT_ALLOWED,
    413: ServiceCode.PAYLOAD_TOO_LARGE,
    429: ServiceCode.RATE_LIMITED,
    503: ServiceCode.MODEL_NOT_READY,
    504: ServiceCode.TIMEOUT,
}


class ServiceError(FastApplyError):
    """A refusal by the service itself (as opposed to the merge engine), with its HTTP status."""

    def __init__(self, status: int, message: str, *, code: str | None = None,
                 details: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(message, code=code or _CODE_BY_STATUS.get(status, ServiceCode.INVALID_REQUEST),
                         details=details)
        self.status = status
        self.headers = headers or {}


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> bytes:
    return msgspec.json.encode({"error": {"code": code, "message": message, "details": details or {}}})


def error_response(request: Request, status: int, code: str, message: str,
                   details: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
                   count: bool = True) -> Response:
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None and count:
        metrics.refusal(code)
    return Response(error_body(code, message, details), status_code=status, media_type=MediaType.JSON,
                    headers=headers)


def status_for(exc: FastApplyError) -> int:
    """The HTTP status for an error raised on purpose: 422 for an edit that cannot be applied."""
    if isinstance(exc, ServiceError):
        return exc.status
    if exc.code == ErrorCode.MERGE_TIMEOUT:  # a merge stopped at its deadline (fastapply.deadline)
        return 504
    if exc.code == ErrorCode.UPSTREAM_FAILED:
        return 502  # the model server behind us failed: a gateway error, not a bad edit
    return 422 if isinstance(exc, ApplyError) else 400


def _field_message(extra: Any) -> tuple[str, dict[str, Any]]:
    """Turn litestar's list of msgspec validation problems into one message naming the field."""
    problems = extra if isinstance(extra, list) else []
    parts = []
    for problem in problems:
        if not isinstance(problem, dict):
            continue
        key, message = problem.get("key"), str(problem.get("message", "invalid value"))
        if key == "data" and message == "'data'":
            parts.append("the request body is empty; send a JSON object")
        elif key and key != "data":
            parts.append(f"field `{key}`: {message}")
        else:
            parts.append(f"request body: {message}")
    return "; ".join(parts) or "the request does not match the schema", {"errors": problems}


def handle_validation(request: Request, exc: ValidationException) -> Response:
    message, details = _field_message(exc.extra)
    return error_response(request, 400, ServiceCode.INVALID_REQUEST, message, details)


def handle_http(request: Request, exc: HTTPException) -> Response:
    status = exc.status_code
    detail = str(exc.detail or "")
    code = _CODE_BY_STATUS.get(status, ServiceCode.INVALID_REQUEST if status < 500 else ServiceCode.INTERNAL)
    if status == 400 and any(word in detail for word in ("JSON", "truncated", "malformed", "UTF-8")):
        code = ServiceCode.INVALID_JSON
        detail = f"the request body is not valid JSON: {detail}"

    if status == 404:
        detail = f"no route {request.method} {request.url.path}; see /schema for the API"
    if status == 405:
        detail = f"{request.method} is not allowed on {request.url.path}; see /schema for the API"
    if status == 413:
        limit = request.app.request_max_body_size
        detail = f"the request body is over the limit of {limit} bytes; raise --max-body-mb or send less"
    if status >= 500:
        log.error("http error %s on %s %s: %s", status, request.method, request.url.path, detail)
    headers = dict(exc.headers or {})
    return error_response(request, status, code, detail, headers=headers or None)


def handle_fastapply(request: Request, exc: FastApplyError) -> Response:
    headers = exc.headers if isinstance(exc, ServiceError) else None
    # The engine already counted ApplyErrors (they can also fail one batch item without a response).
    return error_response(request, status_for(exc), exc.code, exc.message, exc.details, headers,
                          count=not isinstance(exc, ApplyError))


def handle_undecodable(request: Request, exc: Exception) -> Response:
    """litestar lets two JSON decoding failures escape as plain exceptions: a body that is not UTF-8,
    and nesting deeper than the decoder's recursion limit. Both are the client's bad input."""
    if isinstance(exc, UnicodeDecodeError):
        message = f"the request body is not UTF-8 (byte {exc.start}); send JSON encoded as UTF-8"
    else:
        message = "the request body nests too deeply to decode; send a flat JSON object"
    return error_response(request, 400, ServiceCode.INVALID_JSON, message)


def handle_internal(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return error_response(request, 500, ServiceCode.INTERNAL,
                          "internal error; it was logged with the request id", {})


EXCEPTION_HANDLERS = {
    ValidationException: handle_validation,
    HTTPException: handle_http,
    FastApplyError: handle_fastapply,
    UnicodeDecodeError: handle_undecodable,
    RecursionError: handle_undecodable,
    Exception: handle_internal,
}
