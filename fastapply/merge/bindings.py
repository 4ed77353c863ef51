"""A new import or re-export that binds a name a kept top-level definition also binds.

`import { isEqual } from './chunk.mjs'` written where the file declares `function isEqual` binds
the name twice (a SyntaxError in JavaScript, a duplicate identifier in TypeScript; in Python the
later binding silently wins: typeshed's `from codeop import compile_command as compile_command`
replaced the stub's `def compile_command`); `export { i as
isEqual } from ...` there almost always replaces the declaration (ohash moved it into a shared
chunk). When the merge keeps the old definition next to the new line, the snippet's intent is
lost: the merge is refused, naming the snippet line, unless the original already had such a pair.

Complexity: O(merged rows), regex matches on the new and edited ones, plus one lookup of the original's definitions per
name a new import line binds (cached by the aligner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ErrorCode, ValidationError
from .lines import bound_names

if TYPE_CHECKING:
    from .anchor import Aligner
    from .splice import Spliced

def check_import_bindings(al: Aligner, spliced: Spliced) -> None:
    present = spliced.row_of()  # (its keys: the original lines the merge keeps)
    for row in spliced.from_snippet():  # (the snippet's rows: a long merge keeps most from the original)
        s, o = spliced.origin[row]
        line = spliced.lines[row]
        if line[:1].isspace() or "from" not in line or o >= 0 and line.strip() == al.onorm[o]:
            continue  # (new and edited snippet lines only: an edited import may bind one name more)
        before = set(bound_names(al.onorm[o])) if o >= 0 else set()
        for name in bound_names(line):
            if name in before:
                continue
            kept = [o for o in al._okeys_for(name) if o in present and not al.orig[o][:1].isspace()]
            if not kept or any(name in bound_names(norm) for norm in al.onorm if "from" in norm):
                continue
            item = al.items[spliced.origin[row][0]]
            what = "re-exports" if line.startswith("export") else "imports"
            clash = "define it twice" if what == "imports" else "keep a definition the new line replaces"
            raise ValidationError(
                f"snippet line {item.number} ({item.text.strip()!r}) {what} {name!r}, which original line "
                f"{kept[0] + 1} ({al.orig[kept[0]].strip()!r}) defines at the top level and the merge keeps: "
                f"the module would {clash}. If the new line replaces that definition, show the lines "
                "around the old one without it (no marker between them); otherwise rename the name",
                code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)
