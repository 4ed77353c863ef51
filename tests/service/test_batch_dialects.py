"""POST /v1/apply/batch: the ambiguity policy (request-wide and per item) and the whole-file format,
over real HTTP."""

from __future__ import annotations

ORIGINAL = "x = 0\ny = 1\nx = 0\n"
TWICE = "m.py\n<<<<<<< SEARCH\nx = 0\n=======\nx = 5\n>>>>>>> REPLACE\n"


def item(**fields) -> dict:
    return {"path": "m.py", "initial_code": ORIGINAL, "format": "search_replace", "edit_snippet": TWICE, **fields}


def test_ambiguity_refuses_by_default_and_takes_the_first_when_asked(server):
    with server.client() as http:
        body = http.post("/v1/apply/batch", json={"items": [item()]}).json()
        first = http.post("/v1/apply/batch", json={"items": [item()], "ambiguity": "first"}).json()
    bad = body["results"][0]
    assert not bad["ok"] and bad["error"]["code"] == "ambiguous_match"
    assert bad["error"]["details"]["candidates"] == [1, 3]
    good = first["results"][0]
    assert good["ok"] and good["mergedCode"] == "x = 5\ny = 1\nx = 0\n" and good["warnings"]


def test_an_items_ambiguity_overrides_the_requests(server):
    items = [item(id="own", ambiguity="first"), item(id="inherits")]
    with server.client() as http:
        body = http.post("/v1/apply/batch", json={"items": items, "ambiguity": "refuse"}).json()
    by_id = {r["id"]: r for r in body["results"]}
    assert by_id["own"]["ok"] and not by_id["inherits"]["ok"]


def test_a_roo_start_line_chooses_before_the_policy(server):
    roo = "<<<<<<< SEARCH\n:start_line:3\n-------\nx = 0\n=======\nx = 7\n>>>>>>> REPLACE\n"
    with server.client() as http:
        body = http.post("/v1/apply/batch", json={"items": [item(edit_snippet=roo)]}).json()
    assert body["results"][0]["mergedCode"] == "x = 0\ny = 1\nx = 7\n"


def test_an_unknown_ambiguity_is_a_400(server):
    with server.client() as http:
        response = http.post("/v1/apply/batch", json={"items": [item()], "ambiguity": "maybe"})
    assert response.status_code == 400


def test_whole_file_format(server):
    edit = {"format": "whole", "edit_snippet": "Here it is:\n\n```python\nx = 9\n```\n"}
    with server.client() as http:
        body = http.post("/v1/apply/batch", json={"items": [item(**edit)]}).json()
    assert body["results"][0]["ok"] and body["results"][0]["mergedCode"] == "x = 9\n"
