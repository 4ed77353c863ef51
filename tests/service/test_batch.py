"""POST /v1/apply/batch: per-item results and errors, plain and NDJSON streaming."""

from __future__ import annotations

import json
import time

from svc_support import FakeModel, LiveServer, lines_300

from fastapply.service import Settings

ORIGINAL = "a = 1\n"


def items(n: int) -> list[dict]:
    return [{"path": f"pkg/m{i}.py", "initial_code": ORIGINAL, "edit_snippet": f"a = {i}\n", "id": f"e{i}"}
            for i in range(n)]


def test_batch_plain_with_a_failing_item(server):
    batch = items(3)
    batch[1]["edit_snippet"] = "  "  # empty: refused on its own
    batch.append({"filename": "x.py", "initialCode": ORIGINAL, "editSnippet": "a = 9\n",
                  "format": "udiff-v9"})
    batch.append({"path": "y.py", "initialCode": lines_300(1), "editSnippet": lines_300(2)})
    with server.client() as http:
        response = http.post("/v1/apply/batch", json={"items": batch, "output": "both"})
    assert response.status_code == 200, response.text
    body = response.json()
    results = body["results"]
    assert [r["index"] for r in results] == [0, 1, 2, 3, 4]
    assert results[0]["ok"] and results[0]["mergedCode"] == "a = 0\n" and "+a = 0" in results[0]["diff"]
    assert results[0]["id"] == "e0" and results[0]["path"] == "pkg/m0.py"
    assert not results[1]["ok"] and results[1]["error"]["code"] == "empty_update"
    assert not results[3]["ok"] and results[3]["error"]["code"] == "invalid_argument"
    assert "udiff-v9" in results[3]["error"]["message"]
    assert results[4]["ok"] and results[4]["mergedCode"] == lines_300(2)
    assert body["summary"] == {"total": 5, "ok": 3, "failed": 2}


def test_batch_missing_field_is_a_per_item_error(server):
    with server.client() as http:
        body = http.post("/v1/apply/batch", json={"items": [{"path": "a.py", "initial_code": "x"}]}).json()
    error = body["results"][0]["error"]
    assert error["code"] == "invalid_request" and "edit_snippet" in error["message"]


def test_batch_ndjson_stream(server):
    with server.client() as http:
        response = http.post("/v1/apply/batch", json={"items": items(20), "stream": True})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert len(lines) == 21
    assert sorted(line["index"] for line in lines[:-1]) == list(range(20))
    assert all(line["ok"] and line["mergedCode"] == f"a = {line['index']}\n" for line in lines[:-1])
    assert lines[-1]["summary"] == {"total": 20, "ok": 20, "failed": 0}


def test_batch_stream_lines_arrive_as_items_complete():
    # With a slow model, the first line must arrive long before the last item is done.
    model = FakeModel(name="slowish", delay_s=0.4)
    server = LiveServer(Settings(log_level="error"), [model]).start()
    try:
        with server.client() as http:
            started = time.perf_counter()
            with http.stream("POST", "/v1/apply/batch",
                             json={"items": items(4), "stream": True, "model": "slowish"}) as response:
                arrivals = []
                for line in response.iter_lines():
                    if line:
                        arrivals.append((time.perf_counter() - started, json.loads(line)))
        assert len(arrivals) == 5
        # The model serves one request at a time: items finish ~0.4 s apart.
        assert arrivals[0][0] < arrivals[3][0] - 0.6
        assert model.max_active == 1
    finally:
        server.stop()


def test_batch_unknown_model_fails_the_request(server):
    with server.client() as http:
        response = http.post("/v1/apply/batch", json={"items": items(1), "model": "nope"})
    assert response.status_code == 404 and response.json()["error"]["code"] == "model_not_found"


def test_batch_item_count_is_bounded(server):
    with server.client() as http:
        response = http.post("/v1/apply/batch", json={"items": [{"path": "a"}] * 1001})
    assert response.status_code == 400 and "items" in response.json()["error"]["message"]


def test_batch_formats_udiff_and_replacements(server):
    # Every format has its own exact end-to-end test in test_batch_formats.py.
    original = "x = 1\ny = 2\n"
    udiff = "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n"
    batch = [{"path": "m.py", "initial_code": original, "edit_snippet": udiff, "format": "udiff"},
             {"path": "m.py", "initial_code": original, "format": "replacements",
              "edits": [{"old": "y = 2", "new": "y = 3"}]},
             {"path": "m.py", "initial_code": original, "format": "replacements"}]
    with server.client() as http:
        results = http.post("/v1/apply/batch", json={"items": batch}).json()["results"]
    assert results[0]["ok"] and results[0]["mergedCode"] == "x = 1\ny = 3\n", results[0]
    assert results[1]["ok"] and results[1]["mergedCode"] == "x = 1\ny = 3\n", results[1]
    assert results[2]["error"]["code"] == "invalid_argument" and "edits" in results[2]["error"]["message"]
