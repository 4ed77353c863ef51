"""Keeping a batch file to what could be fetched: `python -m evals.fetch --batch FILE --prune` drops the
entries (`[[package]]` or `[[pair]]` blocks) that it could not fetch, and lists their names in
`unfetchable.txt` next to the file, under a line naming the batch, for the next draw to leave out.
A batch file keeps only entries that were fetched (tests/evals/test_fetch_batch.py): by hand, that
was done five times in the sixteenth round.

Cost: one pass over the file's lines.
"""

from __future__ import annotations

import re
from pathlib import Path

_FIELD = re.compile(r'^(registry|name)\s*=\s*"([^"]*)"\s*$')


def prune_batch(path: Path, failed: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """Rewrite the batch file at `path` without the entries whose (registry, name) is in `failed`;
    return the ones it removed, in file order. The comment lines at its head stay as they are."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    head: list[str] = []
    blocks: list[list[str]] = []
    for line in lines:
        if line.startswith("[["):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
        else:
            head.append(line)
    kept: list[str] = [*head]
    removed: list[tuple[str, str]] = []
    for block in blocks:
        fields = dict(m.groups() for line in block if (m := _FIELD.match(line.strip())))
        key = (fields.get("registry", ""), fields.get("name", ""))
        if key in failed:
            removed.append(key)
        else:
            kept.extend(block)
    if removed:
        path.write_text("".join(kept), encoding="utf-8")
    return removed


def note_unfetchable(listing: Path, batch: str, names: list[tuple[str, str]]) -> None:
    """Append `names` to the unfetchable list under a comment naming the batch they came from."""
    if not names:
        return
    text = listing.read_text(encoding="utf-8") if listing.exists() else ""
    listed = {tuple(line.split()) for line in text.splitlines() if line.strip() and not line.startswith("#")}
    new = [f"{registry} {name}\n" for registry, name in names if (registry, name) not in listed]
    if new:
        prefix = "" if not text or text.endswith("\n") else "\n"
        listing.write_text(text + prefix + f"# {batch}\n" + "".join(new), encoding="utf-8")
