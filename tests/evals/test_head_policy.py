"""The policy replay of evals.head_policy mirrors the real decode loop: for a tiny random target, a head
and the copy drafter, every policy's replayed steps (draft source, accepted length) equal those of
fastapply.spec.generate with the same HybridDrafter settings."""

from __future__ import annotations

import random

import pytest

torch = pytest.importorskip("torch")

from evals.head_policy import Costs, Prompt, Tally, head_chains, replay  # noqa: E402
from fastapply.spec import HeadDrafter, HybridDrafter, generate, make_drafter  # noqa: E402
from fastapply.spec.train import TrainConfig, distill, load_example, train  # noqa: E402

MAX_NEW = 48


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.set_num_threads(1)
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, initializer_range=0.2,
                         bos_token_id=1, eos_token_id=2, pad_token_id=0)
    model = LlamaForCausalLM(config).eval()
    rng = random.Random(5)
    prompts = [[rng.randrange(3, 128) for _ in range(30)] for _ in range(4)]
    folder = tmp_path_factory.mktemp("policy")
    files = distill(model, prompts, folder / "cache", eos_token_ids=set(), max_new_tokens=MAX_NEW)
    # A briefly trained head with a reduced vocabulary: its drafts are accepted at times, not always.
    head, _ = train(model, files, folder / "head", TrainConfig(epochs=6, lr=5e-3, seed=1, draft_vocab=64))
    # Prompts that hold a perturbed copy of an answer (every 7th token changed): copy matches of all
    # lengths. The cases are the target's greedy answers to those prompts.
    longer = []
    for prompt, path in zip(prompts, files):
        answer = load_example(path)[0][len(prompt):].tolist()
        longer.append([*prompt, *[(t + 1) % 128 if i % 7 == 6 else t for i, t in enumerate(answer)]])
    cases = []
    answers = distill(model, longer, folder / "cache2", eos_token_ids=set(), max_new_tokens=MAX_NEW)
    for prompt, path in zip(longer, answers):
        tokens, features, start = load_example(path)
        case = Prompt(prompt, tokens[start:].tolist())
        with torch.inference_mode():
            case.chains = head_chains(head, model, prompt, case.answer, features, 8)
        cases.append(case)
    return model, head, cases


@pytest.mark.parametrize("policy", [("copy", 0, 0.0, 0), ("head", 0, 0.0, 4), ("head", 0, 0.3, 8),
                                    ("hybrid", 4, 0.0, 4), ("hybrid", 8, 0.2, 6), ("hybrid", 2, 0.5, 2)])
def test_replay_equals_the_decode_loop(setup, policy) -> None:
    model, head, cases = setup
    mode, min_copy_match, confidence, depth = policy
    costs = Costs({1: 0.1, 64: 0.3}, 0.01, 0.002)
    sources = set()
    for case in cases:
        tally = Tally()
        replay(case, policy, costs, MAX_NEW, 16, tally)
        copy = make_drafter("automaton", case.prompt)
        drafter = HeadDrafter(head, model, case.prompt, depth=depth, min_confidence=confidence)
        if mode == "copy":
            drafter = copy
        elif mode == "hybrid":
            drafter = HybridDrafter(copy, drafter, min_copy_match=min_copy_match)
        out, stats = generate(model, case.prompt, max_new_tokens=MAX_NEW, eos_token_ids=set(), drafter=drafter,
                              k_max=16)
        assert out == case.answer
        assert tally.trace == list(zip(stats.draft_sources, stats.accepted_lengths))
        sources |= {s for s, _ in tally.trace}
    if mode == "hybrid" and min_copy_match <= 4:
        assert {"copy", "head"} <= sources or {"copy", "copy+head"} <= sources
