"""The HTTP stack: httptools + uvloop when installed (they are dependencies), h11 + asyncio on request;
both serve the same API through `fastapply serve`, also with several worker processes."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time

import httpx
import pytest

from evals.procs import free_port
from fastapply.errors import InputError
from fastapply.service import protocol
from fastapply.service.settings import from_env


def test_auto_picks_the_c_stack_when_installed():
    assert importlib.util.find_spec("httptools") is not None  # a dependency of fastapply
    assert protocol.resolve_http("auto") == "httptools" and protocol.resolve_loop("auto") == "uvloop"
    assert protocol.http_protocol("auto") == "fastapply.service.protocol:NoDelayHttpTools"
    assert protocol.http_protocol("h11") == "fastapply.service.protocol:NoDelayH11"


def test_without_the_packages_auto_falls_back_and_explicit_choices_are_refused(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("httptools", "uvloop") else real(name, *a))
    assert protocol.resolve_http("auto") == "h11" and protocol.resolve_loop("auto") == "asyncio"
    assert from_env({}).http == "auto"
    for env, needle in (({"FASTAPPLY_HTTP": "httptools"}, "http httptools"),
                        ({"FASTAPPLY_LOOP": "uvloop"}, "loop uvloop")):
        with pytest.raises(InputError) as info:
            from_env(env)
        assert needle in info.value.message and "uvicorn[standard]" in info.value.message


@pytest.mark.parametrize(("http", "loop"), [("h11", "asyncio"), ("httptools", "uvloop")])
def test_serve_with_each_stack_and_two_workers(http, loop):
    port = free_port()
    env = {**os.environ, "FASTAPPLY_API_KEY": "", "FASTAPPLY_API_KEYS": ""}
    proc = subprocess.Popen([sys.executable, "-m", "fastapply", "serve", "--port", str(port), "--http", http,
                             "--loop", loop, "--workers", "2", "--executor", "thread", "--log-level", "error"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 40
        while True:
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "fastapply serve did not start"
            time.sleep(0.1)
        with httpx.Client(base_url=url, timeout=10) as client:
            ok = client.post("/v1/apply", json={"initial_code": "a = 1\n", "edit_snippet": "a = 2\n"})
            missing = client.get("/nope", headers={"x-request-id": f"stack-{http}"})
        assert ok.status_code == 200 and ok.json()["mergedCode"] == "a = 2\n"
        assert missing.status_code == 404 and missing.headers["x-request-id"] == f"stack-{http}"
        assert missing.json()["error"]["code"] == "not_found"
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=15)
    assert "Traceback" not in stderr, stderr
