"""Fused Triton kernels for the verification step; same contract as reference.py.

Greedy: one program per (row, position) does a blocked argmax over the vocabulary (vocab tiles, a
running max and first index per lane), compares it with the draft token, and lowers the row's accepted
length with an atomic min at the first mismatch. The next token is then a gather of the argmax at the
accepted position.

Sampling: one program per (row, position) computes the softmax normalizer of logits / temperature in
two tiled passes (max, then sum of exponentials: no online rescaling, so rows whose first tiles are all
-inf after top-p stay finite), reads the draft token's probability, and runs the accept test with its
uniform number (atomic min on the first rejection). A second program per row samples the final token
by inverse CDF over vocab tiles (a running cumulative sum) from p at the accepted position, with the
rejected draft token removed. Top-p is a torch pre-pass (reference.top_p_filter: one sort per
position); a fused nucleus would need a sort or a threshold search inside the kernel, which costs more
than it saves at these sizes. The pre-pass is skipped when top_p >= 1.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from torch import Tensor

from .reference import check_sample_shapes, check_shapes, top_p_filter

MAX_BLOCK_V = 4096


def block_size(vocab: int) -> int:
    return min(triton.next_power_of_2(vocab), MAX_BLOCK_V)


@triton.jit
def greedy_kernel(logits_ptr, stride_lb, stride_lk, stride_lv, draft_ptr, stride_db, draft_len_ptr,
                  best_ptr, accepted_ptr, K, V, BLOCK_V: tl.constexpr):
    b = tl.program_id(0)
    i = tl.program_id(1)
    row = logits_ptr + b.to(tl.int64) * stride_lb + i.to(tl.int64) * stride_lk
    lanes = tl.arange(0, BLOCK_V)
    # Per lane: the best value seen and the first index holding it. Lanes see increasing indices, so a
    # strict > keeps the first index; the final reduction takes the smallest index among lane winners.
    best_val = tl.full([BLOCK_V], float("-inf"), tl.float32)
    best_idx = lanes
    for start in range(0, V, BLOCK_V):
        idx = start + lanes
        x = tl.load(row + idx.to(tl.int64) * stride_lv, mask=idx < V, other=float("-inf")).to(tl.float32)
        better = x > best_val
        best_val = tl.where(better, x, best_val)
        best_idx = tl.where(better, idx, best_idx)
    top = tl.max(best_val, axis=0)
    token = tl.min(tl.where(best_val == top, best_idx, V), axis=0)
    tl.store(best_ptr + b * (K + 1) + i, token)
    n = tl.load(draft_len_ptr + b)
    in_draft = i < n
    d = tl.load(draft_ptr + b.to(tl.int64) * stride_db + i, mask=in_draft, other=-1)
    # accepted starts at draft_len; every mismatching draft position lowers it to its own index.
    tl.atomic_min(accepted_ptr + b, i, mask=in_draft & (d != token))


def verify_greedy(logits: Tensor, draft: Tensor, draft_len: Tensor) -> tuple[Tensor, Tensor]:
    check_shapes(logits, draft, draft_len)
    b, k1, v = logits.shape
    k = k1 - 1
    best = torch.empty((b, k1), dtype=torch.int32, device=logits.device)
    draft_len = draft_len.to(torch.int32).clamp(0, k).contiguous()
    accepted = draft_len.clone()
    draft = draft.to(torch.int32).contiguous()
    if b == 0:
        return accepted.long(), best[:, 0].long()
    greedy_kernel[(b, k1)](logits, logits.stride(0), logits.stride(1), logits.stride(2), draft,
                           max(draft.stride(0), 1), draft_len, best, accepted, k, v, BLOCK_V=block_size(v))
    accepted = accepted.long()
    return accepted, best.gather(1, accepted[:, None]).squeeze(1).long()


@triton.jit
def normalize_kernel(x_ptr, stride_xb, stride_xk, stride_xv, inv_temperature, draft_ptr, stride_db,
                     draft_len_ptr, u_ptr, stride_ub, row_max_ptr, accepted_ptr, K, V,
                     BLOCK_V: tl.constexpr):
    b = tl.program_id(0)
    i = tl.program_id(1)
    row = x_ptr + b.to(tl.int64) * stride_xb + i.to(tl.int64) * stride_xk
    lanes = tl.arange(0, BLOCK_V)
    running_max = tl.full([BLOCK_V], float("-inf"), tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + lanes
        x = tl.load(row + idx.to(tl.int64) * stride_xv, mask=idx < V, other=float("-inf")).to(tl.float32)
        running_max = tl.maximum(running_max, x * inv_temperature)
    top = tl.max(running_max, axis=0)
    running_sum = tl.zeros([BLOCK_V], tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + lanes
        x = tl.load(row + idx.to(tl.int64) * stride_xv, mask=idx < V, other=float("-inf")).to(tl.float32)
        running_sum += tl.exp(x * inv_temperature - top)
    total = tl.sum(running_sum, axis=0)
    tl.store(row_max_ptr + b * (K + 1) + i, top)
    n = tl.load(draft_len_ptr + b)
    in_draft = i < n
    d = tl.load(draft_ptr + b.to(tl.int64) * stride_db + i, mask=in_draft, other=0)
    xd = tl.load(row + d.to(tl.int64) * stride_xv, mask=in_draft, other=float("-inf")).to(tl.float32)
    p_draft = tl.exp(xd * inv_temperature - top) / total
    u = tl.load(u_ptr + b.to(tl.int64) * stride_ub + i, mask=in_draft, other=1.0)
    tl.atomic_min(accepted_ptr + b, i, mask=in_draft & (u >= p_draft))


@triton.jit
def residual_kernel(x_ptr, stride_xb, stride_xk, stride_xv, inv_temperature, draft_ptr, stride_db,
                    draft_len_ptr, u_ptr, stride_ub, row_max_ptr, accepted_ptr, next_ptr, K, V,
                    BLOCK_V: tl.constexpr):
    b = tl.program_id(0)
    a = tl.load(accepted_ptr + b)
    rejected = a < tl.load(draft_len_ptr + b)
    removed = tl.load(draft_ptr + b.to(tl.int64) * stride_db + a, mask=rejected, other=-1)
    top = tl.load(row_max_ptr + b * (K + 1) + a)
    row = x_ptr + b.to(tl.int64) * stride_xb + a.to(tl.int64) * stride_xk
    lanes = tl.arange(0, BLOCK_V)
    # Pass 1: the residual's mass, summed directly (not Z - p(draft), which cancels when p(draft) ~ 1).
    running_sum = tl.zeros([BLOCK_V], tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + lanes
        x = tl.load(row + idx.to(tl.int64) * stride_xv, mask=idx < V, other=float("-inf")).to(tl.float32)
        w = tl.where(idx == removed, 0.0, tl.exp(x * inv_temperature - top))
        running_sum += w
    target = tl.load(u_ptr + b.to(tl.int64) * stride_ub + K + 1) * tl.sum(running_sum, axis=0)
    # Pass 2: the first index whose cumulative weight exceeds the target.
    # Loop-carried scalars start as typed tensors, as the compiler (not the interpreter) requires.
    cumulative = tl.full([], 0.0, tl.float32)
    chosen = tl.full([], V, tl.int32)
    last_positive = tl.full([], 0, tl.int32)
    for start in range(0, V, BLOCK_V):
        idx = start + lanes
        x = tl.load(row + idx.to(tl.int64) * stride_xv, mask=idx < V, other=float("-inf")).to(tl.float32)
        w = tl.where(idx == removed, 0.0, tl.exp(x * inv_temperature - top))
        cdf = tl.cumsum(w, axis=0) + cumulative
        hit = tl.min(tl.where(cdf > target, idx, V), axis=0)
        chosen = tl.minimum(chosen, hit)
        last_positive = tl.maximum(last_positive, tl.max(tl.where(w > 0, idx, 0), axis=0))
        cumulative += tl.sum(w, axis=0)
    # Rounding can leave the target at or above the last cumulative sum: take the last possible token.
    tl.store(next_ptr + b, tl.where(chosen < V, chosen, last_positive))


def verify_sample(logits: Tensor, draft: Tensor, draft_len: Tensor, *, temperature: float, top_p: float,
                  uniforms: Tensor) -> tuple[Tensor, Tensor]:
    k = check_sample_shapes(logits, draft, draft_len, uniforms)
    b, k1, v = logits.shape
    if temperature <= 0:
        return verify_greedy(logits, draft, draft_len)
    x = top_p_filter(logits, top_p) if top_p < 1.0 else logits
    draft_len = draft_len.to(torch.int32).clamp(0, k).contiguous()
    accepted = draft_len.clone()
    draft = draft.to(torch.int32).contiguous()
    u = uniforms.to(torch.float32).contiguous()
    row_max = torch.empty((b, k1), dtype=torch.float32, device=logits.device)
    next_token = torch.empty(b, dtype=torch.int32, device=logits.device)
    if b == 0:
        return accepted.long(), next_token.long()
    common = (x, x.stride(0), x.stride(1), x.stride(2), 1.0 / temperature, draft, max(draft.stride(0), 1),
              draft_len, u, u.stride(0), row_max, accepted)
    normalize_kernel[(b, k1)](*common, k, v, BLOCK_V=block_size(v))
    residual_kernel[(b,)](*common, next_token, k, v, BLOCK_V=block_size(v))
    return accepted.long(), next_token.long()
