"""Text hygiene shared by every engine: decoding, size limits, line endings, BOM, diffs.

Engines work on '\\n'-only text without a BOM; `Document` remembers what the file had so the merged
text goes back out in the file's own conventions.
"""

from __future__ import annotations

import difflib
import re

import msgspec

from .errors import ErrorCode, InputError

BOM = "\ufeff"
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    max_file_bytes: int = 2_000_000
    max_update_bytes: int = 1_000_000
    # old -> new edits (str_replace lists, SEARCH/REPLACE blocks) applied to one file in one call:
    # each costs a pass over the file (~4 ms at 2 MB), so their number is what bounds the call.
    max_edits: int = 256


DEFAULT_LIMITS = Limits()


def ensure_text(data: str | bytes, what: str) -> str:
    """Decode bytes as UTF-8 and refuse binary content (NUL or many control characters)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"the {what} is not UTF-8 text (byte {exc.start}); send text files only",
                             code=ErrorCode.NOT_TEXT) from None
    if not isinstance(data, str):
        raise InputError(f"the {what} must be a string, got {type(data).__name__}",
                         code=ErrorCode.INVALID_ARGUMENT)
    if "\x00" in data:
        raise InputError(f"the {what} contains NUL bytes: it looks binary; send text files only",
                         code=ErrorCode.NOT_TEXT)
    sample = data[:8192]
    if sample and len(_CONTROL.findall(sample)) > max(8, len(sample) // 100):
        raise InputError(f"the {what} is mostly control characters: it looks binary",
                         code=ErrorCode.NOT_TEXT)
    return data


def check_size(text: str, limit: int, what: str) -> None:
    # len(str) <= bytes <= 4*len(str): skip the encode unless the cheap bound is inconclusive.
    if len(text) <= limit // 4:
        return
    size = len(text.encode("utf-8"))
    if size > limit:
        raise InputError(f"the {what} is {size} bytes, over the limit of {limit} bytes; "
                         "split the edit or raise the limit",
                         code=ErrorCode.INPUT_TOO_LARGE, details={"size": size, "limit": limit})


def read_inputs(original: str | bytes, edit: str | bytes, limits: Limits, what: str) -> tuple[str, str]:
    """The checks every one-file format starts with: both texts decoded and within their size limits."""
    original = ensure_text(original, "original file")
    edit = ensure_text(edit, what)
    check_size(original, limits.max_file_bytes, "original file")
    check_size(edit, limits.max_update_bytes, what)
    return original, edit


class Document(msgspec.Struct, kw_only=True):
    """Text normalised to '\\n' line endings, plus what is needed to restore the original form."""

    text: str
    newline: str = "\n"
    bom: bool = False

    @classmethod
    def parse(cls, raw: str) -> Document:
        bom = raw.startswith(BOM)
        if bom:
            raw = raw[1:]
        crlf = raw.count("\r\n")
        newline = "\r\n" if crlf and crlf >= raw.count("\n") - crlf else "\n"
        text = raw.replace("\r\n", "\n") if crlf else raw
        return cls(text=text, newline=newline, bom=bom)

    def restore(self, text: str) -> str:
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return BOM + text if self.bom else text


def normalize_newlines(text: str) -> str:
    text = text[1:] if text.startswith(BOM) else text
    return text.replace("\r\n", "\n").replace("\r", "\n")


_AFFIX_CHUNK = 256


def common_affixes(old: list[str], new: list[str]) -> tuple[int, int]:
    """How many leading and trailing lines two line lists share (the tail never overlaps the head)."""
    limit = min(len(old), len(new))
    head = 0
    # whole chunks first, compared in C (list slices), then halves of a chunk down to single lines
    # (the first difference lies within one chunk: each step takes the half before it when that
    # half is the same): same answer, far fewer interpreter steps on long files with a short edit
    while head + _AFFIX_CHUNK <= limit and old[head:head + _AFFIX_CHUNK] == new[head:head + _AFFIX_CHUNK]:
        head += _AFFIX_CHUNK
    step = _AFFIX_CHUNK // 2
    while step:
        if head + step <= limit and old[head:head + step] == new[head:head + step]:
            head += step
        step //= 2
    tail, n_old, n_new = 0, len(old), len(new)
    while tail + _AFFIX_CHUNK <= limit - head and \
            old[n_old - tail - _AFFIX_CHUNK:n_old - tail] == new[n_new - tail - _AFFIX_CHUNK:n_new - tail]:
        tail += _AFFIX_CHUNK
    step = _AFFIX_CHUNK // 2
    while step:
        if tail + step <= limit - head and \
                old[n_old - tail - step:n_old - tail] == new[n_new - tail - step:n_new - tail]:
            tail += step
        step //= 2
    return head, tail


def unified_diff(original: str, merged: str, filename: str | None = None) -> str:
    return unified_diff_counted(original, merged, filename)[0]


def unified_diff_counted(original: str, merged: str, filename: str | None = None) -> tuple[str, int, int]:
    """The unified diff, and the lines it adds and removes (counted as it is written, not read back)."""
    if original == merged:
        return "", 0, 0
    name = filename or "file"
    # Splitting both long texts into lines is the costliest step of a short edit's diff: the
    # common head and tail of the texts, less _CONTEXT lines each, are cut off first (found in C),
    # then the lines of the rest are read as below. The cuts lie right after a newline in both
    # texts, where splitlines() splits the whole text too: the rest's lines are the whole text's
    # from `cut` lines on, and as _CONTEXT common lines are left at each end, the head and tail
    # found below are the whole text's less those cut (the slices and hunks come out the same).
    start, cut, end_old, end_new = _trimmed(original, merged)
    old, new = original[start:end_old].splitlines(keepends=True), merged[start:end_new].splitlines(keepends=True)
    # difflib is slow on long files: give it only the changed middle plus the context lines; the
    # common head and tail cannot change its hunks, only their line numbers (shifted back below).
    head, tail = common_affixes(old, new)
    skip = max(0, head - _CONTEXT)
    keep_tail = max(0, tail - _CONTEXT)
    old, new = old[skip:len(old) - keep_tail], new[skip:len(new) - keep_tail]
    skip += cut
    if len(old) * len(new) <= _DIFFLIB_CELLS:
        lines = difflib.unified_diff(old, new, fromfile=f"a/{name}", tofile=f"b/{name}", n=_CONTEXT)
    else:  # difflib is quadratic or worse on long, repetitive middles: bounded patience diff
        from .linediff import unified

        lines = unified(old, new, f"a/{name}", f"b/{name}", n=_CONTEXT)
    out = list(lines)
    if skip:
        out = [_HUNK.sub(lambda m: f"{m.group(1)}{int(m.group(2)) + skip}", line) if line.startswith("@@ ")
               else line for line in out]
    out = [line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out]
    text = "".join(out)
    if not text:
        return "", 0, 0
    # Every line of `text` ends with a newline, so a line that starts with "+" or "-" is one right
    # after a newline; the first two are the `---` / `+++` header (only the second is after one).
    # Counted in C over the text (a long diff has a line per changed line).
    return text, text.count("\n+") - 1, text.count("\n-")


_CONTEXT = 3
_DIFFLIB_CELLS = 4_000_000
# the line breaks of str.splitlines() but "\n" (and "\r\n", which ends with it)
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _trimmed(original: str, merged: str) -> tuple[int, int, int, int]:
    """Where the lines a diff must read start (the same offset in both texts), how many lines lie
    before it, and where they end in each text: the common head and tail less _CONTEXT lines each,
    cut right after a newline. Nothing cut at the head where it holds a line break other than
    "\n" (its lines are counted as newlines). O(n) in C."""
    size_old, size_new = len(original), len(merged)
    head = _common_prefix(original, merged, 0, min(size_old, size_new))
    start = original.rfind("\n", 0, head) + 1  # (0: no whole line in common)
    for _ in range(_CONTEXT):
        if start == 0:
            break
        start = original.rfind("\n", 0, start - 1) + 1
    if start and any(original.find(other, 0, start) >= 0 for other in _OTHER_BREAKS):
        start = 0
    # the common tail, not overlapping the common head: after its first newline, _CONTEXT lines on
    tail = _common_suffix(original, merged, min(size_old, size_new) - head)
    end = original.find("\n", size_old - tail)
    for _ in range(_CONTEXT):
        if end < 0:
            break
        end = original.find("\n", end + 1)
    if end < 0:
        return start, original.count("\n", 0, start), size_old, size_new
    drop = size_old - (end + 1)
    return start, original.count("\n", 0, start), size_old - drop, size_new - drop


def _common_prefix(a: str, b: str, low: int, high: int) -> int:
    """The length of the common prefix of a and b, at least `low` and at most `high`: a search by
    halves over slice comparisons (in C), O(high - low)."""
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the common suffix of a and b, at most `limit`: as _common_prefix. O(limit)."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle:len(a) - low] == b[len(b) - middle:len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low
_HUNK = re.compile(r"([-+])(\d+)")


def diff_counts(diff: str) -> tuple[int, int]:
    added = removed = 0
    for line in diff.splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed
