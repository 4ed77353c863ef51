"""The structural lazy-snippet merge engine.

`merge_snippet(original, update, language)` merges an edit snippet, in which unchanged code is
elided with marker comments (`// ... existing code ...`), into the original file. Steps:

1. classify the snippet's lines (markers.py, segments.py); a snippet that is the whole new file is
   returned as it is (whole.py); a snippet without markers gets assumed markers at its ends and
   between its top-level definitions (plan.py). Markers written at column 0 inside a block take
   the depth of the code around them, and a segment holding nothing but closing lines between two
   markers is dropped as context (segments.py);
2. match definitions before lines: both texts' definitions are read with tree-sitter (defs.py,
   fragments.py: the snippet part by part between its markers) and matched GumTree style
   (defmatch.py: identical, then by name, then renames by body); a renamed definition pairs with
   the old one (renames.py); a whole definition shown out of order next to code that stays is
   moved, its old copy dropped (moves.py); segments out of file order are put back in order by
   their own anchors and the matched definitions (order.py);
3. align snippet lines with original lines in monotone order (anchor.py, chain.py), place context
   lines after markers (context.py), then refine the alignment: nesting checks, edited lines next
   to anchors, lone edited lines (refine.py, similar.py, blocks.py), common lines paired on their
   own (common_lines.py), a segment's last anchor that
   is a new line repeating one further down, context left under it (ends.py); a part's first
   line under its marker that the alignment deleted and wrote anew as a move is aligned once
   more as context (crossings.py); a line a formatter joined (or split) pairs with the lines it
   joins (joined.py); a definition's header shown after a rewritten body, before a marker, pairs
   with its copy right below that body (resumed.py);
4. splice: snippet lines where the snippet speaks, original lines where a marker stands for them,
   nothing where the snippet dropped code between two anchors (splice.py), blank lines around new
   definitions after the file's own habit (spacing.py; the line shapes it reads: shapes.py); every
   merged line records where it came from;
5. validate: no marker left, no new syntax errors (tree-sitter, syntax.py; only the top-level
   statements around the change are parsed when that suffices), no unexplained loss (validate.py),
   and the provenance checks (provenance.py, with alignment_checks.py, placement.py and copied_headers.py): every dropped original line has a reason, every
   snippet line is in the merge, no name defined twice in a scope where the original defined it
   once, no marker standing for nothing next to a unique unplaced line, no block repeated next to
   itself, no marker inside a definition the original does not have, no edited line kept next
   to its old version, no Python name declared twice in a block (twins.py).

Anything ambiguous raises MergeError / ValidationError with a code and a message saying which
snippet line could not be placed and what the caller can do about it (the refusals plan.py
decides itself: refusals.py). Each stage's complexity is
in its module's docstring.
"""

from __future__ import annotations

import msgspec

from ..languages import find_language
from .collector import collector_paused
from .plan import plan_merge


class MergeOutcome(msgspec.Struct, kw_only=True):
    text: str
    method: str
    markers_resolved: int = 0
    segments: int = 0
    warnings: list[str] = msgspec.field(default_factory=list)


def merge_snippet(original: str, update: str, language: str | None) -> MergeOutcome:
    """Merge `update` (a lazy snippet) into `original`. Both use '\\n' line endings, no BOM."""
    spec = find_language(language)
    with collector_paused(len(original) + len(update)):
        plan = plan_merge(original, update, spec)
    return MergeOutcome(text=plan.text, method=plan.method, markers_resolved=plan.markers_resolved,
                        segments=plan.segments, warnings=plan.warnings)
