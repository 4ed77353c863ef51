"""`fastapply mcp`: the MCP server over stdio, for agents that start their tools as subprocesses."""

from __future__ import annotations

import argparse

_EPILOG = """\
tools:
  edit_file(target_filepath, code_edit, instruction?)   merge a lazy snippet ('// ... existing code ...'
                                                        for unchanged parts); creates a missing file
                                                        from a snippet without markers. `path` is an
                                                        alias of target_filepath.
  apply_patch(patch, dry_run=false)                     unified diff, SEARCH/REPLACE, V4A or a JSON edit
                                                        list; many files, all or nothing
  str_replace(path, old_str, new_str, replace_all=false)

Paths are relative to --root (absolute paths inside it are accepted); '..', paths outside the root and
symlinks leading out are refused. Writes are atomic. A refused edit is a tool error whose text holds
the error code and what to send instead. Logs go to stderr; stdout carries the protocol.

connect an agent (see the README's MCP section for Cursor, Cline and Codex):
  claude mcp add fastapply -- fastapply mcp --root "$PWD"
  Claude Desktop / Cursor / Cline JSON:
    {"mcpServers": {"fastapply": {"command": "fastapply", "args": ["mcp", "--root", "/path/to/project"]}}}
  Codex (~/.codex/config.toml):
    [mcp_servers.fastapply]
    command = "fastapply"
    args = ["mcp", "--root", "/path/to/project"]

The same tools are served over streamable HTTP at http://HOST:PORT/mcp by `fastapply serve`
(behind its --api-key). Needs the MCP SDK: pip install 'fastapply[mcp]'.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mcp",
        help="MCP server over stdio: edit_file / apply_patch / str_replace tools for coding agents",
        description="Serve fastapply's edit tools to a coding agent (Claude Code, Cursor, Cline, Codex, ...)\n"
        "over the Model Context Protocol on stdin/stdout. Edits are merged by the structural engine\n"
        "(and by --model when the engine refuses) and written atomically under --root.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--root", default=".", metavar="DIR",
                   help="project folder the tools may edit; nothing outside it (default: .)")
    p.add_argument("--model", default=None, metavar="SPEC",
                   help="also use a fast-apply model (hub id, folder or GGUF) for snippets the structural "
                   "engine refuses (default: none) [FASTAPPLY_MODEL]")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import os

    import anyio

    from ..mcp import require_sdk
    from ..mcp.server import build_server
    from ..mcp.tools import Refusal, Workspace

    require_sdk()
    spec = args.model or os.environ.get("FASTAPPLY_MODEL") or None
    model = None
    if spec:
        import fastapply

        model = fastapply.load_model(spec)

    async def merge(original: str, snippet: str, path: str, instruction: str | None):
        import anyio.to_thread

        from ..api import apply

        return await anyio.to_thread.run_sync(lambda: apply(
            original, snippet, filename=path, instruction=instruction,
            engine="auto" if model is not None else "structural", model=model))

    try:
        workspace = Workspace(args.root, merge)
    except Refusal as exc:
        from ..errors import InputError

        raise InputError(exc.message, code=exc.code) from None
    anyio.run(build_server(workspace).run_stdio_async)
    return 0
