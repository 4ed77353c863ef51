"""Fixtures that start the REAL service (uvicorn on a free loopback port, in a background thread)
and talk to it over HTTP. Each fixture is one server with its own settings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from svc_support import FakeModel, LiveServer

from fastapply.service import Settings


def _serve(settings: Settings, models: list[Any] | None = None) -> Iterator[LiveServer]:
    server = LiveServer(settings, models).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def fake_model() -> FakeModel:
    return FakeModel(chunk_delay_s=0.001)


@pytest.fixture(scope="session")
def server(fake_model: FakeModel) -> Iterator[LiveServer]:
    """Default settings plus a fast fake model named `fake-apply`."""
    yield from _serve(Settings(executor="thread", log_level="error"), [fake_model])


@pytest.fixture(scope="session")
def plain_server() -> Iterator[LiveServer]:
    """What `fastapply serve` runs with no options (structural engine only, process pool)."""
    yield from _serve(Settings(log_level="error"))


@pytest.fixture(scope="session")
def auth_server() -> Iterator[LiveServer]:
    settings = Settings(api_keys=["secret-one", "secret-two"], cors_origins=["http://allowed.example"],
                        log_level="error")
    yield from _serve(settings)


@pytest.fixture(scope="session")
def slow_model() -> FakeModel:
    return FakeModel(name="slow-model", delay_s=1.5, chunk_delay_s=0.2)


@pytest.fixture(scope="session")
def tight_server(slow_model: FakeModel) -> Iterator[LiveServer]:
    """One request at a time, no queue, a 0.5 s timeout, a 64 KiB body limit, and a slow model."""
    settings = Settings(max_concurrency=1, max_queue=0, timeout_s=0.5, max_body_mb=1 / 16, log_level="error")
    yield from _serve(settings, [slow_model])
