"""EAGLE heads: lossless greedy decoding with every draft source, incremental drafting equal to a full
recomputation, save/load, EAGLE-layout checkpoints and refusal of heads that do not fit the target; the
same for heads with a reduced draft vocabulary (EAGLE-3's d2t/t2d maps)."""

from __future__ import annotations

import json
import random

import pytest

torch = pytest.importorskip("torch")

from fastapply.errors import ModelError  # noqa: E402
from fastapply.spec import generate, make_drafter  # noqa: E402
from fastapply.spec.eagle import load_head, new_head, save_head  # noqa: E402
from fastapply.spec.head_drafter import HeadDrafter, HybridDrafter  # noqa: E402
from spec_support import hf_greedy, perturb  # noqa: E402

KS = (1, 4, 16)


def reduced_vocab(reference: list[int]) -> list[int]:
    """A draft vocabulary of 96 of the 512 tokens: half of the reference's tokens and other ones, so
    the target writes tokens both inside and outside it."""
    inside = sorted(set(reference))[::2]
    return [*inside, *[t for t in range(3, 512, 5) if t not in reference][:96 - len(inside)]]


@pytest.fixture(scope="module", params=["llama", "qwen2"])
def tiny(request, make_tiny):
    model = make_tiny(request.param)
    rng = random.Random(7)
    prompt = [rng.randrange(3, 512) for _ in range(120)]
    return model, prompt, hf_greedy(model, prompt, 64), new_head(model, seed=1)


@pytest.fixture(scope="module")
def reduced(tiny):
    model, prompt, reference, _ = tiny
    return new_head(model, seed=3, draft_vocab=reduced_vocab(reference))


def drafter_for(source: str, model, head, prompt: list[int], reference: list[int]):
    if source == "head":
        return HeadDrafter(head, model, prompt, depth=6, min_confidence=0.0)
    copy = make_drafter("automaton", [*prompt, *perturb(reference, 9, 512)])
    if source == "copy":
        return copy
    # Threshold 4: both branches run (long matches copy; right after a perturbed token the head drafts,
    # continuing a short copy draft).
    return HybridDrafter(copy, HeadDrafter(head, model, prompt, depth=6, min_confidence=0.0), min_copy_match=4,
                         head_after=2)


@pytest.mark.parametrize("cache", ["dynamic", "static"])
@pytest.mark.parametrize("k_max", KS)
@pytest.mark.parametrize("source", ["copy", "head", "hybrid", "head_reduced", "hybrid_reduced"])
def test_greedy_matches_generate(tiny, reduced, source: str, k_max: int, cache: str) -> None:
    model, prompt, reference, head = tiny
    if source.endswith("_reduced"):
        source, head = source.removesuffix("_reduced"), reduced
    drafter = drafter_for(source, model, head, prompt, reference)
    out, stats = generate(model, prompt, max_new_tokens=64, eos_token_ids=set(), drafter=drafter, k_max=k_max,
                          cache=cache)
    assert out == reference
    assert len(stats.draft_sources) == len(stats.accepted_lengths) == stats.forward_passes - 1
    used = stats.per_source()
    if source == "head":
        assert used["head"]["passes"] >= 60  # every step drafted by the head (a random head rarely hits)
    if source == "hybrid" and k_max > 1:
        assert used["copy"]["passes"] > 0 and used["copy"]["mean_accepted"] > 1
        assert {"head", "copy+head"} & set(used)


def full_recompute_draft(model, head, sequence: list[int], n: int) -> list[int]:
    """The head's chain computed without any cache: every step reruns the head over all positions."""
    embed, lm_head = model.get_input_embeddings(), model.get_output_embeddings()
    with torch.inference_mode():
        features = model.get_decoder()(input_ids=torch.tensor([sequence[:-1]])).last_hidden_state[0]
        tokens = list(sequence)
        draft: list[int] = []
        for _ in range(n):
            count = features.shape[0]
            out = head(embed(torch.tensor([tokens[1:count + 1]])), features[None],
                       torch.arange(count)[None])[0]
            token = head.to_target(int(head.logits(out[-1:], lm_head).argmax(-1)[0]))
            draft.append(token)
            tokens.append(token)
            features = torch.cat([features, out[-1:]])
    return draft


@pytest.mark.parametrize("vocab", ["full", "reduced"])
def test_incremental_drafts_equal_full_recomputation(tiny, reduced, vocab: str) -> None:
    """Cache, mask and positions of the head's incremental drafting agree with a cache-free rerun, both
    right after the prefill and after verify steps that accepted some drafts."""
    model, prompt, reference, head = tiny
    head = reduced if vocab == "reduced" else head
    drafter = HeadDrafter(head, model, prompt, depth=5, min_confidence=0.0)
    with torch.inference_mode():
        decoder = model.get_decoder()
        drafter.observe(decoder(input_ids=torch.tensor([prompt])).last_hidden_state[0])
    drafter.accept(reference[:1])
    assert drafter.propose(16) == full_recompute_draft(model, head, [*prompt, *reference[:1]], 5)
    # Pretend the target accepted 3 more tokens: features of pending + 2 accepted drafts arrive.
    with torch.inference_mode():
        full = decoder(input_ids=torch.tensor([[*prompt, *reference[:3]]])).last_hidden_state[0]
    drafter.observe(full[len(prompt):len(prompt) + 3])
    drafter.accept(reference[1:4])
    assert drafter.propose(3) == full_recompute_draft(model, head, [*prompt, *reference[:4]], 3)
    assert drafter.propose(2, forced=[7])[0] == 7


@pytest.mark.parametrize("vocab", ["full", "reduced"])
def test_save_load_round_trip(tiny, reduced, tmp_path, vocab: str) -> None:
    model, prompt, reference, head = tiny
    head = reduced if vocab == "reduced" else head
    save_head(head, tmp_path / "head")
    loaded = load_head(tmp_path / "head", model)
    for key, value in head.state_dict().items():
        assert torch.equal(value, loaded.state_dict()[key]), key
    a = HeadDrafter(head, model, prompt, min_confidence=0.0)
    b = HeadDrafter(loaded, model, prompt, min_confidence=0.0)
    with torch.inference_mode():
        features = model.get_decoder()(input_ids=torch.tensor([prompt])).last_hidden_state[0]
    for drafter in (a, b):
        drafter.observe(features)
        drafter.accept(reference[:1])
    assert a.propose(6) == b.propose(6)


def eagle_checkpoint(model, folder, *, bundle_embeddings: bool = True, **config_changes) -> None:
    """A head in the EAGLE authors' layout: their config.json (a Llama/Qwen2 config with one layer) and
    pytorch_model.bin with fc (with bias), layers.0 without input_layernorm and the bundled embeddings."""
    config = model.config.to_dict()
    config.update(num_hidden_layers=1, architectures=[type(model).__name__], **config_changes)
    config.pop("model_type")  # some published configs name the architecture only
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config))
    hidden, vocab = config["hidden_size"], config["vocab_size"]
    reference = new_head(model, seed=5)
    state = {k: v.clone() for k, v in reference.state_dict().items()}
    if bundle_embeddings:
        state["embed_tokens.weight"] = torch.randn(vocab, hidden)
    torch.save(state, folder / "pytorch_model.bin")


def test_loads_an_eagle_layout_checkpoint(tiny, tmp_path) -> None:
    model, prompt, reference, _ = tiny
    eagle_checkpoint(model, tmp_path / "eagle")
    head = load_head(tmp_path / "eagle", model)
    assert isinstance(head.layers[0].input_layernorm, torch.nn.Identity)
    expected = new_head(model, seed=5).state_dict()
    assert all(torch.equal(v, head.state_dict()[k]) for k, v in expected.items())
    out, _ = generate(model, prompt, max_new_tokens=32, eos_token_ids=set(),
                      drafter=HeadDrafter(head, model, prompt, min_confidence=0.0), k_max=4)
    assert out == reference[:32]


@pytest.mark.parametrize("change", [{"hidden_size": 32}, {"vocab_size": 1000}, {"arch": "other"},
                                    {"intermediate_size": 96}])
def test_head_that_does_not_fit_is_refused(tiny, tmp_path, make_tiny, change) -> None:
    model, *_ = tiny
    folder = tmp_path / "bad"
    if "arch" in change:  # a head saved for the other architecture (same sizes)
        other = make_tiny("qwen2" if model.config.model_type == "llama" else "llama")
        save_head(new_head(other), folder)
    elif "intermediate_size" in change:  # the config says one MLP size, the weights have another
        save_head(new_head(model), folder)
        config = json.loads((folder / "config.json").read_text())
        config["intermediate_size"] = 96
        (folder / "config.json").write_text(json.dumps(config))
    else:
        eagle_checkpoint(model, folder, bundle_embeddings=False, **change)
    with pytest.raises(ModelError) as err:
        load_head(folder, model)
    assert err.value.code == "head_incompatible"


def test_confidence_cutoff_shortens_chains_and_stays_lossless(tiny) -> None:
    model, prompt, reference, head = tiny
    full = HeadDrafter(head, model, prompt, depth=6, min_confidence=0.0)
    cut = HeadDrafter(head, model, prompt, depth=6, min_confidence=0.5)
    out_full, stats_full = generate(model, prompt, max_new_tokens=32, eos_token_ids=set(), drafter=full, k_max=16)
    out_cut, stats_cut = generate(model, prompt, max_new_tokens=32, eos_token_ids=set(), drafter=cut, k_max=16)
    assert out_full == out_cut == reference[:32]
    assert cut.drafted < full.drafted


def test_reduced_vocab_drafts_only_its_tokens_in_eagle3_layout(tiny, reduced, tmp_path) -> None:
    model, prompt, reference, _ = tiny
    vocab = reduced_vocab(reference)
    # EAGLE-3's maps: target id = i + d2t[i]; t2d marks the draft vocabulary in the target's.
    assert (reduced.d2t + torch.arange(len(vocab))).tolist() == vocab
    assert reduced.t2d.nonzero().flatten().tolist() == sorted(vocab)
    assert torch.equal(reduced.lm_head.weight, model.get_output_embeddings().weight[vocab])
    drafter = HeadDrafter(reduced, model, prompt, depth=8, min_confidence=0.0)
    out, stats = generate(model, prompt, max_new_tokens=64, eos_token_ids=set(), drafter=drafter, k_max=8)
    assert out == reference
    assert drafter.drafted >= 8 * 50  # it drafted at every step...
    proposed = HeadDrafter(reduced, model, prompt, depth=8, min_confidence=0.0)
    with torch.inference_mode():
        proposed.observe(model.get_decoder()(input_ids=torch.tensor([prompt])).last_hidden_state[0])
    proposed.accept(reference[:1])
    assert set(proposed.propose(8)) <= set(vocab)  # ...and only ever tokens of its vocabulary
    save_head(reduced, tmp_path / "h")
    config = json.loads((tmp_path / "h" / "config.json").read_text())
    assert config["draft_vocab_size"] == len(vocab)


@pytest.mark.parametrize("damage", ["out_of_range", "t2d", "size", "duplicate"])
def test_a_broken_draft_vocabulary_is_refused(tiny, reduced, tmp_path, damage: str) -> None:
    from safetensors.torch import load_file, save_file

    model, *_ = tiny
    folder = save_head(reduced, tmp_path / "bad")
    state = load_file(str(folder / "model.safetensors"))
    if damage == "out_of_range":
        state["d2t"][-1] = 10_000
    elif damage == "t2d":
        state["t2d"][int(state["t2d"].nonzero()[0])] = False
    elif damage == "duplicate":
        state["d2t"][1] = state["d2t"][0] - 1  # draft ids 0 and 1 both map to the same target id
    else:
        config = json.loads((folder / "config.json").read_text())
        config["draft_vocab_size"] = 17
        (folder / "config.json").write_text(json.dumps(config))
    save_file(state, str(folder / "model.safetensors"))
    with pytest.raises(ModelError) as err:
        load_head(folder, model)
    assert err.value.code == "head_incompatible"
