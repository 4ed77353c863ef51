"""evals.speed's time breakdown: the stages add up to each method's time, the GPU projection follows
from the pass and head-token counts, and the unit costs are measured on a real (tiny) model."""

from __future__ import annotations

import pytest

from evals.speed import time_calls
from evals.speed_breakdown import breakdown, gpu_projection


def run(tokens: int, seconds: float, passes: int, *, prefill: float = 0.0, head_s: float = 0.0, copy_s: float = 0.0,
        head_tokens: int = 0) -> dict:
    return {"tokens": [0] * tokens, "seconds": seconds, "forward_passes": passes, "ttft_s": prefill,
            "prefill_s": prefill, "head_s": head_s, "copy_s": copy_s, "head_tokens": head_tokens}


def test_stages_add_up_to_the_total() -> None:
    rows = breakdown({"hf_greedy": [run(10, 2.0, 10, prefill=0.5)],
                      "ours_copy_head": [run(10, 1.0, 4, prefill=0.25, head_s=0.1, copy_s=0.05)]})
    ours = rows["ours_copy_head"]
    assert ours["ms_per_token"] == pytest.approx(100.0)
    assert ours["prefill_ms_per_token"] == pytest.approx(25.0) and ours["head_ms_per_token"] == pytest.approx(10.0)
    assert sum(ours[f"{k}_ms_per_token"] for k in ("prefill", "verify", "head", "copy")) == pytest.approx(100.0)
    assert rows["hf_greedy"]["verify_ms_per_token"] == pytest.approx(150.0)


def test_gpu_projection_counts_passes_and_head_layers() -> None:
    projected = gpu_projection({"hf_greedy": [run(120, 9.0, 120)], "copy": [run(120, 1.0, 30)],
                                "hybrid": [run(120, 1.0, 30, head_tokens=900)]}, layers=30)
    assert projected == pytest.approx({"hf_greedy": 1.0, "copy": 4.0, "hybrid": 2.0})  # 900 head tokens = 30 passes


def test_time_calls_adds_the_time_of_each_call() -> None:
    class Slow:
        def propose(self, n: int) -> list[int]:
            return list(range(n))

    box = [0.0]
    slow = Slow()
    time_calls(slow, ("propose",), box)
    assert slow.propose(3) == [0, 1, 2] and box[0] > 0


def test_window_costs_on_a_tiny_model() -> None:
    torch = pytest.importorskip("torch")
    from transformers import LlamaConfig, LlamaForCausalLM

    from evals.speed_breakdown import window_costs

    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                         num_attention_heads=2, num_key_value_heads=1)).eval()
    costs = window_costs(model, list(range(3, 40)), (1, 4, 16), repeats=2)
    assert sorted(costs) == [1, 4, 16] and all(value > 0 for value in costs.values())
