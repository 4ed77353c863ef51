"""Property-based tests of every operation in the OpenAPI schema the server serves: no 5xx, ever.

schemathesis' lazy `from_fixture` loader does not work with pytest 9, so the schema is taken from the
same app factory at import time, and a test checks that it equals what /schema/openapi.json serves.
"""

from __future__ import annotations

import msgspec
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from fastapply.service import Settings, create_app


def _schema_dict() -> dict:
    app = create_app(Settings(log_level="error"))
    return msgspec.json.decode(msgspec.json.encode(app.openapi_schema.to_schema()))


SCHEMA = _schema_dict()
schema = schemathesis.openapi.from_dict(SCHEMA)


def test_the_tested_schema_is_the_served_one(plain_server):
    with plain_server.client() as http:
        assert http.get("/schema/openapi.json").json() == SCHEMA


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case, plain_server):
    response = case.call(base_url=plain_server.url, timeout=10)
    case.validate_response(response, checks=[not_a_server_error])
    # Every error is the JSON error shape.
    if response.status_code >= 400:
        error = response.json()["error"]
        assert {"code", "message", "details"} <= set(error)
