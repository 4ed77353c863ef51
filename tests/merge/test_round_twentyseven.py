"""Issue 8, twenty-seventh round: real release edits of tune-88 .. (drawn from crawl-40 / crawl-41
and the new crawl-42 / crawl-43), read case by case."""

from __future__ import annotations

from fastapply import apply

_LOAD = '''def load_model(ckpt_path, device, model_type):
    logger.info("Loading %s model from %s...", model_type, ckpt_path)

    if device == "cpu":
        logger.warning("No GPU being used.")
    if model_type == "text":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "coarse":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "fine":
        ConfigClass = FineGPTConfig
        ModelClass = FineGPT
    else:
        raise NotImplementedError()
    checkpoint = torch.load(ckpt_path, map_location=device)
    gptconf = ConfigClass(**checkpoint["model_args"])
    if model_type == "text":
        vocab = 10_048
    elif model_type == "coarse":
        vocab = 12_096
    elif model_type == "fine":
        vocab = 1_056
    return ModelClass(gptconf), vocab
'''


def test_context_before_a_marker_moves_to_the_branch_it_reads_one_for_one_with() -> None:
    # coqui-tts: two branches with the same body became one condition; the model shows that body
    # and the next branch's header as context before a marker. The body's first copy is under the
    # old first branch, but only the second copy is followed by `elif model_type == "fine":`.
    snippet = '''    # ... existing code ...
    if device == "cpu":
        logger.warning("No GPU being used.")
    if model_type == "text" or model_type == "coarse":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "fine":
    # ... existing code ...
'''
    expected = _LOAD.replace('''    if model_type == "text":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "coarse":
        ConfigClass''', '''    if model_type == "text" or model_type == "coarse":
        ConfigClass''')
    assert apply(_LOAD, snippet, filename="load_model.py").merged_code == expected


def test_context_before_a_marker_that_reads_one_for_one_where_the_walk_paired_it_stays() -> None:
    # the same file, the body shown under an edited first branch followed by its own next line:
    # nothing moves
    snippet = '''    # ... existing code ...
    if device == "cpu":
        logger.warning("No GPU being used.")
    if model_type == "text" or model_type == "chat":
        ConfigClass = GPTConfig
        ModelClass = GPT
    elif model_type == "coarse":
    # ... existing code ...
'''
    expected = _LOAD.replace('if model_type == "text":\n        ConfigClass',
                             'if model_type == "text" or model_type == "chat":\n        ConfigClass')
    assert apply(_LOAD, snippet, filename="load_model.py").merged_code == expected
