"""Model streams start their response at once, so the request timeout cannot bound them:
--max-generation-s stops a long generation between chunks with an in-band error event."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from svc_support import FakeModel, LiveServer, scrape, sse_events

from fastapply.service import Settings

UPDATE = "".join(f"line_{i} = {i}\n" for i in range(40))  # ~500 characters: ~60 chunks of 8


@pytest.fixture(scope="module")
def slow_stream() -> FakeModel:
    return FakeModel(name="slow-stream", chunk_delay_s=0.05)  # the whole stream takes ~3 s


@pytest.fixture(scope="module")
def limited(slow_stream: FakeModel) -> Iterator[LiveServer]:
    server = LiveServer(Settings(executor="thread", log_level="error", max_generation_s=0.5),
                        [slow_stream]).start()
    try:
        yield server
    finally:
        server.stop()


def test_apply_stream_stops_at_the_generation_limit(limited, slow_stream):
    slow_stream.closed_early.clear()
    started = time.perf_counter()
    with limited.client() as http:
        response = http.post("/v1/apply", json={"initial_code": "a = 1\n", "edit_snippet": UPDATE,
                                                "model": "slow-stream", "stream": True})
        metrics = http.get("/metrics").text
    elapsed = time.perf_counter() - started
    events = [json.loads(data) for data in sse_events(response.text) if data != "[DONE]"]
    assert response.status_code == 200
    assert 0.5 <= elapsed < 2.0
    deltas = [event["delta"] for event in events if "delta" in event]
    assert deltas and UPDATE.startswith("".join(deltas)) and len("".join(deltas)) < len(UPDATE)
    error = events[-1]["error"]
    assert error["code"] == "generation_timeout" and error["details"] == {"max_generation_s": 0.5}
    assert "[DONE]" not in sse_events(response.text) and not any("done" in event for event in events)
    assert slow_stream.closed_early.wait(2)  # the model's iterator was closed: generation stopped
    assert scrape(metrics)['fastapply_refusals_total{code="generation_timeout"}'] >= 1


def test_chat_stream_stops_at_the_generation_limit(limited):
    content = f"<code>a = 1\n</code><update>{UPDATE}</update>"
    with limited.client() as http:
        response = http.post("/v1/chat/completions", json={
            "model": "slow-stream", "stream": True, "messages": [{"role": "user", "content": content}]})
    payloads = sse_events(response.text)
    assert json.loads(payloads[-1])["error"]["code"] == "generation_timeout"
    assert "[DONE]" not in payloads


def test_a_short_stream_is_not_cut(limited):
    with limited.client() as http:
        response = http.post("/v1/apply", json={"initial_code": "a = 1\n", "edit_snippet": "b = 2\n",
                                                "model": "slow-stream", "stream": True})
    events = sse_events(response.text)
    assert events[-1] == "[DONE]"
    text = "".join(json.loads(e).get("delta", "") for e in events[:-1])
    assert text == FakeModel.output("b = 2\n")


def test_the_setting_comes_from_the_environment_and_must_be_positive():
    from fastapply.errors import InputError
    from fastapply.service.settings import from_env

    assert from_env({"FASTAPPLY_MAX_GENERATION_S": "12.5"}).max_generation_s == 12.5
    with pytest.raises(InputError, match="max_generation_s"):
        from_env({"FASTAPPLY_MAX_GENERATION_S": "0"})
