"""The upstream backend (`openai:URL`) against real loopback servers: the simulated upstream of
evals/sim_upstream.py with scripted faults (429/503 retries, failover, broken and unfinished streams,
cancellation), and the real SmolLM2 tokenizer for the completions wire format."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time

import pytest

from evals.sim_upstream import MODEL_ID, ThreadServer, canned_answer, create_sim_app
from fastapply.errors import ApplyError, ErrorCode, ModelError
from fastapply.runtime.remote import UpstreamModel, _PrefixEcho, load_upstream, parse_spec
from fastapply.runtime.upstream import normalize_url

ORIGINAL = ("def total(items):\n    return sum(items)\n\n\n"
            "def mean(items):\n    return total(items) / len(items)\n")
UPDATE = ("# ... existing code ...\ndef mean(items):\n    if not items:\n        return 0.0\n"
          "    return total(items) / len(items)\n")
MERGED = ("def total(items):\n    return sum(items)\n\n\n"
          "def mean(items):\n    if not items:\n        return 0.0\n    return total(items) / len(items)\n")


@pytest.fixture(scope="module")
def sim():
    with ThreadServer(create_sim_app()) as server:
        yield server


@pytest.fixture(scope="module")
def sim2():
    with ThreadServer(create_sim_app()) as server:
        yield server


@pytest.fixture(autouse=True)
def _reset(sim, sim2):
    sim.script(config={}, reset=True)
    sim2.script(config={}, reset=True)


def dead_url() -> str:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now: connections are refused
    return f"http://127.0.0.1:{port}/v1"


def model_for(*urls: str, **options) -> UpstreamModel:
    options.setdefault("backoff_s", 0.01)
    return load_upstream("openai:" + ",".join(urls) + f"#{MODEL_ID}", api="chat", environ={}, **options)


def collect(model: UpstreamModel, **kwargs):
    events = []
    model.observer = events.append
    return events


def test_spec_parsing_and_urls():
    assert parse_spec("openai:http://a:1/v1,http://b:2#m-1") == (["http://a:1/v1", "http://b:2"], "m-1")
    assert parse_spec("openai:http://a:1") == (["http://a:1"], None)
    assert normalize_url("http://h:8000") == "http://h:8000/v1"
    assert normalize_url("http://h:8000/v1/") == "http://h:8000/v1"
    with pytest.raises(ModelError) as info:
        normalize_url("gpu-box:8000")
    assert info.value.code == ErrorCode.INVALID_ARGUMENT
    with pytest.raises(ModelError):
        load_upstream("openai:#model", environ={})
    with pytest.raises(ModelError) as info:
        load_upstream("openai:http://h:1", api="completions", environ={})
    assert "tokenizer" in info.value.message


def test_merge_and_stream_through_the_upstream(sim):
    model = model_for(sim.url)
    result = model.merge(ORIGINAL, UPDATE, filename="stats.py")
    assert result.merged_code == MERGED == canned_answer(f"<code>{ORIGINAL}</code><update>{UPDATE}</update>")
    assert result.method == "model" and result.language == "python" and "+    if not items:" in result.diff
    sim.script(config={"tokens_per_s": 200})
    chunks = list(model.stream(ORIGINAL, UPDATE, filename="stats.py"))
    assert len(chunks) > 5 and "".join(chunks) == MERGED


def test_newline_style_and_bom_are_kept(sim):
    model = model_for(sim.url)
    original = "\ufeff" + ORIGINAL.replace("\n", "\r\n")
    merged = model.merge(original, UPDATE, filename="stats.py").merged_code
    assert merged == "\ufeff" + MERGED.replace("\n", "\r\n")


def test_retries_429_and_503_then_succeeds(sim):
    model = model_for(sim.url)
    events = collect(model)
    sim.script("429", "503", "ok")
    assert model.merge(ORIGINAL, UPDATE).merged_code == MERGED
    assert [(e.outcome, e.reason) for e in events] == [("retry", "http_429"), ("retry", "http_503"), ("ok", "")]
    assert events[-1].tokens > 0 and events[-1].first_event_s is not None


def test_gives_up_after_the_retries_with_upstream_failed(sim):
    model = model_for(sim.url, retries=2)
    sim.script("503", "503", "503", "ok")
    with pytest.raises(ModelError) as info:
        model.merge(ORIGINAL, UPDATE)
    assert info.value.code == ErrorCode.UPSTREAM_FAILED
    assert info.value.details["status"] == 503 and info.value.details["attempts"] == 3
    assert sim.stats()["requests"] == 3


def test_a_5xx_on_the_only_endpoint_is_retried_but_a_400_is_not(sim):
    model = model_for(sim.url)
    sim.script("500")  # 5xx fails over; with one endpoint it is retried after the backoff
    assert model.merge(ORIGINAL, UPDATE).merged_code == MERGED
    sim.script("400", reset=True)
    with pytest.raises(ModelError) as info:
        model.merge(ORIGINAL, UPDATE)
    assert info.value.details["status"] == 400 and "scripted 400" in info.value.message
    assert sim.stats()["requests"] == 1


def test_fails_over_from_a_dead_endpoint_and_then_avoids_it(sim):
    dead = dead_url()
    model = model_for(dead, sim.url)
    events = collect(model)
    for _ in range(3):
        assert model.merge(ORIGINAL, UPDATE).merged_code == MERGED
    failovers = [e for e in events if e.outcome == "failover"]
    assert len(failovers) == 1 and failovers[0].endpoint == dead  # cooled down after one failure
    assert sum(e.outcome == "ok" and e.endpoint == sim.url + "/v1" for e in events) == 3


def test_least_outstanding_requests_spread_the_load(sim, sim2):
    sim.script(config={"tokens_per_s": 400})
    sim2.script(config={"tokens_per_s": 400})
    model = model_for(sim.url, sim2.url)

    async def run():
        return await asyncio.gather(*(model.amerge(ORIGINAL, UPDATE) for _ in range(6)))

    results = asyncio.run(run())
    assert all(r.merged_code == MERGED for r in results)
    assert sim.stats()["requests"] == 3 and sim2.stats()["requests"] == 3


def test_all_endpoints_down_is_upstream_failed(sim):
    model = model_for(dead_url(), dead_url(), retries=2)
    events = collect(model)
    with pytest.raises(ModelError) as info:
        model.merge(ORIGINAL, UPDATE)
    assert info.value.code == ErrorCode.UPSTREAM_FAILED and "could not be reached" in info.value.message
    assert [e.outcome for e in events] == ["failover", "failover", "error"]  # 1 + retries attempts


def test_a_stream_broken_midway_is_never_a_merge(sim):
    model = model_for(sim.url)
    sim.script("drop:5")
    chunks = []
    with pytest.raises(ModelError) as info:
        for chunk in model.stream(ORIGINAL, UPDATE):
            chunks.append(chunk)
    assert info.value.code == ErrorCode.UPSTREAM_FAILED and "broke the stream" in info.value.message
    assert "".join(chunks) != MERGED  # only a prefix arrived; the error says it is unusable
    sim.script("drop:5")
    with pytest.raises(ModelError):
        model.merge(ORIGINAL, UPDATE)  # not retried: half an answer must not be resent or glued
    assert sim.stats()["requests"] == 2


def test_a_stream_without_finish_reason_is_upstream_failed(sim):
    model = model_for(sim.url)
    sim.script("nofinish")
    with pytest.raises(ModelError) as info:
        model.merge(ORIGINAL, UPDATE)
    assert info.value.code == ErrorCode.UPSTREAM_FAILED and "finish reason" in info.value.message


def test_token_limit_is_output_truncated(sim):
    model = model_for(sim.url)
    with pytest.raises(ApplyError) as info:
        model.merge(ORIGINAL, UPDATE, max_new_tokens=5)
    assert info.value.code == ErrorCode.OUTPUT_TRUNCATED


def test_closing_the_stream_cancels_the_upstream_request(sim):
    model = model_for(sim.url)
    sim.script("hang")
    stream = model.stream(ORIGINAL, UPDATE)
    first = next(stream)
    assert first
    stream.close()
    deadline = time.monotonic() + 10
    while sim.stats()["disconnected"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sim.stats()["disconnected"] == 1 and sim.stats()["active"] == 0


def test_a_slow_upstream_times_out_between_events(sim):
    model = model_for(sim.url, read_timeout_s=0.5)
    sim.script("hang")
    with pytest.raises(ModelError) as info:
        model.merge(ORIGINAL, UPDATE)
    assert info.value.code == ErrorCode.UPSTREAM_FAILED and "ReadTimeout" in info.value.message


def test_prefix_echo_is_stripped_once():
    echo = _PrefixEcho("<updated-code>\n")
    assert echo("<upd") == "" and echo("ated-code>\nx = 1\n") == "x = 1\n" and echo("<updated-code>") == "<updated-code>"
    plain = _PrefixEcho("<updated-code>\n")
    assert plain("x") == "x"


def test_completions_api_renders_the_chat_template_here(sim, smollm2_dir):
    model = load_upstream(f"openai:{sim.url}#{MODEL_ID}", tokenizer=str(smollm2_dir), template="copy", environ={})
    assert model.api == "completions"
    assert model.merge(ORIGINAL, UPDATE).merged_code == MERGED


def test_load_model_openai_scheme_does_not_import_torch(sim):
    code = ("import sys, fastapply; m = fastapply.load_model('openai:%s#%s'); "
            "print(type(m).__name__, m.template.name, 'torch' in sys.modules)" % (sim.url, MODEL_ID))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["UpstreamModel", "fastapply", "False"], out.stderr


def test_a_server_without_prefill_fields_is_retried_without_them(sim):
    model = model_for(sim.url)
    events = collect(model)
    sim.script(config={"strict": True})
    assert model.merge(ORIGINAL, UPDATE).merged_code == MERGED  # its echoed <updated-code> is stripped
    assert model.prefill is False and sim.stats()["requests"] == 2
    # The rejected first attempt is a retry in the metrics, not an error.
    assert [(e.outcome, e.reason) for e in events] == [("retry", "prefill_unsupported"), ("ok", "")]
    assert model.merge(ORIGINAL, UPDATE).merged_code == MERGED and sim.stats()["requests"] == 3
