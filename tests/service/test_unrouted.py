"""Requests litestar answers before any route runs (unknown path, wrong method): JSON errors with a
request id, counted in /metrics under a bounded route label."""

from __future__ import annotations

import re

import pytest
from svc_support import scrape


def count(text: str, series: str) -> float:
    return scrape(text).get(series, 0.0)


def test_404_has_a_request_id_and_is_counted(plain_server):
    series = 'fastapply_requests_total{method="GET",route="(unmatched)",status="404"}'
    with plain_server.client() as http:
        before = count(http.get("/metrics").text, series)
        echoed = http.get("/v1/nope", headers={"x-request-id": "client-id-404"})
        fresh = http.get("/wp-admin/../etc/passwd")
        after = http.get("/metrics").text
    assert echoed.status_code == 404 and fresh.status_code == 404
    assert echoed.headers["x-request-id"] == "client-id-404"
    assert re.fullmatch(r"[0-9a-f]{32}", fresh.headers["x-request-id"])
    assert echoed.json()["error"]["code"] == "not_found"
    assert "/v1/nope" in echoed.json()["error"]["message"]
    assert count(after, series) == before + 2
    # Unknown paths never become labels of their own.
    assert "/v1/nope" not in after and "passwd" not in after
    assert count(after, 'fastapply_request_duration_seconds_count{route="(unmatched)"}') >= 2


@pytest.mark.parametrize(("method", "path"), [("GET", "/v1/apply"), ("DELETE", "/v1/chat/completions"),
                                              ("POST", "/healthz")])
def test_405_has_a_request_id_and_is_counted(plain_server, method, path):
    series = f'fastapply_requests_total{{method="{method}",route="{path}",status="405"}}'
    with plain_server.client() as http:
        before = count(http.get("/metrics").text, series)
        response = http.request(method, path, headers={"x-request-id": "client-id-405"})
        after = http.get("/metrics").text
    assert response.status_code == 405
    assert response.headers["x-request-id"] == "client-id-405"
    error = response.json()["error"]
    assert error["code"] == "method_not_allowed" and method in error["message"] and path in error["message"]
    assert count(after, series) == before + 1
    assert count(after, 'fastapply_refusals_total{code="method_not_allowed"}') >= 1


def test_matched_routes_still_count_under_their_path(plain_server):
    series = 'fastapply_requests_total{method="GET",route="/healthz",status="200"}'
    with plain_server.client() as http:
        before = count(http.get("/metrics").text, series)
        response = http.get("/healthz")
        after = http.get("/metrics").text
    assert response.headers["x-request-id"]
    assert count(after, series) == before + 1
