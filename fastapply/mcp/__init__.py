"""MCP server for coding agents: `edit_file`, `apply_patch` and `str_replace` on files under a root.

`fastapply mcp` serves the tools over stdio; `fastapply serve` serves them over streamable HTTP at /mcp.
The tool logic (fastapply.mcp.tools) needs only fastapply; the protocol needs the optional `mcp`
package: `pip install 'fastapply[mcp]'`.
"""

from __future__ import annotations

MISSING_SDK = ("the MCP server needs the `mcp` package: pip install 'fastapply[mcp]'")


def require_sdk() -> None:
    """Raise a clear InputError when the `mcp` SDK is not installed."""
    import importlib.util

    from ..errors import ErrorCode, InputError

    if importlib.util.find_spec("mcp") is None:
        raise InputError(MISSING_SDK, code=ErrorCode.INVALID_ARGUMENT)
