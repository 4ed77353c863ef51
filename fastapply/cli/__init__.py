"""`fastapply` command line. Each subcommand lives in its own module with `register(subparsers)`."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from importlib import import_module

from ..errors import ErrorCode, FastApplyError

EPILOG = """\
Run `fastapply COMMAND --help` for a command's options.

examples:
  fastapply apply app.py --update snippet.py --in-place   merge a lazy snippet into app.py
  fastapply patch --root . agent_output.md                apply diffs / SEARCH-REPLACE / V4A edits
  fastapply serve                                         HTTP API on 127.0.0.1:8000
  fastapply mcp --root .                                  MCP edit tools for coding agents (stdio)

Errors print `fastapply: error [code]: message` on stderr and exit 1; usage errors exit 2.
Set FASTAPPLY_DEBUG=1 to see the traceback of an unexpected error.
"""

# Order is the order shown in --help.
SUBCOMMANDS = ["apply", "patch", "serve", "mcp", "train-head"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fastapply",
        description="Merge AI-written code edits (lazy snippets, diffs, search/replace blocks, V4A\n"
        "patches) into files, from the command line or as an HTTP service.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"fastapply {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        import_module(f".{name.replace('-', '_')}", __name__).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args) or 0)
    except FastApplyError as exc:
        return _error(exc.code, exc.message)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # e.g. writing a file on a full or read-only disk
        where = f" ({exc.filename})" if exc.filename else ""
        return _error(ErrorCode.IO_ERROR, f"{exc.strerror or exc}{where}")
    except Exception as exc:  # a bug: still one line, with a way to get the details
        if os.environ.get("FASTAPPLY_DEBUG"):
            traceback.print_exc()
        return _error(ErrorCode.INTERNAL_ERROR, f"unexpected {type(exc).__name__}: {exc}; this is a bug, "
                      "please report it (FASTAPPLY_DEBUG=1 shows the traceback)")


def _error(code: str, message: str) -> int:
    print(f"fastapply: error [{code}]: {message}", file=sys.stderr)
    return 1
