"""The service in front of an upstream server (`--model openai:URL#MODEL`), here the simulated upstream
of evals/sim_upstream.py on loopback: auto falls back to it, streams pass through, a broken upstream is
an `upstream_failed` error (502, or the stream's last event), /readyz and /metrics report it."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from svc_support import LiveServer, scrape, sse_events

from evals.sim_upstream import MODEL_ID, ThreadServer, create_sim_app
from fastapply.service import Settings

ORIGINAL = "x = 1\ny = 2\n"
REFUSED = "z = 3\n# ... existing code ...\nw = 4\n# ... existing code ...\nq = 5\n"  # anchor_not_found
APPENDED = ORIGINAL + "z = 3\nw = 4\nq = 5\n"  # what the sim answers for an edit it cannot place


@pytest.fixture(scope="module")
def sim():
    with ThreadServer(create_sim_app()) as server:
        yield server


@pytest.fixture(scope="module")
def front(sim):
    server = LiveServer(Settings(model=f"openai:{sim.url}/v1#{MODEL_ID}", executor="thread",
                                 log_level="error")).start()
    deadline = time.monotonic() + 30
    with server.client() as http:
        while http.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, http.get("/readyz").json()
            time.sleep(0.05)
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _reset(sim):
    sim.script(config={}, reset=True)


def test_auto_falls_back_to_the_upstream_only_when_refused(front, sim):
    with front.client() as http:
        plain = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": "x = 1\ny = 3\n"})
        refused = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": REFUSED,
                                               "filename": "a.py"})
    assert plain.json()["method"] != "model" and sim.stats()["requests"] == 1
    assert refused.status_code == 200, refused.text
    assert refused.json()["method"] == "model" and refused.json()["mergedCode"] == APPENDED


def test_streaming_through_the_upstream(front, sim):
    # 50 ms between tokens: the front passes on what each network read brings, so tokens arriving
    # closer together than a busy machine's scheduling delay may share a delta.
    sim.script(config={"tokens_per_s": 20})
    with front.client() as http:
        response = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": REFUSED,
                                                "stream": True})
    events = [json.loads(e) for e in sse_events(response.text) if e != "[DONE]"]
    deltas = [e["delta"] for e in events if "delta" in e]
    assert len(deltas) > 3 and "".join(deltas) == APPENDED
    assert events[-1]["done"] is True and sse_events(response.text)[-1] == "[DONE]"


def test_upstream_failure_is_502_and_a_broken_stream_ends_in_an_error_event(front, sim):
    sim.script("500", "500", "500", "500")
    with front.client() as http:
        failed = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": REFUSED})
    assert failed.status_code == 502 and failed.json()["error"]["code"] == "upstream_failed"
    sim.script("drop:4")
    with front.client() as http:
        response = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": REFUSED,
                                                "stream": True})
    events = [json.loads(e) for e in sse_events(response.text)]
    assert events[-1]["error"]["code"] == "upstream_failed"
    assert not any(e.get("done") for e in events)  # never reported as a finished merge


def test_client_disconnect_cancels_the_upstream_request(front, sim):
    sim.script("hang")
    with httpx.Client(base_url=front.url, timeout=10) as http:
        with http.stream("POST", "/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": REFUSED,
                                                    "stream": True}) as response:
            for line in response.iter_lines():
                if line.startswith("data: "):
                    break  # one delta arrived; now leave
    deadline = time.monotonic() + 10
    while sim.stats()["disconnected"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sim.stats()["disconnected"] == 1 and sim.stats()["active"] == 0


def test_readyz_and_metrics_report_the_upstream(front, sim):
    endpoint = f'endpoint="{sim.url}/v1"'
    with front.client() as http:
        before = scrape(http.get("/metrics").text)
        http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": REFUSED})
        sim.script("500", "500", "500", "500")
        failed = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": REFUSED})
        ready = http.get("/readyz").json()
        samples = scrape(http.get("/metrics").text)

    def added(series: str) -> float:
        return samples.get(series, 0.0) - before.get(series, 0.0)

    assert ready["status"] == "ready" and ready["models"][MODEL_ID] == "upstream: 1/1 endpoints up"
    assert failed.status_code == 502
    assert samples[f"fastapply_upstream_up{{{endpoint}}}"] == 1
    assert added(f'fastapply_upstream_requests_total{{{endpoint},outcome="ok",reason=""}}') == 1
    # Errors by code: three failed-over attempts, then the call's error.
    assert added(f'fastapply_upstream_requests_total{{{endpoint},outcome="failover",reason="http_500"}}') == 3
    assert added(f'fastapply_upstream_requests_total{{{endpoint},outcome="error",reason="http_500"}}') == 1
    assert added(f"fastapply_upstream_duration_seconds_count{{{endpoint}}}") == 2  # the ok call and the error
    events = added(f"fastapply_upstream_events_total{{{endpoint}}}")
    # The sim's usage chunk: one completion token per answer event (finish event included), and the
    # prompt at ~4 characters per token.
    assert events > 3
    assert added(f'fastapply_upstream_tokens_total{{{endpoint},kind="completion"}}') == events - 1
    assert added(f'fastapply_upstream_tokens_total{{{endpoint},kind="prompt"}}') > len(ORIGINAL) // 4


def test_readyz_is_503_when_no_upstream_endpoint_is_up():
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = LiveServer(Settings(model=f"openai:http://127.0.0.1:{port}/v1#gone", executor="thread",
                                 log_level="error")).start()
    try:
        with server.client() as http:
            deadline = time.monotonic() + 20
            while (body := http.get("/readyz").json())["status"] == "loading" and time.monotonic() < deadline:
                time.sleep(0.05)
            response = http.get("/readyz")
            structural = http.post("/v1/apply", json={"initial_code": ORIGINAL, "edit_snippet": "x = 5\ny = 2\n"})
        assert response.status_code == 503 and body["status"] == "upstream_down"
        assert body["models"]["gone"].startswith("upstream: 0/1 endpoints up")
        assert structural.status_code == 200  # the structural engine keeps serving
    finally:
        server.stop()
