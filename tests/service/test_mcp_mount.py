"""When `fastapply serve` mounts the MCP tools at /mcp: they write files, so not to the open network."""

from __future__ import annotations

import pytest

from fastapply.errors import InputError
from fastapply.service import Settings, create_app

pytest.importorskip("mcp")


def paths(settings: Settings) -> set[str]:
    return {route.path for route in create_app(settings).routes}


def test_mounted_on_loopback_and_with_a_key_but_not_open_to_the_network(tmp_path):
    assert "/mcp" in paths(Settings(log_level="error", mcp_root=str(tmp_path)))
    assert "/mcp" not in paths(Settings(log_level="error", host="0.0.0.0", mcp_root=str(tmp_path)))
    assert "/mcp" in paths(Settings(log_level="error", host="0.0.0.0", api_keys=["k"], mcp_root=str(tmp_path)))
    assert "/mcp" not in paths(Settings(log_level="error", mcp=False))


def test_a_missing_root_is_refused_at_startup(tmp_path):
    with pytest.raises(InputError) as info:
        create_app(Settings(log_level="error", mcp_root=str(tmp_path / "missing")))
    assert "--mcp-root" in info.value.message
