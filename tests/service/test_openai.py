"""POST /v1/chat/completions with the official `openai` client, plain and streaming, in Morph's format."""

from __future__ import annotations

import time

import httpx
import openai
import pytest
from svc_support import FakeModel, lines_300

from fastapply.service.routes_openai import parse_prompt
from fastapply.service.schemas import ChatMessage

ORIGINAL = "def f():\n    return 1\n"
UPDATE = "def f():\n    return 2\n"


def morph(code: str, update: str, instruction: str | None = None) -> str:
    head = f"<instruction>{instruction}</instruction>\n" if instruction else ""
    return f"{head}<code>{code}</code>\n<update>{update}</update>"


def client_for(server, key: str = "unused") -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url + "/v1", api_key=key, max_retries=0, timeout=10)


def test_chat_completion_plain(server):
    client = client_for(server)
    completion = client.chat.completions.create(
        model="auto", messages=[{"role": "user", "content": morph(ORIGINAL, UPDATE, "return two")}])
    assert completion.object == "chat.completion"
    assert completion.choices[0].message.content == UPDATE
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage.total_tokens > 0


def test_chat_completion_streaming(server):
    update = lines_300(5)
    client = client_for(server)
    stream = client.chat.completions.create(model="fastapply-structural", stream=True,
                                            stream_options={"include_usage": True},
                                            messages=[{"role": "user", "content": morph(ORIGINAL, update)}])
    chunks = list(stream)
    assert all(chunk.object == "chat.completion.chunk" for chunk in chunks)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == update
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finishes == ["stop"]
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens > 0


def test_stream_ends_with_done(server):
    with server.client() as http:
        response = http.post("/v1/chat/completions", json={
            "model": "auto", "stream": True,
            "messages": [{"role": "user", "content": morph(ORIGINAL, UPDATE)}]})
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.text.rstrip().endswith("data: [DONE]")


def test_model_path_streams_through_the_client(server, fake_model):
    client = client_for(server)
    stream = client.chat.completions.create(model=fake_model.name, stream=True,
                                            messages=[{"role": "user", "content": morph(ORIGINAL, UPDATE)}])
    pieces = [c.choices[0].delta.content for c in stream if c.choices and c.choices[0].delta.content]
    assert "".join(pieces) == FakeModel.output(UPDATE) and len(pieces) > 1


def test_disconnect_mid_stream_closes_the_model_iterator():
    # A dedicated slow-streaming model and server, so the check sees only this request.
    from fastapply.service import Settings
    from svc_support import LiveServer

    model = FakeModel(name="dripping", chunk_delay_s=0.05)
    server = LiveServer(Settings(log_level="error"), [model]).start()
    try:
        update = "x = 1\n" * 200  # ~150 chunks at 50 ms: ~7 s if nobody stopped it
        with httpx.Client(base_url=server.url, timeout=10) as http:
            with http.stream("POST", "/v1/chat/completions", json={
                    "model": "dripping", "stream": True,
                    "messages": [{"role": "user", "content": morph(ORIGINAL, update)}]}) as response:
                lines = response.iter_lines()
                got = [next(lines) for _ in range(6)]
                assert any("content" in line for line in got)
        assert model.closed_early.wait(3), "the model's iterator was not closed after the client left"
        assert not model.finished.is_set()
    finally:
        server.stop()


def test_list_content_parts_and_system_message(server):
    with server.client() as http:
        response = http.post("/v1/chat/completions", json={"model": "auto", "messages": [
            {"role": "system", "content": "You merge code."},
            {"role": "user", "content": [{"type": "text", "text": "<code>" + ORIGINAL + "</code>"},
                                         {"type": "text", "text": "<update>" + UPDATE + "</update>"}]}]})
    assert response.status_code == 200
    assert response.json()["choices"][0]["message"]["content"] == UPDATE


def test_missing_update_tag_is_400_naming_the_field(server):
    client = client_for(server)
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(model="auto", messages=[{"role": "user", "content": "<code>x</code>"}])
    error = info.value.body["error"] if "error" in info.value.body else info.value.body
    assert error["code"] == "invalid_request" and "messages[0].content" in error["message"]


def test_unknown_model_raises_not_found(server):
    with pytest.raises(openai.NotFoundError):
        client_for(server).chat.completions.create(
            model="no-such-model", messages=[{"role": "user", "content": morph(ORIGINAL, UPDATE)}])


def test_refused_merge_is_422(server):
    with pytest.raises(openai.UnprocessableEntityError):
        client_for(server).chat.completions.create(
            model="fastapply-structural", messages=[{"role": "user", "content": morph(ORIGINAL, " ")}])


def test_models_list_through_the_client(server, fake_model):
    ids = [model.id for model in client_for(server).models.list()]
    assert ids == ["auto", "fastapply-structural", fake_model.name]


@pytest.mark.parametrize(("content", "expected"), [
    ("<code>a\n</code><update>b\n</update>", (None, "a\n", "b\n")),
    ("<instruction> do it </instruction>\n<code>\na\n\n</code>\n<update>\nb\n\n</update>\n",
     ("do it", "a\n", "b\n")),
    # Code that itself contains the tags is cut at the </code> followed by <update>.
    ("<code>s = '<code></code>'\n</code><update>u\n</update>", (None, "s = '<code></code>'\n", "u\n")),
])
def test_parse_prompt(content, expected):
    assert parse_prompt([ChatMessage(role="user", content=content)]) == expected


def test_parse_prompt_is_fast_on_large_inputs():
    big = "x = 1\n" * 200_000
    started = time.perf_counter()
    parse_prompt([ChatMessage(role="user", content=f"<code>{big}</code><update>{big}</update>")])
    assert time.perf_counter() - started < 0.5


def test_auto_stream_falls_back_to_the_model(server, monkeypatch):
    from fastapply.errors import ErrorCode, MergeError
    from fastapply.service import engine as engine_module

    def refuse(job):
        raise MergeError("cannot place the snippet", code=ErrorCode.ANCHOR_NOT_FOUND)

    monkeypatch.setattr(engine_module, "structural_apply", refuse)
    stream = client_for(server).chat.completions.create(
        model="auto", stream=True, messages=[{"role": "user", "content": morph(ORIGINAL, UPDATE)}])
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == FakeModel.output(UPDATE)


def test_vendor_model_names_mean_auto(server, monkeypatch):
    # Morph's and Relace's clients send their own model names; unchanged, they get `auto`.
    client = client_for(server)
    reply = client.chat.completions.create(model="morph-v3-large",
                                           messages=[{"role": "user", "content": morph(ORIGINAL, UPDATE)}])
    # The response names the engine that merged, not the alias.
    assert reply.choices[0].message.content == UPDATE and reply.model == "fastapply-structural"

    from fastapply.errors import ErrorCode, MergeError
    from fastapply.service import engine as engine_module

    def refuse(job):
        raise MergeError("cannot place the snippet", code=ErrorCode.ANCHOR_NOT_FOUND)

    monkeypatch.setattr(engine_module, "structural_apply", refuse)
    with server.client() as http:  # auto semantics: the structural refusal falls back to the model
        body = http.post("/v1/apply", json={"initialCode": ORIGINAL, "editSnippet": UPDATE,
                                            "model": "relace-apply-3"}).json()
    assert body["mergedCode"] == FakeModel.output(UPDATE)
