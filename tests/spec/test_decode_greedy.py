"""Greedy speculative decoding is token-identical to transformers' plain greedy generate."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from evals.cases import Case  # noqa: E402
from evals.prompting import expected_ids, prompt_ids  # noqa: E402
from fastapply.spec import DecodeStats, generate, iter_decode, make_drafter  # noqa: E402
from spec_support import hf_greedy, perturb  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
KS = (1, 4, 64)


@pytest.fixture(scope="module", params=["llama", "qwen2"])
def tiny(request, make_tiny):
    model = make_tiny(request.param)
    rng = random.Random(7)
    prompt = [rng.randrange(3, 512) for _ in range(120)]
    reference = hf_greedy(model, prompt, 64, None)
    return model, prompt, reference


def drafter_for(source: str, prompt: list[int], reference: list[int], vocab: int):
    noisy = perturb(reference, 9, vocab)
    if source == "automaton":  # the prompt plus a noisy copy of the output, so drafts often hit
        return make_drafter("automaton", [*prompt, *noisy])
    if source == "predicted":
        return make_drafter("predicted", prompt, predicted_ids=noisy)
    if source == "auto":
        return make_drafter("auto", [*prompt, *perturb(reference, 5, vocab)], predicted_ids=noisy)
    return make_drafter(source, prompt)


@pytest.mark.parametrize("k_max", KS)
@pytest.mark.parametrize("source", ["none", "automaton", "predicted", "auto"])
def test_tiny_greedy_matches_generate(tiny, source: str, k_max: int) -> None:
    model, prompt, reference = tiny
    drafter = drafter_for(source, prompt, reference, 512)
    out, stats = generate(model, prompt, max_new_tokens=64, eos_token_ids=set(), drafter=drafter, k_max=k_max)
    assert out == reference
    assert stats.generated_tokens == 64
    assert stats.forward_passes == 1 + len(stats.accepted_lengths)
    assert max(stats.accepted_lengths) <= k_max
    if source != "none" and k_max > 1:
        assert stats.forward_passes < 40  # the drafts were really used


@pytest.mark.parametrize("k_max", KS)
@pytest.mark.parametrize("source", ["automaton", "auto"])
def test_tiny_static_cache_matches_generate(tiny, source: str, k_max: int) -> None:
    """The position-indexed cache: a rollback only moves the write position; stale slots are masked."""
    model, prompt, reference = tiny
    drafter = drafter_for(source, prompt, reference, 512)
    out, _ = generate(model, prompt, max_new_tokens=64, eos_token_ids=set(), drafter=drafter, k_max=k_max,
                      cache="static")
    assert out == reference


@pytest.mark.parametrize("k_max", KS)
def test_tiny_eos_and_max_new_tokens(tiny, k_max: int) -> None:
    model, prompt, reference = tiny
    eos = reference[30]
    expected = hf_greedy(model, prompt, 64, eos)
    assert expected[-1] == eos and len(expected) <= 31
    exact = make_drafter("predicted", prompt, predicted_ids=reference, adaptive=False)
    out, _ = generate(model, prompt, max_new_tokens=64, eos_token_ids={eos}, drafter=exact, k_max=k_max)
    assert out == expected
    exact = make_drafter("predicted", prompt, predicted_ids=reference, adaptive=False)
    out, stats = generate(model, prompt, max_new_tokens=21, eos_token_ids=set(), drafter=exact, k_max=k_max)
    assert out == reference[:21] and stats.generated_tokens == 21


def test_closing_the_generator_stops_decoding(tiny) -> None:
    model, prompt, reference = tiny
    stats = DecodeStats()
    chunks = iter_decode(model, prompt, max_new_tokens=64, eos_token_ids=set(), drafter=None, stats=stats)
    assert next(chunks) == reference[:1]
    assert next(chunks) == reference[1:2]
    chunks.close()
    assert stats.forward_passes == 2 and stats.ttft_s > 0


SMALL_CASE = Case(
    id="greet",
    original='def greet(name):\n    return "Hello " + name\n\n\ndef main():\n    print(greet("world"))\n',
    update='def greet(name, punctuation="!"):\n    return "Hello " + name + punctuation\n\n'
           '# ... existing code ...\n',
    expected='def greet(name, punctuation="!"):\n    return "Hello " + name + punctuation\n\n\n'
             'def main():\n    print(greet("world"))\n',
    filename="greet.py",
)


JS_CASE = Case(
    id="counter",
    original="class Counter {\n  constructor() {\n    this.count = 0;\n  }\n\n  increment() {\n"
             "    this.count += 1;\n  }\n}\n",
    update="// ... existing code ...\n  decrement() {\n    this.count -= 1;\n  }\n}\n",
    expected="class Counter {\n  constructor() {\n    this.count = 0;\n  }\n\n  increment() {\n"
             "    this.count += 1;\n  }\n\n  decrement() {\n    this.count -= 1;\n  }\n}\n",
    filename="counter.js",
)


def example_case() -> Case:
    folder = REPO / "evals" / "examples"
    read = lambda name: (folder / name).read_text(encoding="utf-8")  # noqa: E731
    return Case(id="inventory", original=read("inventory.py"), update=read("inventory.update.py"),
                expected=read("inventory.expected.py"), filename="inventory.py")


@pytest.fixture(scope="module", params=["greet", "counter", "inventory"])
def smol_case(request, smollm2):
    model, tokenizer = smollm2
    case = {"greet": SMALL_CASE, "counter": JS_CASE}.get(request.param) or example_case()
    prompt = prompt_ids(tokenizer, case)
    eos = tokenizer.eos_token_id
    # Every K on the shortest prompt; fewer on the longer ones (each K=1 run costs 48 forward passes).
    ks = {"greet": KS, "counter": (4, 64)}.get(request.param, (64,))
    return model, prompt, expected_ids(tokenizer, case), hf_greedy(model, prompt, 48, eos), eos, ks


@pytest.mark.slow
@pytest.mark.parametrize("source", ["none", "automaton", "predicted", "auto"])
def test_smollm2_greedy_matches_generate(smol_case, source: str) -> None:
    model, prompt, expected, reference, eos, ks = smol_case
    for k_max in ks if source != "none" else (64,):
        # The prediction is the expected merge, as the structural engine would produce it.
        drafter = make_drafter(source, prompt, predicted_ids=expected)
        out, stats = generate(model, prompt, max_new_tokens=48, eos_token_ids={eos}, drafter=drafter,
                              k_max=k_max)
        assert out == reference, (source, k_max)
