"""ApplyModel.merge / stream on tiny random models (and once on the real SmolLM2), against HF generate."""

from __future__ import annotations

import pytest
from runtime_support import ORIGINAL, UPDATE, expected_text

from fastapply.errors import ApplyError, InputError


@pytest.fixture(scope="module", params=["llama", "qwen2"])
def finishing(request, tiny_llama_dir, tiny_qwen2_dir, eos_at):
    import fastapply

    folder = tiny_llama_dir if request.param == "llama" else tiny_qwen2_dir
    return eos_at(fastapply.load_model(folder), ORIGINAL, UPDATE)


@pytest.mark.parametrize("speculation", ["none", "automaton", "predicted", "auto"])
def test_merge_matches_plain_generate(finishing, speculation):
    model, ids = finishing
    result = model.merge(ORIGINAL, UPDATE, speculation=speculation, max_new_tokens=64)
    assert result.method == "model"
    assert result.merged_code == expected_text(model, ids, ORIGINAL)
    stats = result.stats
    assert stats.generated_tokens == len(ids)
    assert 1 <= stats.forward_passes <= len(ids)
    assert stats.prompt_tokens == len(model.template.encode(model.tokenizer, ORIGINAL, UPDATE, None))
    assert stats.prefill_s > 0 and stats.decode_s > 0
    if speculation == "none":
        assert stats.forward_passes == len(ids) and stats.mean_accepted_length == 0


def test_static_kv_cache_gives_the_same_merge(finishing):
    model, ids = finishing
    model.kv_cache = "static"
    try:
        result = model.merge(ORIGINAL, UPDATE, max_new_tokens=64)
    finally:
        model.kv_cache = "dynamic"
    assert result.merged_code == expected_text(model, ids, ORIGINAL)
    assert result.stats.generated_tokens == len(ids)


@pytest.mark.parametrize("k_max", [1, 4, 64])
def test_stream_joins_to_merge(finishing, k_max):
    model, ids = finishing
    chunks = list(model.stream(ORIGINAL, UPDATE, max_new_tokens=64, k_max=k_max))
    assert len(chunks) > 1 and all(chunks)
    assert "".join(chunks) == model.merge(ORIGINAL, UPDATE, max_new_tokens=64, k_max=k_max).merged_code


def test_crlf_and_bom_are_restored(finishing):
    model, ids = finishing
    original = "\ufeff" + ORIGINAL.replace("\n", "\r\n")
    result = model.merge(original, UPDATE, max_new_tokens=64)
    assert result.merged_code == "\ufeff" + expected_text(model, ids, ORIGINAL).replace("\n", "\r\n")
    assert "".join(model.stream(original, UPDATE, max_new_tokens=64)) == result.merged_code


def test_output_truncated(tiny_model):
    with pytest.raises(ApplyError) as err:
        tiny_model.merge(ORIGINAL, UPDATE, speculation="none", max_new_tokens=5)
    assert err.value.code == "output_truncated"
    with pytest.raises(ApplyError):
        "".join(tiny_model.stream(ORIGINAL, UPDATE, max_new_tokens=5))


def test_an_empty_answer_is_refused(tiny_model, eos_at):
    model, ids = eos_at(tiny_model, ORIGINAL, UPDATE, earliest=0)  # stops at its very first token
    assert len(ids) == 1
    with pytest.raises(ApplyError) as err:
        model.merge(ORIGINAL, UPDATE, max_new_tokens=16)
    assert err.value.code == "content_lost"


def test_closing_the_stream_stops_generation(tiny_model):
    calls = []
    hook = tiny_model.model.register_forward_hook(lambda *args: calls.append(1))
    try:
        stream = tiny_model.stream(ORIGINAL, UPDATE, speculation="none", max_new_tokens=200)
        first = next(stream)
        stream.close()
        seen = len(calls)
        assert first and seen < 20  # 200 passes if it ran to the end
        with pytest.raises(StopIteration):
            next(stream)
        assert len(calls) == seen
    finally:
        hook.remove()


def test_sampling_is_reproducible_with_a_seed(finishing):
    model, _ = finishing
    texts = []
    for _ in range(2):
        try:
            texts.append(model.merge(ORIGINAL, UPDATE, temperature=1.5, top_p=0.9, seed=7,
                                     max_new_tokens=12).merged_code)
        except ApplyError as exc:  # the sampled answer may not reach the chosen EOS within 12 tokens
            assert exc.code == "output_truncated"
            texts.append(exc.code)
    assert texts[0] == texts[1]


def test_bad_arguments(tiny_model):
    with pytest.raises(InputError) as err:
        tiny_model.merge(ORIGINAL, UPDATE, speculation="psychic")
    assert err.value.code == "invalid_argument"
    with pytest.raises(InputError):
        tiny_model.stream(ORIGINAL, "   \n")
    with pytest.raises(InputError) as err:
        tiny_model.merge(ORIGINAL * 200, UPDATE)  # longer than the tiny model's 2048 positions
    assert err.value.code == "input_too_large"


@pytest.mark.slow
def test_real_smollm2_matches_generate(smollm2_dir, eos_at):
    """The real 135M model: greedy merge (with and without speculation) equals HF generate."""
    import fastapply

    original = "def f(x):\n    return x + 1\n"
    update = "def f(x):\n    return x + 2\n"
    model, ids = eos_at(fastapply.load_model(smollm2_dir), original, update, steps=12, earliest=4)
    expected = expected_text(model, ids, original)
    for speculation in ("none", "auto"):
        result = model.merge(original, update, speculation=speculation, max_new_tokens=32)
        assert result.merged_code == expected
