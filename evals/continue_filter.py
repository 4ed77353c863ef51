"""Continue's apply request and how Continue turns the streamed answer into the file, in Python.

Continue (continuedev/continue) sends its default apply prompt (`defaultApplyPrompt` in
core/llm/templates/edit/gpt.ts: a user message with `ORIGINAL CODE:` and `SUGGESTED EDIT:` fenced
blocks, then an assistant message prefilled with a fence) and feeds the streamed answer through the line
filters of core/edit/streamDiffLines.ts (from core/autocomplete/filtering/streamTransforms/lineStream.ts):
filterEnglishLinesAtStart, filterCodeBlockLines, stopAtLines, skipLines, removeTrailingWhitespace and,
for models whose name has neither "gpt" nor "claude", filterEnglishLinesAtEnd. The diff it shows and
writes is between the file's lines and the filtered lines. This module reproduces the request body and
those filters (their behaviour, written anew here), so tests can check that our answer yields the file.
"""

from __future__ import annotations

import json
import re

APPLY_RULES = ("Apply the SUGGESTED EDIT to the ORIGINAL CODE. Output the complete modified code.\n"
               "- Output ONLY code. Do NOT explain, summarize, or describe changes.\n"
               "- Leave existing comments in place unless changes require modifying them.\n"
               "- Preserve all unchanged code exactly as-is.")


def apply_messages(original: str, new_code: str) -> list[dict[str, str]]:
    """The messages of Continue's default apply prompt for the file `original` and the chat's code block."""
    user = f"ORIGINAL CODE:\n```\n{original}\n```\n\nSUGGESTED EDIT:\n```\n{new_code}\n```\n\n{APPLY_RULES}"
    return [{"role": "user", "content": user}, {"role": "assistant", "content": "```\n"}]


def apply_request_body(original: str, new_code: str, model: str) -> bytes:
    """The JSON body Continue's OpenAI provider posts for an apply (streamed, with the file as its
    Predicted Outputs `prediction`), serialised compactly as JSON.stringify does."""
    body = {"model": model, "messages": apply_messages(original, new_code), "max_tokens": 4096,
            "stream": True, "prediction": {"type": "content", "content": original}}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def relace_request_body(original: str, snippet: str) -> bytes:
    """Continue's Relace adapter: `POST {apiBase}code/apply` with `{"initialCode", "editSnippet"}`."""
    return json.dumps({"initialCode": original, "editSnippet": snippet}, ensure_ascii=False,
                      separators=(",", ":")).encode()


_ENGLISH_START = ("here is", "here's", "sure, here", "sure thing", "sure!", "to fill", "certainly",
                  "of course", "the code should")
_ENGLISH_POST = ("explanation:", "here is", "here's how", "the above")
_REMOVE_BEFORE_START = ("<COMPLETION>", "[CODE]", "<START EDITING HERE>", "{{FILL_HERE}}")
_STOP_AT = ("# End of file.", "<STOP EDITING HERE")
_SKIP = ("</START EDITING HERE>",)


def _english_first_line(line: str) -> bool:
    line = line.strip().lower()
    if line.endswith(":") and not line.startswith("def"):
        return True
    return line.startswith(_ENGLISH_START)


def _english_at_start(lines: list[str]) -> list[str]:
    out, i, english = [], 0, False
    for line in lines:
        if i == 0 and not line.strip():
            continue
        if i == 0 and _english_first_line(line):
            english, i = True, i + 1
            continue
        if i == 1 and english and not line.strip():
            i += 1
            continue
        i += 1
        out.append(line)
    return out


def _code_block(lines: list[str]) -> list[str]:
    out: list[str] = []
    seen_fence, nest = False, 0
    for line in lines:
        if not seen_fence and (line.lstrip().startswith("```") or line.strip() in _REMOVE_BEFORE_START):
            continue
        if not seen_fence:
            seen_fence, nest = True, 1
        if line.lstrip() == "```" or line.strip() == "[/CODE]":
            nest -= 1
            if nest == 0:
                return out
            out.append(line)
        elif line.startswith("```"):
            nest += 1
            out.append(line)
        else:
            out.append(line)
    return out


def _stop_at_lines(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        if any(line.lstrip().startswith(stop) for stop in _STOP_AT):
            break
        out.append(line)
    return out


def _english_at_end(lines: list[str]) -> list[str]:
    out, finished = [], False
    for line in lines:
        finished = finished or line.strip() == "```"
        if finished and line.lower().startswith(_ENGLISH_POST):
            break
        out.append(line)
    return out


def filtered_lines(answer: str, model: str) -> list[str]:
    """The lines Continue keeps from a streamed apply answer."""
    lines = answer.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the stream's last line ends with the final newline
    lines = _code_block(_english_at_start(lines))
    lines = [line.rstrip() for line in _stop_at_lines(lines) if not line.startswith(_SKIP)]
    if "gpt" not in model and "claude" not in model:
        lines = _english_at_end(lines)
    return lines


def applied_file(answer: str, model: str) -> str:
    """The file Continue writes: the filtered lines, joined (its diff replaces every file line)."""
    return "\n".join(filtered_lines(answer, model))


def as_continue_writes(text: str) -> str:
    """A file as Continue's filters can reproduce it: CRLF read as lines, trailing whitespace stripped."""
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n"))


def _dedent_measuring_values(text: str) -> str:
    """A template `dedent` that measures indentation after interpolation, over every non-blank line
    (the code included): drop the first newline, trailing and leading blank lines, then the smallest
    indentation. (Which dedent Continue links could not be checked here, so both renderings are tested.)"""
    text = re.sub(r"\n\s*\Z", "", text.removeprefix("\n"), count=1)
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    cut = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[cut:] for line in lines)


def apply_messages_indented(original: str, new_code: str, indent: str = " " * 8) -> list[dict[str, str]]:
    """The same prompt rendered by `_dedent_measuring_values`: with code at column 0 nothing is removed,
    so the template keeps its source indentation (and the first code line gets it too)."""
    rules = "\n".join(indent + line for line in APPLY_RULES.split("\n"))
    template = (f"\n{indent}ORIGINAL CODE:\n{indent}```\n{indent}{original}\n{indent}```\n\n"
                f"{indent}SUGGESTED EDIT:\n{indent}```\n{indent}{new_code}\n{indent}```\n\n{rules}\n")
    return [{"role": "user", "content": _dedent_measuring_values(template)},
            {"role": "assistant", "content": "```\n"}]
