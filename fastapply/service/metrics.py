"""The service's Prometheus metrics, kept with `prometheus_client`.

One process (`fastapply serve`, tests, an embedding application): each `Metrics` has its own registry.
Several worker processes (`fastapply serve --workers N`): `fastapply serve` points
PROMETHEUS_MULTIPROC_DIR at a private folder (fastapply.service.metrics_dir) before any worker starts;
prometheus_client then keeps every value in a small memory-mapped file per process, and a scrape,
whichever worker answers it, adds them up (MultiProcessCollector): one set of counters and histograms
for the whole server. Gauges say how processes combine (`livesum`: the sum over live workers, e.g.
requests in flight; `livemax`; `livemostrecent`: the last value any live worker set).

Every update is O(1) (a histogram: O(buckets)); a scrape is O(series x processes).
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, values

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Request latency buckets (seconds): structural merges take milliseconds, model merges seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
TOKENS_PER_S_BUCKETS = (10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0, 10000.0)


def multiprocess_mode() -> bool:
    """True when prometheus_client keeps values in PROMETHEUS_MULTIPROC_DIR. It decides once, when it is
    first imported, so this asks it rather than the environment (which may have changed since)."""
    return bool(getattr(values.ValueClass, "_multiprocess", False))


class Metrics:
    """The service's metrics; `render()` is the body of GET /metrics."""

    def __init__(self) -> None:
        self.shared = multiprocess_mode()
        # Shared: the metric objects only write their files; each scrape builds a collector over the
        # folder. One process: a registry of this instance's own (tests run several apps per process).
        self.registry = None if self.shared else CollectorRegistry()
        reg: dict[str, Any] = {"registry": self.registry}
        self.requests = Counter("fastapply_requests", "HTTP requests by route, method and status.",
                                ["route", "method", "status"], **reg)
        self.latency = Histogram("fastapply_request_duration_seconds", "HTTP request latency by route.",
                                 ["route"], buckets=LATENCY_BUCKETS, **reg)
        self.merges = Counter("fastapply_merges", "Successful merges by method (strategy or model).",
                              ["method"], **reg)
        self.refusals = Counter("fastapply_refusals", "Refused requests and failed merges by error code.",
                                ["code"], **reg)
        self.tokens = Counter("fastapply_generated_tokens", "Tokens generated on the model path.",
                              ["model"], **reg)
        self.tokens_per_s = Histogram("fastapply_generation_tokens_per_second", "Decode speed per model merge.",
                                      ["model"], buckets=TOKENS_PER_S_BUCKETS, **reg)
        self.inflight = Gauge("fastapply_inflight_requests", "Requests being processed now.",
                              multiprocess_mode="livesum", **reg)
        self.queued = Gauge("fastapply_queued_requests", "Requests waiting for a processing slot.",
                            multiprocess_mode="livesum", **reg)
        self.model_loaded = Gauge("fastapply_model_loaded", "1 when the named model is loaded.", ["model"],
                                  multiprocess_mode="livemax", **reg)
        self.workers = Gauge("fastapply_merge_workers", "Merge workers alive (processes or threads), all "
                             "server workers together.", multiprocess_mode="livesum", **reg)
        self.workers_replaced = Counter("fastapply_merge_workers_replaced", "Merge worker processes killed "
                                        "(past a deadline) or died, and replaced.", **reg)
        self.dialects = Counter("fastapply_chat_dialects", "Chat completions by apply-prompt dialect "
                                "(morph, morph-anchors, kortix, continue, predicted).", ["dialect"], **reg)
        # Calls to OpenAI-compatible upstream servers (--model openai:URL), per endpoint.
        self.upstream_calls = Counter("fastapply_upstream_requests", "Upstream calls and attempts by "
                                      "endpoint and outcome (ok, retry, failover, error, cancelled) and reason "
                                      "(the error code: http_STATUS, a connection error's name, bad_event...).",
                                      ["endpoint", "outcome", "reason"], **reg)
        self.upstream_latency = Histogram("fastapply_upstream_duration_seconds", "Upstream call duration by "
                                          "endpoint (whole stream).", ["endpoint"], buckets=LATENCY_BUCKETS, **reg)
        self.upstream_first = Histogram("fastapply_upstream_first_event_seconds", "Time to the upstream's "
                                        "first streamed event by endpoint.", ["endpoint"], buckets=LATENCY_BUCKETS,
                                        **reg)
        self.upstream_events = Counter("fastapply_upstream_events", "Streamed upstream events (about one "
                                       "token each) by endpoint.", ["endpoint"], **reg)
        self.upstream_tokens = Counter("fastapply_upstream_tokens", "Tokens the upstream reported using "
                                       "(its `usage`), by endpoint and kind (prompt, completion).",
                                       ["endpoint", "kind"], **reg)
        self.upstream_up = Gauge("fastapply_upstream_up", "1 when the endpoint answered its last health "
                                 "check (GET /models, on /readyz).", ["endpoint"],
                                 multiprocess_mode="livemostrecent", **reg)
        self._replaced_seen = 0

    def request(self, route: str, method: str, status: int, seconds: float) -> None:
        self.requests.labels(route, method, str(status)).inc()
        self.latency.labels(route).observe(seconds)

    def merge(self, method: str) -> None:
        self.merges.labels(method).inc()

    def refusal(self, code: str) -> None:
        self.refusals.labels(str(code)).inc()

    def dialect(self, name: str) -> None:
        self.dialects.labels(name).inc()

    def loaded(self, model: str) -> None:
        self.model_loaded.labels(model).set(1)

    def merge_workers(self, alive: int, replaced: int) -> None:
        """The merge pool's state: workers alive now, and replaced since this process started."""
        self.workers.set(alive)
        if replaced > self._replaced_seen:
            self.workers_replaced.inc(replaced - self._replaced_seen)
            self._replaced_seen = replaced

    def generation(self, model: str, tokens: int, decode_s: float) -> None:
        if tokens <= 0:
            return
        self.tokens.labels(model).inc(tokens)
        if decode_s > 0:
            self.tokens_per_s.labels(model).observe(tokens / decode_s)

    def upstream(self, event: Any) -> None:
        """Observer of fastapply.runtime.upstream.UpstreamPool (an UpstreamEvent per call or attempt)."""
        endpoint = event.endpoint
        self.upstream_calls.labels(endpoint, event.outcome, event.reason).inc()
        if event.outcome in ("ok", "error", "cancelled"):
            self.upstream_latency.labels(endpoint).observe(event.seconds)
        if event.first_event_s is not None:
            self.upstream_first.labels(endpoint).observe(event.first_event_s)
        if event.tokens:
            self.upstream_events.labels(endpoint).inc(event.tokens)
        if event.prompt_tokens:
            self.upstream_tokens.labels(endpoint, "prompt").inc(event.prompt_tokens)
        if event.completion_tokens:
            self.upstream_tokens.labels(endpoint, "completion").inc(event.completion_tokens)

    def upstream_health(self, endpoint: str, up: bool) -> None:
        self.upstream_up.labels(endpoint).set(1 if up else 0)

    def render(self) -> bytes:
        if self.registry is not None:
            return generate_latest(self.registry)
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        return generate_latest(registry)

    def process_exit(self) -> None:
        """This worker stops: its live gauges (in flight, queued, workers) leave the sums at once."""
        if self.shared:
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(os.getpid())
