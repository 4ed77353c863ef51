"""`fastapply mcp`: the help a new user needs to connect an agent, and a clear error for a bad root."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fastapply.cli import main

pytest.importorskip("mcp")


def test_help_names_the_tools_and_how_to_connect(capsys):
    with pytest.raises(SystemExit) as info:
        main(["mcp", "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    for needle in ("edit_file(target_filepath, code_edit, instruction?)", "apply_patch(patch, dry_run=false)",
                   "str_replace(path, old_str, new_str, replace_all=false)", "claude mcp add fastapply",
                   "[mcp_servers.fastapply]", '"mcpServers"', "--root DIR", "--model SPEC", "/mcp"):
        assert needle in text


def test_missing_root_is_a_clear_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "fastapply", "mcp", "--root", str(tmp_path / "nope")],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 1 and "error [file_not_found]" in proc.stderr and "not a folder" in proc.stderr


def test_top_level_help_lists_mcp(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "mcp" in capsys.readouterr().out
