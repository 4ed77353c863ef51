"""Matching the snippet's definitions with the original's, GumTree style, before any line is aligned.

GumTree (Falleri et al.) maps two syntax trees top-down first (the largest identical subtrees, by
hash, when the match is unique) and then bottom-up (containers whose contents are alike); mergiraf
does the same on tree-sitter trees. Here the nodes are definitions (defs.py), and a snippet is a
file with pieces left out, so the stages are, each among the definitions still unmatched:

1. identical: a complete snippet definition of two lines or more whose lines hash like exactly one
   original definition of the same kind (`category`: a method parsed without its class is still a
   function), outermost first; the definitions inside a matched pair pair up in order;
2. by name: (scope, kind, name, signature), then (scope, kind, name). A snippet definition shown
   without its enclosing definition (no parent in the snippet, and indented) has no known scope
   and matches on (kind, name) over the whole original;
3. by similarity, for renames: a snippet definition whose name the original does not define,
   against the original definitions of the same kind (and scope, where known) whose name the
   snippet does not define: the body (the lines after the header) most like its own, at least
   _RENAME_SIMILARITY alike. Alike is the rapidfuzz ratio of
   the two bodies with as many comment lines above them as the snippet shows; for a definition
   shown in part (its end elided by a marker), against as many lines from the old body's start,
   or the share of its lines that the old one holds, whichever is higher. It must show a telling
   line besides its header, and stand where the old one stood: a unique line next to it in the
   snippet sits next to the old one in the original (else it is a new sibling copied from it).
   Among the old definitions within _MARGIN of the best, exactly one may stand there.

At every stage two equally good candidates mean no match: a guess is worse than the line path.
The result says, for a snippet line, which original line it certainly stands for (`anchor`): the
header of a matched definition, or any line of an identically matched one.

Complexity: O(d) hashing for stages 1-2 over d definitions; stage 3 makes at most
_MAX_COMPARISONS rapidfuzz comparisons of bodies cut to _BODY_LINES lines and _BODY_CHARS
characters; the definitions inside identical pairs are visited once each. `DefIndex` parses each
text at most once per call, and only when a stage asks (most merges never do).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..deadline import check_deadline
from .defs import Definition, read_definitions
from .lines import indent_width, is_trivial

if TYPE_CHECKING:
    from ..languages import LanguageSpec
    from .anchor import Aligner

_RENAME_SIMILARITY = 85.0  # rapidfuzz ratio (0-100) of two bodies for a rename
_MARGIN = 5.0  # the best candidate must beat the second by this much
_MAX_COMPARISONS = 400
_BODY_CHARS = 4000
_BODY_LINES = 200
_MIN_BODY_LINES = 1
_NEAR_WALK = 12  # lines looked at around a renamed definition for a neighbour that places it
_NEAR = 3  # telling lines the original may have between that neighbour and the old definition
_MAX_TIES = 16  # more old definitions about as alike as the best: no rename
_COPY_SIMILARITY = 97.0  # a new definition this alike to one old one that it does not stand for ...
_COPY_LINES = 3  # ... with this many telling lines: a copy, or a rename the snippet does not place


class DefinitionMatch:
    """Snippet definition index -> original definition index, and the line anchors it gives."""

    def __init__(self, snippet: list[Definition], original: list[Definition], stext: list[str],
                 snorm: list[str], onorm: list[str], placed: Callable[[Definition, Definition, dict[int, tuple[int, int]]], bool]) -> None:
        self.snippet, self.original = snippet, original
        self.pairs: dict[int, int] = {}
        self.identical: set[int] = set()
        self.renamed: list[int] = []
        self.copies: list[tuple[int, int]] = []  # (snippet, original definition): see _by_similarity
        self._placed = placed
        self._taken: set[int] = set()  # original definitions already matched
        self._names: dict[tuple[str, str], list[int]] | None = None  # (_original_names)
        self._known = [d.parent >= 0 or indent_width(stext[d.header]) == 0 for d in snippet]
        self._identical()
        self._by_name()
        self._by_similarity(snorm, onorm)
        self._anchors: dict[int, int] = {}
        for s, o in self.pairs.items():
            self._anchors[snippet[s].header] = original[o].header
        for s in self.identical:
            if snippet[s].parent in self.identical:
                continue  # its lines are its parent's
            sd, od = snippet[s], original[self.pairs[s]]
            srows = [r for r in range(sd.header, sd.last + 1) if snorm[r]]
            orows = [r for r in range(od.header, od.last + 1) if onorm[r]]
            if len(srows) == len(orows):
                self._anchors.update(zip(srows, orows))

    def ranges(self) -> dict[int, tuple[int, int]]:
        """Snippet line -> the first and last original line of the matched definition that holds it
        (the innermost one): the line alignment looks for its copy there first, GumTree's "align the
        lines inside each matched definition" (absl's edited method, whose edited lines read like
        another class's copy of it). O(the lines of the matched definitions x their depth)."""
        out: dict[int, tuple[int, int]] = {}
        for s in sorted(self.pairs):  # outermost first: an inner definition's range overrides its parent's
            sd, od = self.snippet[s], self.original[self.pairs[s]]
            if not sd.complete or self.local_statement(self.pairs[s]):
                continue  # (a parse error can stretch its end over what follows: koa's `/**` after it)
            for row in range(sd.header, sd.last + 1):
                out[row] = (od.first, od.last)
        return out

    def local_statement(self, index: int) -> bool:
        """A declaration in a function's body (`const engine = {...}` in a method), not a definition
        of its own: a snippet that shows one in another function copies it there (bowser's new iOS
        branch built its `engine` like the WebKit method does). Its match says nothing of where the
        snippet's lines stand: no move (moves.py), no range (ranges)."""
        od = self.original[index]
        if od.parent < 0 or any(word in od.kind for word in _BODY_OWNERS):
            return False
        return any(word in self.original[od.parent].kind for word in _BODY_OWNERS)

    def anchor(self, s_line: int) -> int | None:
        """The original line that snippet line `s_line` stands for through a matched definition."""
        return self._anchors.get(s_line)

    def _order_of(self, s: int) -> dict[int, tuple[int, int]]:
        """For snippet definition s, its matched siblings (same parent): snippet header line ->
        (snippet last line, original header line), for the placement check. O(d)."""
        parent = self.snippet[s].parent
        return {d.header: (d.last, self.original[self.pairs[k]].header) for k, d in enumerate(self.snippet)
                if k != s and d.parent == parent and k in self.pairs}

    def _pair(self, s: int, o: int) -> None:
        self.pairs[s] = o
        self._taken.add(o)

    # -- stages ---------------------------------------------------------------------------------

    def _identical(self) -> None:
        by_digest: dict[tuple[str, int], list[int]] = defaultdict(list)
        for o, d in enumerate(self.original):
            by_digest[(category(d.kind), d.digest)].append(o)
        shown: dict[tuple[str, int], int] = defaultdict(int)
        for d in self.snippet:
            if d.complete:
                shown[(category(d.kind), d.digest)] += 1
        for s, d in enumerate(self.snippet):  # outermost first: a parent is matched before its children
            if s in self.pairs or not d.complete or d.last == d.header:
                continue  # (one line alike is a line match, for the aligner to weigh)
            found = by_digest.get((category(d.kind), d.digest), [])
            if len(found) == 1 and shown[(category(d.kind), d.digest)] == 1 and found[0] not in self._taken:
                namesake = self._namesake_in_place(s, found[0])
                if namesake is not None:
                    self._pair(s, namesake)  # an edit of that one, alike to another by chance
                    continue
                self._pair(s, found[0])
                self._children(s, found[0])

    def _namesake_in_place(self, s: int, o: int) -> int | None:
        """When snippet definition s is identical to original definition o but o stands elsewhere,
        the one other original definition of s's name and kind, in another scope than o, that stands
        where the snippet shows s: the edit made s read like a namesake in another class (absl's
        `_extra_xml_dom_elements` in `MultiEnumClassFlag`, its comment removed, like
        `EnumClassFlag`'s). A namesake in o's own scope is an overload, which may as well have moved.
        Where: in s's scope when the snippet shows it; else between the original places of the
        nearest snippet definitions before and after s whose names the original defines once.
        O(d) for the name index (once per match), then O(snippet definitions + namesakes)."""
        sd, od = self.snippet[s], self.original[o]
        names = self._original_names()
        namesakes = [k for k in names.get((category(sd.kind), sd.name), ())
                     if k != o and k not in self._taken and self.original[k].scope != od.scope]
        if not namesakes:
            return None
        if self._known[s]:
            inside = [k for k in namesakes if self.original[k].scope == sd.scope]
            return inside[0] if len(inside) == 1 and od.scope != sd.scope else None
        before: tuple[int, int] | None = None  # (snippet header, original header) of the nearest ones
        after: tuple[int, int] | None = None
        for k, d in enumerate(self.snippet):
            once = names.get((category(d.kind), d.name), [])
            if k == s or sd.header <= d.header <= sd.last or len(once) != 1:
                continue
            if d.header < sd.header and (before is None or d.header > before[0]):
                before = (d.header, self.original[once[0]].header)
            elif d.header > sd.last and (after is None or d.header < after[0]):
                after = (d.header, self.original[once[0]].header)
        if before is None and after is None:
            return None
        lo = before[1] if before is not None else -1
        hi = after[1] if after is not None else max(d.last for d in self.original) + 1
        if lo < od.header < hi:
            return None
        inside = [k for k in namesakes if lo < self.original[k].header < hi]
        return inside[0] if len(inside) == 1 else None

    def _original_names(self) -> dict[tuple[str, str], list[int]]:
        """(category, name) -> indexes of the original definitions, in order; built on first use."""
        if self._names is None:
            self._names = defaultdict(list)
            for k, d in enumerate(self.original):
                self._names[(category(d.kind), d.name)].append(k)
        return self._names

    def _children(self, s: int, o: int) -> None:
        """Pair the definitions inside two identical definitions in order (same lines, same nesting)."""
        inner_s, inner_o = _inside(self.snippet, s), _inside(self.original, o)
        if len(inner_s) == len(inner_o):
            for a, b in zip(inner_s, inner_o):
                if self.snippet[a].digest == self.original[b].digest and b not in self._taken:
                    self.identical.add(a)
                    self._pair(a, b)
        self.identical.add(s)

    def _by_name(self) -> None:
        for with_signature in (True, False):
            def key(d: Definition, scoped: bool) -> tuple[str, ...]:
                base = (category(d.kind), d.name, d.signature if with_signature else "")
                return (d.scope, *base) if scoped else base

            scoped_o: dict[tuple[str, ...], list[int]] = defaultdict(list)
            loose_o: dict[tuple[str, ...], list[int]] = defaultdict(list)
            for o, d in enumerate(self.original):
                if o not in self._taken:
                    scoped_o[key(d, True)].append(o)
                    loose_o[key(d, False)].append(o)
            asked: dict[tuple[str, ...], int] = defaultdict(int)
            keys: list[tuple[str, ...] | None] = []
            for s, d in enumerate(self.snippet):
                k = key(d, self._known[s]) if s not in self.pairs else None
                keys.append(k)
                if k is not None:
                    asked[k] += 1
            for s, k in enumerate(keys):
                if k is None or asked[k] != 1:
                    continue
                found = (scoped_o if self._known[s] else loose_o).get(k, [])
                if len(found) == 1 and found[0] not in self._taken:
                    self._pair(s, found[0])

    def _by_similarity(self, snorm: list[str], onorm: list[str]) -> None:
        defined_o = {d.name for d in self.original}
        # (a name the snippet defines in a pair with one original definition says nothing of the
        # others of that name: Go's `func WriteJSON` beside the method `(c *Conn) WriteJSON`)
        defined_s = {d.name for s, d in enumerate(self.snippet) if s not in self.pairs}
        new = [s for s, d in enumerate(self.snippet) if s not in self.pairs and d.name not in defined_o
               and _evidence(snorm, d) >= _MIN_BODY_LINES]
        if not new:
            return
        old = [o for o, d in enumerate(self.original) if o not in self._taken and d.name not in defined_s]
        from rapidfuzz import fuzz

        budget = _MAX_COMPARISONS
        for s in new:
            check_deadline()
            sd = self.snippet[s]
            shown = _lines(snorm, sd)
            # its comments above take part (two same bodies differ there), as many as it shows
            preamble = sum(1 for n in snorm[sd.first:sd.header] if n)
            body = len(shown) - preamble
            whole = sd.complete and not sd.open_end
            mine = _text(shown)
            scores: list[tuple[float, int]] = []
            for o in old:
                od = self.original[o]
                if category(od.kind) != category(sd.kind) or o in self._taken \
                        or self._known[s] and od.scope != sd.scope:
                    continue
                budget -= 1
                if budget < 0:
                    return
                theirs = _lines(onorm, od)
                above = sum(1 for n in onorm[od.first:od.header] if n)
                # as many comment lines above as it shows, its body (or as many lines from its start)
                cut = theirs[above - preamble if preamble <= above else 0:above] + \
                    (theirs[above:] if whole else theirs[above:above + body])
                score = fuzz.ratio(mine, _text(cut), score_cutoff=_RENAME_SIMILARITY - _MARGIN)
                if not whole:  # shown in part: or the share of its lines the old one holds
                    held = set(theirs)
                    score = max(score, 100.0 * sum(1 for n in shown if n in held) / len(shown))
                scores.append((score, o))
            scores.sort(reverse=True)
            if not scores or scores[0][0] < _RENAME_SIMILARITY:
                continue
            # the best and those about as good; where it stands decides between them (a copy of
            # an old one elsewhere is a new sibling, not a rename), and two left mean no guess
            close = [o for score, o in scores if score > scores[0][0] - _MARGIN]
            placed = [o for o in close[:_MAX_TIES] if self._placed(sd, self.original[o], self._order_of(s))]
            if not placed and whole and len(close) == 1 and scores[0][0] >= _COPY_SIMILARITY \
                    and _evidence(snorm, sd) >= _COPY_LINES:
                # the old body line for line under a new name, somewhere else: a rename that moved
                # it, or a copy; only the snippet can tell (placement.check_copies)
                self.copies.append((s, close[0]))
            if len(placed) != 1 or len(close) > _MAX_TIES:
                continue
            self._pair(s, placed[0])
            self.renamed.append(s)


_FUNCTION_WORDS = ("function", "method", "constructor", "init_declaration", "fn", "func", "sub")
_BODY_OWNERS = ("function", "method", "constructor", "init_declaration")  # kinds whose body holds statements
_TYPE_WORDS = ("class", "struct", "interface", "trait", "impl", "enum", "module", "object", "record", "namespace",
               "union", "protocol")


def category(kind: str) -> str:
    """Node kinds that name the same thing in different places: a method parsed without its class
    is a function (`public function f()` alone in a PHP part), a class is a class."""
    words = kind.split("_")
    if kind in ("method", "singleton_method") or any(w in _FUNCTION_WORDS for w in words):
        return "function"
    if any(w in _TYPE_WORDS for w in words):
        return "type"
    return kind


def _inside(found: list[Definition], index: int) -> list[int]:
    """The definitions nested in found[index]: they follow it, up to the first that starts after
    its end (the list is in order of first lines). O(their number)."""
    inner = []
    for i in range(index + 1, len(found)):
        if found[i].header > found[index].last:
            break
        inner.append(i)
    return inner


def _evidence(norms: list[str], d: Definition) -> int:
    """How many telling lines a definition shows besides its header (comments above it included)."""
    return sum(1 for n in norms[d.first:d.header] + norms[d.header + 1:d.last + 1] if not is_trivial(n))


def _lines(norms: list[str], d: Definition) -> list[str]:
    """The non-blank lines of a definition's comments above it and its body, without its header
    (at most _BODY_LINES of its body: enough to tell two bodies apart)."""
    return [n for n in norms[d.first:d.header] + norms[d.header + 1:min(d.last + 1, d.header + 1 + _BODY_LINES)] if n]


def _text(lines: list[str]) -> str:
    return "\n".join(lines)[:_BODY_CHARS]


class DefIndex:
    """The definitions of one merge call: the snippet's (as the aligner's items stand when this is
    made), the original's and their matching, each computed on first use. Nothing outlives the call."""

    def __init__(self, spec: LanguageSpec | None, al: Aligner) -> None:
        self.spec, self.al = spec, al
        self.items = al.items  # the snippet's lines as the definitions number them (before any reordering)
        self._snippet: list[Definition] | None | bool = False
        self._original: list[Definition] | None | bool = False
        self._match: DefinitionMatch | None | bool = False

    def snippet(self) -> list[Definition] | None:
        if self._snippet is False:
            al = self.al
            self._snippet = read_definitions(self.spec, al.stext, al.snorm, frozenset(al.markers))
        return self._snippet  # type: ignore[return-value]

    def original(self) -> list[Definition] | None:
        if self._original is False:
            self._original = read_definitions(self.spec, self.al.orig, self.al.onorm)
        return self._original  # type: ignore[return-value]

    def match(self) -> DefinitionMatch | None:
        if self._match is False:
            snippet = self.snippet()
            original = self.original() if snippet else None
            self._match = DefinitionMatch(snippet, original, self.al.stext, self.al.snorm, self.al.onorm,
                                          self._placed) if snippet and original else None
        return self._match  # type: ignore[return-value]

    def computed(self) -> DefinitionMatch | None:
        """The match when a stage asked for it (never computed here: checks must not parse)."""
        return self._match if isinstance(self._match, DefinitionMatch) else None

    def _placed(self, new: Definition, old: Definition, siblings: dict[int, tuple[int, int]]) -> bool:
        """False when a line next to `new` in its part, one that occurs once in both texts, stands
        in the original away from `old` (more lines between than in the snippet, or on the other
        side): the snippet shows it somewhere else; also when a matched sibling shown beside it
        stands on the wrong side of `old` (`_between_siblings`). O(_NEAR_WALK + siblings)."""
        al = self.al
        for step, start, edge in ((-1, new.first - 1, old.first), (+1, new.last + 1, old.last)):
            s, shown = start, 0
            while 0 <= s < len(al.items) and s not in al.markers and abs(s - start) < _NEAR_WALK:
                norm = al.snorm[s]
                if norm and not is_trivial(norm) and len(al.spos[norm]) == 1 and len(al.opos.get(norm, ())) == 1:
                    o = al.opos[norm][0]
                    if (o - edge) * step <= 0:
                        return False
                    between = al.onorm[min(o, edge) + 1:max(o, edge)]
                    if sum(1 for n in between if n and not is_trivial(n)) > shown + _NEAR:
                        return False
                    break
                shown += bool(norm) and not is_trivial(norm)
                s += step
        return self._between_siblings(new, old, siblings)

    def _between_siblings(self, new: Definition, old: Definition, siblings: dict[int, tuple[int, int]]) -> bool:
        """False when a matched sibling shown right before `new` (or right after it), in the same
        part of the snippet, stands in the original after `old` (or before it): the new definition
        sits elsewhere than the old one, a new sibling written like it (`rb_discard` after
        `rb_peek`, like `rb_read` before it). O(siblings + the lines between)."""
        al = self.al
        depth = al.swidth[new.header]
        # a marker deeper than the definitions stands inside one (a body elided), not between them
        between = [m for m in al.markers if al.swidth[m] <= depth]
        before = max((h for h in siblings if h < new.header), default=None)
        after = min((h for h in siblings if h > new.header), default=None)
        if before is not None and not any(siblings[before][0] < m < new.first for m in between) \
                and siblings[before][1] > old.header:
            return False
        if after is not None and not any(new.last < m < after for m in between) \
                and siblings[after][1] < old.header:
            return False
        return True
