"""GET /metrics: Prometheus text with requests, latency, merges, refusals and model tokens."""

from __future__ import annotations

import re

from fastapply.service.metrics import Metrics


def value(text: str, series: str) -> float:
    match = re.search(r"^" + re.escape(series) + r" (\S+)$", text, re.MULTILINE)
    assert match, f"{series} not in metrics"
    return float(match.group(1))


def test_metrics_count_what_happened(plain_server):
    with plain_server.client() as http:
        before = http.get("/metrics").text
        for _ in range(3):
            http.post("/v1/apply", json={"initial_code": "a\n", "edit_snippet": "b\n"})
        http.post("/v1/apply", json={"initial_code": "a\n", "edit_snippet": " "})
        http.post("/v1/apply", content=b"{", headers={"content-type": "application/json"})
        response = http.get("/metrics")
    text = response.text
    assert response.headers["content-type"].startswith("text/plain")
    ok = 'fastapply_requests_total{method="POST",route="/v1/apply",status="200"}'
    assert value(text, ok) - (value(before, ok) if ok in before else 0) == 3
    assert value(text, 'fastapply_requests_total{method="POST",route="/v1/apply",status="422"}') >= 1
    assert value(text, 'fastapply_requests_total{method="POST",route="/v1/apply",status="400"}') >= 1
    assert value(text, 'fastapply_merges_total{method="whole_file"}') >= 3
    assert value(text, 'fastapply_refusals_total{code="empty_update"}') >= 1
    assert value(text, 'fastapply_refusals_total{code="invalid_json"}') >= 1
    assert value(text, 'fastapply_request_duration_seconds_count{route="/v1/apply"}') >= 5
    assert '# TYPE fastapply_request_duration_seconds histogram' in text
    assert 'fastapply_request_duration_seconds_bucket{route="/v1/apply",le="+Inf"}' in text


def test_model_tokens_are_counted(server, fake_model):
    with server.client() as http:
        http.post("/v1/apply", json={"initial_code": "a\n", "edit_snippet": "b\n", "model": fake_model.name})
        text = http.get("/metrics").text
    assert value(text, 'fastapply_generated_tokens_total{model="fake-apply"}') > 0
    assert value(text, 'fastapply_generation_tokens_per_second_count{model="fake-apply"}') >= 1
    assert value(text, 'fastapply_merges_total{method="model"}') >= 1
    assert value(text, 'fastapply_model_loaded{model="fake-apply"}') == 1


def test_histogram_buckets_are_cumulative():
    metrics = Metrics()
    for seconds in (0.0005, 0.003, 0.003, 100.0):
        metrics.latency.observe(seconds, route="/x")
    text = metrics.render()
    assert value(text, 'fastapply_request_duration_seconds_bucket{route="/x",le="0.001"}') == 1
    assert value(text, 'fastapply_request_duration_seconds_bucket{route="/x",le="0.005"}') == 3
    assert value(text, 'fastapply_request_duration_seconds_bucket{route="/x",le="60"}') == 3
    assert value(text, 'fastapply_request_duration_seconds_bucket{route="/x",le="+Inf"}') == 4
    assert value(text, 'fastapply_request_duration_seconds_count{route="/x"}') == 4
