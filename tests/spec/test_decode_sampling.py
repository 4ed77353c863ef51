"""Speculative sampling is lossless: its output distribution equals plain sampling's.

A tiny model with a 16-token vocabulary lets us compute the exact distribution of the first four
output tokens (16^4 sequences, scored level by level in batched forward passes). Speculative samples,
drafted from the model's greedy path so that drafts are accepted and rejected often, are compared with
it by chi-square tests on the joint distribution of neighbouring token pairs. Each test fails at
p < 1e-4; with twelve of them (four tests, three pairs each) the false-failure rate is at most 1.2e-3. A deliberately biased sampler (which
accepts drafts twice too often) must fail the same test, which shows the test has power.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import fastapply.spec.decode as decode  # noqa: E402
from fastapply.kernels import verify_sample  # noqa: E402
from fastapply.kernels.reference import top_p_filter  # noqa: E402
from fastapply.spec import Drafter, generate  # noqa: E402

VOCAB = 16
STEPS = 4
PROMPT = [3, 5, 7, 9, 11, 4, 6, 8]
ALPHA = 1e-4


@pytest.fixture(scope="module")
def model(make_tiny):
    return make_tiny("llama", vocab=VOCAB, init=0.1, seed=3)


def probabilities(logits: torch.Tensor, temperature: float, top_p: float) -> torch.Tensor:
    return torch.softmax(top_p_filter(logits, top_p) / temperature, dim=-1)


def exact_joint(model, temperature: float, top_p: float) -> torch.Tensor:
    """P(t1..t4) as a [16, 16, 16, 16] tensor."""
    joint = torch.ones(1)
    prefixes = torch.tensor([PROMPT])
    with torch.inference_mode():
        for _ in range(STEPS):
            logits = model(prefixes).logits[:, -1].float()
            joint = (joint[:, None] * probabilities(logits, temperature, top_p)).reshape(-1)
            prefixes = torch.cat([prefixes.repeat_interleave(VOCAB, 0),
                                  torch.arange(VOCAB).repeat(prefixes.shape[0])[:, None]], dim=1)
    return joint.reshape((VOCAB,) * STEPS).double()


def greedy_path(model) -> list[int]:
    path: list[int] = []
    with torch.inference_mode():
        for _ in range(STEPS):
            path.append(int(model(torch.tensor([PROMPT + path])).logits[0, -1].argmax()))
    return path


class PositionDrafter:
    """Proposes `path[n:]` after n output tokens whatever they are: a custom Drafter whose tokens are
    accepted often (the greedy path) but not always, at every position."""

    def __init__(self, path: list[int]) -> None:
        self.path, self.n = path, 0

    def propose(self, max_tokens: int) -> list[int]:
        return self.path[self.n:self.n + max_tokens]

    def accept(self, tokens: list[int]) -> None:
        self.n += len(tokens)


def draw(model, n: int, temperature: float, top_p: float, drafts: list[int], *, make=None,
         accepted: list[int] | None = None) -> torch.Tensor:
    """`make()` builds a fresh drafter per sample (default: a PositionDrafter over `drafts`); the accepted
    draft lengths of every step are appended to `accepted` when given."""
    counts = torch.zeros((VOCAB,) * STEPS, dtype=torch.float64)
    for seed in range(n):
        drafter = make() if make is not None else PositionDrafter(drafts)
        out, stats = generate(model, PROMPT, max_new_tokens=STEPS, eos_token_ids=set(), drafter=drafter,
                              k_max=STEPS, temperature=temperature, top_p=top_p, seed=seed)
        counts[tuple(out)] += 1
        if accepted is not None:
            accepted.extend(stats.accepted_lengths)
    return counts


def chi_square_p(observed: torch.Tensor, probs: torch.Tensor) -> float:
    """Pearson's goodness of fit; cells expected below 5 are pooled into one."""
    observed, probs = observed.reshape(-1), probs.reshape(-1)
    expected = probs * observed.sum()
    small = expected < 5
    obs = torch.cat([observed[~small], observed[small].sum()[None]])
    exp = torch.cat([expected[~small], expected[small].sum()[None]])
    keep = exp > 0
    obs, exp = obs[keep], exp[keep]
    stat = ((obs - exp) ** 2 / exp).sum()
    dof = torch.tensor(float(len(obs) - 1), dtype=torch.float64)
    return float(torch.special.gammaincc(dof / 2, stat / 2))


def pair_p_values(counts: torch.Tensor, joint: torch.Tensor) -> list[float]:
    pairs = [(0, 1), (1, 2), (2, 3)]
    out = []
    for pair in pairs:
        others = tuple(d for d in range(STEPS) if d not in pair)
        out.append(chi_square_p(counts.sum(dim=others), joint.sum(dim=others)))
    return out


@pytest.mark.parametrize(("temperature", "top_p", "n"), [(1.0, 1.0, 1000), (0.7, 0.9, 800)])
def test_speculative_sampling_matches_the_exact_distribution(model, temperature, top_p, n) -> None:
    joint = exact_joint(model, temperature, top_p)
    assert abs(float(joint.sum()) - 1) < 1e-6
    counts = draw(model, n, temperature, top_p, greedy_path(model))
    p_values = pair_p_values(counts, joint)
    assert min(p_values) > ALPHA, p_values


def test_position_drafter_is_a_drafter() -> None:
    assert isinstance(PositionDrafter([1]), Drafter)


def test_the_chi_square_test_catches_a_biased_sampler(model, monkeypatch) -> None:
    def over_accepting(logits, draft, draft_len, *, temperature, top_p, uniforms):
        k = draft.shape[1]
        biased = uniforms.clone()
        biased[:, :k] /= 2  # accept a draft token with probability min(1, 2 p) instead of p
        return verify_sample(logits, draft, draft_len, temperature=temperature, top_p=top_p, uniforms=biased)

    monkeypatch.setattr(decode, "verify_sample", over_accepting)
    joint = exact_joint(model, 1.0, 1.0)
    counts = draw(model, 600, 1.0, 1.0, greedy_path(model))
    p_values = pair_p_values(counts, joint)
    assert min(p_values) < ALPHA, p_values


@pytest.mark.parametrize("vocab", ["full", "reduced"])
@pytest.mark.parametrize(("temperature", "top_p", "n"), [(0.7, 0.9, 700)])
def test_sampling_with_an_eagle_head_matches_the_exact_distribution(model, temperature, top_p, n, vocab) -> None:
    """The head's point-mass chain drafts (argmax of its own features) go through the same lossless
    acceptance rule; with 16 tokens its drafts are accepted at times and rejected at others. The reduced
    head drafts over 8 of the 16 tokens (the greedy path's and others): the rest are never drafted."""
    from fastapply.spec import HeadDrafter, new_head

    path = greedy_path(model)
    draft_vocab = [*sorted(set(path)), *[t for t in range(VOCAB) if t not in path]][:8]
    head = new_head(model, seed=2, draft_vocab=draft_vocab if vocab == "reduced" else None)
    accepted: list[int] = []
    joint = exact_joint(model, temperature, top_p)
    counts = draw(model, n, temperature, top_p, [],
                  make=lambda: HeadDrafter(head, model, PROMPT, depth=3, min_confidence=0.0), accepted=accepted)
    assert 0 < sum(accepted) and accepted.count(0) > 0  # both outcomes were exercised
    p_values = pair_p_values(counts, joint)
    assert min(p_values) > ALPHA, p_values
