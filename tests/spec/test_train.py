"""Self-distillation training of an EAGLE head on a tiny random target: it learns, it is deterministic
for a seed, a stopped run resumes to the same head, and the saved head loads and drafts losslessly."""

from __future__ import annotations

import random

import pytest

torch = pytest.importorskip("torch")

from fastapply.spec import HeadDrafter, generate, load_head, new_head  # noqa: E402
from fastapply.spec.train import TrainConfig, distill, load_example, save_trained, select_vocab, train  # noqa: E402


@pytest.fixture(scope="module")
def setup(make_tiny, tmp_path_factory):
    model = make_tiny("llama", vocab=128, seed=4)
    rng = random.Random(3)
    prompts = [[rng.randrange(3, 128) for _ in range(24)] for _ in range(6)]
    cache = tmp_path_factory.mktemp("distill")
    files = distill(model, prompts, cache, eos_token_ids=set(), max_new_tokens=40)
    return model, prompts, files


def test_distill_caches_the_targets_own_answers(setup) -> None:
    model, prompts, files = setup
    tokens, features, start = load_example(files[0])
    assert start == len(prompts[0]) and tokens[:start].tolist() == prompts[0]
    ids = torch.tensor([prompts[0]])
    greedy = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=40,
                            pad_token_id=0)[0]
    assert tokens.tolist() == greedy.tolist()
    assert features.shape == (len(tokens), model.config.hidden_size)
    before = files[0].stat().st_mtime_ns
    distill(model, prompts, files[0].parent, eos_token_ids=set(), max_new_tokens=40)  # reused, not redone
    assert files[0].stat().st_mtime_ns == before


def acceptance(model, head, prompts) -> float:
    accepted = []
    for prompt in prompts:
        _, stats = generate(model, prompt, max_new_tokens=40, eos_token_ids=set(),
                            drafter=HeadDrafter(head, model, prompt, depth=4, min_confidence=0.0), k_max=4)
        accepted += stats.accepted_lengths
    return sum(accepted) / len(accepted)


def test_training_learns_and_is_deterministic_and_resumable(setup, tmp_path) -> None:
    model, prompts, files = setup
    config = TrainConfig(epochs=30, lr=5e-3, seed=7, save_every=25)
    trained, means = train(model, files, tmp_path / "a", config)
    untrained = new_head(model, seed=7)
    assert means["top1"] > 0.4
    assert acceptance(model, trained, prompts) > acceptance(model, untrained, prompts) + 0.5

    # The same seed gives the same head; a run stopped after 11 epochs (mid save interval) and restarted gives it too.
    again, _ = train(model, files, tmp_path / "b", config)
    train(model, files, tmp_path / "c", TrainConfig(epochs=11, lr=5e-3, seed=7, save_every=25))
    resumed, _ = train(model, files, tmp_path / "c", config)
    for key, value in trained.state_dict().items():
        assert torch.equal(value, again.state_dict()[key]), key
        assert torch.equal(value, resumed.state_dict()[key]), key
    other, _ = train(model, files, tmp_path / "d", TrainConfig(epochs=1, lr=5e-3, seed=8))
    assert not torch.equal(other.fc.weight, trained.fc.weight)

    folder = save_trained(trained, tmp_path / "out", target="tiny", means=means, examples=len(files),
                          config=config)
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "model.safetensors"]
    loaded = load_head(folder, model)
    ids = torch.tensor([prompts[0]])
    reference = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=40,
                               pad_token_id=0)[0, len(prompts[0]):].tolist()
    out, stats = generate(model, prompts[0], max_new_tokens=40, eos_token_ids=set(),
                          drafter=HeadDrafter(loaded, model, prompts[0], min_confidence=0.0), k_max=16)
    assert out == reference
    assert stats.forward_passes < 30  # the trained head's drafts are accepted


def test_select_vocab_ranks_answer_tokens_first(setup) -> None:
    files = setup[2]
    vocab = select_vocab(files, 20)
    assert vocab == select_vocab(list(reversed(files)), 20) and len(vocab) == len(set(vocab)) == 20
    counts: dict[int, int] = {}
    for path in files:
        tokens, _, start = load_example(path)
        for token in tokens[start:].tolist():
            counts[token] = counts.get(token, 0) + 1
    assert min(counts.get(t, 0) for t in vocab) >= max(c for t, c in counts.items() if t not in vocab)
    everything = select_vocab(files, 10_000)  # fewer distinct tokens than asked: all of them, answers first
    assert set(everything) == {t for p in files for t in load_example(p)[0].tolist()}


def test_a_reduced_vocab_head_learns_and_drafts_losslessly(setup, tmp_path) -> None:
    """A 48-token draft vocabulary (of 128): its own LM head maps back to target ids correctly, or the
    trained head's drafts would never be accepted."""
    model, prompts, files = setup
    config = TrainConfig(epochs=30, lr=5e-3, seed=7, save_every=1000, draft_vocab=48, prompt_weight=0.5)
    trained, means = train(model, files, tmp_path / "r", config)
    assert trained.draft_vocab_size == 48 and means["top1"] > 0.4
    assert acceptance(model, trained, prompts) > acceptance(model, new_head(model, seed=7), prompts) + 0.5
    folder = save_trained(trained, tmp_path / "out", target="tiny", means=means, examples=len(files), config=config)
    loaded = load_head(folder, model)
    assert torch.equal(loaded.d2t, trained.d2t) and torch.equal(loaded.lm_head.weight, trained.lm_head.weight)
    for prompt in prompts[:3]:
        ids = torch.tensor([prompt])
        reference = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=40,
                                   pad_token_id=0)[0, len(prompt):].tolist()
        out, _ = generate(model, prompt, max_new_tokens=40, eos_token_ids={model.config.eos_token_id},
                          drafter=HeadDrafter(loaded, model, prompt, min_confidence=0.0), k_max=16)
        assert out == reference


def test_a_time_limit_stops_training_and_a_rerun_continues(setup, tmp_path) -> None:
    model, _, files = setup
    config = TrainConfig(epochs=3, lr=5e-3, seed=2, save_every=1000, draft_vocab=48)
    whole, _ = train(model, files, tmp_path / "whole", config)
    cut, _ = train(model, files, tmp_path / "cut", TrainConfig(**{**config.__dict__, "max_seconds": 1e-9}))
    assert torch.load(tmp_path / "cut" / "train_state.pt", weights_only=False)["step"] < 3 * len(files)
    assert not torch.equal(cut.fc.weight, whole.fc.weight)
    resumed, _ = train(model, files, tmp_path / "cut", config)
    for key, value in whole.state_dict().items():
        assert torch.equal(value, resumed.state_dict()[key]), key
