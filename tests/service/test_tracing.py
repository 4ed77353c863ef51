"""OpenTelemetry spans (opentelemetry-sdk with an in-memory exporter): a refused edit that the
upstream merges is one `fastapply.apply` span with a structural and a model child, and the model child
holds the `fastapply.upstream` call."""

from __future__ import annotations

import pytest
from svc_support import LiveServer

from evals.sim_upstream import MODEL_ID, ThreadServer, create_sim_app
from fastapply.service import Settings



@pytest.fixture(scope="module")
def exporter():
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    trace.set_tracer_provider(provider)  # once per process: the rest of the session exports nothing
    yield memory
    provider.shutdown()


def test_spans_from_request_to_upstream(exporter):
    with ThreadServer(create_sim_app()) as sim:
        from fastapply.runtime.remote import load_upstream

        server = LiveServer(Settings(executor="thread", log_level="error"),
                            [load_upstream(f"openai:{sim.url}#{MODEL_ID}", api="chat", environ={})]).start()
        try:
            with server.client() as http:
                exporter.clear()
                response = http.post("/v1/apply", json={
                    "initial_code": "x = 1\ny = 2\n",
                    "edit_snippet": "z = 3\n# ... existing code ...\nw = 4\n# ... existing code ...\nq = 5\n"})
        finally:
            server.stop()
    assert response.status_code == 200 and response.json()["method"] == "model"
    spans = {s.name: s for s in exporter.get_finished_spans()}
    root, structural = spans["fastapply.apply"], spans["fastapply.structural_merge"]
    model, upstream = spans["fastapply.model_merge"], spans["fastapply.upstream"]
    assert root.attributes["fastapply.model"] == "auto" and root.parent is None
    assert structural.parent.span_id == root.context.span_id
    assert model.parent.span_id == root.context.span_id
    assert upstream.parent.span_id == model.context.span_id
    assert upstream.attributes["fastapply.endpoint"] == f"{sim.url}/v1"
    assert upstream.attributes["fastapply.outcome"] == "ok" and upstream.attributes["fastapply.events"] > 0
    assert structural.status.status_code.name == "ERROR"  # it refused the edit
