"""Test support for tests/service: a fake model and a real uvicorn server on a free loopback port."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx

from evals.sim_upstream import ThreadServer
from fastapply.result import ApplyResult, ApplyStats, make_result
from fastapply.service import Settings, create_app

FAKE_MODEL = "fake-apply"


class FakeModel:
    """Stands in for `fastapply.load_model(...)`: the ApplyModel interface with controllable timing.

    merge() returns the update with a marker line appended, so a test can tell which engine merged.
    stream() yields that text in small chunks and records whether it was closed before the end.
    """

    def __init__(self, name: str = FAKE_MODEL, delay_s: float = 0.0, chunk_delay_s: float = 0.0) -> None:
        self.name, self.delay_s, self.chunk_delay_s = name, delay_s, chunk_delay_s
        self.calls = 0
        self.closed_early = threading.Event()
        self.finished = threading.Event()
        self.active = 0
        self.max_active = 0
        self._guard = threading.Lock()

    def _enter(self) -> None:
        with self._guard:
            self.active += 1
            self.max_active = max(self.max_active, self.active)
            self.calls += 1

    def _leave(self) -> None:
        with self._guard:
            self.active -= 1

    @staticmethod
    def output(update: str) -> str:
        return update + "# merged by fake model\n"

    def merge(self, original: str, update: str, **kwargs: Any) -> ApplyResult:
        self._enter()
        try:
            started = time.perf_counter()
            time.sleep(self.delay_s)
            merged = self.output(update)
            stats = ApplyStats(prompt_tokens=len(original) + len(update), generated_tokens=len(merged),
                               decode_s=max(self.delay_s, 0.001))
            return make_result(original, merged, method="model", language=None, filename=None,
                               started=started, stats=stats)
        finally:
            self._leave()

    def stream(self, original: str, update: str, **kwargs: Any) -> Iterator[str]:
        self._enter()
        try:
            text = self.output(update)
            for start in range(0, len(text), 8):
                time.sleep(self.chunk_delay_s)
                yield text[start:start + 8]
            self.finished.set()
        except GeneratorExit:
            self.closed_early.set()
            raise
        finally:
            self._leave()


class LiveServer(ThreadServer):
    """The service for `settings` (plus already loaded `models`), on a free loopback port."""

    def __init__(self, settings: Settings, models: list[Any] | None = None) -> None:
        self.settings = settings
        self.models = models or []
        super().__init__(create_app(settings, models=self.models), probe="/healthz", log_level="warning")

    def start(self) -> LiveServer:
        self.__enter__()
        return self

    def stop(self) -> None:
        self.__exit__()

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=kwargs.pop("timeout", 10), **kwargs)


def sse_events(text: str) -> list[str]:
    """The data payloads of a server-sent event stream, in order."""
    return [line[len("data: "):] for line in text.splitlines() if line.startswith("data: ")]


def lines_300(seed: int = 0) -> str:
    """A realistic ~300-line Python file."""
    out = []
    for i in range(60):
        out += [f"def handler_{seed}_{i}(request, limit={i}):",
                f"    \"\"\"Handle request kind {i}.\"\"\"",
                "    items = [x for x in request.items if x.size < limit]",
                f"    return {{'count': len(items), 'kind': {i}}}", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def scrape(text: str) -> dict[str, float]:
    """Every sample of a /metrics body, parsed by prometheus_client's own parser:
    'name{a="x",b="y"}' (labels sorted by name; no braces without labels) -> value."""
    from prometheus_client.parser import text_string_to_metric_families

    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f'{key}="{value}"' for key, value in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples
