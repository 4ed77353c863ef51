"""Replacement lists (`str_replace`, old -> new edits): `fastapply.apply_replacements`.

Each edit is applied to the result of the previous one. An exact, unique occurrence of `old` is
replaced as is; otherwise the tolerant line matcher (fastapply.formats.matching) looks for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from time import perf_counter
from typing import Any

import msgspec

from ..errors import ErrorCode, InputError, MergeError
from ..result import ApplyResult, ApplyStats, make_result
from ..text import DEFAULT_LIMITS, Document, Limits, check_size, ensure_text, normalize_newlines
from .bounds import check_edit_count
from .hunks import Outcome, apply_hunks, hunk_from_pair, join_lines, split_lines
from .matching import DEFAULT_FUZZY_THRESHOLD, HayIndex, _choose, common_shift, shifted_elsewhere
from .policy import DEFAULT_POLICY, Policy, make_policy

_OLD_KEYS = ("old", "old_string", "old_str", "search")
_NEW_KEYS = ("new", "new_string", "new_str", "replace")


class Edit(msgspec.Struct, kw_only=True):
    old: str
    new: str
    replace_all: bool = False
    start_line: int | None = None  # 1-based line the old text is expected at (Roo's `:start_line:`)
    dialect: str = ""  # SEARCH/REPLACE dialect it was written in: aider | cline | roo ("" otherwise)


def _pick(item: Mapping[str, Any], keys: tuple[str, ...], index: int, what: str) -> str:
    for key in keys:
        if key in item:
            value = item[key]
            if value is None:
                value = ""
            if not isinstance(value, str):
                raise InputError(f"edit {index}: {key!r} must be a string, got {type(value).__name__}",
                                 code=ErrorCode.MALFORMED_EDIT, details={"edit": index})
            return value
    raise InputError(f"edit {index} has no {what} text (one of {', '.join(keys)})",
                     code=ErrorCode.MALFORMED_EDIT, details={"edit": index})


def normalize_edits(edits: Iterable[Any]) -> list[Edit]:
    """Accept (old, new) pairs, Edit structs or mappings with old/new under any of the usual names."""
    if isinstance(edits, (str, bytes)) or not isinstance(edits, Iterable):
        raise InputError("edits must be a list of (old, new) pairs or {'old': ..., 'new': ...} objects",
                         code=ErrorCode.MALFORMED_EDIT)
    out: list[Edit] = []
    for i, item in enumerate(edits, 1):
        if isinstance(item, Edit):
            out.append(item)
        elif isinstance(item, Mapping):
            replace_all = bool(item.get("replace_all", False))
            start_line = item.get("start_line")
            if start_line is not None and (not isinstance(start_line, int) or isinstance(start_line, bool)
                                           or start_line < 1):
                raise InputError(f"edit {i}: 'start_line' must be a line number (1 or more)",
                                 code=ErrorCode.MALFORMED_EDIT, details={"edit": i})
            out.append(Edit(old=_pick(item, _OLD_KEYS, i, "old"), new=_pick(item, _NEW_KEYS, i, "new"),
                            replace_all=replace_all, start_line=start_line))
        elif isinstance(item, (tuple, list)) and len(item) == 2 and all(isinstance(x, str) for x in item):
            out.append(Edit(old=item[0], new=item[1]))
        else:
            raise InputError(f"edit {i} must be an (old, new) pair or a mapping, got {type(item).__name__}",
                             code=ErrorCode.MALFORMED_EDIT, details={"edit": i})
    return [Edit(old=normalize_newlines(e.old), new=normalize_newlines(e.new), replace_all=e.replace_all,
                 start_line=e.start_line, dialect=e.dialect) for e in out]


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _indent_prefixed(text: str, old: str, new: str) -> bool:
    """Whole lines (`old` spans lines, or ends a line and `new` spans lines) written from column 0,
    but found after indentation in the file: they are a block to shift, not a substring."""
    lines = "\n" in old.rstrip("\n") or (old.endswith("\n") and "\n" in new.rstrip("\n"))
    if not lines or old[:1] in (" ", "\t"):
        return False
    at = text.find(old)
    line_start = text.rfind("\n", 0, at) + 1
    return at > line_start and not text[line_start:at].strip()


def _block_lines(old: str) -> list[str]:
    """The lines of `old` when it is a block of two or more lines; [] for a one-line edit, which is
    often a substring of a line (`x = 1` in `    x = 1  # note`), not a block at some indentation."""
    lines = _trim_blank_edges(split_lines(old)[0], [])[0]
    return lines if len(lines) >= 2 else []


def _edits_shift(text: str, edits: list[Edit]) -> int | None:
    """The indentation offset the edits' blocks share in the file (None: no single one, or one edit)."""
    if len(edits) < 2:
        return None
    blocks = [lines for lines in map(_block_lines, (e.old for e in edits)) if lines]
    return common_shift(HayIndex(split_lines(text)[0]), blocks) if blocks else None


def _shifted_rival(text: str, old: str, shift: int) -> bool:
    """`old` occurs once, as whole lines, and also sits elsewhere at indentation offset `shift`."""
    at = text.find(old)
    if at > 0 and text[at - 1] != "\n":
        return False
    needle = _block_lines(old)
    return bool(needle) and shifted_elsewhere(HayIndex(split_lines(text)[0]), needle, shift)


def _trim_blank_edges(old: list[str], new: list[str]) -> tuple[list[str], list[str]]:
    """Drop blank lines at the edges of `old` (and as many at the edges of `new`): they often drift."""
    while old and not old[0].strip():
        old = old[1:]
        if new and not new[0].strip():
            new = new[1:]
    while old and not old[-1].strip():
        old = old[:-1]
        if new and not new[-1].strip():
            new = new[:-1]
    return old, new


def replace_one(text: str, edit: Edit, index: int, outcome: Outcome, *,
                fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD, label: str = "edit",
                shift: int | None = None, policy: Policy = DEFAULT_POLICY) -> str:
    """Apply one edit to '\\n'-text; records counts and warnings in `outcome`. Raises MergeError.

    `shift`: the indentation offset the other edits were found at (matching.common_shift).
    Cost: the exact tier is a substring count, O(file); the line tiers are one `locate`.
    """
    what = f"{label} {index}"
    if edit.old == edit.new:
        outcome.warnings.append(f"{what} changes nothing (old and new are the same); skipped")
        return text
    if not edit.old.strip():
        if not text.strip():
            outcome.applied += 1
            return edit.new
        raise MergeError(f"{what}: the old text is empty, so there is nothing to find; quote the lines "
                         "to replace", code=ErrorCode.MALFORMED_EDIT, details={"edit": index})
    count = text.count(edit.old)
    if count == 1 and _indent_prefixed(text, edit.old, edit.new):
        count = 0  # a multi-line block found one indentation level in: shift it as a block below
    if count == 1 and shift and _shifted_rival(text, edit.old, shift):
        count = 0  # also there at the other edits' indentation offset: let the block matcher decide
    if count == 1 or (count > 1 and edit.replace_all):
        outcome.applied += 1
        at = text.find(edit.old)
        outcome.cursor = _line_of(text, at) - 1 + edit.new.count("\n")
        return text.replace(edit.old, edit.new)
    if count > 1:
        starts, lines, at, prev, line = [], [], text.find(edit.old), 0, 1
        while at >= 0 and len(starts) < 1000:  # one pass over the file, however many copies
            line += text.count("\n", prev, at)
            starts.append(at)
            lines.append(line)
            prev, at = at, text.find(edit.old, at + len(edit.old))
        hint = edit.start_line - 1 if edit.start_line else None
        # A line hint chooses first; then the policy (Aider, Cline and Codex take the first).
        chosen = _choose([(line - 1, at) for line, at in zip(lines, starts)], hint, policy.ambiguity,
                         outcome.cursor)
        if chosen is not None:
            at = int(chosen)  # type: ignore[call-overload]
            outcome.applied += 1
            outcome.warnings.append(f"{what}: the old text occurs {count} times (lines "
                                    f"{', '.join(map(str, lines[:10]))}); replaced the one at line "
                                    f"{_line_of(text, at)}" + (" (nearest :start_line:)" if hint is not None
                                                               else " (ambiguity=first)"))
            out = text[:at] + edit.new + text[at + len(edit.old):]
            outcome.cursor = _line_of(out, at + len(edit.new)) - 1
            return out
        raise MergeError(f"{what}: the old text occurs {count} times (lines {', '.join(map(str, lines[:10]))}); "
                         "add surrounding lines to make it unique, or set replace_all",
                         code=ErrorCode.AMBIGUOUS_MATCH, details={"edit": index, "candidates": lines})
    hay, final_newline = split_lines(text)
    old, new = _trim_blank_edges(split_lines(edit.old)[0], split_lines(edit.new)[0])
    hunk = hunk_from_pair(old, new)
    hunk.old_start = edit.start_line
    try:
        lines_out, final_newline, placed = apply_hunks(hay, final_newline, [hunk], fuzzy_threshold=fuzzy_threshold,
                                                       label=label, shift=shift, ambiguity=policy.ambiguity,
                                                       reindent=policy.reindent, after=outcome.cursor)
    except MergeError as exc:
        exc.message = exc.message.replace(f"{label} 1", what, 1)
        exc.details["edit"] = index
        exc.details.pop("hunk", None)
        raise
    for p in placed:
        p.index = index - 1
        if p.start >= 0:
            outcome.cursor = p.start + len(new)
    outcome.note(placed, label)
    return join_lines(lines_out, final_newline)


def replace_all_in(text: str, edits: list[Edit], *, fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
                   label: str = "edit", policy: Policy = DEFAULT_POLICY,
                   max_edits: int = DEFAULT_LIMITS.max_edits) -> Outcome:
    """Apply `edits` in order: O(len(edits) * file), with at most `max_edits` edits (too_many_edits)."""
    check_edit_count(len(edits), max_edits, label)
    outcome = Outcome(text=text)
    shift = _edits_shift(text, edits)
    delta = 0  # lines the edits so far added: a start_line counts in the original file (as Roo's)
    for i, edit in enumerate(edits, 1):
        if edit.start_line and delta:
            edit = msgspec.structs.replace(edit, start_line=max(1, edit.start_line + delta))
        before = text.count("\n")
        text = replace_one(text, edit, i, outcome, fuzzy_threshold=fuzzy_threshold, label=label, shift=shift,
                           policy=policy)
        delta += text.count("\n") - before
    outcome.text = text
    return outcome


def apply_replacements(original: str | bytes, edits: Iterable[Any], *, filename: str | None = None,
                       fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
                       limits: Limits = DEFAULT_LIMITS, ambiguity: str | None = None,
                       policy: Policy | None = None) -> ApplyResult:
    """Apply old -> new edits in order. Raises ApplyError no_match / ambiguous_match / malformed_edit,
    too_many_edits (more than `limits.max_edits`).

    `edits`: (old, new) pairs or mappings with old/new (aliases old_string/new_string, old_str/new_str,
    search/replace), an optional replace_all and an optional start_line (a hint among identical
    matches). Keeps the file's line endings, BOM and final newline. `ambiguity`: "refuse" (default)
    or "first" (fastapply.formats.policy.Policy, which `policy` gives whole).
    """
    policy = make_policy(policy, ambiguity=ambiguity)
    started = perf_counter()
    original = ensure_text(original, "original file")
    check_size(original, limits.max_file_bytes, "original file")
    items = normalize_edits(edits)
    if not items:
        raise InputError("no edits given", code=ErrorCode.EMPTY_UPDATE)
    for e in items:
        check_size(e.old + e.new, limits.max_update_bytes, "edit")
    doc = Document.parse(original)
    outcome = replace_all_in(doc.text, items, fuzzy_threshold=fuzzy_threshold, policy=policy,
                             max_edits=limits.max_edits)
    from ..languages import detect_language

    method = "replace_fuzzy" if outcome.fuzzed else "replace_exact"
    stats = ApplyStats(segments=len(items))
    return make_result(original, doc.restore(outcome.text), method=method,
                       language=detect_language(filename, doc.text, None), filename=filename,
                       started=started, stats=stats, warnings=outcome.warnings)
