"""Plain torch reference of the verification step; the CPU backend and the oracle for the Triton kernels.

Shapes (the same for every backend):
  logits    [B, K+1, V] float  position 0 scores the token after the last accepted one, position i+1
                               the token after draft token i.
  draft     [B, K] long        proposed tokens, padded beyond draft_len (padding values are ignored).
  draft_len [B] long           how many draft tokens of each row are real (0..K).
Both functions return (accepted [B] long, next_token [B] long): the number of draft tokens kept, and
the target's own token at position `accepted` (the correction, or the bonus token after a full match).
"""

from __future__ import annotations

import torch
from torch import Tensor


def check_shapes(logits: Tensor, draft: Tensor, draft_len: Tensor) -> None:
    if logits.dim() != 3 or draft.dim() != 2 or draft_len.dim() != 1:
        raise ValueError("expected logits [B, K+1, V], draft [B, K], draft_len [B]")
    b, k1, _ = logits.shape
    if draft.shape[0] != b or draft_len.shape[0] != b or k1 != draft.shape[1] + 1:
        raise ValueError(f"shape mismatch: logits {tuple(logits.shape)}, draft {tuple(draft.shape)}, "
                         f"draft_len {tuple(draft_len.shape)}")


def check_sample_shapes(logits: Tensor, draft: Tensor, draft_len: Tensor, uniforms: Tensor) -> int:
    """check_shapes, and uniforms [B, K+2]; returns K."""
    check_shapes(logits, draft, draft_len)
    b, k1, _ = logits.shape
    if uniforms.shape != (b, k1 + 1):
        raise ValueError(f"uniforms must be [B, K+2] = [{b}, {k1 + 1}], got {tuple(uniforms.shape)}")
    return k1 - 1


def prefix_length(match: Tensor) -> Tensor:
    """Length of the leading run of True in each row of a [B, K] bool tensor."""
    return match.to(torch.long).cumprod(dim=1).sum(dim=1)


def valid_mask(draft: Tensor, draft_len: Tensor) -> Tensor:
    positions = torch.arange(draft.shape[1], device=draft.device)
    return positions[None, :] < draft_len[:, None]


def verify_greedy(logits: Tensor, draft: Tensor, draft_len: Tensor) -> tuple[Tensor, Tensor]:
    """Longest draft prefix that equals the target's argmax, and the target's argmax right after it."""
    check_shapes(logits, draft, draft_len)
    best = logits.argmax(dim=-1)  # torch.argmax: the first index among ties
    k = draft.shape[1]
    match = (best[:, :k] == draft) & valid_mask(draft, draft_len)
    accepted = prefix_length(match)
    next_token = best.gather(1, accepted[:, None]).squeeze(1)
    return accepted, next_token


def top_p_filter(logits: Tensor, top_p: float) -> Tensor:
    """Set to -inf every token outside the nucleus of softmax(logits); returns float32 logits.

    The nucleus keeps token j iff the probability mass of tokens strictly more likely than j is below
    top_p. Tokens tied in probability are kept or dropped together, so the result does not depend on
    how a sort orders ties (and the most likely token is always kept).
    """
    x = logits.float()
    if top_p >= 1.0:
        return x
    probs = torch.softmax(x, dim=-1)
    sorted_probs, _ = probs.sort(dim=-1, descending=True)
    mass_before = sorted_probs.cumsum(dim=-1) - sorted_probs
    keep_count = (mass_before < top_p).sum(dim=-1, keepdim=True).clamp(min=1)
    threshold = sorted_probs.gather(-1, keep_count - 1)
    return x.masked_fill(probs < threshold, float("-inf"))


def sample_residual(weights: Tensor, u: Tensor) -> Tensor:
    """Inverse-CDF sampling from unnormalized non-negative weights [B, V] with uniforms u [B].

    Picks the first index whose running sum exceeds u * total. If rounding leaves no such index,
    the last index with positive weight; if no weight is positive, index 0 (callers avoid this).
    """
    cdf = weights.cumsum(dim=-1)
    target = u * cdf[:, -1]
    above = cdf > target[:, None]
    first = torch.where(above.any(dim=-1), above.to(torch.int8).argmax(dim=-1), -1)
    positive = weights > 0
    vocab = torch.arange(weights.shape[-1], device=weights.device)
    last_positive = torch.where(positive, vocab, 0).amax(dim=-1)
    return torch.where(first >= 0, first, last_positive)


def verify_sample(logits: Tensor, draft: Tensor, draft_len: Tensor, *, temperature: float, top_p: float,
                  uniforms: Tensor) -> tuple[Tensor, Tensor]:
    """Lossless speculative sampling with a point-mass draft (Leviathan et al. / Chen et al.).

    p = softmax(top_p_filter(logits) / temperature). Draft token i is accepted iff
    uniforms[:, i] < p_i(draft_i), scanning left to right and stopping at the first rejection. The next
    token is drawn with uniforms[:, K+1] by inverse CDF from p_a with the rejected token removed and
    the rest renormalized, or from p_a itself when every draft token was accepted. uniforms[:, K] is
    unused (the layout is fixed so that callers can draw K+2 numbers per row regardless of draft_len).
    temperature <= 0 means greedy.
    """
    k = check_sample_shapes(logits, draft, draft_len, uniforms)
    b, _, v = logits.shape
    if temperature <= 0:
        return verify_greedy(logits, draft, draft_len)
    x = top_p_filter(logits, top_p) * (1.0 / temperature)  # a multiply, as the kernel does
    weights = torch.exp(x - x.amax(dim=-1, keepdim=True))  # unnormalized p, the max token weighs 1
    total = weights.sum(dim=-1)  # [B, K+1]
    valid = valid_mask(draft, draft_len)
    safe_draft = torch.where(valid, draft, 0)
    draft_weight = weights[:, :k].gather(-1, safe_draft[..., None]).squeeze(-1)
    u = uniforms.float()
    accept = (u[:, :k] < draft_weight / total[:, :k]) & valid
    accepted = prefix_length(accept)
    rows = torch.arange(b, device=logits.device)
    final = weights[rows, accepted].clone()  # [B, V]: p_a, unnormalized
    rejected = accepted < draft_len
    rejected_token = safe_draft.gather(1, accepted.clamp(max=max(k - 1, 0))[:, None]).squeeze(1) \
        if k > 0 else torch.zeros_like(accepted)
    final[rows[rejected], rejected_token[rejected]] = 0.0
    next_token = sample_residual(final, u[:, k + 1])
    return accepted, next_token
