"""evals/load.py against a live server: a tiny bounded run, so the load script cannot rot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_load_script_smoke(plain_server, tmp_path):
    out = tmp_path / "load.json"
    run = subprocess.run([sys.executable, "-m", "evals.load", "--url", plain_server.url, "--clients", "1,4",
                          "--requests", "40", "--duration", "5", "--out", str(out)],
                         cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    results = json.loads(out.read_text())["results"]
    assert [r["clients"] for r in results] == [1, 4]
    for r in results:
        assert r["statuses"] == {"200": r["requests"]} and 0 < r["requests"] <= 40
        assert r["wrong_merges"] == 0 and r["rps"] > 0 and r["p50_ms"] <= r["p99_ms"]


def test_load_script_over_the_simulated_upstream(tmp_path):
    out = tmp_path / "upstream.json"
    run = subprocess.run([sys.executable, "-m", "evals.load", "--sim-upstream", "--stream", "--auto",
                          "--clients", "1,4", "--requests", "12", "--duration", "5", "--tokens-per-s", "400",
                          "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    levels = json.loads(out.read_text())["levels"]
    assert [level["clients"] for level in levels] == [1, 4]
    for level in levels:
        for path in ("direct", "front"):
            r = level[path]
            assert r["errors"] == 0 and r["statuses"] == {"200": r["requests"]} and 0 < r["requests"] <= 12
        assert level["added"]["pairs"] == level["front"]["requests"]
