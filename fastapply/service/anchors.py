"""Morph's large-file "anchor compaction" protocol, as the official Morph SDK speaks it.

For files of 128 KB or more the SDK (npm `@morphllm/morphsdk`, header `X-Morph-Apply-Context:
extralong`) replaces every distinct source line of 24 characters or more (HTML: every tag or text run)
by a placeholder `⟪M<ns>:<id>:<kind>⟫` and sends, inside `<code>`:

    ⟪MORPH_DEFINITIONS_BEGIN_<ns>⟫
    ⟪M<ns>:0:line⟫="<the line, as a JSON string>"
    ...
    ⟪MORPH_DEFINITIONS_END_<ns>⟫
    ⟪MORPH_CODE_BEGIN_<ns>⟫
    <the skeleton: the file with placeholders>

plus a protocol note appended to the instruction. The snippet in `<update>` is plain code. The SDK
expands the answer itself: it takes the text after the last `⟪MORPH_CODE_BEGIN_<ns>⟫` (if any),
replaces each placeholder it defined and passes other text through, and fails when a `⟪M<ns>:` is
left. So `decode` rebuilds the real file (merged like any other), and `compact` writes the merged file
back with placeholders for unchanged lines: the SDK's expansion gives exactly the merged file, and the
answer is as short as the request's skeleton.

Cost: O(table + skeleton) to decode, O(merged file) to compact and verify.
"""

from __future__ import annotations

import json
import re

import msgspec

from .errors import ServiceCode, ServiceError

HEADER = "x-morph-apply-context"
_BEGIN = re.compile(r"\A⟪MORPH_DEFINITIONS_BEGIN_(\d+)⟫\r?\n")
_DEFINITION = re.compile(r"(⟪M(\d+):(\d+):([^⟫]+)⟫)=(.*)\Z", re.S)
# The note the SDK appends to the instruction; not part of the user's instruction.
PROTOCOL_NOTE = "\n\nLARGE-FILE ANCHOR PROTOCOL:"
_LINE_SPLIT = re.compile(r"(\r\n|\n|\r)")


class AnchorTable(msgspec.Struct, kw_only=True):
    namespace: int
    markers: dict[str, str]  # placeholder text -> the source fragment it stands for
    kinds: set[str]

    @property
    def prefix(self) -> str:
        return f"⟪M{self.namespace}:"

    @property
    def code_begin(self) -> str:
        return f"⟪MORPH_CODE_BEGIN_{self.namespace}⟫"


def _malformed(message: str, **details: object) -> ServiceError:
    return ServiceError(400, f"malformed Morph large-file anchor table: {message}; send the file itself in "
                        "<code>, or the table exactly as @morphllm/morphsdk writes it",
                        code=ServiceCode.MALFORMED_ANCHORS, details=dict(details))


def is_anchored(code: str) -> bool:
    return code.startswith("⟪MORPH_DEFINITIONS_BEGIN_")


def decode(code: str) -> tuple[str, AnchorTable]:
    """(the real file, the table) from an anchored `<code>` body; a 400 `malformed_anchor_table`
    names what is wrong."""
    begin = _BEGIN.match(code)
    if begin is None:
        raise _malformed("the first line must be ⟪MORPH_DEFINITIONS_BEGIN_<n>⟫")
    ns = begin.group(1)
    end_mark, code_mark = f"⟪MORPH_DEFINITIONS_END_{ns}⟫", f"⟪MORPH_CODE_BEGIN_{ns}⟫"
    end = code.find("\n" + end_mark, begin.end() - 1)
    if end < 0:
        raise _malformed(f"{end_mark} not found")
    after = code[end + 1 + len(end_mark):]
    if not after.startswith("\n" + code_mark):
        raise _malformed(f"{end_mark} must be followed by a line holding {code_mark}")
    skeleton = after[1 + len(code_mark):]
    if skeleton.startswith("\n"):
        skeleton = skeleton[1:]
    markers: dict[str, str] = {}
    kinds: set[str] = set()
    table = code[begin.end():end]
    for number, line in enumerate(table.split("\n") if table else [], 2):
        match = _DEFINITION.match(line.rstrip("\r"))
        if match is None or match.group(2) != ns:
            raise _malformed(f"table line {number} is not ⟪M{ns}:<id>:<kind>⟫=\"<JSON string>\"",
                             line=number)
        try:
            value = json.loads(match.group(5))
        except ValueError:
            value = None
        if not isinstance(value, str):
            raise _malformed(f"table line {number}: the definition is not a JSON string", line=number)
        if match.group(1) in markers:
            raise _malformed(f"table line {number} defines {match.group(1)} twice", line=number)
        markers[match.group(1)] = value
        kinds.add(match.group(4))
    anchors = AnchorTable(namespace=int(ns), markers=markers, kinds=kinds)
    pattern = re.compile(re.escape(anchors.prefix) + r"\d+:[^⟫]+⟫")
    unknown = next((m.group(0) for m in pattern.finditer(skeleton) if m.group(0) not in markers), None)
    if unknown is not None:
        raise _malformed(f"the skeleton uses {unknown}, which the table does not define", placeholder=unknown)
    return pattern.sub(lambda m: markers[m.group(0)], skeleton), anchors


def expand(answer: str, anchors: AnchorTable) -> str:
    """What the SDK makes of an answer (a mirror of its `expand`), used to check `compact`."""
    begin = answer.rfind(anchors.code_begin)
    if begin >= 0:
        answer = answer[begin + len(anchors.code_begin):]
        answer = answer[2:] if answer.startswith("\r\n") else answer[1:] if answer.startswith("\n") else answer
    pattern = re.compile(re.escape(anchors.prefix) + r"\d+:[^⟫]+⟫")
    return pattern.sub(lambda m: anchors.markers.get(m.group(0), m.group(0)), answer)


def compact(merged: str, anchors: AnchorTable) -> str:
    """The merged file with a placeholder for every unchanged line the table defines, such that the
    SDK's expansion yields `merged` exactly; a 422 when the merged file itself holds placeholder text."""
    by_value = {value: marker for marker, value in anchors.markers.items() if marker.endswith(":line⟫")}
    if anchors.kinds == {"line"}:
        parts = _LINE_SPLIT.split(merged)
        answer = "".join(by_value.get(part, part) if i % 2 == 0 else part for i, part in enumerate(parts))
    else:  # HTML tables anchor tags and text runs, not lines: answer with the file itself
        answer = merged
    if anchors.prefix in merged or anchors.code_begin in merged or expand(answer, anchors) != merged:
        raise ServiceError(422, "the merged file contains Morph placeholder text, so the SDK could not "
                           "expand the answer safely; send this file without anchor compaction "
                           "(anchorCompaction: false)", code=ServiceCode.MALFORMED_ANCHORS)
    return answer


def strip_note(instruction: str | None) -> str | None:
    if instruction and PROTOCOL_NOTE in instruction:
        instruction = instruction.split(PROTOCOL_NOTE, 1)[0].strip() or None
    return instruction
