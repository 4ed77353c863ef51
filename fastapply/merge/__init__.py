"""The structural lazy-snippet merge engine.

`merge_snippet(original, update, language)` merges an edit snippet, in which unchanged code is
elided with marker comments (`// ... existing code ...`), into the original file. Steps:

1. classify the snippet's lines (markers.py, segments.py); a snippet that is the whole new file is
   returned as it is (whole.py); a snippet without markers gets assumed markers at its ends and
   between its top-level definitions (plan.py);
2. align snippet lines with original lines in monotone order (anchor.py, chain.py), place context
   lines after markers (context.py), then refine the alignment: nesting checks, edited lines next
   to anchors, lone edited lines (refine.py, similar.py, blocks.py);
3. splice: snippet lines where the snippet speaks, original lines where a marker stands for them,
   nothing where the snippet dropped code between two anchors (splice.py);
4. validate: no marker left, no new syntax errors (tree-sitter, syntax.py; only the top-level
   statements around the change are parsed when that suffices), no unexplained loss (validate.py).

Anything ambiguous raises MergeError / ValidationError with a code and a message saying which
snippet line could not be placed and what the caller can do about it.
"""

from __future__ import annotations

import msgspec

from ..languages import find_language
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
    plan = plan_merge(original, update, spec)
    return MergeOutcome(text=plan.text, method=plan.method, markers_resolved=plan.markers_resolved,
                        segments=plan.segments, warnings=plan.warnings)
