"""`fastapply train-head --model SPEC --data SOURCE... --out DIR`: train an EAGLE draft head."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import ErrorCode, InputError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train-head",
        help="train an EAGLE draft head for a model (self-distillation)",
        description="Train an EAGLE draft head for --model on the model's own greedy answers to merge\n"
        "prompts (self-distillation, as EAGLE does). The answers and the model's hidden states are\n"
        "cached once in DIR/cache; training state is saved in DIR/train_state.pt, so rerunning the\n"
        "same command resumes. The head (config.json + model.safetensors, a few MB) is written to\n"
        "DIR; use it with `fastapply apply/serve --draft-head DIR` or load_model(spec, draft_head=DIR).",
        epilog="examples:\n"
        "  python -m evals.generate --out gen.jsonl --n 200 --seed 0\n"
        "  fastapply train-head --model path/to/smollm2 --data gen.jsonl evals/data --out heads/smollm2\n\n"
        "data: JSONL files with rows {\"original\": ..., \"update\": ..., \"instruction\": ...,\n"
        "\"expected\": ... (used by --answers expected)} or folders of case directories holding\n"
        "original.* and update.* files.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--model", required=True, metavar="SPEC", help="the target: hub id, folder or .gguf file")
    p.add_argument("--data", required=True, nargs="+", metavar="SOURCE", help="JSONL files or case folders")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (also the resume state)")
    p.add_argument("--template", help="prompt template (default: guessed from the model name)")
    p.add_argument("--max-cases", type=int, default=200, help="prompts to distill (default 200)")
    p.add_argument("--max-prompt-tokens", type=int, default=1500, help="skip longer prompts (default 1500)")
    p.add_argument("--max-new-tokens", type=int, default=512, help="answer length cap (default 512)")
    p.add_argument("--epochs", type=int, default=2, help="passes over the cached answers (default 2)")
    p.add_argument("--lr", type=float, default=3e-4, help="AdamW learning rate (default 3e-4)")
    p.add_argument("--max-minutes", type=float, default=0, metavar="M",
                   help="stop training after M minutes, saving the head and the state (rerun to continue); "
                        "0 = no limit (default)")
    p.add_argument("--seed", type=int, default=0, help="seed: same data + seed = same head (default 0)")
    p.add_argument("--draft-vocab", type=int, default=4096, metavar="N",
                   help="draft over the N most frequent tokens of the answers only, with a small LM head of "
                        "the head's own (EAGLE-3's reduced vocabulary: a drafted token then costs an N-row "
                        "instead of a vocabulary-size matmul); 0 = the target's whole vocabulary (default 4096)")
    p.add_argument("--answers", choices=["greedy", "expected"], default="greedy",
                   help="answers to learn from: the model's own greedy ones (self-distillation, one generation "
                        "per prompt; default), or the cases' expected merges where the data has them (teacher "
                        "forcing, one model pass per prompt: ~10x cheaper on a CPU)")
    p.add_argument("--greedy-cases", type=int, default=0, metavar="N",
                   help="with --answers expected: the first N prompts still get the model's greedy answers")
    p.add_argument("--prompt-weight", type=float, default=0.5, metavar="W",
                   help="loss weight of prompt positions (the target's features over the original file "
                        "and the snippet) relative to answer positions; 0 = answers only (default 0.5)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..runtime.loader import load_model
    from ..spec.train import TrainConfig, distill, read_cases, save_trained, train

    for value, name in ((args.max_cases, "--max-cases"), (args.epochs, "--epochs")):
        if value <= 0:
            raise InputError(f"{name} must be positive", code=ErrorCode.INVALID_ARGUMENT)
    if min(args.draft_vocab, args.prompt_weight, args.greedy_cases) < 0:
        raise InputError("--draft-vocab, --prompt-weight and --greedy-cases must not be negative",
                         code=ErrorCode.INVALID_ARGUMENT)
    try:
        cases = read_cases(args.data)
    except (FileNotFoundError, ValueError, KeyError) as exc:
        raise InputError(f"cannot read training data: {exc}", code=ErrorCode.INVALID_ARGUMENT) from exc
    apply_model = load_model(args.model, template=args.template)
    tokenizer, template = apply_model.tokenizer, apply_model.template
    prompts: list[list[int]] = []
    answers: list[list[int] | None] = []
    for case in cases:
        ids = template.encode(tokenizer, case["original"], case["update"], case.get("instruction"))
        if len(ids) > args.max_prompt_tokens:
            continue
        given = None
        if case.get("expected") and args.answers == "expected" and len(prompts) >= args.greedy_cases:
            text = template.predicted_answer(case["expected"])
            given = list(tokenizer(text, add_special_tokens=False)["input_ids"])
        prompts.append(ids)
        answers.append(given)
        if len(prompts) >= args.max_cases:
            break
    if not prompts:
        raise InputError("no training prompt fits --max-prompt-tokens", code=ErrorCode.INVALID_ARGUMENT)
    out = Path(args.out)
    config = TrainConfig(epochs=args.epochs, lr=args.lr, seed=args.seed, max_new_tokens=args.max_new_tokens,
                         draft_vocab=args.draft_vocab, prompt_weight=args.prompt_weight,
                         max_seconds=args.max_minutes * 60)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
               TextColumn("{task.fields[info]}"))
    with Progress(*columns) as bar:
        task = bar.add_task("distill", total=len(prompts), info="")
        files = distill(apply_model.model, prompts, out / "cache", eos_token_ids=apply_model.eos_token_ids,
                        max_new_tokens=args.max_new_tokens, progress=lambda: bar.advance(task), answers=answers)
        task = bar.add_task("train", total=config.epochs * len(files), info="")

        def report(step: int, total: int, parts: dict[str, float]) -> None:
            info = f"feature {parts['feature']:.3f}  token {parts['token']:.3f}  top1 {parts['top1']:.2f}"
            bar.update(task, completed=step, info=info)

        head, means = train(apply_model.model, files, out, config, progress=report)
    save_trained(head, out, target=apply_model.name, means=means, examples=len(files), config=config)
    print(f"head written to {out} (top-1 agreement with the target on the last epoch: "
          f"{means.get('top1', 0):.2%})")
    return 0
