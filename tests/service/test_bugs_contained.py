"""A bug (an unexpected exception) costs one response or one item, as JSON, never the process."""

from __future__ import annotations

import json

import pytest
from svc_support import FakeModel, LiveServer, sse_events

from fastapply.service import Settings


class BrokenModel(FakeModel):
    def merge(self, original, update, **kwargs):
        raise RuntimeError("bug in merge")

    def stream(self, original, update, **kwargs):
        yield "partial "
        raise RuntimeError("bug in stream")


@pytest.fixture(scope="module")
def broken_server():
    server = LiveServer(Settings(executor="thread", log_level="error"), [BrokenModel(name="broken")]).start()
    yield server
    server.stop()


def test_plain_request_gets_json_500(broken_server):
    with broken_server.client() as http:
        response = http.post("/v1/apply", json={"initial_code": "a\n", "edit_snippet": "b\n",
                                                "model": "broken"})
    assert response.status_code == 500 and response.json()["error"]["code"] == "internal_error"
    assert "bug in merge" not in response.text  # internals stay in the log


def test_stream_ends_with_an_error_event(broken_server):
    with broken_server.client() as http:
        response = http.post("/v1/chat/completions", json={"model": "broken", "stream": True, "messages": [
            {"role": "user", "content": "<code>a\n</code><update>b\n</update>"}]})
    events = sse_events(response.text)
    assert json.loads(events[1])["choices"][0]["delta"]["content"] == "partial "
    assert json.loads(events[-1])["error"]["code"] == "internal_error"


def test_batch_item_gets_internal_error(broken_server):
    with broken_server.client() as http:
        body = http.post("/v1/apply/batch", json={"model": "broken", "items": [
            {"path": "a", "initial_code": "a\n", "edit_snippet": "b\n"}]}).json()
    assert body["results"][0]["error"]["code"] == "internal_error" and body["summary"]["failed"] == 1
    with broken_server.client() as http:
        assert http.get("/healthz").status_code == 200
