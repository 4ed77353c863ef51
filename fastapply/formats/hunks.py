"""Hunks (context, removed and added lines) and how to splice them into a file's lines.

Unified diffs, V4A patches and replacement edits all become hunks. Context lines are taken from the
file, not from the hunk, so a hunk whose context drifted (whitespace, indentation) keeps the file's
own text; added lines are shifted to the file's indentation when the match was found shifted.
"""

from __future__ import annotations

import difflib

import msgspec
from rapidfuzz import fuzz

from ..errors import ErrorCode, MergeError
from .matching import DEFAULT_FUZZY_THRESHOLD, HayIndex, Spans, _tier_candidates, common_shift, locate
from .regions import Match, Reindent, _indent, _width


class Hunk(msgspec.Struct, kw_only=True):
    lines: list[tuple[str, str]]  # (tag, text): tag ' ' context, '-' removed, '+' added
    old_start: int | None = None  # 1-based line the header points at, if any
    source_line: int | None = None  # line of the hunk header in the patch, for messages
    anchor: list[str] = msgspec.field(default_factory=list)  # V4A `@@ context` lines
    at_eof: bool = False
    no_newline_old: bool = False
    no_newline_new: bool = False

    def old(self) -> list[str]:
        return [t for tag, t in self.lines if tag != "+"]

    def new(self) -> list[str]:
        return [t for tag, t in self.lines if tag != "-"]


class Placed(msgspec.Struct, kw_only=True):
    """A hunk and where it went, for counts and warnings."""

    index: int
    start: int
    kind: str
    similarity: float


def split_lines(text: str) -> tuple[list[str], bool]:
    """Lines without '\\n', and whether the text ended with a newline."""
    if not text:
        return [], True
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
        return lines, True
    return lines, False


def join_lines(lines: list[str], final_newline: bool) -> str:
    if not lines:
        return ""
    return "\n".join(lines) + ("\n" if final_newline else "")


def hunk_from_pair(old: list[str], new: list[str]) -> Hunk:
    """An old -> new replacement as a hunk, so unchanged lines keep the file's own text."""
    out: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.extend((" ", x) for x in old[i1:i2])
        else:
            out.extend(("-", x) for x in old[i1:i2])
            out.extend(("+", x) for x in new[j1:j2])
    return Hunk(lines=out)


def _render(hay: list[str], hunk: Hunk, match: Match, what: str, reindent: bool = True) -> list[str]:
    out: list[str] = []
    j = match.start
    k = 0
    added = 0  # lines added since the last file line the hunk matched
    last_tag = "-"
    # A fuzzy match may shift lines unevenly: added lines follow the shift of the nearest matched line.
    local = _local_shifts(hay, hunk, match) if match.kind in ("fuzzy", "trimmed") and match.reindent else None
    for n, (tag, text) in enumerate(hunk.lines):
        if tag == "+":
            if not reindent:
                out.append(text)  # Policy(reindent=False): as written, as Codex and Cline do
            else:
                out.append(local[n].line(text) if local and local[n] else match.new_line(text))
            added += 1
            continue
        h = match.pairs[k]
        k += 1
        if h is None:
            continue
        if h > j and added and last_tag == " ":
            raise MergeError(f"{what}: the file has line(s) {j + 1}-{h} where the hunk adds lines after "
                             f"context, but the hunk does not show them; it is unclear whether the new lines "
                             "go before or after them", code=ErrorCode.AMBIGUOUS_MATCH,
                             details={"candidates": [j + 1, h + 1]})
        out.extend(hay[j:h])  # file lines the hunk did not mention stay where they are
        added, last_tag = 0, tag
        if tag == " ":
            out.append(hay[h])
        j = h + 1
    out.extend(hay[j:match.end])
    return out


def _local_shifts(hay: list[str], hunk: Hunk, match: Match) -> list[Reindent | None]:
    """For each hunk line, the indentation shift of the closest matched old line (before, else after)."""
    assert match.reindent is not None
    shifts: list[Reindent | None] = []
    k = 0
    current: Reindent | None = None
    for tag, text in hunk.lines:
        if tag != "+":
            h = match.pairs[k]
            k += 1
            if h is not None and text.strip() and hay[h].strip():
                a, b = _indent(text), _indent(hay[h])
                ts = match.reindent.tabsize
                current = Reindent(delta=_width(b, ts) - _width(a, ts), tabsize=ts,
                                   use_tabs=match.reindent.use_tabs, mapping={**match.reindent.mapping, a: b})
        shifts.append(current)
    first = next((x for x in shifts if x is not None), None)
    return [x or first for x in shifts]


def _anchor_line(hay: list[str], anchor: str, lo: int) -> int | None:
    want = " ".join(anchor.split())
    for j in range(lo, len(hay)):
        if " ".join(hay[j].split()) == want:
            return j
    for j in range(lo, len(hay)):  # `@@ class Foo` for `class Foo(Base):`
        if want and " ".join(hay[j].split()).startswith(want):
            return j
    return None


def apply_hunks(hay: list[str], final_newline: bool, hunks: list[Hunk], *, sequential: bool = False,
                fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD, label: str = "hunk",
                shift: int | None = None, diff_context: bool = False, ambiguity: str = "refuse",
                reindent: bool = True, after: int = 0) -> tuple[list[str], bool, list[Placed]]:
    """Place every hunk in the original lines, then splice. Raises MergeError naming the hunk.

    sequential (V4A): each hunk is searched after the previous one and after its `@@` anchors.
    Otherwise (unified diffs) each hunk is searched anywhere not already taken, guided by its header's
    line number corrected by the offset the previous hunk was found at (for the first hunk: the offset
    of the first hunk that occurs exactly once, since a stale diff shifts every hunk alike).
    diff_context: the hunks come from a diff or patch, which shows context after a change unless the
    change is at the end of the file (see `_check_open_end`).
    ambiguity, reindent: Policy fields (fastapply.formats.policy); `after`: where the previous edit
    ended, which ambiguity="first" prefers to start from.
    Cost: each hunk is one `locate` (see fastapply.formats.matching), so linear in the hunks.
    """
    placed: list[tuple[Match, int, int, Hunk]] = []  # (match, insert_at, index, hunk)
    taken = Spans()  # sorted: overlap tests stay O(log k) for k placed hunks
    skipped: list[int] = []
    index = HayIndex(hay)
    if shift is None and len(hunks) > 1:
        shift = common_shift(index, [hunk.old() for hunk in hunks])
    offset, support = (0, set()) if sequential else _first_unique_offset(index, hunks)
    cursor = 0
    for idx, hunk in enumerate(hunks):
        what = f"{label} {idx + 1}" + (f" (patch line {hunk.source_line})" if hunk.source_line else "")
        old = hunk.old()
        hint = None if hunk.old_start is None else max(0, hunk.old_start - 1 + offset)
        lo = 0
        if sequential:
            lo = cursor
            for anchor in hunk.anchor:
                at = _anchor_line(hay, anchor, lo)
                if at is None:
                    raise MergeError(f"{what}: its @@ context line {anchor.strip()!r} was not found "
                                     "after the previous change", code=ErrorCode.NO_MATCH,
                                     details={"anchor": anchor})
                lo = at + 1
            # After an anchor or a previous chunk the nearest place wins (if clearly nearest); the
            # first chunk without an anchor has nothing to be near.
            hint = lo if hunk.anchor or idx else None
            if hunk.at_eof:
                hint = max(lo, len(hay) - len(old))
        if not any(x.strip() for x in old):
            at = _insertion_point(hay, hunk, hint, sequential, what)
            match = Match(start=at, end=at + len(old), kind="exact", similarity=1.0,
                          pairs=list(range(at, at + len(old))))
            placed.append((match, at, idx, hunk))
            taken.append((match.start, match.end))
            if old or not sequential:
                cursor = match.end  # a V4A pure addition goes to the end without moving the search (Codex)
            continue
        if hint is not None and not sequential and offset != 0 and len(support) < 2 and ambiguity != "first":
            _refuse_unconfirmed_copies(index, old, taken, offset, hint, what)
        try:
            try:
                match = locate(hay, old, what=what, hint=hint, lo=lo, taken=taken, fuzzy=False, index=index,
                               shift=shift, ambiguity=ambiguity, after=max(cursor, after))
            except MergeError as exc:
                # Hunks of a diff come in file order: a hunk without a line number that matches
                # several places is looked for after the previous hunk.
                if exc.code != ErrorCode.AMBIGUOUS_MATCH or sequential or hunk.old_start is not None or not cursor:
                    raise
                try:
                    match = locate(hay, old, what=what, hint=cursor, lo=cursor, taken=taken, fuzzy=False,
                                   index=index, shift=shift)
                except MergeError:
                    raise exc from None
        except MergeError as exc:
            if exc.code != ErrorCode.NO_MATCH:
                exc.details.setdefault("hunk", idx + 1)
                raise
            # A hunk that only removes lines leaves just its context behind, which is in the file
            # anyway: that it is "already applied" is the last explanation, after a fuzzy match.
            deletes_only = not any(tag == "+" for tag, _ in hunk.lines)
            if not deletes_only and _already_applied(index, hunk, hint, lo, taken):
                skipped.append(idx)
                continue
            try:
                match = locate(hay, old, what=what, hint=hint, lo=lo, taken=taken, fuzzy_threshold=fuzzy_threshold,
                               index=index, ambiguity=ambiguity, after=max(cursor, after))
            except MergeError as exc2:
                if deletes_only and exc2.code == ErrorCode.NO_MATCH and _already_applied(index, hunk, hint, lo, taken):
                    skipped.append(idx)
                    continue
                exc2.details.setdefault("hunk", idx + 1)
                raise
            _check_removed(hay, hunk, match, what)
        if diff_context:
            _check_open_end(hay, hunk, match, what)
        if hunk.old_start is not None:
            found_at = match.start - (hunk.old_start - 1)
            support = support | {idx} if found_at == offset else {idx}
            offset = found_at
        taken.append((match.start, match.end))
        cursor = match.end
        placed.append((match, match.start, idx, hunk))

    placed.sort(key=lambda p: (p[1], p[2]))
    out: list[str] = []
    pos = 0
    reports: list[Placed] = []
    for match, at, idx, hunk in placed:
        if at < pos:
            raise MergeError(f"{label} {idx + 1} overlaps another {label}", code=ErrorCode.AMBIGUOUS_MATCH,
                             details={"hunk": idx + 1})
        out.extend(hay[pos:at])
        out.extend(_render(hay, hunk, match, f"{label} {idx + 1}", reindent))
        pos = end = match.end
        reports.append(Placed(index=idx, start=match.start, kind=match.kind, similarity=match.similarity))
        if end >= len(hay):
            if hunk.no_newline_new:
                final_newline = False
            elif hunk.no_newline_old or (hunk.lines and hunk.lines[-1][0] == "-"):
                # The file's unterminated last line is gone: the line now last had its newline.
                final_newline = True
    out.extend(hay[pos:])
    reports += [Placed(index=i, start=-1, kind="already_applied", similarity=1.0) for i in skipped]
    reports.sort(key=lambda r: r.index)
    return out, final_newline, reports


# A diff shows this many lines of context after a change (diff -u, git diff, V4A's convention).
DIFF_CONTEXT = 3


def _check_open_end(hay: list[str], hunk: Hunk, match: Match, what: str) -> None:
    """A diff hunk that ends with added lines right after context, showing no context after them,
    says "at the end of the file". When the file goes on for a few lines more (fewer than a diff's
    context), a context line was most likely lost, and the new lines may belong after those lines."""
    tags = [tag for tag, _ in hunk.lines]
    if not tags or tags[-1] != "+" or hunk.at_eof:
        return
    last_old = next((tag for tag in reversed(tags) if tag != "+"), None)
    rest = len(hay) - match.end
    if last_old == " " and 0 < rest <= DIFF_CONTEXT:
        raise MergeError(f"{what} ends with added lines and no context after them, as at the end of the "
                         f"file, but the file has {rest} more line(s) after its context; it is unclear "
                         "whether the new lines go before or after them; include the lines that follow",
                         code=ErrorCode.AMBIGUOUS_MATCH, details={"candidates": [match.end, len(hay)]})


def _refuse_unconfirmed_copies(index: HayIndex, old: list[str], taken: list[tuple[int, int]], offset: int,
                               hint: int, what: str) -> None:
    """A hunk whose lines occur more than once can only be told apart by its line number. Once the diff's
    numbers are known to be off, a correction judged from a single hunk chooses a copy only when it
    lands exactly on one; a copy that is merely nearest may belong to a stretch the file gained since."""
    if not any(line.strip() for line in old):
        return
    copies = _tier_candidates(index, old, "indent", 0, len(index.hay), taken)
    if len(copies) > 1 and all(c.start != hint for c in copies):
        lines = [c.start + 1 for c in copies]
        raise MergeError(
            f"{what}: its lines occur at lines {', '.join(map(str, lines))}, and the diff's line numbers are "
            f"off by {offset} (judged from one hunk only), so which copy is meant cannot be told. Regenerate "
            "the diff against the current file, or add context lines that occur once",
            code=ErrorCode.AMBIGUOUS_MATCH, details={"candidates": lines, "offset": offset})


def _first_unique_offset(index: HayIndex, hunks: list[Hunk]) -> tuple[int, set[int]]:
    """How far the file has moved from the diff's line numbers, judged by the first numbered hunk
    whose lines occur exactly once, indentation aside (0 when none does). Without it, a first hunk
    whose lines occur twice would follow its stale line number to the wrong copy. Indentation aside,
    so that a re-indented hunk that equals some other, nested code does not count as unique."""
    for idx, hunk in enumerate(hunks):
        old = hunk.old()
        if hunk.old_start is None or not any(line.strip() for line in old):
            continue
        found = _tier_candidates(index, old, "indent", 0, len(index.hay), (), enough=2)
        if len(found) == 1:
            return found[0].start - (hunk.old_start - 1), {idx}
    return 0, set()


def _check_removed(hay: list[str], hunk: Hunk, match: Match, what: str) -> None:
    """A fuzzy match may differ in context, but every line it removes must be there (nearly) as written."""
    old = [(tag, t) for tag, t in hunk.lines if tag != "+"]
    for (tag, text), j in zip(old, match.pairs):
        if tag != "-" or not text.strip():
            continue
        a, b = " ".join(text.split()), " ".join(hay[j].split()) if j is not None else ""
        if j is None or (a != b and fuzz.ratio(a, b) < 90):
            raise MergeError(f"{what}: the line it removes, {text.strip()!r}, is not in the file near lines "
                             f"{match.start + 1}-{match.end} (similarity {match.similarity:.2f}); "
                             "the file has changed there", code=ErrorCode.NO_MATCH,
                             details={"closest_start": match.start + 1, "closest_end": match.end})


def _already_applied(index: HayIndex, hunk: Hunk, hint: int | None, lo: int, taken: list[tuple[int, int]]) -> bool:
    """The hunk's result is already in the file (a patch applied twice): its new side matches, not fuzzily."""
    new = hunk.new()
    if new == hunk.old() or not any(x.strip() for x in new):
        return False
    try:
        # Only the strict tiers: ignoring blank lines or indentation, a deletion can look done.
        locate(index.hay, new, hint=hint, lo=lo, taken=taken, fuzzy=False, index=index,
               kinds=("exact", "whitespace"))
    except MergeError:
        return False
    return True


def _insertion_point(hay: list[str], hunk: Hunk, hint: int | None, sequential: bool, what: str) -> int:
    """A hunk with no old lines only adds lines: it goes where its header (or V4A cursor) says."""
    if not hay and not hunk.old():
        return 0
    if sequential and not hunk.old():
        # V4A: a chunk with no old lines is appended at the end of the file, before a last blank
        # line, as Codex's apply_patch does (its `@@` line, if any, must still be found).
        return len(hay) - 1 if hay and hay[-1] == "" else len(hay)
    if hunk.at_eof and not hunk.old():
        return len(hay)
    old = hunk.old()
    if hunk.old_start == 0:
        at = 0
    else:
        if hint is None:
            raise MergeError(f"{what} only adds lines and has no context or line number to place them by",
                             code=ErrorCode.MALFORMED_EDIT)
        if not old and not sequential and hunk.old_start is not None:
            # `@@ -N,0 +M,k @@` inserts after line N.
            hint += 1
        at = max(0, min(len(hay), hint))
    # blank context lines must be there (fuzzed: a diff of an empty file with a stray blank line)
    if old and (at + len(old) > len(hay) or any(x.strip() for x in hay[at:at + len(old)])):
        raise MergeError(f"{what} changes only blank lines, and there are no blank lines where it points",
                         code=ErrorCode.NO_MATCH)
    return at


class Outcome(msgspec.Struct, kw_only=True):
    """What applying one file's edits produced, before it becomes an ApplyResult."""

    text: str
    applied: int = 0
    fuzzed: int = 0
    warnings: list[str] = msgspec.field(default_factory=list)
    cursor: int = 0  # line where the last edit ended, for Policy(ambiguity="first")

    def note(self, placed: list[Placed], label: str) -> None:
        """Count placed hunks and say which ones needed tolerance, and which kind."""
        for p in placed:
            if p.kind == "already_applied":
                self.warnings.append(f"{label} {p.index + 1} is already applied (its new text is in the file); skipped")
                continue
            self.applied += 1
            if p.kind != "exact":
                self.fuzzed += 1
                how = "fuzzy match" if p.kind == "fuzzy" else f"{p.kind.replace('_', ' ')} tolerance"
                self.warnings.append(f"{label} {p.index + 1} applied at line {p.start + 1} with {how}"
                                     + (f" (similarity {p.similarity:.2f})" if p.kind == "fuzzy" else ""))
