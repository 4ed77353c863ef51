"""The MCP server: the Workspace's tools registered with the official `mcp` SDK (`pip install 'fastapply[mcp]'`).

`build_server(workspace)` returns an `MCPServer`; `fastapply mcp` runs it over stdio, `fastapply serve`
mounts its streamable HTTP app at /mcp (fastapply.service.routes_mcp). Tool names and parameters follow
Morph's MCP server (`edit_file` with `target_filepath`, `instruction`, `code_edit`), so agents prompted
for Morph call ours unchanged. A refusal is a tool result with isError set and the code and the retry
advice in its text.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .. import __version__
from .tools import Refusal, Workspace

INSTRUCTIONS = """\
Edit files under the project root with three tools:
- edit_file: write only the changed code, with `// ... existing code ...` (in the file's comment
  syntax) for every unchanged region between, before and after the changes; keep 1-3 unchanged lines
  around each change so it can be placed. A file that does not exist is created from a snippet
  without markers.
- str_replace: replace an exact, unique piece of text (or every occurrence with replace_all).
- apply_patch: a unified diff, SEARCH/REPLACE blocks, a V4A patch or a JSON edit list, many files.
Paths are relative to the project root. A refused edit changes nothing; its text says what to send."""

EDIT_FILE = """\
Edit an existing file, or create a new one, by sending only the lines that change.

Write the changed code and mark each unchanged region with a comment in the file's language:
`// ... existing code ...` (or `# ... existing code ...`, `<!-- ... existing code ... -->`). Keep 1-3
unchanged lines around every change, copied exactly, so the edit can be placed; code you leave out
without a marker is deleted. Several changes in one file go in one call, in file order. To create a
file, send its whole content without markers. Returns the unified diff and line counts."""

APPLY_PATCH = """\
Apply a patch to one or many files: a unified diff (git diff), SEARCH/REPLACE blocks (path on the line
before `<<<<<<< SEARCH`), a V4A patch (`*** Begin Patch` ... `*** End Patch`) or a JSON list of
{"path", "old", "new"} edits. Context that drifted (whitespace, line numbers) is tolerated. All files
are written or none. dry_run=true reports the diff without writing."""

STR_REPLACE = """\
Replace old_str with new_str in one file. old_str must occur exactly once (include surrounding lines
to make it unique), unless replace_all=true replaces every occurrence. Returns the diff."""


def build_server(workspace: Workspace, name: str = "fastapply"):  # -> mcp.server.mcpserver.MCPServer
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer(name, version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")

    async def run(call) -> str:
        try:
            return await call
        except Refusal as exc:
            raise ToolError(str(exc)) from None

    @server.tool(description=EDIT_FILE)
    async def edit_file(
        code_edit: Annotated[str, Field(description="the changed lines, with '... existing code ...' "
                                        "markers for unchanged regions; a new file's whole content")],
        target_filepath: Annotated[str | None, Field(description="the file, relative to the root")] = None,
        instruction: Annotated[str | None, Field(description="one sentence saying what the edit does")] = None,
        path: Annotated[str | None, Field(description="alias of target_filepath")] = None,
    ) -> str:
        return await run(workspace.edit_file(target_filepath or path, code_edit, instruction))

    @server.tool(description=APPLY_PATCH)
    async def apply_patch(
        patch: Annotated[str, Field(description="the patch text or JSON edit list")],
        dry_run: Annotated[bool, Field(description="report without writing")] = False,
        ambiguity: Annotated[Literal["refuse", "first"], Field(
            description="an edit whose text occurs more than once: 'refuse' (default) or 'first' "
                        "(apply it at the first occurrence, as Aider does)")] = "refuse",
    ) -> str:
        return await run(workspace.apply_patch(patch, dry_run, ambiguity))

    @server.tool(description=STR_REPLACE)
    async def str_replace(
        path: Annotated[str, Field(description="the file, relative to the root")],
        old_str: Annotated[str, Field(description="the exact text to replace")],
        new_str: Annotated[str, Field(description="the replacement")],
        replace_all: Annotated[bool, Field(description="replace every occurrence")] = False,
    ) -> str:
        return await run(workspace.str_replace(path, old_str, new_str, replace_all))

    return server
