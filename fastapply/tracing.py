"""Optional OpenTelemetry traces: request -> structural merge -> model merge -> upstream call.

When the `opentelemetry` API is installed, the engine opens spans through it, and they go wherever the
process's tracer provider sends them (`opentelemetry-instrument fastapply serve` with an OTLP exporter,
or opentelemetry-sdk configured by an application that embeds the service). Without the package, or
without a configured provider, every span is a no-op (one function call). Spans: `fastapply.apply`
(one per merge request; attribute `fastapply.model`), its children `fastapply.structural_merge` and
`fastapply.model_merge`, and `fastapply.upstream` per call to an upstream server (endpoint, outcome).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def tracer() -> Any:
    """The `fastapply` tracer, or None without the opentelemetry API. Safe to cache: the API's
    tracer is a proxy that follows a provider configured later."""
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    return trace.get_tracer("fastapply")


def span(name: str, **attributes: Any) -> AbstractContextManager[Any]:
    """A span that is current inside the `with` block (for code that does not yield across it)."""
    t = tracer()
    if t is None:
        return nullcontext()
    return t.start_as_current_span(name, attributes={k: v for k, v in attributes.items() if v is not None})


def start_span(name: str, **attributes: Any) -> Any:
    """A span that is not made current (async generators switch contexts); end it with `end_span`."""
    t = tracer()
    if t is None:
        return None
    return t.start_span(name, attributes={k: v for k, v in attributes.items() if v is not None})


def end_span(handle: Any, **attributes: Any) -> None:
    if handle is None:
        return
    for key, value in attributes.items():
        if value is not None:
            handle.set_attribute(key, value)
    handle.end()
