"""Train an EAGLE head by self-distillation: the target's own greedy answers on merge prompts.

    fastapply train-head --model SPEC --data cases.jsonl evals/data --out heads/smollm2
    python -m fastapply.spec.train --model SPEC --data ... --out ...   (the same command)

Stages (each resumable from the files it leaves in --out):
1. distill: per prompt, the target's greedy answer (speculative decoding with copy drafts, so it is
   cheap) and one target pass over prompt + answer for its last hidden states, cached once in
   `out/cache/<hash of the prompt>.safetensors`. Cost: one generation + one O(T) target pass per prompt.
   With `--answers expected` the case's expected merge stands in for the generated answer (teacher
   forcing, as EAGLE-1 trains on fixed data): one target pass per prompt, ~10x cheaper on a CPU.
2. train: EAGLE's loss, feature regression (smooth L1 between the head's predicted feature and the
   target's) plus `ce_weight` x the cross-entropy of the head's token distribution against the
   target's, on the answer positions and, weighted by `prompt_weight`, on the prompt positions (the
   target's features there follow the same dynamics, and they are several times more data). With
   `draft_vocab` N > 0 the head drafts over the N most frequent tokens of the answers (then of the
   prompts) with its own N x H LM head, and the target's distribution is taken over those N tokens.
   Cost per epoch: one head pass + one LM-head matmul (N or V rows) per cached token.
   `out/train_state.pt` (head, optimizer, step) is written every `save_every` steps; a rerun continues.
The result: out/config.json + out/model.safetensors (the head only; never the target's weights).
Deterministic for a seed (same data, same thread count).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch.nn import functional as F

from .eagle import EagleHead, new_head, save_head


@dataclass
class TrainConfig:
    epochs: int = 2
    lr: float = 3e-4
    ce_weight: float = 0.1  # EAGLE-1's weighting of the token loss against the feature loss
    noise: float = 0.1  # uniform noise on input features, as EAGLE: drafting runs on imperfect features
    max_new_tokens: int = 512
    seed: int = 0
    save_every: int = 50
    draft_vocab: int = 0  # N > 0: draft over the N most frequent answer tokens only (EAGLE-3's reduced vocabulary)
    prompt_weight: float = 0.0  # loss weight of prompt positions relative to answer positions
    max_seconds: float = 0.0  # > 0: stop training after this long (state saved: a rerun continues)


def distill(model: Any, prompts: Iterable[list[int]], cache_dir: Path, *, eos_token_ids: set[int],
            max_new_tokens: int, progress: Any = None,
            answers: Iterable[list[int] | None] | None = None) -> list[Path]:
    """Cache (tokens, features, answer start) for each prompt; files already there are reused.

    The answer is the target's own greedy one, or, where `answers` gives one for the prompt, that answer
    (teacher forcing: e.g. the case's expected merge, which costs one target pass instead of a
    generation; the head still learns the target's features and distribution over it)."""
    from itertools import repeat

    from .decode import generate
    from .drafters import make_drafter

    cache_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    decoder = model.get_decoder()
    for prompt, given in zip(prompts, answers if answers is not None else repeat(None)):
        # Named by content, so a rerun with more or reordered data reuses what matches and nothing else.
        name = f"{max_new_tokens}:{prompt}" if given is None else f"given:{max_new_tokens}:{prompt}:{given}"
        path = cache_dir / f"{hashlib.sha256(name.encode()).hexdigest()[:20]}.safetensors"
        if not path.exists():
            if given is None:
                answer, _ = generate(model, prompt, max_new_tokens=max_new_tokens, eos_token_ids=eos_token_ids,
                                     drafter=make_drafter("automaton", prompt))
            else:
                answer = list(given)[:max_new_tokens]
            tokens = torch.tensor([*prompt, *answer])
            with torch.inference_mode():
                features = decoder(input_ids=tokens[None].to(model.device)).last_hidden_state[0]
            _save_example(path, tokens, features.float().cpu(), len(prompt))
        files.append(path)
        if progress is not None:
            progress()
    return files


def _save_example(path: Path, tokens: torch.Tensor, features: torch.Tensor, start: int) -> None:
    from safetensors.torch import save_file

    tmp = path.with_suffix(".tmp")  # a killed run never leaves a half-written example behind
    save_file({"tokens": tokens, "features": features, "start": torch.tensor([start])}, str(tmp))
    tmp.replace(path)


def load_example(path: Path) -> tuple[torch.Tensor, torch.Tensor, int]:
    from safetensors.torch import load_file

    data = load_file(str(path))
    return data["tokens"], data["features"], int(data["start"][0])


def select_vocab(files: list[Path], size: int) -> list[int]:
    """The `size` most frequent target tokens of the cached answers, ties (and the rest, when the answers
    hold fewer distinct tokens) broken by frequency in the prompts, then by id. Deterministic."""
    answers: Counter[int] = Counter()
    prompts: Counter[int] = Counter()
    for path in files:
        tokens, _, start = load_example(path)
        answers.update(tokens[start:].tolist())
        prompts.update(tokens[:start].tolist())
    ranked = sorted(answers.keys() | prompts.keys(), key=lambda t: (-answers[t], -prompts[t], t))
    return ranked[:size]


def example_loss(head: EagleHead, model: Any, tokens: torch.Tensor, features: torch.Tensor, start: int,
                 *, ce_weight: float, noise: float, prompt_weight: float = 0.0) -> tuple[torch.Tensor,
                                                                                        dict[str, float]]:
    """EAGLE loss of one sequence. Pairs (f_t, x_{t+1}) predict f_{t+1}; answer positions weigh 1, prompt
    positions `prompt_weight`. `top1`: how often the head's token is the target's greedy answer token."""
    device = next(head.parameters()).device
    dtype = next(head.parameters()).dtype
    tokens, features = tokens.to(device), features.to(device=device, dtype=dtype)
    count = features.shape[0] - 1
    inputs = features[:-1]
    if noise > 0:
        inputs = inputs + (torch.rand_like(inputs) - 0.5) * 2 * noise
    with torch.no_grad():
        embeds = model.get_input_embeddings()(tokens[1:count + 1][None]).to(dtype)
    predicted = head(embeds, inputs[None], torch.arange(count, device=device)[None])[0]
    first = max(start - 1, 0)  # predicted[first] ~ f_{start}, the feature that predicts the answer's second token
    low = 0 if prompt_weight > 0 else first
    guess, target = predicted[low:], features[low + 1:count + 1]
    weights = torch.ones(len(guess), device=device)
    weights[:first - low] = prompt_weight
    weights = weights / weights.sum()
    feature_loss = (F.smooth_l1_loss(guess, target, reduction="none").mean(-1) * weights).sum()
    lm_head = model.get_output_embeddings()
    with torch.no_grad():  # the target's distribution, over the draft vocabulary when the head has one
        rows = lm_head.weight if head.lm_head is None else lm_head.weight[head.target_ids]
        target_probs = torch.softmax((target @ rows.T).float(), dim=-1)
    guess_logits = head.logits(guess, lm_head).float()
    token_loss = (-(target_probs * torch.log_softmax(guess_logits, dim=-1)).sum(-1) * weights).sum()
    loss = feature_loss + ce_weight * token_loss
    with torch.no_grad():  # answer positions whose next token is in the sequence: tokens[p + 2]
        drafted = guess_logits[first - low:len(tokens) - 2 - low].argmax(-1)
        if head.lm_head is not None:
            drafted = head.target_ids[drafted]
        hits = drafted == tokens[first + 2:]
        hit = hits.float().mean() if len(hits) else torch.tensor(0.0)
    return loss, {"feature": float(feature_loss.detach()), "token": float(token_loss.detach()), "top1": float(hit)}


def train(model: Any, files: list[Path], out: Path, config: TrainConfig, *, head: EagleHead | None = None,
          progress: Any = None) -> tuple[EagleHead, dict[str, float]]:
    """Train (or continue training) a head on cached examples; returns it and the last epoch's means."""
    for param in model.parameters():  # the target is frozen; its embeddings and LM head are shared
        param.requires_grad_(False)
    if head is None:
        reduced = 0 < config.draft_vocab < model.config.vocab_size  # else the target's whole vocabulary
        vocab = select_vocab(files, config.draft_vocab) if reduced else None
        head = new_head(model, seed=config.seed, draft_vocab=vocab)
    head.train()
    optimizer = torch.optim.AdamW(head.parameters(), lr=config.lr)
    out.mkdir(parents=True, exist_ok=True)
    state_path = out / "train_state.pt"
    step = 0
    if state_path.exists():
        state = torch.load(state_path, map_location="cpu", weights_only=False)
        head.load_state_dict(state["head"])
        optimizer.load_state_dict(state["optimizer"])
        step = int(state["step"])
    total = config.epochs * len(files)
    means: dict[str, float] = {}
    deadline = time.monotonic() + config.max_seconds if config.max_seconds > 0 else None
    for epoch in range(config.epochs):
        if deadline is not None and time.monotonic() > deadline:
            break
        order = list(range(len(files)))
        random.Random(config.seed * 1000 + epoch).shuffle(order)
        sums: dict[str, float] = {}
        counted = 0
        for position, index in enumerate(order):
            done = epoch * len(files) + position
            if done < step:  # finished before a restart
                continue
            # Same noise for the same step after a restart, whatever happened before it.
            torch.manual_seed(config.seed * 1_000_003 + done)
            tokens, features, start = load_example(files[index])
            loss, parts = example_loss(head, model, tokens, features, start, ce_weight=config.ce_weight,
                                       noise=config.noise, prompt_weight=config.prompt_weight)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(head.parameters(), 1.0)
            optimizer.step()
            step = done + 1
            for key, value in parts.items():
                sums[key] = sums.get(key, 0.0) + value
            counted += 1
            if progress is not None:
                progress(step, total, parts)
            if step % config.save_every == 0:
                _save_state(state_path, head, optimizer, step)
            if deadline is not None and time.monotonic() > deadline:
                break
        if sums:
            means = {key: value / counted for key, value in sums.items()}
    _save_state(state_path, head, optimizer, step)
    return head.eval(), means


def _save_state(path: Path, head: EagleHead, optimizer: Any, step: int) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save({"head": head.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, tmp)
    tmp.replace(path)


def read_cases(sources: list[str]) -> list[dict[str, str]]:
    """Merge prompts from JSONL files (rows with `original` and `update`, optional `instruction`: the
    eval corpus and evals/generate.py's output) or folders of case directories (original.* + update.*)."""
    cases: list[dict[str, str]] = []
    for source in sources:
        path = Path(source).expanduser()
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    cases.append({k: row[k] for k in ("original", "update", "instruction", "expected") if row.get(k)})
        elif path.is_dir():
            for original in sorted(path.rglob("original.*")):
                updates = sorted(original.parent.glob("update.*"))
                if original.is_file() and updates:
                    cases.append({"original": original.read_text(encoding="utf-8", errors="replace"),
                                  "update": updates[0].read_text(encoding="utf-8", errors="replace")})
        else:
            raise FileNotFoundError(f"no training data at {source}")
    return cases


def save_trained(head: EagleHead, out: Path, *, target: str, means: dict[str, float], examples: int,
                 config: TrainConfig) -> Path:
    extra = {"target": target, "examples": examples, "epochs": config.epochs, "seed": config.seed,
             "draft_vocab": head.draft_vocab_size, "prompt_weight": config.prompt_weight,
             "final": {k: round(v, 4) for k, v in means.items()}}
    return save_head(head, out, extra=extra)


if __name__ == "__main__":
    import sys

    from fastapply.cli import main

    sys.exit(main(["train-head", *sys.argv[1:]]))
