"""The offline replay follows the decode loop step for step."""

from __future__ import annotations

import random

import pytest

from evals.replay import Replay, simulate
from fastapply.spec import make_drafter


def test_replay_counts_match_a_hand_computed_run() -> None:
    prompt = [5, 6, 7, 8, 9, 10, 11]
    target = [5, 6, 7, 8, 1, 9, 10, 11]
    replay = Replay()
    simulate(make_drafter("automaton", prompt, k_init=64, adaptive=False), target, 64, replay)
    # prefill: 5 (a 1-token match is below min_match) | no draft: 6 | "5 6" matches: draft 7 8 9 10 11
    # (room 5), 7 8 accepted, target writes 1 | no match: 9 | "9" too short: 10 | room 0: 11.
    assert replay.accepted == [0, 2, 0, 0, 0]
    assert replay.forward_passes == 6 and replay.output_tokens == 8
    assert replay.fed_tokens == 1 + 6 + 1 + 1 + 1


@pytest.mark.parametrize("kind", ["automaton", "auto"])
@pytest.mark.parametrize("k_max", [4, 64])
def test_replay_matches_the_real_decode_loop(make_tiny, kind: str, k_max: int) -> None:
    torch = pytest.importorskip("torch")
    from fastapply.spec import generate

    model = make_tiny("llama")
    rng = random.Random(3)
    prompt = [rng.randrange(3, 512) for _ in range(60)]
    out, stats = generate(model, prompt, max_new_tokens=40, eos_token_ids=set(), drafter=None)
    noisy = [t if i % 6 else (t + 1) % 512 for i, t in enumerate(out)]
    text = [*prompt, *noisy]

    def drafter():
        return make_drafter(kind, text, predicted_ids=noisy[::-1])

    with torch.inference_mode():
        real_out, real = generate(model, prompt, max_new_tokens=40, eos_token_ids=set(), drafter=drafter(),
                                  k_max=k_max)
    replay = Replay()
    simulate(drafter(), out, k_max, replay)
    assert real_out == out
    assert replay.accepted == real.accepted_lengths
    assert replay.forward_passes == real.forward_passes
