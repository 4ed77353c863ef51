"""The tolerant block matcher every edit format shares: find where a block of lines sits in a file.

Tiers, tried in order; the first tier that finds anything decides (a worse tier never overrides it):
1. exact lines;
2. trailing whitespace ignored;
3. indentation and inner whitespace ignored, provided the indentation is shifted *uniformly*
   (tabs vs spaces counted by width) - the replacement text is then shifted the same way;
4. as 3, but blank lines ignored (a blank line too many or too few, inside or at the edges);
5. trimmed: every line equal once its leading and trailing whitespace is trimmed, however unevenly the
   indentation differs (Cline's and Codex's last exact tier) - new lines follow the nearest line's shift;
6. fuzzy: a line-by-line alignment scored with rapidfuzz, accepted above a threshold (fuzzy.py).

Never guess: when two places match equally well the caller gets `ambiguous_match` with the candidate
lines, unless a line-number hint clearly points at one of them (twice as close as the next one).
Without a line hint, the edit's other blocks vote: when they all sit at one indentation offset from
the file, a block that matches both exactly and at that offset goes where the offset says.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence

from ..deadline import check_deadline
from ..errors import ErrorCode, MergeError
from .bounds import MAX_POSITIONS, UNCHECKED, Spans, nearest_positions
from .fuzzy import align, fuzzy_starts
from .regions import Match, _squash, indent_plan

DEFAULT_FUZZY_THRESHOLD = 0.85
# Fuzzy alignments compare every needle line with a window this many lines wider than the needle.
_SLACK = 3
# Line comparisons one file's fuzzy searches may make in all (~1 s of Python).
FUZZY_BUDGET = 3_000_000
# Two fuzzy places closer in similarity than this are too close to call.
_RIVAL_MARGIN = 0.06

Span = tuple[int, int]


def _overlaps(span: Span, taken: Sequence[Span]) -> bool:
    if isinstance(taken, Spans):  # sorted: O(log k)
        return taken.overlaps(span)
    s, e = span
    return any(s < te and ts < e or (s == e and ts <= s < te) for ts, te in taken)


class HayIndex:
    """The file's lines normalised per tier, with where each line occurs; built once per file."""

    def __init__(self, hay: Sequence[str]) -> None:
        self.hay = hay
        # Fuzzy work left for this file (line comparisons), shared by all its needles: many
        # needles that each need a fuzzy search cannot add up to an unbounded call.
        self.fuzzy_left = FUZZY_BUDGET
        self._norm: dict[str, tuple[list[str], dict[str, list[int]]]] = {}
        self._nonblank: list[int] | None = None

    def norm(self, kind: str) -> tuple[list[str], dict[str, list[int]]]:
        if kind not in self._norm:
            if kind == "nonblank":
                lines = [_squash(self.hay[j]) for j in self.nonblank()]
            else:
                fn = _NORMS[kind]
                lines = [fn(x) for x in self.hay]
            where: dict[str, list[int]] = defaultdict(list)
            for i, line in enumerate(lines):
                where[line].append(i)
            self._norm[kind] = (lines, where)
        return self._norm[kind]

    def nonblank(self) -> list[int]:
        if self._nonblank is None:
            self._nonblank = [j for j, x in enumerate(self.hay) if x.strip()]
        return self._nonblank


def _line_tier(index: HayIndex, needle: Sequence[str], kind: str, lo: int, hi: int,
               hint: int | None = None) -> tuple[list[int], int | None]:
    """Starts where every needle line equals the file line under `kind`, anchored on the rarest line,
    and the nearest start not examined (see bounds.nearest_positions). O(n + MAX_POSITIONS * n) for n needle lines."""
    n = len(needle)
    nh, where = index.norm(kind)
    fn = _NORMS[kind]
    nn = [fn(x) for x in needle]
    anchor = min(range(n), key=lambda k: len(where.get(nn[k], ())))
    shifted_hint = None if hint is None else hint + anchor
    positions, edge = nearest_positions(where.get(nn[anchor], []), lo + anchor, hi - n + anchor + 1, shifted_hint)
    starts = []
    for pos in positions:
        s = pos - anchor
        if nh[s:s + n] == nn:
            starts.append(s)
    return starts, None if edge is None else edge - anchor


def _blank_tier(index: HayIndex, needle: Sequence[str], lo: int, hi: int,
                hint: int | None = None) -> tuple[list[tuple[int, int, list[int | None]]], int | None]:
    """Tier 4: compare non-blank lines only. Returns (start, end, pairs) per candidate, and the
    nearest start (a file line) not examined, as _line_tier."""
    nidx = [k for k in range(len(needle)) if needle[k].strip()]
    if not nidx:
        return [], None
    hidx = index.nonblank()
    nh, where = index.norm("nonblank")
    nn = [_squash(needle[k]) for k in nidx]
    m = len(nn)
    anchor = min(range(m), key=lambda k: len(where.get(nn[k], ())))
    # positions count non-blank lines: translate the range and the hint into that numbering
    lo_nb, hi_nb = bisect_left(hidx, lo), bisect_left(hidx, hi)
    hint_nb = None if hint is None else bisect_left(hidx, hint) + anchor
    positions, edge = nearest_positions(where.get(nn[anchor], []), lo_nb + anchor, hi_nb - m + anchor + 1, hint_nb)
    out = []
    for pos in positions:
        s = pos - anchor
        if s < 0 or s + m > len(nh) or hidx[s] < lo or hidx[s + m - 1] >= hi or nh[s:s + m] != nn:
            continue
        pairs: list[int | None] = [None] * len(needle)
        for off, k in enumerate(nidx):
            pairs[k] = hidx[s + off]
        out.append((hidx[s], hidx[s + m - 1] + 1, pairs))
    return out, None if edge is None or edge - anchor < 0 else hidx[edge - anchor]


def _choose(cands: list[tuple[int, object]], hint: int | None, ambiguity: str = "refuse",
            after: int = 0) -> object | None:
    """One candidate, or the one a hint points at clearly (twice as close as the next). Else None,
    unless ambiguity is "first": then the nearest to the hint, or without one the first at or after
    line `after` (where the previous edit ended), else the first."""
    if len(cands) == 1:
        return cands[0][1]
    if hint is not None:
        ranked = sorted(cands, key=lambda c: (abs(c[0] - hint), c[0]))
        d1, d2 = abs(ranked[0][0] - hint), abs(ranked[1][0] - hint)
        return ranked[0][1] if 2 * d1 < d2 or ambiguity == "first" else None
    if ambiguity == "first":
        ordered = sorted(cands, key=lambda c: c[0])
        return next((c[1] for c in ordered if c[0] >= after), ordered[0][1])
    return None


def _ambiguous(what: str, starts: Sequence[int], kind: str) -> MergeError:
    lines = sorted(s + 1 for s in starts)
    shown = ", ".join(str(x) for x in lines[:10]) + (" ..." if len(lines) > 10 else "")
    return MergeError(f"{what} matches {len(lines)} places equally well ({kind}) at lines {shown}; "
                      "add surrounding lines to make it unique",
                      code=ErrorCode.AMBIGUOUS_MATCH, details={"candidates": lines, "tier": kind})


_TIERS = ("exact", "whitespace", "indent", "blank_lines", "trimmed")
_NORMS = {"exact": lambda x: x, "whitespace": str.rstrip, "indent": _squash}


def _tier_candidates(index: HayIndex, needle: Sequence[str], kind: str, lo: int, hi: int,
                     taken: Sequence[Span], hint: int | None = None, enough: int | None = None) -> list[Match]:
    """Every place the needle matches under one non-fuzzy tier (with a uniform indentation shift,
    except in the trimmed tier).

    When its rarest line has more than MAX_POSITIONS copies, only the copies nearest the hint are
    compared and a placeholder Match of kind `unchecked` stands for the nearest one left out (see
    `unchecked`): callers that need one place then see two and refuse. `enough`: stop after that
    many places (with the placeholder after them). O(MAX_POSITIONS * n) for n needle lines."""
    hay = index.hay
    if kind == "blank_lines":
        found, edge = _blank_tier(index, needle, lo, hi, hint)
    else:
        n = len(needle)
        norm = "indent" if kind == "trimmed" else kind
        starts, edge = _line_tier(index, needle, norm, lo, hi, hint)
        found = [(s, s + n, [s + k for k in range(n)]) for s in starts]
    out = []
    for s, e, pairs in found:
        if enough is not None and len(out) >= enough:  # the caller only asks "one place or more?"
            edge = s if edge is None else edge  # more places than those returned
            break
        if _overlaps((s, e), taken):
            continue
        if kind in ("exact", "whitespace"):  # the same indentation, line for line: nothing to shift
            out.append(Match(start=s, end=e, kind=kind, similarity=1.0, pairs=pairs))
            continue
        good, plan = indent_plan(needle, hay, pairs, strict=kind != "trimmed")
        if good:
            out.append(Match(start=s, end=e, kind=kind, similarity=1.0, pairs=pairs, reindent=plan))
    if edge is not None:
        out.append(Match(start=edge, end=edge, kind=UNCHECKED, similarity=0.0, pairs=[]))
    return out


def locate(hay: Sequence[str], needle: Sequence[str], *, what: str = "the edit", hint: int | None = None,
           lo: int = 0, hi: int | None = None, taken: Sequence[Span] = (),
           fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD, fuzzy: bool = True,
           index: HayIndex | None = None, kinds: Sequence[str] = _TIERS, shift: int | None = None,
           ambiguity: str = "refuse", after: int = 0) -> Match:
    """Find `needle` (lines without '\\n') in `hay` within [lo, hi), avoiding `taken` spans.

    Raises MergeError no_match / ambiguous_match. `hint` is a 0-based line where the block is expected.
    `shift`: the indentation offset (file minus edit, in columns) the edit's other blocks were found at
    (see `common_shift`); with no line hint it decides between an exact match and a re-indented one.
    `ambiguity`, `after`: see `_choose` (Policy.ambiguity).
    """
    hi = len(hay) if hi is None else hi
    if not any(line.strip() for line in needle):
        raise MergeError(f"{what} has no non-blank lines to look for", code=ErrorCode.MALFORMED_EDIT)
    index = index if index is not None and index.hay is hay else HayIndex(hay)
    tiers = [_tier_candidates(index, needle, kind, lo, hi, taken, hint) for kind in kinds]
    for kind, cands in zip(kinds, tiers):
        if not cands:
            continue
        chosen = _choose([(m.start, m) for m in cands], hint, ambiguity, after)
        if chosen is None or chosen.kind == UNCHECKED:  # type: ignore[attr-defined]
            if cands[-1].kind == UNCHECKED:
                raise _too_common(what, [m.start for m in cands[:-1]], kind)
            raise _ambiguous(what, [m.start for m in cands], kind)
        if hint is not None:
            # A laxer tier matching much nearer the line the header points at is conflicting evidence
            # (e.g. the block re-indented so that it equals another, similar block): refuse.
            dist = abs(chosen.start - hint)
            closer = [m.start for t in tiers for m in t if 2 * abs(m.start - hint) < dist]
            if closer:
                raise _ambiguous(what, [chosen.start, *closer], f"{kind} vs. nearer laxer match")
        elif shift and kind in ("exact", "whitespace") and "indent" in kinds:
            # The edit's other blocks all sit `shift` columns off in the file: this one was most likely
            # copied at the same wrong depth, and its exact match is a nested copy of the real target
            # (an edit re-indented by 4 can be byte-identical to code one level deeper).
            shifted = [m for m in tiers[kinds.index("indent")] if _delta(m) == shift
                       and not _overlaps((m.start, m.end), [(chosen.start, chosen.end)])]
            if len(shifted) > 1 and ambiguity == "first":
                shifted = [_choose([(m.start, m) for m in shifted], None, ambiguity, after)]  # type: ignore[list-item]
            if len(shifted) > 1:
                raise _ambiguous(what, [m.start for m in shifted], f"{kind}, re-indented like the other blocks")
            if shifted:
                return shifted[0]
        return chosen

    if not fuzzy:
        raise MergeError(f"{what} was not found in the file (fuzzy matching off)", code=ErrorCode.NO_MATCH)
    return _fuzzy(index, needle, what=what, hint=hint, lo=lo, hi=hi, taken=taken, threshold=fuzzy_threshold,
                  ambiguity=ambiguity, after=after)


def _delta(match: Match) -> int | None:
    if match.kind == UNCHECKED:
        return None
    return match.reindent.delta if match.reindent else 0


def _too_common(what: str, starts: Sequence[int], kind: str) -> MergeError:
    lines = sorted(s + 1 for s in starts)
    return MergeError(f"{what}: its lines occur at more than {MAX_POSITIONS} places ({kind}), too many to tell "
                      "one from the others; add surrounding lines that occur once in the file",
                      code=ErrorCode.AMBIGUOUS_MATCH, details={"candidates": lines[:MAX_POSITIONS], "tier": kind})


def shifted_elsewhere(index: HayIndex, needle: Sequence[str], shift: int) -> bool:
    """Whether the needle also sits somewhere at indentation offset `shift` (see `common_shift`)."""
    found = _tier_candidates(index, needle, "indent", 0, len(index.hay), ())
    return any(_delta(m) == shift for m in found)


def common_shift(index: HayIndex, needles: Sequence[Sequence[str]]) -> int | None:
    """The indentation offset shared by every block that has one place in the file (ignoring
    indentation): 0 when they match as written, e.g. -4 when the edit was written one level too deep.
    None when no block has one place, or when they disagree."""
    deltas = set()
    placed = 0
    for needle in needles:
        if not any(line.strip() for line in needle):
            continue
        found = _tier_candidates(index, needle, "indent", 0, len(index.hay), (), enough=2)
        if len(found) == 1:
            deltas.add(_delta(found[0]))
            placed += 1
    return deltas.pop() if placed and len(deltas) == 1 else None


def _fuzzy(index: HayIndex, needle: Sequence[str], *, what: str, hint: int | None, lo: int, hi: int,
           taken: Sequence[Span], threshold: float, ambiguity: str = "refuse", after: int = 0) -> Match:
    hay = index.hay
    n = len(needle)
    nn = [_squash(x) for x in needle]
    nh, where = index.norm("indent")
    _spend(index, what, 3 * (hi - lo) // 20 + n)  # rapidfuzz's extract runs in C, ~20x a Python step
    starts = fuzzy_starts(nn, nh, where, lo, hi)
    if n > 100:
        starts = starts[:4]  # aligning big blocks is costly; the best starts come first
    if hint is not None and lo <= hint < hi:
        starts.insert(0, hint)  # always look where the hunk says it belongs
    found: list[Match] = []
    for s in starts:
        check_deadline()
        _spend(index, what, n * (n + 2 * _SLACK))
        m = align(needle, hay, nn, nh, max(lo, s - _SLACK), min(hi, s + n + _SLACK))
        if m is not None and not _overlaps((m.start, m.end), taken):
            found.append(m)
    found.sort(key=lambda m: -m.similarity)
    closest = found[0] if found else None
    found = [m for m in found if m.kind == "fuzzy"]
    best = found[0] if found else None
    if best is None or best.similarity < threshold:
        best = closest
        details: dict[str, object] = {"threshold": threshold}
        msg = f"{what} was not found in the file"
        if best is not None:
            details.update(closest_start=best.start + 1, closest_end=best.end, similarity=round(best.similarity, 3))
            msg += (f"; the closest region is lines {best.start + 1}-{best.end} "
                    f"(similarity {best.similarity:.2f}")
            msg += (", but most of its lines differ)" if best.kind == "weak" else f", below {threshold:.2f})")
        raise MergeError(msg + "; copy the lines to replace exactly from the current file",
                         code=ErrorCode.NO_MATCH, details=details)
    others = [m for m in found[1:] if not _overlaps((m.start, m.end), [(best.start, best.end)])]
    if hint is not None:
        # Another acceptable place much nearer where the hunk should be: conflicting evidence.
        nearer = [m.start for m in others if m.similarity >= threshold
                  and 2 * abs(m.start - hint) < abs(best.start - hint)]
        if nearer:
            raise _ambiguous(what, [best.start, *nearer], "fuzzy, a nearer candidate")
    rivals = [m for m in others if m.similarity >= best.similarity - _RIVAL_MARGIN]
    if rivals:
        chosen = _choose([(m.start, m) for m in [best, *rivals]], hint, ambiguity, after)
        if chosen is None:
            raise _ambiguous(what, [best.start, *[m.start for m in rivals]], "fuzzy")
        best = chosen  # type: ignore[assignment]
    _, plan = indent_plan(needle, hay, best.pairs, strict=False)
    best.reindent = plan
    return best


def _spend(index: HayIndex, what: str, cost: int) -> None:
    index.fuzzy_left -= cost
    if index.fuzzy_left < 0:
        raise MergeError(f"{what} was not found exactly, and the fuzzy search for this file has used up its "
                         "budget (too many edits that match only approximately); copy the lines to replace "
                         "exactly from the current file", code=ErrorCode.NO_MATCH)


