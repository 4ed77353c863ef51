"""`fastapply apply FILE --update SNIPPET`: merge a lazy snippet into one file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ErrorCode, InputError
from ..text import ensure_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "apply",
        help="merge a lazy edit snippet into a file",
        description="Merge an edit snippet, in which unchanged code is elided with markers such as\n"
        "'// ... existing code ...', into FILE. Prints the merged file (or a diff) to stdout; with\n"
        "--in-place rewrites FILE atomically. When the edit cannot be placed safely: exit 1 with\n"
        "the error code on stderr, and the file is left untouched.",
        epilog="examples:\n"
        "  fastapply apply app.py --update snippet.py            # merged file on stdout\n"
        "  fastapply apply app.py -u snippet.py --in-place --diff # rewrite app.py, show the diff\n"
        "  pbpaste | fastapply apply app.py -u - -i               # snippet from stdin\n\n"
        "exit status: 0 merged; 1 refused or failed (message on stderr, file untouched); 2 usage.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="the original file")
    p.add_argument("--update", "-u", required=True, metavar="SNIPPET",
                   help="file holding the edit snippet, or - to read it from stdin")
    p.add_argument("--diff", action="store_true", help="print a unified diff instead of the merged file")
    p.add_argument("--in-place", "-i", action="store_true", help="write the merged file back to FILE")
    p.add_argument("--language", "-l", help="language name (default: from the file name or content)")
    p.add_argument("--instruction", help="what the edit is meant to do (used by the model engine)")
    p.add_argument("--engine", choices=["structural", "model", "auto"], default=None,
                   help="structural: tree-sitter merge on the CPU; model: the --model LM rewrites the file; "
                   "auto: structural, falling back to the model when the structural merge refuses "
                   "(default: auto with --model, else structural)")
    p.add_argument("--model", metavar="SPEC",
                   help="fast-apply model for the model engine: a Hugging Face hub id (from the local "
                   "cache), a local model folder, or a .gguf file")
    p.add_argument("--draft-head", metavar="DIR",
                   help="EAGLE draft head for --model (from `fastapply train-head`): speeds up the model "
                   "engine where the output is not a copy; the merged text is the same")
    p.add_argument("--template", help="prompt template for --model: fastapply (Kortix) or morph (Relace "
                   "style); default: guessed from the model name")
    p.set_defaults(handler=run)


def read_text(path: str, what: str) -> str:
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{what} {path!r} does not exist", code=ErrorCode.FILE_NOT_FOUND) from None
    except IsADirectoryError:
        raise InputError(f"{what} {path!r} is a folder, not a file", code=ErrorCode.INVALID_ARGUMENT) from None
    except PermissionError:
        raise InputError(f"cannot read {what} {path!r}: permission denied",
                         code=ErrorCode.INVALID_ARGUMENT) from None
    return ensure_text(data, what)


def run(args: argparse.Namespace) -> int:
    from ..api import apply
    from ..fsutil import atomic_write

    if args.file == "-":
        raise InputError("FILE must be a file path (only --update can be - for stdin)",
                         code=ErrorCode.INVALID_ARGUMENT)
    engine = args.engine or ("auto" if args.model else "structural")
    if engine != "structural" and not args.model:
        raise InputError(f"--engine {engine} needs a model: add --model SPEC (a hub id, a folder or a "
                         ".gguf file)", code=ErrorCode.MODEL_NOT_CONFIGURED)
    if args.draft_head and not args.model:
        raise InputError("--draft-head needs --model (the head drafts for that model)",
                         code=ErrorCode.MODEL_NOT_CONFIGURED)
    original = read_text(args.file, "file")
    update = read_text(args.update, "update snippet")
    model = None
    if args.model and engine != "structural":
        from ..runtime.loader import load_model

        model = load_model(args.model, template=args.template, draft_head=args.draft_head)
    result = apply(original, update, filename=args.file, language=args.language,
                   instruction=args.instruction, engine=engine, model=model)
    if args.in_place:
        if result.merged_code != original:
            atomic_write(args.file, result.merged_code)
        if args.diff:
            sys.stdout.write(result.diff)
    else:
        sys.stdout.write(result.diff if args.diff else result.merged_code)
    for warning in result.warnings:
        print(f"fastapply: warning: {warning}", file=sys.stderr)
    return 0
