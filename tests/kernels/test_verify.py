"""The Triton verification kernels against the torch reference, and the reference against first principles.

On the CPU the kernels run in Triton's interpreter (tests/conftest.py sets TRITON_INTERPRET=1); on CUDA
they are compiled. Shapes stay small because the interpreter is slow.
"""

from __future__ import annotations

import pytest
import torch

from fastapply.kernels import reference

DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(),
                                                                  reason="no CUDA device"))]
# (batch, K, vocab): K in {1, 4, 64}, vocab sizes incl. non-powers of two and one above a vocab tile.
SHAPES = [(1, 1, 1000), (3, 4, 1000), (2, 64, 1000), (2, 4, 49152), (4, 4, 257), (2, 0, 50)]


def triton_impl():
    pytest.importorskip("triton")
    from fastapply.kernels import verify_triton

    return verify_triton


def make_case(batch: int, k: int, vocab: int, *, seed: int, scale: float = 1.0, ties: bool = False,
              device: str = "cpu", dtype: torch.dtype = torch.float32):
    """Random logits and drafts covering: all accepted, none accepted, a mid mismatch, short padded rows."""
    g = torch.Generator().manual_seed(seed)
    if ties:  # few distinct values: many argmax ties, decided by the first index
        logits = torch.randint(0, 3, (batch, k + 1, vocab), generator=g).float()
    else:
        logits = torch.randn(batch, k + 1, vocab, generator=g) * scale
    logits = logits.to(dtype)
    best = logits.float().argmax(dim=-1)
    draft = best[:, :k].clone()
    draft_len = torch.full((batch,), k, dtype=torch.long)
    for row in range(batch):
        kind = row % 4
        if k == 0:
            break
        if kind == 1:  # none accepted
            draft[row, 0] = (draft[row, 0] + 1) % vocab
        elif kind == 2:  # mismatch in the middle
            draft[row, k // 2] = (draft[row, k // 2] + 1) % vocab
        elif kind == 3:  # short draft; padding (here: the target's own tokens and -1) must be ignored
            draft_len[row] = k // 2
            draft[row, k // 2:] = -1 if row % 2 else best[row, k // 2:k]
    return logits.to(device), draft.to(device), draft_len.to(device)


def brute_force_greedy(logits, draft, draft_len):
    accepted, nxt = [], []
    for row in range(logits.shape[0]):
        a = 0
        while a < int(draft_len[row]) and int(logits[row, a].argmax()) == int(draft[row, a]):
            a += 1
        accepted.append(a)
        nxt.append(int(logits[row, a].argmax()))
    return accepted, nxt


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("ties", [False, True])
def test_reference_greedy_matches_brute_force(shape, ties):
    logits, draft, draft_len = make_case(*shape, seed=1, ties=ties)
    accepted, nxt = reference.verify_greedy(logits, draft, draft_len)
    assert (accepted.tolist(), nxt.tolist()) == brute_force_greedy(logits, draft, draft_len)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("ties", [False, True])
def test_triton_greedy_matches_reference(device, shape, ties):
    kernels = triton_impl()
    logits, draft, draft_len = make_case(*shape, seed=2, ties=ties, device=device)
    expected = reference.verify_greedy(logits, draft, draft_len)
    got = kernels.verify_greedy(logits, draft, draft_len)
    assert got[0].tolist() == expected[0].tolist()
    assert got[1].tolist() == expected[1].tolist()
    if shape[1] >= 4:  # the case builder made every kind of row: the comparison is not vacuous
        assert set(expected[0].tolist()) >= {0, shape[1]}


@pytest.mark.parametrize("device", DEVICES)
def test_triton_greedy_bf16_and_strided_logits(device):
    kernels = triton_impl()
    logits, draft, draft_len = make_case(3, 4, 1000, seed=3, device=device, dtype=torch.bfloat16)
    wide = torch.zeros(3, 7, 1200, dtype=torch.bfloat16, device=device)
    wide[:, 1:6, 100:1100] = logits
    view = wide[:, 1:6, 100:1100]  # a non-contiguous view, as a slice of model output would be
    expected = reference.verify_greedy(logits, draft, draft_len)
    got = kernels.verify_greedy(view, draft, draft_len)
    assert [t.tolist() for t in got] == [t.tolist() for t in expected]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("temperature", "top_p"), [(1.0, 1.0), (0.7, 0.9)])
def test_triton_sample_matches_reference(device, shape, temperature, top_p):
    kernels = triton_impl()
    batch, k, vocab = shape
    # Peaked logits so that draft tokens (the argmax) are often accepted and sometimes rejected.
    logits, draft, draft_len = make_case(*shape, seed=4, scale=4.0, device=device)
    uniforms = torch.rand(batch, k + 2, generator=torch.Generator().manual_seed(5)).to(device)
    expected = reference.verify_sample(logits, draft, draft_len, temperature=temperature, top_p=top_p,
                                       uniforms=uniforms)
    got = kernels.verify_sample(logits, draft, draft_len, temperature=temperature, top_p=top_p,
                                uniforms=uniforms)
    assert got[0].tolist() == expected[0].tolist()
    assert (expected[0] <= draft_len).all()
    # Compiled reductions sum in another order than the interpreter: on CUDA a sample at a CDF
    # boundary may land on the neighbour, so there only the inverse-CDF property is required.
    assert_inverse_cdf_samples(got[1], logits, draft, draft_len, got[0], temperature, top_p, uniforms)
    if device == "cpu":
        assert got[1].tolist() == expected[1].tolist()


def assert_inverse_cdf_samples(tokens, logits, draft, draft_len, accepted, temperature, top_p, uniforms):
    """Each token is the inverse-CDF sample of its residual distribution up to float32 rounding."""
    x = reference.top_p_filter(logits, top_p).double().cpu() / temperature
    k = draft.shape[1]
    for row, token in enumerate(tokens.tolist()):
        a = int(accepted[row])
        weights = torch.exp(x[row, a] - x[row, a].max())
        if a < int(draft_len[row]):
            weights[int(draft[row, a])] = 0.0
        cdf = weights.cumsum(0)
        target = float(uniforms[row, k + 1]) * float(cdf[-1])
        before = float(cdf[token] - weights[token])
        tolerance = 1e-4 * float(cdf[-1])
        assert weights[token] > 0 and before - tolerance <= target <= float(cdf[token]) + tolerance


@pytest.mark.parametrize("device", DEVICES)
def test_triton_sample_accepts_and_rejects(device):
    """Many rows, one draft position: accept and reject both occur and the kernels agree on every row."""
    kernels = triton_impl()
    logits, draft, draft_len = make_case(64, 1, 300, seed=6, scale=2.5, device=device)
    draft_len.fill_(1)
    draft = logits[:, 0].argmax(dim=-1, keepdim=True)  # the likeliest token: accepted often, not always
    uniforms = torch.rand(64, 3, generator=torch.Generator().manual_seed(7)).to(device)
    expected = reference.verify_sample(logits, draft, draft_len, temperature=1.0, top_p=1.0,
                                       uniforms=uniforms)
    got = kernels.verify_sample(logits, draft, draft_len, temperature=1.0, top_p=1.0, uniforms=uniforms)
    assert set(expected[0].tolist()) == {0, 1}
    assert got[0].tolist() == expected[0].tolist()
    assert_inverse_cdf_samples(got[1], logits, draft, draft_len, got[0], 1.0, 1.0, uniforms)
    if device == "cpu":
        assert got[1].tolist() == expected[1].tolist()
    rejected = expected[0] == 0
    assert (expected[1][rejected] != draft[rejected, 0]).all()  # the rejected token is never resampled


@pytest.mark.parametrize("device", DEVICES)
def test_sample_with_zero_temperature_is_greedy(device):
    kernels = triton_impl()
    logits, draft, draft_len = make_case(3, 4, 1000, seed=8, device=device)
    uniforms = torch.rand(3, 6).to(device)
    for impl in (reference, kernels):
        got = impl.verify_sample(logits, draft, draft_len, temperature=0.0, top_p=1.0, uniforms=uniforms)
        expected = reference.verify_greedy(logits, draft, draft_len)
        assert [t.tolist() for t in got] == [t.tolist() for t in expected]


def test_top_p_keeps_ties_together_and_the_top_token():
    logits = torch.log(torch.tensor([[0.4, 0.2, 0.2, 0.1, 0.1]]))
    kept = torch.isfinite(reference.top_p_filter(logits, 0.5))[0].tolist()
    assert kept == [True, True, True, False, False]  # 0.4 < 0.5, so both 0.2s are needed and kept
    kept = torch.isfinite(reference.top_p_filter(logits, 0.1))[0].tolist()
    assert kept == [True, False, False, False, False]


def test_reference_sampling_is_lossless():
    """The first emitted token's distribution equals p_0, whatever the (fixed) draft proposes."""
    n, vocab = 200_000, 6
    g = torch.Generator().manual_seed(9)
    logits = torch.randn(1, 3, vocab, generator=g) * 1.5
    temperature, top_p = 0.8, 0.9
    filtered = reference.top_p_filter(logits[0, 0], top_p) / temperature
    p0 = torch.softmax(filtered, dim=-1)
    for token in range(vocab):  # includes a token outside the nucleus: it must never be accepted
        draft = torch.tensor([[token, 1]]).expand(n, 2)
        uniforms = torch.rand(n, 4, generator=g)
        accepted, nxt = reference.verify_sample(logits.expand(n, 3, vocab), draft, torch.full((n,), 2),
                                                temperature=temperature, top_p=top_p, uniforms=uniforms)
        first = torch.where(accepted > 0, draft[:, 0], nxt)
        freq = torch.bincount(first, minlength=vocab).double() / n
        assert torch.allclose(freq, p0.double(), atol=0.006), (token, freq, p0)


def test_shape_errors():
    logits = torch.zeros(2, 5, 10)
    with pytest.raises(ValueError):
        reference.verify_greedy(logits, torch.zeros(2, 3, dtype=torch.long), torch.zeros(2, dtype=torch.long))
    with pytest.raises(ValueError):
        reference.verify_sample(logits, torch.zeros(2, 4, dtype=torch.long), torch.zeros(2, dtype=torch.long),
                                temperature=1.0, top_p=1.0, uniforms=torch.zeros(2, 5))
