"""Arbitrary bytes and arbitrary JSON at every POST endpoint: never a 5xx, always the JSON error shape.

schemathesis (test_schemathesis.py) generates bodies from the schema; this covers what it does not:
bytes that are not JSON, not UTF-8, or JSON of any shape.
"""

from __future__ import annotations

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PATHS = ["/v1/apply", "/v1/chat/completions", "/v1/apply/batch"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["initial_code", "editSnippet", "messages", "items", "model", "stream", "output",
                         "role", "content", "path"]) | st.text(max_size=8), children, max_size=4),
    max_leaves=12)


def check(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert set(response.json()["error"]) == {"code", "message", "details"}


@pytest.fixture(scope="module")
def http(server):
    with server.client() as client:
        yield client


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(PATHS), body=st.binary(max_size=200))
def test_random_bytes(http, path, body):
    check(http.post(path, content=body, headers={"content-type": "application/json"}))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(PATHS), body=json_values)
def test_random_json(http, path, body):
    check(http.post(path, json=body))
