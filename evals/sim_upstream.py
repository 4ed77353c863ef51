"""A simulated OpenAI-compatible upstream: streams canned answers at a set speed, with scripted faults.

    python -m evals.sim_upstream --port 9100 --tokens-per-s 200 --latency-s 0.05

POST /v1/completions and /v1/chat/completions stream (SSE, like vLLM) the answer a perfect fast-apply
model would give: the structural engine's merge of the `<code>` and `<update>` in the prompt (when the
engine refuses: the `<code>` with the update's non-marker lines appended), in ~4-character tokens, after
`--latency-s`, at `--tokens-per-s`, then a finish reason, a `usage` chunk when the request asks for one
(stream_options.include_usage; ~4 characters per prompt token), and `[DONE]`. GET /v1/models lists one model.
Faults for tests: POST /sim/script {"steps": [...]} queues one behaviour per coming request:
"ok", "400", "429", "503", "500" (an error status, 429/503 with Retry-After: 0), "drop:N" (the connection
breaks after N events), "nofinish" (the stream ends cleanly but without a finish reason or [DONE]),
"hang" (one event, then silence until the client leaves). GET /sim/stats counts requests, streams
finished, and streams whose client disconnected first. Work per request: one merge, O(answer).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from litestar import Litestar, Response, get, post
from litestar.datastructures import State
from litestar.response import Stream

MODEL_ID = "sim-apply"


class SimConfig(msgspec.Struct, kw_only=True):
    tokens_per_s: float = 0.0  # 0 = as fast as possible
    latency_s: float = 0.0  # before the first event
    chars_per_token: int = 4
    # Like `transformers serve`: reject vLLM's prefill fields (422), and write the answer tags itself.
    strict: bool = False


class Counters(msgspec.Struct, kw_only=True):
    requests: int = 0
    finished: int = 0
    disconnected: int = 0
    active: int = 0
    max_active: int = 0


class Broken(Exception):
    """Raised inside a streaming body: uvicorn then drops the connection mid-response."""


@functools.lru_cache(maxsize=256)
def canned_answer(prompt: str) -> str:
    """The merged file a perfect model would write for this prompt (cached: a load test repeats one
    prompt, and a real server's cost per request is its streaming, simulated below, not our merge)."""
    from fastapply import ApplyError, apply

    original, update = tagged(prompt, "code"), tagged(prompt, "update")
    if update is None:
        return original or ""
    try:
        return apply(original or "", update).merged_code
    except ApplyError:  # what a model might do with an edit we cannot place: append it
        kept = [line for line in update.splitlines(keepends=True) if "existing code" not in line]
        return (original or "") + "".join(kept)


def tagged(prompt: str, tag: str) -> str | None:
    """The text of the last <tag>...</tag> (templates mention the tags in their instructions first)."""
    end = prompt.rfind(f"</{tag}>")
    start = prompt.rfind(f"<{tag}>", 0, end)
    if end < 0 or start < 0:
        return None
    text = prompt[start + len(tag) + 2:end]
    return text[1:] if text.startswith("\n") else text


def prompt_of(body: dict[str, Any]) -> str:
    if "prompt" in body:
        return str(body["prompt"])
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


def chunk_event(text: str, chat: bool, finish: str | None = None) -> bytes:
    choice: dict[str, Any] = {"index": 0, "finish_reason": finish}
    if chat:
        choice["delta"] = {"content": text} if text else {}
    else:
        choice["text"] = text
    payload = {"id": "sim", "object": "chat.completion.chunk" if chat else "text_completion",
               "model": MODEL_ID, "choices": [choice]}
    return b"data: " + msgspec.json.encode(payload) + b"\n\n"


def usage_event(prompt_tokens: int, completion_tokens: int) -> bytes:
    """vLLM's last chunk with stream_options.include_usage: no choices, the request's token counts."""
    usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
             "total_tokens": prompt_tokens + completion_tokens}
    return b"data: " + msgspec.json.encode({"id": "sim", "model": MODEL_ID, "choices": [], "usage": usage}) + b"\n\n"


async def answer_events(answer: str, chat: bool, step: str, config: SimConfig, counters: Counters,
                        max_tokens: int, prompt_tokens: int | None = None) -> AsyncIterator[bytes]:
    counters.active += 1
    counters.max_active = max(counters.max_active, counters.active)
    ended = False
    try:
        if config.latency_s:
            await asyncio.sleep(config.latency_s)
        size = max(1, config.chars_per_token)
        pieces = [answer[i:i + size] for i in range(0, len(answer), size)]
        finish = "stop"
        if len(pieces) > max_tokens:
            pieces, finish = pieces[:max_tokens], "length"
        drop_at = int(step.split(":", 1)[1]) if step.startswith("drop:") else -1
        delay = 1.0 / config.tokens_per_s if config.tokens_per_s > 0 else 0.0
        started = time.monotonic()
        for index, piece in enumerate(pieces):
            if index == drop_at:
                raise Broken(f"scripted drop after {index} events")
            if step == "hang" and index == 1:
                await asyncio.sleep(3600)
            if delay:  # paced against the clock, so slow event loops do not drift
                wait = started + index * delay - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
            yield chunk_event(piece, chat)
        if step == "nofinish":
            ended = True
            return
        yield chunk_event("", chat, finish)
        if prompt_tokens is not None:
            yield usage_event(prompt_tokens, len(pieces) + 1)
        yield b"data: [DONE]\n\n"
        ended = True
        counters.finished += 1
    finally:
        counters.active -= 1
        if not ended and step != "drop" and not step.startswith("drop:"):
            counters.disconnected += 1


async def complete(data: dict[str, Any], state: State, chat: bool) -> Response[Any]:
    counters: Counters = state.counters
    counters.requests += 1
    script: deque[str] = state.script
    step = script.popleft() if script else "ok"
    if step in ("400", "429", "503", "500"):
        headers = {"retry-after": "0"} if step in ("429", "503") else {}
        return Response({"error": {"message": f"scripted {step}"}}, status_code=int(step), headers=headers)
    config: SimConfig = state.config
    extensions = {"continue_final_message", "add_generation_prompt"} & set(data)
    if config.strict and extensions:
        return Response({"detail": f"Unexpected fields in the request: {extensions}"}, status_code=422)
    prompt = prompt_of(data)
    answer = canned_answer(prompt)
    if config.strict and chat:
        answer = f"<updated-code>\n{answer}</updated-code>\n"
    max_tokens = int(data.get("max_tokens") or 1 << 30)
    usage = (data.get("stream_options") or {}).get("include_usage")
    prompt_tokens = len(prompt) // max(1, config.chars_per_token) if usage else None
    return Stream(answer_events(answer, chat, step, state.config, counters, max_tokens, prompt_tokens),
                  media_type="text/event-stream")


@post("/v1/completions", status_code=200)
async def completions(data: dict[str, Any], state: State) -> Response[Any]:
    return await complete(data, state, chat=False)


@post("/v1/chat/completions", status_code=200)
async def chat_completions(data: dict[str, Any], state: State) -> Response[Any]:
    return await complete(data, state, chat=True)


@get("/v1/models")
async def models() -> dict[str, Any]:
    return {"object": "list", "data": [{"id": MODEL_ID, "object": "model"}]}


@post("/sim/script", status_code=200)
async def set_script(data: dict[str, Any], state: State) -> dict[str, Any]:
    state.script.clear()
    state.script.extend(str(step) for step in data.get("steps", []))
    if "config" in data:
        state.config = msgspec.convert(data["config"], SimConfig)
    if data.get("reset"):
        state.counters = Counters()
    return {"queued": len(state.script)}


@get("/sim/stats")
async def stats(state: State) -> dict[str, Any]:
    return msgspec.to_builtins(state.counters)


def create_sim_app(config: SimConfig | None = None) -> Litestar:
    state = State({"config": config or SimConfig(), "counters": Counters(), "script": deque()})
    return Litestar([completions, chat_completions, models, set_script, stats], state=state, debug=False,
                    logging_config=None)


class ThreadServer:
    """An ASGI app served by uvicorn on a free loopback port in a background thread (tests, evals);
    ready once GET `probe` answers. tests/service's LiveServer is one, for the fastapply service."""

    def __init__(self, app: Any, probe: str = "/v1/models", log_level: str = "critical",
                 tls: tuple[str, str] | None = None) -> None:
        """`tls`: (certificate file, key file) to serve HTTPS instead of HTTP."""
        import socket
        import threading

        import uvicorn

        self.app, self.probe = app, probe
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="on", log_level=log_level,
                                ssl_certfile=tls[0] if tls else None, ssl_keyfile=tls[1] if tls else None)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])),
                                       daemon=True)

    def __enter__(self) -> ThreadServer:
        import httpx

        self.thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                httpx.get(self.url + self.probe, timeout=1, verify=False)  # only: is it up?
                return self
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not answer {self.probe} within 20 s")

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    def script(self, *steps: str, config: dict[str, Any] | None = None, reset: bool = False) -> None:
        """Queue fault steps on a sim upstream; `config` replaces its SimConfig, `reset` its counters."""
        import httpx

        body: dict[str, Any] = {"steps": list(steps), "reset": reset}
        if config is not None:
            body["config"] = config
        httpx.post(self.url + "/sim/script", json=body, timeout=5).raise_for_status()

    def stats(self) -> dict[str, int]:
        import httpx

        return httpx.get(self.url + "/sim/stats", timeout=5).json()


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m evals.sim_upstream", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9100)
    parser.add_argument("--tokens-per-s", type=float, default=200.0, help="streaming speed per request")
    parser.add_argument("--latency-s", type=float, default=0.05, help="delay before the first event")
    args = parser.parse_args(argv)
    app = create_sim_app(SimConfig(tokens_per_s=args.tokens_per_s, latency_s=args.latency_s))
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
