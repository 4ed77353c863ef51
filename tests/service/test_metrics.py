"""GET /metrics: Prometheus text (prometheus_client) with requests, latency, merges, refusals and model
tokens; with `fastapply serve --workers 2`, one set of numbers summed over both workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from svc_support import scrape

from evals import procs
from evals.procs import free_port
from fastapply.service.metrics import Metrics
from fastapply.service.metrics_dir import ENV


def test_metrics_count_what_happened(plain_server):
    with plain_server.client() as http:
        before = scrape(http.get("/metrics").text)
        for _ in range(3):
            http.post("/v1/apply", json={"initial_code": "a\n", "edit_snippet": "b\n"})
        http.post("/v1/apply", json={"initial_code": "a\n", "edit_snippet": " "})
        http.post("/v1/apply", content=b"{", headers={"content-type": "application/json"})
        response = http.get("/metrics")
    samples = scrape(response.text)
    assert response.headers["content-type"].startswith("text/plain")
    ok = 'fastapply_requests_total{method="POST",route="/v1/apply",status="200"}'
    assert samples[ok] - before.get(ok, 0) == 3
    assert samples['fastapply_requests_total{method="POST",route="/v1/apply",status="422"}'] >= 1
    assert samples['fastapply_requests_total{method="POST",route="/v1/apply",status="400"}'] >= 1
    assert samples['fastapply_merges_total{method="whole_file"}'] >= 3
    assert samples['fastapply_refusals_total{code="empty_update"}'] >= 1
    assert samples['fastapply_refusals_total{code="invalid_json"}'] >= 1
    count = samples['fastapply_request_duration_seconds_count{route="/v1/apply"}']
    assert count >= 5 and samples['fastapply_request_duration_seconds_bucket{le="+Inf",route="/v1/apply"}'] == count
    assert samples["fastapply_merge_workers"] >= 1 and samples["fastapply_inflight_requests"] == 0


def test_model_tokens_are_counted(server, fake_model):
    with server.client() as http:
        http.post("/v1/apply", json={"initial_code": "a\n", "edit_snippet": "b\n", "model": fake_model.name})
        samples = scrape(http.get("/metrics").text)
    assert samples['fastapply_generated_tokens_total{model="fake-apply"}'] > 0
    assert samples['fastapply_generation_tokens_per_second_count{model="fake-apply"}'] >= 1
    assert samples['fastapply_merges_total{method="model"}'] >= 1
    assert samples['fastapply_model_loaded{model="fake-apply"}'] == 1


def test_each_app_in_one_process_keeps_its_own_numbers():
    first, second = Metrics(), Metrics()
    first.merge("whole_file")
    first.merge_workers(alive=2, replaced=3)
    first.merge_workers(alive=2, replaced=3)  # the same state again: nothing new replaced
    first.merge_workers(alive=2, replaced=4)
    one, other = scrape(first.render().decode()), scrape(second.render().decode())
    assert one['fastapply_merges_total{method="whole_file"}'] == 1
    assert 'fastapply_merges_total{method="whole_file"}' not in other
    assert one["fastapply_merge_workers_replaced_total"] == 4 and one["fastapply_merge_workers"] == 2


def _worker_pids(folder: Path) -> set[int]:
    return {int(path.stem.rsplit("_", 1)[1]) for path in folder.glob("counter_*.db")}


def test_two_workers_report_one_set_of_metrics(tmp_path):
    """A real `fastapply serve --workers 2`: requests answered by both workers (told apart by their
    request-id prefixes) are all counted in a single scrape, whichever worker answers it; a killed
    worker's counts stay, its live gauges leave the sums; the metrics folder is gone after exit."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FASTAPPLY_") and k != ENV}
    env["TMPDIR"] = str(tmp_path)  # where `fastapply serve` makes its private metrics folder
    proc = procs.start(
        [sys.executable, "-m", "fastapply", "serve", "--port", str(port), "--workers", "2", "--executor",
         "thread", "--executor-workers", "1", "--log-level", "error", "--no-mcp"],
        env=env, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 90
        folders: list[Path] = []
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            folders = list(tmp_path.glob("fastapply-metrics-*"))
            if folders and len(_worker_pids(folders[0])) == 2:
                try:
                    if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
            time.sleep(0.2)
        else:
            raise AssertionError("fastapply serve --workers 2 did not come up within 90 s")
        folder = folders[0]
        body = {"initial_code": "a = 1\n", "edit_snippet": "a = 2\n"}
        prefixes: dict[str, int] = {}
        sent = 0
        # A fresh connection per request: the kernel hands each to one of the two listening workers.
        while (len(prefixes) < 2 or sent < 10) and sent < 400:
            response = httpx.post(url + "/v1/apply", json=body, timeout=30)
            assert response.status_code == 200, response.text
            prefix = response.headers["x-request-id"][:16]  # a per-process random prefix
            prefixes[prefix] = prefixes.get(prefix, 0) + 1
            sent += 1
        assert len(prefixes) == 2, f"every request went to one worker: {prefixes}"

        ok = 'fastapply_requests_total{method="POST",route="/v1/apply",status="200"}'
        scrapes = [scrape(httpx.get(url + "/metrics", timeout=10).text) for _ in range(4)]
        for samples in scrapes:  # every scrape, whichever worker answered, sees all of them
            assert samples[ok] == sent
            assert samples['fastapply_merges_total{method="whole_file"}'] == sent
            assert samples['fastapply_request_duration_seconds_count{route="/v1/apply"}'] == sent
            assert samples["fastapply_merge_workers"] == 2  # one merge thread per worker, summed
            assert samples["fastapply_inflight_requests"] == 0

        victim = min(_worker_pids(folder))
        os.kill(victim, signal.SIGKILL)  # uvicorn starts another worker; the folder keeps its counts
        deadline = time.monotonic() + 60
        samples = {}
        while time.monotonic() < deadline:
            live = {int(p.stem.rsplit("_", 1)[1]) for p in folder.glob("gauge_live*_*.db")}
            samples = scrape(httpx.get(url + "/metrics", timeout=10).text)
            # 2 once the new worker is up; 3 if the dead worker's live gauge were still summed.
            if victim not in live and samples["fastapply_merge_workers"] == 2:
                break
            time.sleep(0.2)
        else:
            raise AssertionError(f"the killed worker was not replaced and reaped within 60 s: {samples}")
        assert len(_worker_pids(folder) - {victim}) == 2
        assert samples[ok] == sent  # the dead worker's requests still count
    finally:
        procs.stop(proc, grace_s=30)
    assert not list(tmp_path.glob("fastapply-metrics-*"))  # removed at exit
