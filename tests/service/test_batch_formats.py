"""POST /v1/apply/batch with every edit format, end to end over HTTP, with exact expected outputs."""

from __future__ import annotations

import json

import pytest

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
MERGED = "def f():\n    return 1\n\n\ndef g():\n    return 3\n"
DIFF = "--- a/m.py\n+++ b/m.py\n@@ -3,4 +3,4 @@\n \n \n def g():\n-    return 2\n+    return 3\n"

EDITS = {
    "search_replace": {"edit_snippet": "m.py\n```python\n<<<<<<< SEARCH\ndef g():\n    return 2\n=======\n"
                                       "def g():\n    return 3\n>>>>>>> REPLACE\n```\n"},
    "udiff": {"edit_snippet": "--- a/m.py\n+++ b/m.py\n@@ -5,2 +5,2 @@\n def g():\n-    return 2\n+    return 3\n"},
    "v4a": {"edit_snippet": "*** Begin Patch\n*** Update File: m.py\n@@ def g():\n-    return 2\n+    return 3\n"
                            "*** End Patch\n"},
    "replacements": {"edits": [{"old_string": "return 2", "new_string": "return 3"}]},
    "lazy": {"edit_snippet": "# ... existing code ...\ndef g():\n    return 3\n"},
}
# Each format's way to fail: the exact error code the item must carry.
FAILURES = {
    "search_replace": ({"edit_snippet": "m.py\n<<<<<<< SEARCH\ndef h():\n    pass\n=======\nx\n>>>>>>> REPLACE\n"},
                       "no_match"),
    "udiff": ({"edit_snippet": "--- a/m.py\n+++ b/m.py\n@@ -1,1 +1,1 @@\n-    return 9\n+    return 3\n"},
              "no_match"),
    "v4a": ({"edit_snippet": "*** Begin Patch\n*** Update File: m.py\n@@\n-    return\n+    return 3\n"
                             "*** End Patch\n"}, "no_match"),
    "replacements": ({"edits": [{"old": "return", "new": "yield"}]}, "ambiguous_match"),
    "lazy": ({"edit_snippet": " \n"}, "empty_update"),
}


def item(fmt: str, fields: dict, **extra) -> dict:
    return {"path": "m.py", "initial_code": ORIGINAL, "format": fmt, **fields, **extra}


@pytest.mark.parametrize("fmt", list(EDITS))
def test_each_format_merges_exactly(server, fmt):
    with server.client() as http:
        response = http.post("/v1/apply/batch", json={"items": [item(fmt, EDITS[fmt], id=fmt)], "output": "both"})
    assert response.status_code == 200, response.text
    result = response.json()["results"][0]
    assert result["ok"], result
    assert result["id"] == fmt and result["path"] == "m.py"
    assert result["mergedCode"] == MERGED and result["merged_code"] == MERGED
    assert result["diff"] == DIFF


@pytest.mark.parametrize("fmt", list(FAILURES))
def test_each_format_fails_its_item_with_a_code(server, fmt):
    fields, code = FAILURES[fmt]
    with server.client() as http:
        body = http.post("/v1/apply/batch", json={"items": [item(fmt, fields), item(fmt, EDITS[fmt])]}).json()
    bad, good = body["results"]
    assert not bad["ok"] and bad["error"]["code"] == code and bad["error"]["details"]["status"] == 422
    assert good["ok"] and good["mergedCode"] == MERGED
    assert body["summary"] == {"total": 2, "ok": 1, "failed": 1}


def test_all_formats_in_one_streamed_batch_on_the_process_pool(plain_server):
    # plain_server merges in worker processes: every format's call must cross the process boundary.
    items = [item(fmt, fields, id=fmt) for fmt, fields in EDITS.items()]
    items.append(item("udiff", FAILURES["udiff"][0], id="bad"))
    with plain_server.client() as http:
        response = http.post("/v1/apply/batch", json={"items": items, "stream": True})
    assert response.status_code == 200
    lines = [json.loads(line) for line in response.text.splitlines()]
    by_id = {line["id"]: line for line in lines[:-1]}
    assert set(by_id) == {*EDITS, "bad"}
    for fmt in EDITS:
        assert by_id[fmt]["ok"] and by_id[fmt]["mergedCode"] == MERGED, by_id[fmt]
    assert by_id["bad"]["error"]["code"] == "no_match"
    assert lines[-1]["summary"] == {"total": 6, "ok": 5, "failed": 1}
