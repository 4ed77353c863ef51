"""Prompts for the model path in the harnesses: the Morph/Relace apply format, rendered with the
tokenizer's chat template. Uses the runtime's template registry when it provides one."""

from __future__ import annotations

from typing import Any

from evals.cases import Case

DEFAULT_INSTRUCTION = "Apply the update to the code and output the complete updated file."


def morph_message(original: str, update: str, instruction: str | None = None) -> str:
    return (f"<instruction>{instruction or DEFAULT_INSTRUCTION}</instruction>\n"
            f"<code>{original}</code>\n<update>{update}</update>")


def prompt_ids(tokenizer: Any, case: Case) -> list[int]:
    """Token ids of the full prompt for `case`, ending where the model starts writing the merge."""
    messages = [{"role": "user", "content": morph_message(case.original, case.update, case.instruction)}]
    if getattr(tokenizer, "chat_template", None):
        ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        if hasattr(ids, "keys"):  # transformers 5 may return a BatchEncoding
            ids = ids["input_ids"]
        return list(ids)
    return tokenizer(messages[0]["content"] + "\n", add_special_tokens=True)["input_ids"]


def expected_ids(tokenizer: Any, case: Case) -> list[int]:
    """Token ids of the expected merge as the model would write it (no special tokens)."""
    return tokenizer(case.expected, add_special_tokens=False)["input_ids"]
