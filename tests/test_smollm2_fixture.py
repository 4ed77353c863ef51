def test_smollm2_converts_and_loads(smollm2_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(smollm2_dir)
    model = AutoModelForCausalLM.from_pretrained(smollm2_dir)
    ids = tokenizer("def add(a, b):", return_tensors="pt").input_ids
    assert model.config.num_hidden_layers == 30
    assert model(ids).logits.shape[-1] == len(tokenizer) or model.config.vocab_size >= len(tokenizer) - 64
