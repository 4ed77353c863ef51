"""The CLI's safety net and help texts: any failure is one `fastapply: error [code]: message` line."""

from __future__ import annotations

import argparse

import pytest

from fastapply import cli


def run_with(handler, capsys, monkeypatch, debug: bool = False) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    parser.set_defaults(handler=handler)
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    if debug:
        monkeypatch.setenv("FASTAPPLY_DEBUG", "1")
    else:
        monkeypatch.delenv("FASTAPPLY_DEBUG", raising=False)
    code = cli.main([])
    return code, capsys.readouterr().err


def test_os_errors_are_io_error(capsys, monkeypatch):
    def handler(args):
        raise PermissionError(13, "Permission denied", "/ro/m.py")

    code, err = run_with(handler, capsys, monkeypatch)
    assert code == 1 and err == "fastapply: error [io_error]: Permission denied (/ro/m.py)\n"


def test_a_bug_is_one_line_unless_debugging(capsys, monkeypatch):
    def handler(args):
        raise KeyError("boom")

    code, err = run_with(handler, capsys, monkeypatch)
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("fastapply: error [internal_error]: unexpected KeyError: 'boom'")
    assert "FASTAPPLY_DEBUG=1" in err
    code, err = run_with(handler, capsys, monkeypatch, debug=True)
    assert code == 1 and "Traceback" in err and "fastapply: error [internal_error]" in err


@pytest.mark.parametrize(("argv", "needles"), [
    ([], ["apply", "patch", "serve", "COMMAND --help", "examples:", "exit"]),
    (["apply"], ["--update", "--in-place", "examples:", "exit status"]),
    (["patch"], ["--root", "--atomic", "udiff", "search-replace", "v4a", "examples:", "exit status"]),
    (["serve"], ["--port", "--api-key", "--max-generation-s", "--http", "FASTAPPLY_PORT", "examples:"]),
])
def test_help_reads_well(capsys, argv, needles):
    with pytest.raises(SystemExit) as info:
        cli.main([*argv, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for needle in needles:
        assert needle in out, needle
    # Descriptions are wrapped for an 80-100 column terminal.
    assert max(len(line) for line in out.splitlines()) <= 100
