"""Which edit formats an agent's raw output holds."""

from __future__ import annotations

import re

import msgspec

from ..errors import ErrorCode, InputError
from .ops import FileOp
from .policy import DEFAULT_POLICY, Policy
from .search_replace import _START as _SR_START

FORMATS = ("json", "v4a", "search-replace", "udiff", "whole")
# What `--format` / `format=` accept besides "auto".
FORMATS_CLI = ("udiff", "search-replace", "v4a", "replacements", "lazy", "whole")
_UDIFF = re.compile(r"^(diff --git |--- \S.*\n\+\+\+ \S|@@ )", re.M)
# Codex reads its markers with the padding around them trimmed.
_V4A = re.compile(r"^\s*\*\*\* (Begin Patch|Update File:|Add File:|Delete File:)", re.M)


def parse_json_edits(text: str) -> list | None:
    """The list of edits when `text` is a JSON list (or {"edits": [...]}) of objects, else None."""
    stripped = text.strip()
    if not stripped.startswith(("[", "{")):
        return None
    try:
        data = msgspec.json.decode(stripped.encode("utf-8"))
    except (msgspec.DecodeError, UnicodeEncodeError):
        return None
    if isinstance(data, dict) and isinstance(data.get("edits"), list):
        data = data["edits"]
    if isinstance(data, dict) and "path" in data:
        data = [data]
    if isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        return data
    return None


def detect_formats(text: str) -> list[str]:
    """Formats present, among FORMATS, in the order checked: json alone, any mix of v4a,
    search-replace and udiff, or else whole (fenced files, each with its name on the line before)."""
    if parse_json_edits(text) is not None:
        return ["json"]
    from .v4a import v4a_spans

    lines = text.replace("\r\n", "\n").split("\n")
    found = []
    v4a = v4a_spans(lines)
    if v4a or _V4A.search(text):
        found.append("v4a")
        if not v4a:
            return found
    rest = _mask(lines, v4a)
    if any(_SR_START.match(line) for line in rest):
        found.append("search-replace")
        try:
            rest = _mask(rest, _sr_spans(rest))
        except InputError:
            pass
    if _UDIFF.search("\n".join(rest)):
        found.append("udiff")
    if not found and _whole_ops(text, None, DEFAULT_POLICY):
        found.append("whole")
    return found


def _whole_ops(text: str, known: list[str] | None, policy: Policy) -> list[FileOp]:
    from .whole import parse_whole

    try:
        return parse_whole(text, known=known, policy=policy, auto=True)
    except InputError:
        return []


def _mask(lines: list[str], spans: list[tuple[int, int]]) -> list[str]:
    out = list(lines)
    for s, e in spans:
        for i in range(s, e):
            out[i] = ""
    return out


def _sr_spans(lines: list[str], policy: Policy = DEFAULT_POLICY) -> list[tuple[int, int]]:
    from .search_replace import block_spans

    return [(s, min(e + 1, len(lines))) for s, _, e in block_spans(lines, policy)]


def parse_agent_output(text: str, format: str = "auto", *, policy: Policy = DEFAULT_POLICY,
                       known: list[str] | None = None) -> list[FileOp]:
    """Every file operation in an agent's output, ordered as they appear. Raises InputError.

    known: the files the edits may name (for whole-file blocks without a name line)."""
    from ..text import normalize_newlines
    from .search_replace import parse_search_replace
    from .udiff import parse_udiff
    from .v4a import parse_v4a, v4a_spans

    text = normalize_newlines(text)
    if format not in ("auto", *FORMATS_CLI):
        raise InputError(f"unknown format {format!r}; use one of auto, {', '.join(FORMATS_CLI)}",
                         code=ErrorCode.INVALID_ARGUMENT)
    items = parse_json_edits(text)
    if format in ("replacements", "lazy") or (format == "auto" and items is not None):
        if items is None:
            if format == "lazy":
                return _lazy_fences(text)
            raise InputError("expected a JSON list of edits like [{\"path\": ..., \"old\": ..., \"new\": ...}]",
                             code=ErrorCode.MALFORMED_EDIT)
        return json_ops(items, lazy=format == "lazy")
    if format == "udiff":
        return parse_udiff(text)
    if format == "search-replace":
        return parse_search_replace(text, policy=policy)
    if format == "v4a":
        return parse_v4a(text)
    if format == "whole":
        from .whole import parse_whole

        return parse_whole(text, known=known, policy=policy)
    lines = text.split("\n")
    v4a = v4a_spans(lines)
    ops = parse_v4a(text) if v4a or _V4A.search(text) else []
    if ops and not v4a:
        return ops  # a V4A patch without its Begin line takes the whole text
    rest = _mask(lines, v4a)
    sr = _sr_spans(rest, policy)
    ops += parse_search_replace("\n".join(rest), policy=policy)
    ops += parse_udiff("\n".join(_mask(rest, sr)))
    if not ops:
        return _whole_ops(text, known, policy)
    ops.sort(key=lambda op: op.source_line or 0)
    return ops


_LAZY_KEYS = ("update", "snippet", "code_edit")


def json_ops(items: list, *, lazy: bool = False) -> list[FileOp]:
    """FileOps from a JSON list: {path, old, new[, replace_all]}, {path, edits: [...]}, {path, update}."""
    from .replacements import normalize_edits
    from .udiff import parse_udiff

    ops: list[FileOp] = []
    for i, item in enumerate(items, 1):
        path = item.get("path") or item.get("file") or item.get("file_path") or item.get("filename")
        if not isinstance(path, str) or not path:
            raise InputError(f"edit {i} has no \"path\"", code=ErrorCode.MALFORMED_EDIT, details={"edit": i})
        lazy_key = next((k for k in _LAZY_KEYS if k in item), None)
        if lazy_key is not None or lazy:
            update = item.get(lazy_key or "update")
            if not isinstance(update, str):
                raise InputError(f"edit {i}: \"update\" must be the edit snippet as a string",
                                 code=ErrorCode.MALFORMED_EDIT, details={"edit": i})
            ops.append(FileOp(path=path, format="lazy", content=update, source_line=i))
        elif isinstance(item.get("diff") or item.get("patch"), str):
            for op in parse_udiff(item.get("diff") or item.get("patch")):
                op.path, op.source_line = path, i
                ops.append(op)
        else:
            raw = item["edits"] if isinstance(item.get("edits"), list) else [item]
            try:
                edits = normalize_edits(raw)
            except InputError as exc:
                raise InputError(f"edit {i}: {exc.message}", code=exc.code, details={"edit": i}) from None
            if ops and ops[-1].path == path and ops[-1].format == "replacements":
                ops[-1].edits += edits
            else:
                ops.append(FileOp(path=path, format="replacements", edits=edits, source_line=i))
    return ops


def _lazy_fences(text: str) -> list[FileOp]:
    """`path` line, then a fenced code block holding the lazy snippet for that file."""
    from .search_replace import _path_before

    lines = text.split("\n")
    ops: list[FileOp] = []
    i = 0
    while i < len(lines):
        if lines[i].strip().startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            path = _path_before(lines, i + 1)
            if path:
                ops.append(FileOp(path=path, format="lazy", content="\n".join(lines[i + 1:j]) + "\n",
                                  source_line=i + 1))
            i = j
        i += 1
    return ops
