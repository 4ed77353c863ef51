"""fastapply.apply(engine=...) and the CLI's --engine/--model: which engine answers when."""

from __future__ import annotations

import subprocess
import sys

import pytest

import fastapply
import fastapply.merge
from fastapply.errors import MergeError, ModelError
from fastapply.merge import MergeOutcome

ORIGINAL = "def f(x):\n    return x + 1\n"
UPDATE = "def f(x):\n    return x + 2\n"


@pytest.fixture
def structural_ok(monkeypatch):
    def stub(original, update, language):
        return MergeOutcome(text=update, method="stub", segments=1)

    monkeypatch.setattr(fastapply.merge, "merge_snippet", stub)


@pytest.fixture
def structural_fails(monkeypatch):
    def refuse(original, update, language):
        raise MergeError("no anchor", code="anchor_not_found")

    monkeypatch.setattr(fastapply.merge, "merge_snippet", refuse)


@pytest.fixture(scope="module")
def model(tiny_model, eos_at):
    return eos_at(tiny_model, ORIGINAL, UPDATE)[0]


def test_model_engine_needs_a_model():
    with pytest.raises(ModelError) as err:
        fastapply.apply(ORIGINAL, UPDATE, engine="model")
    assert err.value.code == "model_not_configured"


def test_model_engine_uses_the_model(structural_ok, model):
    # A plain-text file: random weights write gibberish, which would fail a grammar's syntax check.
    result = fastapply.apply(ORIGINAL, UPDATE, engine="model", model=model, filename="f.txt")
    assert result.method == "model"
    assert result.stats.generated_tokens > 0 and result.stats.forward_passes > 0


def test_auto_prefers_the_structural_merge(structural_ok, model):
    result = fastapply.apply(ORIGINAL, UPDATE, engine="auto", model=model)
    assert result.method == "stub" and result.merged_code == UPDATE


def test_auto_falls_back_to_the_model(structural_fails, model):
    result = fastapply.apply(ORIGINAL, UPDATE, engine="auto", model=model)
    assert result.method == "model"
    assert "anchor_not_found" in result.warnings[0]


def test_auto_without_a_model_raises_the_structural_error(structural_fails):
    with pytest.raises(MergeError) as err:
        fastapply.apply(ORIGINAL, UPDATE, engine="auto")
    assert err.value.code == "anchor_not_found"


def test_structural_never_uses_the_model(structural_fails, model):
    with pytest.raises(MergeError):
        fastapply.apply(ORIGINAL, UPDATE, engine="structural", model=model)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastapply", *args], capture_output=True, text=True)


def test_cli_engine_options(tmp_path):
    src, upd = tmp_path / "f.py", tmp_path / "u.py"
    src.write_text(ORIGINAL)
    upd.write_text(UPDATE)
    out = run_cli("apply", str(src), "--update", str(upd), "--engine", "model")
    assert out.returncode == 1 and "[model_not_configured]" in out.stderr
    out = run_cli("apply", str(src), "--update", str(upd), "--model", str(tmp_path / "nope.gguf"))
    assert out.returncode == 1 and "[model_not_found]" in out.stderr
    out = run_cli("apply", "--help")
    assert "--engine" in out.stdout and "--model" in out.stdout


def test_cli_model_engine_end_to_end(tmp_path, tiny_llama_dir, capsys):
    from fastapply.cli import main

    src, upd = tmp_path / "f.py", tmp_path / "u.py"
    src.write_text(ORIGINAL)
    upd.write_text(UPDATE)
    # A random model never finishes: the refusal must be the typed truncation error, not a traceback.
    code = main(["apply", str(src), "--update", str(upd), "--engine", "model",
                 "--model", str(tiny_llama_dir)])
    assert code == 1
    assert "[output_truncated]" in capsys.readouterr().err
    assert src.read_text() == ORIGINAL


def test_import_stays_light():
    code = ("import sys, fastapply, fastapply.runtime, fastapply.kernels; fastapply.load_model; "
            "print([m for m in ('torch', 'transformers', 'triton') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
