"""A draft head through the runtime, the CLI and the loader: same merged text as plain decoding, per-source
stats, and clear refusals (no head for "eagle", a head that does not fit the model)."""

from __future__ import annotations

import json

import pytest
from runtime_support import ORIGINAL, UPDATE, expected_text

from fastapply.errors import InputError, ModelError


@pytest.fixture(scope="module")
def head_dir(tiny_llama_dir, tmp_path_factory):
    import fastapply
    from fastapply.spec import new_head, save_head

    model = fastapply.load_model(tiny_llama_dir)
    return save_head(new_head(model.model, seed=3), tmp_path_factory.mktemp("head"))


@pytest.fixture(scope="module")
def with_head(tiny_llama_dir, head_dir, eos_at):
    import fastapply

    model = fastapply.load_model(tiny_llama_dir, draft_head=head_dir)
    assert model.draft_head is not None
    copy, ids = eos_at(model, ORIGINAL, UPDATE)
    copy.draft_head = model.draft_head
    copy.head_confidence = 0.0  # a random head is never 50% sure: let it draft, so the head path runs
    return copy, ids


@pytest.mark.parametrize("speculation", ["eagle", "auto"])
def test_merge_with_a_head_matches_plain_decoding(with_head, speculation):
    model, ids = with_head
    result = model.merge(ORIGINAL, UPDATE, speculation=speculation, max_new_tokens=64)
    assert result.merged_code == expected_text(model, ids, ORIGINAL)
    sources = result.stats.draft_sources
    assert sum(entry["passes"] for entry in sources.values()) == result.stats.forward_passes - 1
    if speculation == "eagle":
        assert set(sources) <= {"head", "none"} and sources["head"]["passes"] > 0
    else:
        assert set(sources) <= {"copy", "head", "copy+head", "none"}
    streamed = "".join(model.stream(ORIGINAL, UPDATE, speculation=speculation, max_new_tokens=64))
    assert streamed == result.merged_code


def test_eagle_without_a_head_is_refused(tiny_model):
    with pytest.raises(InputError) as err:
        tiny_model.merge(ORIGINAL, UPDATE, speculation="eagle", max_new_tokens=8)
    assert err.value.code == "model_not_configured"


def test_a_head_for_another_model_is_refused_at_load(tiny_llama_dir, tiny_qwen2_dir, head_dir):
    import fastapply

    with pytest.raises(ModelError) as err:
        fastapply.load_model(tiny_qwen2_dir, draft_head=head_dir)
    assert err.value.code == "head_incompatible"
    with pytest.raises(ModelError) as err:
        fastapply.load_model(tiny_llama_dir, draft_head=head_dir / "missing")
    assert err.value.code == "model_not_found"


def test_train_head_command_then_apply_with_it(tiny_llama_dir, tmp_path, capsys):
    from fastapply.cli import main

    data = tmp_path / "cases.jsonl"
    rows = [{"original": ORIGINAL, "update": UPDATE},
            {"original": ORIGINAL.replace("items", "values"), "update": UPDATE.replace("items", "values")}]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "head"
    args = ["train-head", "--model", str(tiny_llama_dir), "--data", str(data), "--out", str(out),
            "--max-new-tokens", "24", "--epochs", "2", "--draft-vocab", "64"]
    assert main(args) == 0
    assert {p.name for p in out.iterdir()} >= {"config.json", "model.safetensors", "train_state.pt", "cache"}
    config = json.loads((out / "config.json").read_text())
    assert config["eagle"]["examples"] == 2 and config["num_hidden_layers"] == 1
    # The 64 most frequent tokens of the answers (fewer when the answers and prompts hold fewer).
    assert 0 < config["draft_vocab_size"] <= 64 and config["eagle"]["draft_vocab"] == config["draft_vocab_size"]
    assert len(list((out / "cache").iterdir())) == 2
    assert main(args) == 0  # rerun: answers reused from the cache, training already complete

    import fastapply

    assert fastapply.load_model(tiny_llama_dir, draft_head=out).draft_head is not None


def test_apply_draft_head_option_loads_the_head(tiny_llama_dir, tmp_path, capsys):
    from fastapply.cli import main

    original, update = tmp_path / "a.py", tmp_path / "u.py"
    original.write_text(ORIGINAL)
    update.write_text(UPDATE)
    common = [str(original), "-u", str(update), "--engine", "model", "--model", str(tiny_llama_dir)]
    assert main([*["apply"], *common, "--draft-head", str(tmp_path / "nope")]) == 1
    assert "[model_not_found]" in capsys.readouterr().err
    assert main(["apply", str(original), "-u", str(update), "--draft-head", str(tmp_path)]) == 1
    assert "--draft-head needs --model" in capsys.readouterr().err


def test_service_loads_the_draft_head_from_its_settings(tiny_llama_dir, head_dir):
    import anyio

    from fastapply.service.models import Models
    from fastapply.service.settings import Settings, from_env

    settings = from_env({"FASTAPPLY_MODEL": str(tiny_llama_dir), "FASTAPPLY_DRAFT_HEAD": str(head_dir)})
    assert settings.draft_head == str(head_dir)
    registry = Models([settings.model], draft_head=settings.draft_head)
    anyio.run(registry.load_all)
    (model,) = registry.loaded.values()
    assert model.draft_head is not None
    with pytest.raises(InputError):
        Settings(draft_head=str(head_dir)).check()  # a head without a model
