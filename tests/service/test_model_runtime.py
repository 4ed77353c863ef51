"""The real model path end to end: `--model DIR` with a tiny randomly initialised Llama (the SmolLM2
tokenizer), loaded by `fastapply.load_model` at startup, served over HTTP exactly as the library
answers in-process (same text, same refusal)."""

from __future__ import annotations

import json
import time

import pytest
from svc_support import LiveServer, sse_events

from fastapply.errors import ApplyError
from fastapply.service import Settings

ORIGINAL = "def total(items):\n    return sum(items)\n"
UPDATE = "def total(items):\n    return sum(items) + 1\n"
MAX_TOKENS = 12


@pytest.fixture(scope="module")
def tiny_dir(smollm2_dir, tmp_path_factory):
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(smollm2_dir)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=1024,
                         bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                         initializer_range=0.2)
    torch.manual_seed(0)
    out = tmp_path_factory.mktemp("service-tiny-llama")
    LlamaForCausalLM(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def model_server(tiny_dir):
    server = LiveServer(Settings(model=str(tiny_dir), executor="thread", log_level="error")).start()
    deadline = time.monotonic() + 120
    with server.client() as http:
        while http.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, http.get("/readyz").json()
            time.sleep(0.1)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def reference(tiny_dir):
    """What the library itself answers for the same request: (text, error code or None)."""
    import fastapply

    model = fastapply.load_model(tiny_dir)
    chunks: list[str] = []
    try:
        for chunk in model.stream(ORIGINAL, UPDATE, instruction=None, max_new_tokens=MAX_TOKENS):
            chunks.append(chunk)
        error = None
    except ApplyError as exc:
        error = exc.code
    return model.name, "".join(chunks), error


def morph() -> str:
    return f"<code>{ORIGINAL}</code>\n<update>{UPDATE}</update>"


def test_the_loaded_model_is_listed(model_server, reference):
    name = reference[0]
    with model_server.client() as http:
        ids = [m["id"] for m in http.get("/v1/models").json()["data"]]
        ready = http.get("/readyz").json()
    assert ids == ["auto", "fastapply-structural", name]
    assert ready["models"][name] == "loaded"


def test_plain_completion_matches_the_library(model_server, reference):
    name, text, error = reference
    with model_server.client(timeout=60) as http:
        response = http.post("/v1/chat/completions", json={
            "model": name, "max_tokens": MAX_TOKENS, "messages": [{"role": "user", "content": morph()}]})
    if error is None:
        assert response.status_code == 200 and response.json()["choices"][0]["message"]["content"] == text
    else:
        assert response.status_code == 422 and response.json()["error"]["code"] == error


def test_streamed_completion_matches_the_library(model_server, reference):
    name, text, error = reference
    with model_server.client(timeout=60) as http:
        response = http.post("/v1/chat/completions", json={
            "model": name, "max_tokens": MAX_TOKENS, "stream": True,
            "messages": [{"role": "user", "content": morph()}]})
    assert response.status_code == 200
    events = [json.loads(e) for e in sse_events(response.text) if e != "[DONE]"]
    streamed = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e.get("choices"))
    assert streamed == text and streamed  # the model produced text, token by token
    if error is None:
        assert sse_events(response.text)[-1] == "[DONE]"
    else:
        assert events[-1]["error"]["code"] == error


def test_structural_still_serves_beside_the_model(model_server):
    with model_server.client() as http:
        response = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": UPDATE,
                                                "model": "fastapply-structural"})
    assert response.status_code == 200 and response.json()["mergedCode"] == UPDATE
