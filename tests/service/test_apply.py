"""POST /v1/apply over real HTTP: both field spellings, output shapes, streaming, engines, errors."""

from __future__ import annotations

import json

import pytest

from fastapply.errors import ErrorCode, MergeError
from fastapply.service import Settings
from fastapply.service import engine as engine_module

from svc_support import FakeModel, LiveServer, lines_300, sse_events

ORIGINAL = "def f():\n    return 1\n"
UPDATE = "def f():\n    return 2\n"


@pytest.mark.parametrize("keys", [("initial_code", "edit_snippet"), ("initialCode", "editSnippet")])
def test_apply_accepts_both_spellings(server, keys):
    with server.client() as http:
        response = http.post("/v1/apply", json={keys[0]: ORIGINAL, keys[1]: UPDATE})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["mergedCode"] == body["merged_code"] == UPDATE
    assert "diff" not in body
    usage = body["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > 0
    assert body["method"] and body["timing_ms"] >= 0


@pytest.mark.parametrize("output", ["full", "diff", "both"])
def test_apply_output_shapes(server, output):
    with server.client() as http:
        body = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": UPDATE,
                                            "output": output, "filename": "f.py"}).json()
    assert ("mergedCode" in body) == (output != "diff")
    assert ("diff" in body) == (output != "full")
    if output != "full":
        assert "-    return 1" in body["diff"] and "+    return 2" in body["diff"]


def test_apply_at_relace_path(server):
    with server.client() as http:
        response = http.post("/v1/code/apply", json={"initialCode": ORIGINAL, "editSnippet": UPDATE})
    assert response.status_code == 200 and response.json()["mergedCode"] == UPDATE


def test_apply_on_a_300_line_file(server):
    original, update = lines_300(1), lines_300(2)
    with server.client() as http:
        body = http.post("/v1/apply", json={"initial_code": original, "edit_snippet": update}).json()
    assert body["mergedCode"] == update


@pytest.mark.parametrize(("payload", "code"), [
    ({"initial_code": ORIGINAL, "edit_snippet": "   \n"}, ErrorCode.EMPTY_UPDATE),
    ({"initial_code": "a\x00b", "edit_snippet": UPDATE}, ErrorCode.NOT_TEXT),
])
def test_apply_error_is_422_with_code(server, payload, code):
    with server.client() as http:
        response = http.post("/v1/apply", json={**payload, "model": "fastapply-structural"})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == code and error["message"] and isinstance(error["details"], dict)


def test_apply_stream_sends_deltas_then_done(server):
    update = lines_300(3)
    with server.client() as http:
        response = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": update,
                                                "stream": True})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = sse_events(response.text)
    assert events[-1] == "[DONE]"
    payloads = [json.loads(event) for event in events[:-1]]
    assert "".join(p["delta"] for p in payloads if "delta" in p) == update
    assert len([p for p in payloads if "delta" in p]) > 1  # several pieces, not one blob
    assert payloads[-1]["done"] is True and payloads[-1]["usage"]["completion_tokens"] > 0


def test_named_model_is_used(server, fake_model):
    with server.client() as http:
        body = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": UPDATE,
                                            "model": fake_model.name}).json()
    assert body["mergedCode"] == FakeModel.output(UPDATE) and body["method"] == "model"
    # Model merges report real token counts, not the character estimate.
    assert body["usage"]["completion_tokens"] == len(FakeModel.output(UPDATE))


def test_unknown_model_is_404(server):
    with server.client() as http:
        response = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": UPDATE,
                                                "model": "gpt-9"})
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "model_not_found" and "gpt-9" in error["message"]
    assert "fake-apply" in error["details"]["models"]


def test_auto_falls_back_to_the_model_when_structural_refuses(server, monkeypatch):
    def refuse(job):
        raise MergeError("cannot place the snippet", code=ErrorCode.ANCHOR_NOT_FOUND)

    monkeypatch.setattr(engine_module, "structural_apply", refuse)
    with server.client() as http:
        auto = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": UPDATE})
        structural = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": UPDATE,
                                                  "model": "fastapply-structural"})
    assert auto.status_code == 200 and auto.json()["mergedCode"] == FakeModel.output(UPDATE)
    assert structural.status_code == 422 and structural.json()["error"]["code"] == ErrorCode.ANCHOR_NOT_FOUND


def test_auto_without_a_model_reports_the_structural_refusal(monkeypatch):
    def refuse(job):
        raise MergeError("cannot place the snippet", code=ErrorCode.AMBIGUOUS_ANCHOR)

    monkeypatch.setattr(engine_module, "structural_apply", refuse)
    server = LiveServer(Settings(executor="thread", log_level="error")).start()  # threads see the patch
    try:
        with server.client() as http:
            response = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": UPDATE})
    finally:
        server.stop()
    assert response.status_code == 422 and response.json()["error"]["code"] == ErrorCode.AMBIGUOUS_ANCHOR


def test_request_id_is_echoed_or_made(server):
    with server.client() as http:
        mine = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": UPDATE},
                         headers={"x-request-id": "agent-42.call-7"})
        made = http.get("/healthz")
        unsafe = http.get("/healthz", headers={"x-request-id": "bad id\twith spaces"})
    assert mine.headers["x-request-id"] == "agent-42.call-7"
    assert len(made.headers["x-request-id"]) == 32
    assert unsafe.headers["x-request-id"] != "bad id\twith spaces"


def test_health_ready_models(server, plain_server):
    with plain_server.client() as http:
        assert http.get("/healthz").json()["status"] == "ok"
        ready = http.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        assert [m["id"] for m in http.get("/v1/models").json()["data"]] == ["auto", "fastapply-structural"]
    with server.client() as http:
        assert http.get("/readyz").json()["models"] == {"fake-apply": "loaded"}


def test_openapi_schema_and_docs_are_served(plain_server):
    with plain_server.client() as http:
        schema = http.get("/schema/openapi.json")
        docs = http.get("/schema")
    assert schema.status_code == 200 and docs.status_code == 200
    paths = schema.json()["paths"]
    expected = ("/v1/apply", "/v1/chat/completions", "/v1/apply/batch", "/v1/models", "/healthz", "/metrics")
    for path in expected:
        assert path in paths
    props = schema.json()["components"]["schemas"]["ApplyRequest"]["properties"]
    assert {"initial_code", "initialCode", "edit_snippet", "editSnippet", "output", "model"} <= set(props)
