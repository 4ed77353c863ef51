"""`fastapply` command line. Each subcommand lives in its own module with `register(subparsers)`."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from ..errors import FastApplyError

# Order is the order shown in --help.
SUBCOMMANDS = ["apply", "patch", "serve"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fastapply",
        description="Merge AI-written code edits (lazy snippets, diffs, search/replace blocks) into files.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"fastapply {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        import_module(f".{name}", __name__).register(sub)
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
        print(f"fastapply: error [{exc.code}]: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
