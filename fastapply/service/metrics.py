"""Prometheus metrics in the text exposition format, without a client library.

Everything is updated from the event loop thread, so plain dicts suffice. With `--workers N` each
worker process keeps its own numbers (scrape each, or run one worker per container).
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

# Request latency buckets (seconds): structural merges take milliseconds, model merges seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
TOKENS_PER_S_BUCKETS = (10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0, 10000.0)

Labels = tuple[tuple[str, str], ...]


def _labels(labels: Labels) -> str:
    if not labels:
        return ""
    inner = ",".join(f'{key}="{_escape(value)}"' for key, value in labels)
    return "{" + inner + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf"
    return repr(float(value)) if isinstance(value, float) and not value.is_integer() else str(int(value))


class Counter:
    def __init__(self, name: str, help_text: str, kind: str = "counter") -> None:
        self.name, self.help, self.kind = name, help_text, kind
        self.values: dict[Labels, float] = defaultdict(float)

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        self.values[tuple(sorted(labels.items()))] += amount

    def set(self, value: float, **labels: str) -> None:
        self.values[tuple(sorted(labels.items()))] = value

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} {self.kind}"]
        lines += [f"{self.name}{_labels(key)} {_number(value)}" for key, value in sorted(self.values.items())]
        return lines


class Histogram:
    def __init__(self, name: str, help_text: str, buckets: tuple[float, ...]) -> None:
        self.name, self.help, self.buckets = name, help_text, buckets
        self.counts: dict[Labels, list[int]] = {}
        self.sums: dict[Labels, float] = defaultdict(float)

    def observe(self, value: float, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        counts = self.counts.setdefault(key, [0] * (len(self.buckets) + 1))
        # Store per-bucket counts; render() accumulates them into Prometheus' cumulative form.
        index = next((i for i, bound in enumerate(self.buckets) if value <= bound), len(self.buckets))
        counts[index] += 1
        self.sums[key] += value

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        for key, counts in sorted(self.counts.items()):
            total = 0
            for bound, count in zip((*self.buckets, math.inf), counts):
                total += count
                lines.append(f"{self.name}_bucket{_labels((*key, ('le', _number(bound))))} {total}")
            lines.append(f"{self.name}_sum{_labels(key)} {self.sums[key]!r}")
            lines.append(f"{self.name}_count{_labels(key)} {total}")
        return lines


class Metrics:
    """The service's metrics; `render()` is the body of GET /metrics."""

    def __init__(self) -> None:
        self.requests = Counter("fastapply_requests_total", "HTTP requests by route, method and status.")
        self.latency = Histogram("fastapply_request_duration_seconds", "HTTP request latency by route.",
                                 LATENCY_BUCKETS)
        self.merges = Counter("fastapply_merges_total", "Successful merges by method (strategy or model).")
        self.refusals = Counter("fastapply_refusals_total",
                                "Refused requests and failed merges by error code.")
        self.tokens = Counter("fastapply_generated_tokens_total", "Tokens generated on the model path.")
        self.tokens_per_s = Histogram("fastapply_generation_tokens_per_second",
                                      "Decode speed per model merge.", TOKENS_PER_S_BUCKETS)
        self.inflight = Counter("fastapply_inflight_requests", "Requests being processed now.", "gauge")
        self.queued = Counter("fastapply_queued_requests", "Requests waiting for a processing slot.", "gauge")
        self.model_loaded = Counter("fastapply_model_loaded", "1 when the named model is loaded.", "gauge")
        self.workers = Counter("fastapply_merge_workers", "Merge workers alive (processes or threads).", "gauge")
        self.workers_replaced = Counter("fastapply_merge_workers_replaced_total",
                                        "Merge worker processes killed (past a deadline) or died, and replaced.")
        self.dialects = Counter("fastapply_chat_dialects_total", "Chat completions by apply-prompt dialect "
                                "(morph, morph-anchors, kortix, continue, predicted).")
        self.inflight.set(0)
        self.queued.set(0)
        # Calls to OpenAI-compatible upstream servers (--model openai:URL), per endpoint.
        self.upstream_calls = Counter("fastapply_upstream_requests_total",
                                      "Upstream calls and attempts by endpoint and outcome (ok, retry, "
                                      "failover, error, cancelled) and reason.")
        self.upstream_latency = Histogram("fastapply_upstream_duration_seconds",
                                          "Upstream call duration by endpoint (whole stream).", LATENCY_BUCKETS)
        self.upstream_first = Histogram("fastapply_upstream_first_event_seconds",
                                        "Time to the upstream's first streamed event by endpoint.", LATENCY_BUCKETS)
        self.upstream_tokens = Counter("fastapply_upstream_events_total",
                                       "Streamed upstream events (about one token each) by endpoint.")
        self.upstream_up = Counter("fastapply_upstream_up", "1 when the endpoint answered its last health "
                                   "check (GET /models, on /readyz).", "gauge")

    def request(self, route: str, method: str, status: int, seconds: float) -> None:
        self.requests.inc(route=route, method=method, status=str(status))
        self.latency.observe(seconds, route=route)

    def merge(self, method: str) -> None:
        self.merges.inc(method=method)

    def refusal(self, code: str) -> None:
        self.refusals.inc(code=code)

    def generation(self, model: str, tokens: int, decode_s: float) -> None:
        if tokens <= 0:
            return
        self.tokens.inc(tokens, model=model)
        if decode_s > 0:
            self.tokens_per_s.observe(tokens / decode_s, model=model)

    def upstream(self, event: Any) -> None:
        """Observer of fastapply.runtime.upstream.UpstreamPool (an UpstreamEvent per call or attempt)."""
        self.upstream_calls.inc(endpoint=event.endpoint, outcome=event.outcome, reason=event.reason)
        if event.outcome in ("ok", "error", "cancelled"):
            self.upstream_latency.observe(event.seconds, endpoint=event.endpoint)
        if event.first_event_s is not None:
            self.upstream_first.observe(event.first_event_s, endpoint=event.endpoint)
        if event.tokens:
            self.upstream_tokens.inc(event.tokens, endpoint=event.endpoint)

    def render(self) -> str:
        lines: list[str] = []
        for metric in (self.requests, self.latency, self.merges, self.refusals, self.tokens,
                       self.tokens_per_s, self.inflight, self.queued, self.model_loaded, self.workers,
                       self.workers_replaced, self.dialects, self.upstream_calls, self.upstream_latency, self.upstream_first, self.upstream_tokens,
                       self.upstream_up):
            lines += metric.render()
        return "\n".join(lines) + "\n"
