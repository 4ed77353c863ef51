"""`--model SPEC`: loaded once per process in the background; /readyz says 503 until it is in memory.

`fastapply.load_model` is replaced by a slow fake here (the runtime lands from the model-path branch);
the service only relies on its interface: `load_model(spec) -> model` with `.name`, `.merge`, `.stream`.
"""

from __future__ import annotations

import time

import fastapply
from svc_support import FakeModel, LiveServer, scrape

from fastapply.service import Settings

BODY = {"initial_code": "a = 1\n", "edit_snippet": "a = 2\n"}


def wait_ready(server: LiveServer, timeout: float = 10) -> dict:
    deadline = time.monotonic() + timeout
    with server.client() as http:
        while time.monotonic() < deadline:
            response = http.get("/readyz")
            if response.status_code == 200:
                return response.json()
            time.sleep(0.05)
    raise AssertionError("never ready")


def test_model_loads_in_the_background(monkeypatch):
    loaded = []

    def slow_load(spec):
        time.sleep(1.0)
        loaded.append(spec)
        return FakeModel(name="apply-tiny")

    monkeypatch.setattr(fastapply, "load_model", slow_load, raising=False)
    server = LiveServer(Settings(model="org/apply-tiny", executor="thread", log_level="error")).start()
    try:
        with server.client() as http:
            assert http.get("/healthz").status_code == 200
            early = http.get("/readyz")
            assert early.status_code == 503 and early.json()["models"] == {"org/apply-tiny": "loading"}
            not_yet = http.post("/v1/apply", json={**BODY, "model": "apply-tiny"})
            assert not_yet.status_code == 503 and not_yet.json()["error"]["code"] == "model_not_ready"
            assert not_yet.headers["retry-after"]
            # The structural engine serves while the model loads.
            assert http.post("/v1/apply", json={**BODY, "model": "fastapply-structural"}).status_code == 200
        assert wait_ready(server)["models"] == {"apply-tiny": "loaded", "org/apply-tiny": "loaded"}
        with server.client() as http:
            merged = http.post("/v1/apply", json={**BODY, "model": "apply-tiny"})
            models = [m["id"] for m in http.get("/v1/models").json()["data"]]
            metrics = http.get("/metrics").text
        assert merged.status_code == 200 and merged.json()["mergedCode"] == FakeModel.output("a = 2\n")
        assert models == ["auto", "fastapply-structural", "apply-tiny"]
        assert scrape(metrics)['fastapply_model_loaded{model="apply-tiny"}'] == 1
        assert loaded == ["org/apply-tiny"]  # once per process
    finally:
        server.stop()


def test_a_model_that_fails_to_load_keeps_readyz_red(monkeypatch):
    def broken(spec):
        raise OSError(f"no such model folder: {spec}")

    monkeypatch.setattr(fastapply, "load_model", broken, raising=False)
    server = LiveServer(Settings(model="/nope", executor="thread", log_level="error")).start()
    try:
        time.sleep(0.3)
        with server.client() as http:
            ready = http.get("/readyz")
            structural = http.post("/v1/apply", json=BODY)
            named = http.post("/v1/apply", json={**BODY, "model": "nope"})
        assert named.status_code == 404 and named.json()["error"]["code"] == "model_not_found"
        assert ready.status_code == 503 and ready.json()["models"]["/nope"].startswith("failed: ")
        assert "no such model folder" in ready.json()["models"]["/nope"]
        assert structural.status_code == 200
    finally:
        server.stop()
