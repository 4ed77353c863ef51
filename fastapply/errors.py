"""The errors fastapply raises. Every failure a caller can cause is an ApplyError with a stable code."""

from __future__ import annotations

from typing import Any


class ErrorCode:
    """Machine-readable error codes. Strings, so they travel unchanged through JSON and exit messages."""

    # bad input
    NOT_TEXT = "not_text"
    EMPTY_UPDATE = "empty_update"
    INPUT_TOO_LARGE = "input_too_large"
    TOO_MANY_EDITS = "too_many_edits"
    UNKNOWN_LANGUAGE = "unknown_language"
    INVALID_ARGUMENT = "invalid_argument"
    # lazy-snippet merge
    ANCHOR_NOT_FOUND = "anchor_not_found"
    AMBIGUOUS_ANCHOR = "ambiguous_anchor"
    MARKER_LEFT = "marker_left"
    SYNTAX_REGRESSED = "syntax_regressed"
    CONTENT_LOST = "content_lost"
    # replacement lists, search/replace blocks, diffs, patches
    NO_MATCH = "no_match"
    AMBIGUOUS_MATCH = "ambiguous_match"
    MALFORMED_EDIT = "malformed_edit"
    PATH_OUTSIDE_ROOT = "path_outside_root"
    BINARY_PATCH = "binary_patch"
    FILE_NOT_FOUND = "file_not_found"
    FILE_EXISTS = "file_exists"
    IO_ERROR = "io_error"
    # bounded work (fastapply.deadline)
    MERGE_TIMEOUT = "merge_timeout"
    INTERNAL_ERROR = "internal_error"
    # model path
    MODEL_NOT_CONFIGURED = "model_not_configured"
    MODEL_NOT_FOUND = "model_not_found"
    MODEL_FAILED = "model_failed"
    OUTPUT_TRUNCATED = "output_truncated"
    # an OpenAI-compatible upstream server (vLLM, SGLang, ...) failed or could not be reached
    UPSTREAM_FAILED = "upstream_failed"
    HEAD_INCOMPATIBLE = "head_incompatible"


class FastApplyError(Exception):
    """Base of every error fastapply raises on purpose."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None, line: int | None = None,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.line = line
        self.details: dict[str, Any] = dict(details or {})
        if line is not None:
            self.details.setdefault("line", line)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class ApplyError(FastApplyError):
    """An edit could not be applied safely. `code` says why; nothing was written."""

    code = "apply_failed"


class InputError(ApplyError):
    """The input itself is unusable: not text, empty, or too large."""


class MergeError(ApplyError):
    """A snippet or edit could not be placed in the original unambiguously."""


class ValidationError(ApplyError):
    """A merge was computed but failed a safety check, so it was refused."""


class ModelError(ApplyError):
    """The model path was asked for but is not available or failed."""
