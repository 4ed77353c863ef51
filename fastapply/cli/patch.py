"""`fastapply patch`: apply an agent's edits (diffs, SEARCH/REPLACE, V4A, edit lists) to files under a root."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..formats.batch import BatchResult

PROGRESS_MIN_FILES = 20

_EPILOG = """\
formats (auto-detected; several may be mixed in one output):
  udiff           git diff / diff -u; wrong or missing line numbers (@@ ... @@) are tolerated
  search-replace  <<<<<<< SEARCH / ======= / >>>>>>> REPLACE blocks, path on the line before
                  (Aider); ------- SEARCH / ======= / +++++++ REPLACE (Cline); :start_line:N,
                  ------- and "N | " line-number prefixes (Roo Code, Kilo Code)
  v4a             *** Begin Patch / *** Update File: / *** Add File: / *** Delete File: /
                  *** End Patch (OpenAI's apply_patch)
  replacements    JSON list: [{"path": "a.py", "old": "...", "new": "...", "replace_all": false}]
  lazy            JSON list: [{"path": "a.py", "update": "<snippet with // ... existing code ...>"}]
  whole           Aider's whole-file blocks: the path on the line before a fence holding the
                  whole new file (auto-detected when nothing else is found)

Context that drifted (whitespace, indentation, blank lines, a changed line) is matched tolerantly;
an edit that matches two places equally well, or nothing, is refused with the reason (with
--ambiguity first, the first place after the previous edit is taken, as Aider, Cline and Codex
do; a line number such as Roo's :start_line: chooses first either way). Paths outside
--root (.., absolute, symlinks leaving it) and binary patches are refused.

Writing under --root is all or nothing for the files written (a journal in the root, removed when
done): after a crash, a kill or a full disk the next run, or --recover, restores every file to its
old content, or finishes the batch when every new file was already in place.

exit status: 0 all applied; 1 something failed (with --atomic nothing was written then); 2 usage.

examples:
  fastapply patch --root . agent_output.md
  git diff | fastapply patch --root ../other-checkout --atomic -
  fastapply patch --dry-run --diff edits.json
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "patch",
        help="apply an agent's diffs / SEARCH-REPLACE blocks / V4A patches / edit lists to files",
        description="Read an agent's raw output (or a JSON list of edits), find the edits in it, and\n"
        "apply them to the files under --root. Prints a summary per file: hunks or edits applied,\n"
        "fuzzed (placed with tolerance) and failed, with the reasons. Each file is written atomically.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", nargs="?", default="-", metavar="FILE",
                   help="the agent output or JSON edit list (default: - for stdin)")
    p.add_argument("--root", default=".", metavar="DIR", help="folder the paths are relative to (default: .)")
    p.add_argument("--format", "-f", default="auto",
                   choices=["auto", "udiff", "search-replace", "v4a", "replacements", "lazy", "whole"],
                   metavar="FORMAT",
                   help="edit format: auto (default: detect), udiff, search-replace, v4a, replacements, "
                   "lazy or whole")
    p.add_argument("--ambiguity", choices=["refuse", "first"], default="refuse",
                   help="an edit that matches several places equally well: refuse (default) or take the "
                   "first (Aider's rule)")
    p.add_argument("--atomic", action="store_true",
                   help="all or nothing: write no file unless every edit applies")
    p.add_argument("--dry-run", "-n", action="store_true", help="apply in memory only; write nothing")
    p.add_argument("--diff", action="store_true", help="print the combined unified diff of the changes")
    p.add_argument("--fuzzy-threshold", type=float, default=None, metavar="X",
                   help="minimum similarity (0-1) for a fuzzy match (default: 0.85)")
    p.add_argument("--json", action="store_true", help="print the result as JSON instead of the summary")
    p.add_argument("--recover", action="store_true",
                   help="only finish or undo a batch that was interrupted (a crash, a kill, a full disk) "
                   "under --root: the tree becomes all old or all new files; every batch also does this "
                   "first by itself")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import msgspec

    from ..formats.batch import apply_batch
    from ..formats.matching import DEFAULT_FUZZY_THRESHOLD
    from .apply import read_text

    if args.recover:
        return _recover(args.root)
    text = read_text(args.input, "edit input")
    threshold = DEFAULT_FUZZY_THRESHOLD if args.fuzzy_threshold is None else args.fuzzy_threshold
    with _Progress() as progress:
        result = apply_batch(text, root=args.root, format=args.format, atomic=args.atomic,
                             dry_run=args.dry_run, fuzzy_threshold=threshold, progress=progress,
                             ambiguity=args.ambiguity)
    if args.json:
        sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    else:
        if args.diff:
            sys.stdout.write(result.diff)
        _summary(result, args, sys.stderr if args.diff else sys.stdout)
    return 0 if result.ok else 1


def _recover(root: str) -> int:
    import os

    from ..formats.journal import JOURNAL, locked_root, recover

    if not os.path.isdir(root):
        print(f"error [file_not_found]: root {root!r} is not a folder", file=sys.stderr)
        return 2
    with locked_root(root, recover_first=False) as fd:
        outcome = recover(fd)
    messages = {"rolled_back": "an interrupted batch was rolled back: every file has its old content",
                "rolled_forward": "an interrupted batch was completed: every file has its new content"}
    print(messages.get(outcome or "", f"nothing to recover under {root} (no {JOURNAL})"))
    return 0


def _summary(result: BatchResult, args: argparse.Namespace, out) -> None:
    for f in result.files:
        name = f.path + (f" -> {f.new_path}" if f.new_path else "")
        counts = f"{f.applied} applied" + (f", {f.fuzzed} fuzzed" if f.fuzzed else "") + \
            (f", {f.failed} failed" if f.failed else "")
        print(f"{f.status:9} {name} ({counts})", file=out)
        for w in f.warnings:
            print(f"          note: {w}", file=out)
        if f.error:
            print(f"          error [{f.error.code}]: {f.error.message}", file=out)
    s = result.summary
    state = "dry run, nothing written" if args.dry_run else (
        "written" if result.written else ("nothing written (--atomic)" if args.atomic and not result.ok
                                          else "nothing written"))
    print(f"{s.files_changed} of {s.files} files changed; {s.applied} applied, {s.fuzzed} fuzzed, "
          f"{s.failed} failed; {state}", file=out)


class _Progress:
    """A rich progress bar on stderr, shown only once more than PROGRESS_MIN_FILES files are touched."""

    def __init__(self) -> None:
        self.bar = None
        self.task = None

    def __enter__(self) -> _Progress:
        return self

    def __call__(self, done: int, total: int, path: str) -> None:
        if total <= PROGRESS_MIN_FILES:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("applying", total=total)
        self.bar.update(self.task, completed=done, description=path[-40:])

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
