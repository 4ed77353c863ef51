"""An edit shared by the runtime tests, and what the runtime must return for a model's generated ids."""

from __future__ import annotations

ORIGINAL = ("def total(items):\n    return sum(items)\n\n\n"
            "def mean(items):\n    return total(items) / len(items)\n")
UPDATE = ("# ... existing code ...\ndef mean(items):\n    if not items:\n        return 0.0\n"
          "    return total(items) / len(items)\n")


def expected_text(apply_model, ids: list[int], original: str) -> str:
    """The generated ids decoded, the answer extracted, the final newline kept."""
    text = apply_model.template.extract(apply_model.tokenizer.decode(
        [t for t in ids if t not in apply_model.eos_token_ids], skip_special_tokens=True))
    if text and original.endswith("\n") and not text.endswith("\n"):
        text += "\n"
    return text
