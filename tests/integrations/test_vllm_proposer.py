"""fastapply.integrations.vllm without vLLM: a loop that drives the proposer the way vLLM's model runner
does (rows of token ids on the CPU, the tokens sampled each step, greedy verification against a known
answer), with the real SmolLM2 tokenizer and our copy template."""

from __future__ import annotations

import random
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from fastapply import apply
from fastapply.integrations.vllm import CopyProposals, FastApplyProposer, prompt_parts, structural_candidate
from fastapply.runtime.templates import COPY

K = 16


def source(n: int, tag: str) -> str:
    return "".join(f"def {tag}_{i}(request):\n    value = request.get('{tag}_{i}')\n    return value\n\n\n"
                    for i in range(n))


def case(tokenizer, n: int, tag: str) -> tuple[list[int], list[int]]:
    """(prompt ids, the answer a perfect model writes) for a lazy edit in the middle of a file."""
    original = source(n, tag)
    update = (f"# ... existing code ...\ndef {tag}_{n // 2}(request):\n    value = request.get('{tag}_{n // 2}')\n"
              f"    if value is None:\n        raise KeyError('{tag}')\n    return value\n# ... existing code ...\n")
    merged = apply(original, update).merged_code
    prompt = COPY.encode(tokenizer, original, update, None)
    answer = list(tokenizer(merged + "</updated-code>", add_special_tokens=False)["input_ids"])
    return prompt, answer + [tokenizer.eos_token_id]


@pytest.fixture(scope="module")
def tokenizer(smollm2_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smollm2_dir)


def drive(proposals: CopyProposals, cases: list[tuple[list[int], list[int]]], *, shuffle: bool = False,
          as_torch: bool = False, width: int = 4096) -> tuple[list[int], list[list[int]]]:
    """Run requests to completion as vLLM would: prefill samples one token, then each step verifies the
    drafts greedily (the longest prefix matching the answer, plus one token). Returns the steps each
    request took and the first draft each got."""
    order = list(range(len(cases)))  # order[row] = request
    ids = np.zeros((len(cases), width), dtype=np.int64)
    lengths = [0] * len(cases)
    produced = [0] * len(cases)
    sampled: list[list[int]] = [[] for _ in cases]
    for request, (prompt, answer) in enumerate(cases):
        ids[request, :len(prompt)] = prompt
        ids[request, len(prompt)] = answer[0]
        lengths[request] = len(prompt) + 1
        produced[request] = 1
        sampled[request] = [answer[0]]
    steps = [1] * len(cases)
    first: list[list[int] | None] = [None] * len(cases)
    rng = random.Random(0)
    while any(produced[r] < len(cases[r][1]) for r in range(len(cases))):
        batch_sampled = [sampled[order[row]] for row in range(len(order))]
        batch_lengths = np.array([lengths[order[row]] for row in range(len(order))])
        table = ids[[order[row] for row in range(len(order))]]
        if as_torch:
            import torch

            table = torch.from_numpy(table)
        drafts = proposals.propose(batch_sampled, batch_lengths, table)
        assert len(drafts) == len(order)
        for row, draft in enumerate(drafts):
            request = order[row]
            answer = cases[request][1]
            assert len(draft) <= proposals.k and lengths[request] + len(draft) < proposals.max_model_len
            if produced[request] >= len(answer):  # finished: it stays in the batch, never scheduled
                sampled[request] = []
                continue
            if first[request] is None:
                first[request] = draft
            accepted = 0
            while (accepted < len(draft) and produced[request] + accepted < len(answer)
                   and draft[accepted] == answer[produced[request] + accepted]):
                accepted += 1
            new = answer[produced[request]:produced[request] + accepted + 1]
            ids[request, lengths[request]:lengths[request] + len(new)] = new
            lengths[request] += len(new)
            produced[request] += len(new)
            sampled[request] = new
            steps[request] += 1
        if shuffle:
            rng.shuffle(order)
    return steps, [f or [] for f in first]


def test_prompt_parts_reads_our_templates(tokenizer):
    text = COPY.prompt_text(tokenizer, "a = 1\n", "a = 2\n", None)
    assert prompt_parts(text) == ("a = 1\n", "a = 2\n")
    assert prompt_parts("no tags here") is None


def test_copy_drafts_cut_the_steps(tokenizer):
    cases = [case(tokenizer, 12, "alpha"), case(tokenizer, 20, "beta")]
    steps, _ = drive(CopyProposals(K, 8192), cases)
    plain = [len(answer) for _, answer in cases]  # one step per token without speculation
    assert all(s * 4 < p for s, p in zip(steps, plain)), (steps, plain)


def test_the_structural_candidate_drafts_from_the_first_token(tokenizer):
    cases = [case(tokenizer, 12, "alpha")]
    with_candidate = CopyProposals(K, 8192, candidate=structural_candidate(tokenizer))
    steps_c, first_c = drive(with_candidate, cases)
    steps_a, first_a = drive(CopyProposals(K, 8192), cases)
    answer = cases[0][1]
    assert with_candidate.candidates_used == 1
    assert first_c[0] == answer[1:1 + K]  # aligned with the answer from its start
    assert first_a[0] != answer[1:1 + K]
    assert steps_c[0] < steps_a[0]


def test_rows_that_move_keep_their_drafters(tokenizer):
    cases = [case(tokenizer, 8, f"r{i}") for i in range(4)]
    steady, _ = drive(CopyProposals(K, 8192), cases)
    shuffled, _ = drive(CopyProposals(K, 8192), cases, shuffle=True)
    assert shuffled == steady


def test_torch_rows_and_the_context_limit(tokenizer):
    cases = [case(tokenizer, 8, "t")]
    steps_np, _ = drive(CopyProposals(K, 8192), cases)
    steps_torch, _ = drive(CopyProposals(K, 8192), cases, as_torch=True)
    assert steps_np == steps_torch
    prompt, answer = cases[0]
    tight = CopyProposals(K, len(prompt) + 6)
    drafts = tight.propose([[answer[0]]], np.array([len(prompt) + 1]),
                           np.array([prompt + [answer[0]] + [0] * 8]))
    assert len(drafts[0]) <= 4  # never past max_model_len


def test_rows_without_sampled_tokens_get_no_draft():
    proposals = CopyProposals(K, 1024)
    table = np.array([[1, 2, 3, 4, 9, 1, 2, 0], [5, 6, 7, 0, 0, 0, 0, 0]])
    drafts = proposals.propose([[1, 2], []], np.array([7, 3]), table)
    assert drafts == [[3, 4, 9], []]  # row 0 copies what followed "1 2" in its prompt


def test_fastapply_proposer_takes_vllm_config_without_vllm(tokenizer):
    config = SimpleNamespace(speculative_config=SimpleNamespace(num_speculative_tokens=8),
                             model_config=SimpleNamespace(max_model_len=4096, tokenizer="unused"))
    proposer = FastApplyProposer(config, tokenizer=tokenizer)
    prompt, answer = case(tokenizer, 6, "v")
    table = np.zeros((1, 4096), dtype=np.int64)
    table[0, :len(prompt) + 1] = prompt + [answer[0]]
    drafts = proposer.propose([[answer[0]]], np.array([len(prompt) + 1]), table, None)
    assert drafts == [answer[1:9]]
    proposer.load_model()
    assert "vllm" not in sys.modules
