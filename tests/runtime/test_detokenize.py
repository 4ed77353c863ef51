import pytest

from fastapply.runtime.detokenize import REPLACEMENT, IncrementalDecoder

TEXT = "naïve café → 東京 🚀🎉 done\n    return 'ü'\n"


@pytest.fixture(scope="module")
def tokenizer(smollm2_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smollm2_dir)


@pytest.mark.parametrize("step", [1, 2, 3])
def test_incremental_decoding_never_splits_characters(tokenizer, step):
    ids = tokenizer(TEXT, add_special_tokens=False)["input_ids"]
    # Byte-level BPE: an emoji spans several tokens, so a naive per-token decode would print U+FFFD.
    assert any(REPLACEMENT in tokenizer.decode([t]) for t in ids)
    decoder = IncrementalDecoder(tokenizer)
    chunks = [decoder.push(ids[i:i + step]) for i in range(0, len(ids), step)] + [decoder.flush()]
    assert "".join(chunks) == TEXT
    assert not any(REPLACEMENT in chunk for chunk in chunks)


def test_skipped_ids_print_nothing(tokenizer):
    eos = tokenizer.convert_tokens_to_ids("<|im_end|>")
    decoder = IncrementalDecoder(tokenizer, skip_ids={eos})
    ids = tokenizer("x = 1", add_special_tokens=False)["input_ids"]
    assert decoder.push(ids) + decoder.push([eos]) + decoder.flush() == "x = 1"
