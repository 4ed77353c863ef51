"""Real clients against a real server get exactly the library's merge, or its refusal (evals/clients.py).

A small, fixed sample of the dev corpus plus two edits the library refuses go through: the `openai`
client in every dialect (plain and streaming), Continue's default apply and Relace requests replayed
byte for byte, the Morph SDK from npm under node (also on a 229 KB file, which it sends with its
large-file anchor protocol), and the `mcp` SDK's client over stdio and streamable HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from svc_support import LiveServer

from evals import clients
from evals.cases import load_cases
from fastapply.service import Settings

pytest.importorskip("mcp")

SAMPLE = 6
REFUSED = 2


@pytest.fixture(scope="module")
def cases() -> list[clients.Case]:
    corpus = load_cases()
    refused = clients.refusal_variants(clients.sample(corpus, 8, seed=5), REFUSED)
    assert len(refused) == REFUSED, "the refusal variants must be refused by the library"
    return clients.sample(corpus, SAMPLE, seed=3) + refused


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Path]]:
    root = tmp_path_factory.mktemp("mcp-root")
    server = LiveServer(Settings(executor="thread", log_level="error", mcp_root=str(root),
                                 api_keys=["fastapply-test"])).start()
    try:
        yield server, root
    finally:
        server.stop()


@pytest.mark.parametrize("name", [c for c in clients.CLIENTS if c != "morph-sdk"])
def test_client_gets_the_library_merge(name, cases, live):
    server, root = live
    report = clients.compare(name, server.url, cases, root)
    assert report["refused"] == REFUSED and report["merged"] == SAMPLE
    assert report["disagree"] == [] and report["agree"] == len(cases), report


@pytest.fixture(scope="module")
def morph_sdk() -> Path:
    folder = clients.morph_sdk_dir()
    if folder is None:
        pytest.skip("node and npm are not installed: the Morph SDK (npm) cannot run")
    return folder


def _dialect_count(server: LiveServer, dialect: str) -> float:
    text = httpx.get(server.url + "/metrics", headers={"x-api-key": "fastapply-test"}).text
    line = next((x for x in text.splitlines() if f'dialect="{dialect}"' in x), None)
    return float(line.rsplit(" ", 1)[1]) if line else 0.0


def test_morph_sdk_gets_the_library_merge(morph_sdk, cases, live):
    server, root = live
    report = clients.compare("morph-sdk", server.url, cases, root)
    assert report["disagree"] == [] and report["agree"] == len(cases), report


def test_morph_sdk_large_file_uses_anchors_and_gets_the_merge(morph_sdk, live):
    server, root = live
    python = [c for c in load_cases() if c.lang() == "python"]
    large = [clients.large_case(c) for c in python[:2]]
    assert all(len(c.original) > 128 * 1024 for c in large)
    before = _dialect_count(server, "morph-anchors")
    report = clients.compare("morph-sdk", server.url, large, root)
    assert report["agree"] == len(large), report
    # The SDK really sent its anchor tables (and our answer expanded to the merged file).
    assert _dialect_count(server, "morph-anchors") == before + len(large)


def test_mcp_over_http_needs_the_key(live):
    server, _ = live
    response = httpx.post(server.url + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                          headers={"accept": "application/json, text/event-stream"})
    assert response.status_code == 401 and response.json()["error"]["code"] == "unauthorized"
