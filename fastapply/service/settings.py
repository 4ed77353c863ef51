"""Service settings: one msgspec Struct filled from CLI options and FASTAPPLY_* environment variables.

Every option has an environment variable of the same name (`--max-body-mb` is `FASTAPPLY_MAX_BODY_MB`),
so a container or a process manager can configure the service without a command line. List options
(`cors_origins`, `api_keys`) take comma-separated values in the environment.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from ..errors import ErrorCode, InputError

ENV_PREFIX = "FASTAPPLY_"
# Model names that Morph's and Relace's clients send unchanged; they mean "the best engine here".
DEFAULT_MODEL_ALIASES = {"morph-v3-fast": "auto", "morph-v3-large": "auto", "relace-apply-3": "auto"}
DEFAULT_HEADER_TIMEOUT_S = 10.0


class Settings(msgspec.Struct, kw_only=True):
    host: str = "127.0.0.1"
    port: int = 8000
    # uvicorn worker processes; each loads its own model; /metrics adds up all of them.
    workers: int = 1
    # A model spec for `fastapply.load_model` (hub id, local folder, GGUF file); None = structural only.
    model: str | None = None
    # An EAGLE draft head folder for `model` (from `fastapply train-head`); None = copy drafts only.
    draft_head: str | None = None
    # Request model name -> the name served (`auto`, `fastapply-structural` or a loaded model's).
    model_aliases: dict[str, str] = msgspec.field(default_factory=lambda: dict(DEFAULT_MODEL_ALIASES))
    # False: any morph-*, relace-* or *apply* model name is served as `auto`; True: 404 for names not
    # configured (loaded models, aliases, auto, fastapply-structural).
    strict_models: bool = False
    # The MCP tools at /mcp (streamable HTTP; needs the `mcp` extra) edit files under mcp_root
    # ("" = the folder the server starts in). Off when the server listens beyond loopback without keys.
    mcp: bool = True
    mcp_root: str = ""
    # Accepted API keys; empty = no auth.
    api_keys: list[str] = msgspec.field(default_factory=list)
    max_body_mb: float = 8.0
    timeout_s: float = 30.0
    # A connection must deliver a request's headers within this many seconds of opening (or of its
    # previous response), else it is closed: idle or dribbling connections cannot pile up and
    # exhaust the file descriptors (uvicorn times out only connections that finished a request).
    header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S
    # A model stream's response starts at once, so timeout_s cannot bound it: generation stops after
    # this many seconds (checked between chunks) with an in-band `generation_timeout` error event.
    max_generation_s: float = 300.0
    # Requests on /v1/* processed at once, and how many more may wait for a slot before 429.
    max_concurrency: int = 64
    max_queue: int = 256
    cors_origins: list[str] = msgspec.field(default_factory=list)
    # Where CPU-bound merges run: a process pool that uses every core (measured faster under load,
    # see evals/load.py), or threads (no start-up cost, but merges share the event loop's GIL).
    executor: Literal["thread", "process"] = "process"
    # Threads or processes in that pool; 0 = a default from the CPU count.
    executor_workers: int = 0
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # uvicorn's HTTP parser and event loop; `auto` picks httptools and uvloop when installed
    # (uvicorn[standard], a dependency), else the pure-Python h11 and asyncio.
    http: Literal["auto", "httptools", "h11"] = "auto"
    loop: Literal["auto", "uvloop", "asyncio"] = "auto"

    @property
    def max_body_bytes(self) -> int:
        return int(self.max_body_mb * 1024 * 1024)

    def pool_size(self) -> int:
        if self.executor_workers > 0:
            return self.executor_workers
        cpus = os.cpu_count() or 1
        # Each merge process holds its own parsers; 8 keeps memory modest on big machines.
        return min(8, cpus) if self.executor == "process" else max(2, min(8, cpus * 2))

    def check(self) -> Settings:
        """Refuse settings that cannot work, naming the option."""
        problems = []
        if not 0 < self.port < 65536:
            problems.append(f"port {self.port} is not in 1..65535")
        if self.draft_head and not self.model:
            problems.append("draft_head needs model (the head drafts for that model)")
        for name in ("workers", "max_concurrency"):
            if getattr(self, name) < 1:
                problems.append(f"{name} must be at least 1")
        for name in ("max_queue", "executor_workers"):
            if getattr(self, name) < 0:
                problems.append(f"{name} must not be negative")
        for name in ("max_body_mb", "timeout_s", "max_generation_s", "header_timeout_s"):
            if getattr(self, name) <= 0:
                problems.append(f"{name} must be positive")
        for name, module in (("http", "httptools"), ("loop", "uvloop")):
            if getattr(self, name) == module and importlib.util.find_spec(module) is None:
                problems.append(f"{name} {module} needs the {module} package: pip install 'uvicorn[standard]'")
        if problems:
            raise InputError("invalid service settings: " + "; ".join(problems),
                             code=ErrorCode.INVALID_ARGUMENT)
        return self


def env_name(field: str) -> str:
    return ENV_PREFIX + field.upper()


def from_env(environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
    """Settings from FASTAPPLY_* variables, then `overrides` (CLI options; None = not given) on top."""
    environ = os.environ if environ is None else environ
    raw: dict[str, Any] = {}
    for field in msgspec.structs.fields(Settings):
        value = environ.get(env_name(field.name))
        if value is None or value == "":
            continue
        if field.name in ("api_keys", "cors_origins"):
            raw[field.name] = [part.strip() for part in value.split(",") if part.strip()]
        elif field.name == "model_aliases":
            raw[field.name] = parse_aliases(value.split(","))
        else:
            raw[field.name] = value
    # FASTAPPLY_API_KEY (singular) is the name people try first.
    single = environ.get(ENV_PREFIX + "API_KEY")
    if single and "api_keys" not in raw:
        raw["api_keys"] = [single]
    extra_aliases = overrides.pop("model_aliases", None)
    raw.update({key: value for key, value in overrides.items() if value is not None})
    if extra_aliases:  # CLI aliases add to (and override) the environment's or the defaults
        raw["model_aliases"] = {**raw.get("model_aliases", DEFAULT_MODEL_ALIASES), **extra_aliases}
    try:
        # str_values: environment strings such as "8000" or "2.5" become numbers.
        return msgspec.convert(raw, Settings, strict=False).check()
    except msgspec.ValidationError as exc:
        raise InputError(f"invalid service settings: {exc}", code=ErrorCode.INVALID_ARGUMENT) from None


def parse_aliases(pairs: list[str]) -> dict[str, str]:
    """["name=target", ...] -> {name: target}; a malformed pair is an InputError naming it."""
    aliases = {}
    for pair in pairs:
        if not pair.strip():
            continue
        name, sep, target = pair.partition("=")
        if not sep or not name.strip() or not target.strip():
            raise InputError(f"invalid model alias {pair!r}; write NAME=TARGET, e.g. morph-v3-fast=auto",
                             code=ErrorCode.INVALID_ARGUMENT)
        aliases[name.strip()] = target.strip()
    return aliases


def to_env(settings: Settings) -> dict[str, str]:
    """The environment that reproduces `settings` (how settings reach uvicorn's worker processes)."""
    env = {}
    for field in msgspec.structs.fields(Settings):
        value = getattr(settings, field.name)
        if value is None:
            continue
        if isinstance(value, dict):
            value = ",".join(f"{key}={target}" for key, target in value.items())
        env[env_name(field.name)] = ",".join(value) if isinstance(value, list) else str(value)
    return env
