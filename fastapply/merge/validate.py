"""Safety checks on a computed merge's text: no marker text left in it, no large unexplained loss, no
new syntax errors (also for a model's merges: check_generated). A merge that fails one is refused,
never returned; the checks that read the alignment too live in alignment_checks.py."""

from __future__ import annotations

from ..errors import ErrorCode, ValidationError
from ..languages import LanguageSpec
from .markers import marker_text_in
from .segments import normalize
from .splice import Spliced

# A single deletion between two anchors larger than this share of the file (and at least this
# many lines), with a snippet much shorter than what it replaces, looks like a misplaced anchor.
_LOSS_SHARE = 0.5
_LOSS_MIN_LINES = 40


def check_markers(original_norms: set[str], merged: list[str], from_snippet: set[int]) -> None:
    """No merged line that came from the snippet may still be a marker (unless the original had it)."""
    for index in sorted(from_snippet):
        line = merged[index]
        if marker_text_in(line) and normalize(line) not in original_norms:
            number = index + 1
            raise ValidationError(
                f"the merged file would still contain the marker {line.strip()!r} (line {number}); "
                "it could not be matched to unchanged code. Put the marker on its own line between "
                "two unchanged lines, or resend the full code of that block",
                code=ErrorCode.MARKER_LEFT, line=number)


def check_loss(original: list[str], spliced: Spliced, snippet_lines: int) -> None:
    total = -1  # the file's code lines, counted when a deletion is large enough to ask (most have none)
    for start, stop in spliced.deleted:
        lost = sum(1 for line in original[start:stop] if line.strip())
        if lost >= _LOSS_MIN_LINES and total < 0:
            total = sum(1 for line in original if line.strip())
        if lost >= _LOSS_MIN_LINES and lost > _LOSS_SHARE * total and snippet_lines < lost / 4:
            raise ValidationError(
                f"the merge would delete original lines {start + 1}-{stop} ({lost} lines, more than half "
                "of the file) although the snippet does not say so. If that code should stay, put a "
                "'... existing code ...' marker where it is; if it should go, send the lines around it",
                code=ErrorCode.CONTENT_LOST, line=start + 1)


def check_syntax(spec: LanguageSpec | None, original: str, merged: str,
                 split: tuple[list[str], list[str]] | None = None,
                 origin: list[tuple[int, int]] | None = None) -> None:
    """Refuse a merge that has more tree-sitter ERROR/MISSING nodes than the original. `split`:
    original.split("\n") and merged.split("\n"), where the caller has them (read, not changed);
    `origin`: the splice's merged row -> original line (-1 for none), where the caller has it: a
    merge that changed several places far apart is then checked one window per place.

    Most merges change a few lines of a long file, and parsing is the costliest step: first only the
    statements around the changed lines are parsed, in both versions (windows.py: top-level ones,
    and in Python the ones around a change inside a block). When both parse
    without an error, the merge did not break anything there, and the lines around are the original's
    own. Otherwise (an error, or a window that does not stand alone) both whole files are compared;
    from INCREMENTAL_MIN_BYTES on, the original is then parsed incrementally from the merged file's
    tree (only the changed span is read again), so a large file costs one whole parse, not two.
    """
    if spec is None or spec.grammar is None:
        return
    from .syntax import INCREMENTAL_MIN_BYTES, embedded_error_count, error_count, error_lines, parse, reparse, \
        tolerated_errors

    if not spec.embedded and _windows_clean(spec, original, merged, split, origin):
        return
    tree = parse(spec, merged)
    if tree is None:
        return
    inner_after = embedded_error_count(spec, tree)
    stray = tolerated_errors(spec, tree, merged)
    if not tree.root_node.has_error and not inner_after and not stray:
        return
    after = error_count(tree) + inner_after + len(stray)
    if len(original) >= INCREMENTAL_MIN_BYTES:  # one whole parse, not two, on a large file
        old_tree = reparse(spec, tree, merged.encode("utf-8"), original.encode("utf-8"))
    else:
        old_tree = parse(spec, original)
    before = error_count(old_tree) + embedded_error_count(spec, old_tree) + \
        len(tolerated_errors(spec, old_tree, original)) if old_tree is not None else 0
    if after > before:
        found = sorted(error_lines(tree) + stray)[:3]
        lines = ", ".join(str(n) for n in found) or "inside an embedded script or style"
        raise ValidationError(
            f"the merged {spec.name} would have syntax errors near line(s) {lines} that the original "
            "does not have, so the snippet was probably placed wrongly. Include one more unchanged line "
            "of context around the edited block, or send the complete function",
            code=ErrorCode.SYNTAX_REGRESSED,
            details={"errors_before": before, "errors_after": after, "merged_lines": found})


def _windows_clean(spec: LanguageSpec, original: str, merged: str, split: tuple[list[str], list[str]] | None,
                   origin: list[tuple[int, int]] | None) -> bool:
    """The windows of a merge (windows.py) all parse clean in both versions. One window over all
    changes first (changed_window), then one per changed place where the splice's origin is at
    hand; for Python the latter first, as it reads statements inside blocks and strings (a window
    from common affixes may start inside a docstring). False where no window pays or one is not
    clean: the whole files are compared then."""
    from .windows import changed_window, changed_windows

    per_place = None
    if origin is not None and split is not None:
        old_lines, new_lines = split
        if len(new_lines) == len(origin) + 1 and new_lines[-1] == "" == old_lines[-1]:
            old_lines, new_lines = old_lines[:-1], new_lines[:-1]  # (the final newline's empty rest)
        per_place = (old_lines, new_lines, origin)
    python = spec.name == "python"
    if python and per_place is not None:
        windows = changed_windows(*per_place, indented=True)
        if windows is not None:
            return all(_window_clean(spec, pair) for pair in windows)
    window = changed_window(original, merged, split)
    if window is not None:
        return _window_clean(spec, window)
    if per_place is None or python:
        return False
    windows = changed_windows(*per_place)
    return windows is not None and all(_window_clean(spec, pair) for pair in windows)


def _window_clean(spec: LanguageSpec, window: tuple[str, str]) -> bool:
    """Both versions of a window (original text, merged text) parse without an error: the merge
    broke nothing there, and the window stands alone. Two parses of the window's length."""
    from .syntax import INCREMENTAL_MIN_BYTES, parse, reparse, tolerated_errors

    merged_part = parse(spec, window[1])
    if merged_part is not None and (merged_part.root_node.has_error or tolerated_errors(spec, merged_part, window[1])):
        return False
    original_part = reparse(spec, merged_part, window[1].encode("utf-8"), window[0].encode("utf-8")) \
        if merged_part is not None and len(window[0]) >= INCREMENTAL_MIN_BYTES else parse(spec, window[0])
    return original_part is None or not original_part.root_node.has_error


def check_generated(language: str | None, original: str, merged: str) -> None:
    """The checks that apply to a merge written by a model: no marker text it did not resolve, and no
    new syntax errors. (Line provenance is unknown there, so every merged line is checked for markers.)"""
    from ..languages import find_language

    merged_lines = merged.split("\n")
    check_markers({normalize(line) for line in original.split("\n")}, merged_lines,
                  set(range(len(merged_lines))))
    check_syntax(find_language(language), original, merged)
