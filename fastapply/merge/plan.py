"""The merge pipeline: classify, assume markers where the snippet has none, align, splice, validate."""

from __future__ import annotations

import re

from itertools import zip_longest

import msgspec

from ..deadline import check_deadline
from ..errors import ErrorCode, MergeError, ValidationError
from ..languages import LanguageSpec
from ..text import common_affixes
from .anchor import Aligner
from .ambiguity import ambiguous_block, ambiguous_context, ambiguous_tail, better_copy, copied_tail, \
    needless_deletion
from .insertions import needless_rewrite
from .ends import close_replaced_tails, extend_tails, pair_resumed_context, pair_unique_openers, uncross
from .copies import pair_nearest_copies
from .crossings import release_context
from .joined import pair_joined
from .fuzzy_pairs import extend_fuzzy, pair_rewritten_headers
from .branches import pair_inserted_branch
from .refine import covered, pair_closers, place_stragglers, prune_orphans
from .dangling import check_dangling_names, check_lost_imports
from .datakeys import check_duplicate_keys, check_record_edit
from .defmatch import DefIndex
from .deletions import deletions
from .edges import open_edges, settle_edges
from .indent import Style, detect_style
from .last_use import check_last_use_kept
from .misparented import unpair_crossed_body_runs, unpair_lone_body_lines, unpair_misparented
from .siblings import pair_copied_heads, pair_copied_siblings, pair_reopened_header
from .splits import pair_split_definitions
from .slides import slide_to_markers
from .moves import find_moves
from .order import file_order
from .copied_headers import check_copies
from .new_definitions import markers_in_new_definitions
from .provenance import check_provenance
from .refusals import fail_ambiguous_context, fail_better_copy, fail_copied_tail, fail_needless_deletion, \
    fail_needless_rewrite, fail_no_change, fail_tied_copy, fail_unanchored
from .renames import find_renames
from .header_twins import pair_dropped_twin_headers
from .resumed import later_header_copy, later_opener_copy, later_run_copy
from .lines import header_key, is_trivial
from .segments import (SnippetLine, classify, drop_closing_context, indent_of, normalize_all,
                       place_markers)
from .splice import Spliced, splice
from .empty_blocks import check_empty_blocks
from .ties import tied_copy
from .twins import check_redeclared
from .validate import check_loss, check_markers, check_syntax
from .whole import looks_whole, whole_text



class Plan(msgspec.Struct):
    text: str
    method: str
    markers_resolved: int
    segments: int
    warnings: list[str]


def plan_merge(original: str, update: str, spec: LanguageSpec | None) -> Plan:
    trailing_newline = original.endswith("\n") or not original
    orig = original[:-1].split("\n") if original.endswith("\n") else original.split("\n")
    if orig == [""]:
        orig = []
    onorm = normalize_all(orig)
    norms = set(onorm)  # (classify and check_markers ask it)
    items = classify(update, norms)
    code = [item for item in items if item.kind == "code"]
    explicit = sum(1 for item in items if item.kind == "marker")
    grammar_method = "segments" if spec is not None and spec.grammar else "fallback_lines"
    drop = deletions(items, orig, onorm, spec, original)
    if not code:
        if drop:
            kept = [line for index, line in enumerate(orig) if index not in drop]
            return _finish(original, kept, trailing_newline, "deletion", explicit, 1, spec)
        return Plan(original, "unchanged", explicit, 0, ["the snippet holds only markers; nothing changed"])
    if not any(onorm):
        if explicit:
            fail_unanchored(code[0], "the original file is empty")
        return _whole(original, update, items, spec)
    if explicit == 0 and looks_whole(items, onorm):
        return _whole(original, update, items, spec)

    classified = items
    items = drop_closing_context(place_markers(_without_notes(items)))
    if explicit == 0:
        items = _assume_markers(items)
    aligner = Aligner(items, orig, onorm)
    defs = DefIndex(spec, aligner)  # definitions, parsed only when a stage below needs them
    find_renames(aligner, defs, original)
    suspects: list[tuple[SnippetLine, SnippetLine]] = []
    if explicit:
        drop |= find_moves(aligner, defs)
        aligner.set_moved(drop)
        suspects = markers_in_new_definitions(aligner)  # before reordering drops markers after segments
        reordered = file_order(aligner, defs)
        if reordered is not items:
            items = reordered
            aligner.rebase(items, {})
    match = defs.computed()
    if match is not None and aligner.items is defs.items:  # (reordered items number other lines)
        aligner.def_range = match.ranges()
    pairs = _pair_up(aligner)
    method = grammar_method
    if explicit == 0:
        if not pairs:
            if len(code) >= 0.5 * sum(1 for n in onorm if n):
                return _whole(original, update, classified, spec)
            repeated = next((i for i in code if not is_trivial(i.norm) and len(aligner.opos.get(i.norm, ())) > 1),
                            None)
            if repeated is not None:
                raise MergeError(
                    f"snippet line {repeated.number} ({repeated.text.strip()!r}) occurs "
                    f"{len(aligner.opos[repeated.norm])} times in the original and nothing in the snippet "
                    "tells which one is meant. Add the enclosing class or function line, or a "
                    "'... existing code ...' marker with one unchanged line around the edit",
                    code=ErrorCode.AMBIGUOUS_ANCHOR, line=repeated.number)
            fail_unanchored(code[0], "none of its lines occur in the original")
        items, whole = settle_edges(items, pairs, orig, onorm)
        if whole:
            return _whole(original, update, classified, spec)
        aligner = Aligner(items, orig, onorm)
        pairs = _pair_up(aligner)
        method = "node_replace" if method == "segments" else method
    elif pairs:
        items, pairs = open_edges(items, pairs, orig, onorm)
    aligner.rebase(items, pairs)
    _check_placeable(items, pairs, aligner, code[0])
    drop |= covered(aligner)
    file_style = _local_style(orig, pairs, detect_style(orig))
    check_deadline()
    if _same_indentation(items, orig, pairs):
        file_style = _snippet_style(items, file_style)  # mixed files: the snippet knows the local style
    spliced = splice(items, orig, pairs, file_style=file_style,
                     snip_style=_snippet_style(items, file_style), drop=drop, in_string=aligner.o_in_string,
                     onorm=onorm)
    check_markers(norms, spliced.lines, spliced.snippet_rows)
    check_provenance(aligner, spliced, drop, suspects)
    check_copies(spliced, defs)
    language = spec.name if spec is not None else None
    check_duplicate_keys(language, aligner, spliced)
    check_redeclared(aligner, spliced, language)
    check_dangling_names(aligner, spliced)
    check_lost_imports(aligner, spliced)
    check_record_edit(language, aligner)
    check_empty_blocks(spec, spliced, items, orig)
    if explicit and _same_code(spliced.lines, orig) and ambiguous_context(aligner) is not None:
        fail_no_change(code)
    if explicit and (line := ambiguous_block(aligner)) is not None:
        fail_ambiguous_context(items[line])
    if explicit and (line := needless_deletion(aligner)) is not None:
        fail_needless_deletion(items[line])
    if explicit and aligner.sibling_doubt is not None:
        fail_needless_rewrite(aligner.sibling_doubt)
    if explicit and (line := needless_rewrite(aligner)) is not None:
        fail_needless_rewrite(items[line])
    if explicit and (line := ambiguous_tail(aligner)) is not None:
        fail_ambiguous_context(items[line], below=True)
    if explicit and (line := better_copy(aligner)) is not None:
        fail_better_copy(items[line])
    if explicit and (line := copied_tail(aligner)) is not None:
        fail_copied_tail(items[line])
    if explicit and (line := tied_copy(aligner)) is not None:
        fail_tied_copy(items[line])
    try:
        check_loss(orig, spliced, len(code))
    except ValidationError as error:
        # name the snippet line right before the loss (its anchor), through the provenance
        before = next((s for s, o in spliced.origin if o == (error.line or 0) - 2 and s >= 0), None)
        if before is None:
            raise
        item = items[before]
        raise ValidationError(f"after snippet line {item.number} ({item.text.strip()!r}): {error.message}",
                              code=error.code, line=item.number, details=error.details) from None
    check_deadline()
    segments = len(aligner.segments)
    try:
        plan = _finish(original, spliced.lines, trailing_newline, method, spliced.markers_resolved, segments,
                       spec, orig, spliced.origin)
    except ValidationError as error:
        raise _with_snippet_line(error, items, spliced) from None
    check_last_use_kept(aligner, spliced)  # (after the syntax check: a broken merge says so first)
    edited = sorted(items[s].number for s in aligner.fuzzy if s in pairs and items[s].norm != onorm[pairs[s]])
    if edited:
        plan.warnings.append("snippet line(s) " + ", ".join(map(str, edited[:10])) + " replaced original "
                             "lines they resemble (an edited signature or condition); check the diff")
    if explicit and any(item.kind == "implicit" for item in items):
        plan.warnings.append("the snippet does not start or end with a marker; the original code before "
                             "or after it was kept as if it did")
    return plan


def _pair_up(aligner: Aligner) -> dict[int, int]:
    aligner.align()
    pair_copied_siblings(aligner)
    pair_copied_heads(aligner)
    pair_reopened_header(aligner)
    pair_split_definitions(aligner)
    release_context(aligner)
    pair_joined(aligner)
    for stage in (pair_closers, prune_orphans, pair_dropped_twin_headers, uncross, place_stragglers, unpair_misparented, unpair_crossed_body_runs,
                  unpair_lone_body_lines, extend_fuzzy, pair_inserted_branch, pair_rewritten_headers,
                  later_header_copy, later_opener_copy, later_run_copy, pair_nearest_copies, pair_resumed_context,
                  extend_tails, close_replaced_tails, pair_unique_openers, slide_to_markers, prune_orphans):
        check_deadline()  # thread mode cannot kill a merge: it stops between stages instead
        stage(aligner)
    return aligner.pairs


def _finish(original: str, lines: list[str], trailing_newline: bool, method: str, markers: int,
            segments: int, spec: LanguageSpec | None, orig: list[str] | None = None,
            origin: list[tuple[int, int]] | None = None) -> Plan:
    """`orig`: the original's lines as plan_merge splits them, where the caller has them;
    `origin`: the splice's merged row -> original line (validate.check_syntax)."""
    text = "\n".join(lines) + ("\n" if trailing_newline and lines else "")
    split = None
    if orig:  # (an empty list may stand for "" or "\n")
        # both texts' split("\n") for the syntax check, from the lists at hand rather than split
        # again (two passes over a long file): the merged text's is `lines` when no line holds a
        # newline, which the count of newlines in the text tells (in C)
        merged = lines + [""] if trailing_newline and lines else lines or [""]
        if text.count("\n") == len(merged) - 1:
            split = (orig + [""] if original.endswith("\n") else orig), merged
    check_syntax(spec, original, text, split, origin)
    return Plan(text, method, markers, segments, [])


def _whole(original: str, update: str, items: list[SnippetLine], spec: LanguageSpec | None) -> Plan:
    text = whole_text(update, items)
    try:
        check_syntax(spec, original, text)
    except ValidationError as error:
        rows = error.details.get("merged_lines") or []
        if text != update or not rows:
            raise
        line = update.split("\n")[rows[0] - 1].strip()
        raise ValidationError(f"snippet line {rows[0]} ({line!r}), read as the whole new file: {error.message}",
                              code=error.code, line=rows[0], details=error.details) from None
    return Plan(text, "whole_file", 0, 1, [])


def _assume_markers(items: list[SnippetLine]) -> list[SnippetLine]:
    """A snippet without markers is one or more definitions: assume markers around and between them."""
    implicit = SnippetLine("", "implicit")
    widths = [len(i.text) - len(i.text.lstrip()) for i in items if i.kind == "code"]
    base = min(widths)
    starts: set[int] = set()
    for index, item in enumerate(items):
        if item.kind == "code" and len(item.text) - len(item.text.lstrip()) == base \
                and header_key(item.norm) is not None and not _FORWARD_DECLARATION.match(item.norm):
            first = index
            while first > 0 and items[first - 1].kind == "code" and _is_preamble(items[first - 1], base):
                first -= 1
            starts.add(first)
    first_code = next(i for i, item in enumerate(items) if item.kind == "code")
    result = [implicit]
    for index, item in enumerate(items):
        if index in starts and index > first_code:
            # the boundary goes before the blank lines that separate the definitions
            blanks = []
            while result and result[-1].kind == "blank":
                blanks.append(result.pop())
            result.extend([*blanks, implicit])
        result.append(item)
    result.append(implicit)
    return result


# `class Value;`: names a type defined elsewhere; a list of them is one block, edited as such
_FORWARD_DECLARATION = re.compile(r"^(?:class|struct|enum|union)\s+[\w:]+\s*;$")


def _is_preamble(item: SnippetLine, base: int) -> bool:
    width = len(item.text) - len(item.text.lstrip())
    return width == base and item.norm.startswith(("@", "#[", "//", "#", "/*", "*", "///", "--", "<!--"))


def _same_indentation(items: list[SnippetLine], orig: list[str], pairs: dict[int, int]) -> bool:
    """True when the snippet's paired lines carry exactly the original's leading whitespace (at
    least 90% of them, and more than two; or every indented one, when few are paired, as in a
    snippet of moved code): its indentation is the file's own where it speaks."""
    # (segments.indent_of on both sides, inlined: once per pair of a long snippet; a line the
    # snippet repeats byte for byte, most of them, has the same indentation without measuring it)
    same = sum(1 for s, o in pairs.items()
               if (a := items[s].text) == (b := orig[o])
               or a[:len(a) - len(a.lstrip())] == b[:len(b) - len(b.lstrip())])
    if same > 2 and same >= 0.9 * len(pairs):
        return True
    indented = [(s, o) for s, o in pairs.items() if indent_of(orig[o])]
    return bool(indented) and all(indent_of(items[s].text) == indent_of(orig[o]) for s, o in indented)


def _local_style(orig: list[str], pairs: dict[int, int], file_style: Style) -> Style:
    """The style of the original where the snippet pairs (its first to its last paired line) when
    that part clearly uses the other of tabs/spaces: a Go file that opens with a long script in a
    raw string indented by spaces is still indented by tabs around its functions. O(that part,
    capped by detect_style)."""
    if not pairs:
        return file_style
    part = orig[min(pairs.values()):max(pairs.values()) + 1]
    indented = sum(1 for line in part if line[:1] in (" ", "\t") and line.strip())
    local = detect_style(part)
    return local if indented >= 2 and local.tabs != file_style.tabs else file_style


def _snippet_style(items: list[SnippetLine], file_style: Style) -> Style:
    """The snippet's indentation style; the file's unless it clearly uses the other of tabs/spaces."""
    snip_style = detect_style([i.text for i in items if i.kind == "code"])
    return snip_style if snip_style.tabs != file_style.tabs else file_style


def _check_placeable(items: list[SnippetLine], pairs: dict[int, int], aligner: Aligner,
                     first_code: SnippetLine) -> None:
    """Refuse snippets whose segments cannot be placed without guessing."""
    segments = aligner.segments
    anchored = [any(s in pairs for s in seg) for seg in segments]
    for index, seg in enumerate(segments):
        if not seg or anchored[index]:
            continue
        known = [s for s in seg if not is_trivial(items[s].norm) and aligner.opos.get(items[s].norm)
                 and not aligner.in_new_definition(s)]
        solid = [s for s in seg if not is_trivial(items[s].norm)]
        if known and len(known) * 2 >= len(solid):
            line = items[known[0]]
            where = aligner.opos[line.norm]
            if len(where) == 1:
                raise MergeError(
                    f"snippet line {line.number} ({line.text.strip()!r}) occurs once in the original (line "
                    f"{where[0] + 1}), but there it would break the order of the snippet's other parts, and "
                    "its part has too few lines of its own to be moved there. Show its parts in file order, "
                    "with a '... existing code ...' marker between them, or more unchanged lines around it",
                    code=ErrorCode.AMBIGUOUS_ANCHOR, line=line.number)
            raise MergeError(
                f"snippet line {line.number} ({line.text.strip()!r}) occurs {len(where)} times in the original "
                "and nothing around it tells which one is meant. Add one more unchanged line of context "
                "above it (for example the enclosing function's signature)",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=line.number)
    if not any(anchored):
        movable = [i for i, seg in enumerate(segments) if seg]
        # A lone block before or after a single marker: new code at the top or the end of the file.
        if len(segments) == 2 and len(movable) == 1:
            return
        first = next((items[s] for seg in segments for s in seg), None)
        if first is None:  # (its only code lines were closing context, read as such and set aside)
            raise MergeError(
                f"snippet line {first_code.number} ({first_code.text.strip()!r}) is a closing line, and the "
                "snippet holds nothing else but markers: that says nothing about where an edit goes. "
                "Include the edited lines with at least one unchanged line around them",
                code=ErrorCode.ANCHOR_NOT_FOUND, line=first_code.number)
        fail_unanchored(first, "none of its lines could be matched to the original")
    for index, seg in enumerate(segments):
        if not seg or anchored[index]:
            continue
        between = 0 < index < len(segments) - 1
        if between and not any(anchored[index + 1:]) and any(anchored[:index]):
            first = items[seg[0]]
            raise MergeError(
                f"snippet line {first.number} ({first.text.strip()!r}) starts new code between two "
                "markers with no unchanged line after it, so its place is ambiguous. Add the unchanged "
                "line that follows it in the file",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=first.number)


def _same_code(merged: list[str], orig: list[str]) -> bool:
    """True when the merge changed nothing but blank lines (read up to the first difference)."""
    # (the lines both start with, the same list for list, compared in C a chunk at a time first:
    # most of a long merge; what follows is read line by line)
    head, _ = common_affixes(merged, orig)
    missing = object()
    return all(a == b for a, b in zip_longest(filter(str.strip, merged[head:]), filter(str.strip, orig[head:]),
                                              fillvalue=missing))


def _without_notes(items: list[SnippetLine]) -> list[SnippetLine]:
    """Deletion notes do not reach the output, and neither do the extra blank lines around them."""
    kept: list[SnippetLine] = []
    skip_blank = False
    for item in items:
        if item.kind == "delete":
            skip_blank = bool(kept) and kept[-1].kind == "blank"
            continue
        if skip_blank and item.kind == "blank":
            skip_blank = False
            continue
        skip_blank = False
        kept.append(item)
    return kept


def _with_snippet_line(error: ValidationError, items: list[SnippetLine], spliced: Spliced) -> ValidationError:
    """A syntax refusal names merged lines; through the splice's provenance it also names the
    snippet line that put code there (the nearest one at or above the first error)."""
    rows = error.details.get("merged_lines") or []
    if error.code != ErrorCode.SYNTAX_REGRESSED or not rows:
        return error
    start = min(rows[0] - 1, len(spliced.origin) - 1)
    row = next((r for r in range(start, -1, -1) if spliced.origin[r][0] >= 0),
               next((r for r in range(start, len(spliced.origin)) if spliced.origin[r][0] >= 0), -1))
    if row < 0:
        return error
    item = items[spliced.origin[row][0]]
    return ValidationError(
        f"snippet line {item.number} ({item.text.strip()!r}) leads to a syntax error near merged line "
        f"{rows[0]} that the original does not have: {error.message}",
        code=error.code, line=item.number, details=error.details)
