"""Self-distillation training of an EAGLE head on a tiny random target: it learns, it is deterministic
for a seed, a stopped run resumes to the same head, and the saved head loads and drafts losslessly."""

from __future__ import annotations

import random

import pytest

torch = pytest.importorskip("torch")

from fastapply.spec import HeadDrafter, generate, load_head, new_head  # noqa: E402
from fastapply.spec.train import TrainConfig, distill, load_example, save_trained, train  # noqa: E402


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
                            drafter=HeadDrafter(head, model, prompt, depth=4), k_max=4)
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
                          drafter=HeadDrafter(loaded, model, prompts[0]), k_max=16)
    assert out == reference
    assert stats.forward_passes < 30  # the trained head's drafts are accepted
