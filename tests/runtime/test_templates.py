import random

import pytest

from fastapply.errors import InputError
from fastapply.runtime.templates import COPY, FASTAPPLY, MORPH, get_template, resolve_template, template_for

CODE = "def add(a, b):\n    return a + b\n\n\nprint('héllo ✓')\n"


class PlainTokenizer:
    """A tokenizer without a chat template (only what PromptTemplate touches)."""

    chat_template = None


@pytest.mark.parametrize("template", [FASTAPPLY, MORPH, COPY])
def test_predicted_answer_round_trips(template):
    assert template.extract(template.predicted_answer(CODE)) == CODE


@pytest.mark.parametrize("answer", [
    "```python\n" + CODE + "```\n</updated-code>",
    CODE + "</updated-code>\n<|im_end|>trailing chatter",
    "```\n" + CODE + "```",
])
def test_fastapply_extract_strips_fences_and_stop(answer):
    assert FASTAPPLY.extract(answer) == CODE
    assert COPY.extract(answer) == CODE


def test_copy_template_prefills_the_opening_tag():
    text = COPY.prompt_text(PlainTokenizer(), "old\n", "new\n", None)
    assert text.startswith(COPY.system) and text.endswith("<updated-code>\n")
    assert "<code>\nold\n</code>\n<update>\nnew\n</update>" in text


def test_inner_fences_are_kept():
    markdown = "# Title\n```\ncode\n```\ntext\n"
    assert MORPH.extract(markdown) == markdown
    assert MORPH.extract("```md\n" + markdown + "```\n") == markdown


@pytest.mark.parametrize("template", [FASTAPPLY, MORPH, COPY])
@pytest.mark.parametrize("answer", [
    CODE + "</updated-code>", "```py\n" + CODE + "```\n", "x = '</up'\n</updated-co", "  ```\nq\n```",
    "a\n```\nb\n```\nc", "</updated-code>", "",
])
def test_streaming_extraction_matches_whole_extraction(template, answer):
    rng = random.Random(0)
    whole = template.extract(answer)
    for _ in range(200):
        ex, out, i = template.extractor(), [], 0
        while i < len(answer):
            j = i + rng.randint(1, 6)
            out.append(ex.feed(answer[i:j]))
            i = j
        out.append(ex.finish())
        assert "".join(out) == whole


def test_stop_marker_is_held_back_until_decided():
    ex = FASTAPPLY.extractor()
    assert ex.feed("x = 1</upd") == "x = 1"
    assert ex.feed("ated-code>more") == ""
    assert ex.done


def test_prompt_without_chat_template():
    text = MORPH.prompt_text(PlainTokenizer(), "old\n", "new\n", "rename x")
    assert text == "<instruction>rename x</instruction>\n<code>old\n</code>\n<update>new\n</update>\n\n"
    text = FASTAPPLY.prompt_text(PlainTokenizer(), "old\n", "new\n", None)
    assert text.startswith(FASTAPPLY.system) and text.endswith("<updated-code>")
    assert "<code>old\n</code>" in text and "<update>new\n</update>" in text


def test_prompt_with_chat_template(smollm2_dir):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(smollm2_dir)
    text = FASTAPPLY.prompt_text(tokenizer, "old\n", "new\n", None)
    assert "<|im_start|>system" in text and "<|im_start|>assistant" in text
    assert text.endswith("<|im_start|>assistant\n<updated-code>")
    ids = FASTAPPLY.encode(tokenizer, "old\n", "new\n", None)
    assert tokenizer.decode(ids) == text


def test_template_registry():
    assert template_for("Kortix/FastApply-1.5B-v1.0") is FASTAPPLY
    assert template_for("morph-v3-fast") is MORPH
    assert template_for("relace-apply-3") is MORPH
    assert template_for(None) is FASTAPPLY
    assert get_template("Kortix") is FASTAPPLY and get_template("relace") is MORPH
    assert get_template("copy") is COPY
    assert resolve_template("morph", "Kortix/FastApply") is MORPH
    with pytest.raises(InputError) as err:
        get_template("nope")
    assert err.value.code == "invalid_argument"
