"""`fastapply serve`: run the HTTP service (litestar on uvicorn)."""

from __future__ import annotations

import argparse
import os

from ..service.settings import env_name

DEFAULTS_HELP = "Every option can also be set by an environment variable, shown in brackets."


def _env(field: str) -> str:
    return f"[{env_name(field)}]"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run the HTTP service (Relace /v1/apply, OpenAI /v1/chat/completions, batch apply)",
        description="Serve fastapply over HTTP. With no options: the structural engine on 127.0.0.1:8000,\n"
        "no auth. Endpoints: POST /v1/apply (Relace), POST /v1/chat/completions (OpenAI, Morph's\n"
        "format), POST /v1/apply/batch, GET /v1/models, /healthz, /readyz, /metrics; docs at /schema;\n"
        "MCP edit tools over streamable HTTP at /mcp (with the `mcp` extra).\n"
        + DEFAULTS_HELP,
        epilog="examples:\n"
        "  fastapply serve                                   # structural engine on 127.0.0.1:8000\n"
        "  fastapply serve --host 0.0.0.0 --api-key \"$KEY\"   # reachable from other machines, with auth\n"
        "  fastapply serve --model path/to/model.gguf        # also serve a fast-apply model\n"
        "  fastapply serve --model openai:http://gpu:8000/v1#apply   # the model on a vLLM server\n"
        "  curl -s localhost:8000/v1/apply -d '{\"initial_code\": \"a = 1\\n\", \"edit_snippet\": \"a = 2\\n\"}'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = p.add_argument
    add("--host", default=None,
        help=f"address to bind; 0.0.0.0 for every interface (default 127.0.0.1) {_env('host')}")
    add("--port", type=int, default=None, help=f"TCP port (default 8000) {_env('port')}")
    add("--workers", type=int, default=None, metavar="N",
        help="worker processes; each loads its own model; /metrics reports them together "
        f"(default 1) {_env('workers')}")
    add("--model", default=None, metavar="SPEC",
        help="also serve a fast-apply model: hub id, local folder or GGUF file, or "
        "openai:URL[,URL...][#MODEL] for OpenAI-compatible servers (vLLM, SGLang, transformers serve, "
        "llama.cpp), load-balanced with failover; FASTAPPLY_UPSTREAM_* variables tune it "
        f"(see docker/README.md) (default: none) {_env('model')}")
    add("--draft-head", default=None, metavar="DIR",
        help="EAGLE draft head for an in-process --model (from `fastapply train-head`): drafts where the "
        f"copy index has no long match (default: none) {_env('draft_head')}")
    add("--model-alias", dest="model_aliases", action="append", default=None, metavar="NAME=TARGET",
        help="serve requests for model NAME with TARGET (auto, fastapply-structural or a loaded model); "
        "repeat for several; morph-v3-fast, morph-v3-large and relace-apply-3 mean auto by default "
        f"{_env('model_aliases')}")
    add("--strict-models", action="store_true", default=None,
        help="answer 404 for model names not configured; by default any morph-*, relace-* or *apply* name "
        f"is served as auto {_env('strict_models')}")
    add("--mcp-root", default=None, metavar="DIR",
        help="folder the MCP tools at /mcp may edit (default: the folder the server starts in); /mcp is "
        f"off beyond loopback without --api-key {_env('mcp_root')}")
    add("--no-mcp", dest="mcp", action="store_false", default=None,
        help=f"do not serve the MCP tools at /mcp {_env('mcp')}")
    add("--api-key", dest="api_keys", action="append", default=None, metavar="KEY",
        help=f"require this key as `Authorization: Bearer KEY` or `x-api-key`; repeat for several "
        f"(default: no auth) [FASTAPPLY_API_KEY, or comma-separated FASTAPPLY_API_KEYS]")
    add("--max-body-mb", type=float, default=None, metavar="MB",
        help=f"largest request body, else 413 (default 8) {_env('max_body_mb')}")
    add("--timeout-s", type=float, default=None, metavar="S",
        help="per-request time limit up to the response headers (queueing and the merge), else 504 "
        f"(default 30) {_env('timeout_s')}")
    add("--header-timeout-s", type=float, default=None, metavar="S",
        help="close a connection that has not sent a complete request head (line and headers) S "
        "seconds after it opened or after its previous response: idle and slow-header connections "
        f"cannot pile up (default 10) {_env('header_timeout_s')}")
    add("--max-generation-s", type=float, default=None, metavar="S",
        help="longest model stream: a streamed response starts at once, so --timeout-s does not bound "
        "it; generation stops after S seconds with an in-band generation_timeout error "
        f"(default 300) {_env('max_generation_s')}")
    add("--max-concurrency", type=int, default=None, metavar="N",
        help=f"requests processed at once (default 64) {_env('max_concurrency')}")
    add("--max-queue", type=int, default=None, metavar="N",
        help=f"requests waiting for a slot before 429 + Retry-After (default 256) {_env('max_queue')}")
    add("--cors-origin", dest="cors_origins", action="append", default=None, metavar="ORIGIN",
        help=f"allow browser requests from ORIGIN (e.g. http://localhost:3000); repeat for several "
        f"(default: none) {_env('cors_origins')}")
    add("--executor", choices=["thread", "process"], default=None,
        help=f"where merges run: processes that use every core, or threads in the server process "
        f"(default process) {_env('executor')}")
    add("--executor-workers", type=int, default=None, metavar="N",
        help="threads or processes for merges; 0 = from the CPU count "
        f"(default 0) {_env('executor_workers')}")
    add("--http", choices=["auto", "httptools", "h11"], default=None,
        help="HTTP parser: httptools (C, faster) or h11 (pure Python); auto = httptools when installed "
        f"(default auto) {_env('http')}")
    add("--loop", choices=["auto", "uvloop", "asyncio"], default=None,
        help=f"event loop; auto = uvloop when installed (default auto) {_env('loop')}")
    add("--log-level", choices=["debug", "info", "warning", "error"], default=None,
        help=f"JSON log level on stderr (default info) {_env('log_level')}")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..service.settings import from_env, to_env

    from ..service.settings import parse_aliases

    options = {name: getattr(args, name) for name in (
        "host", "port", "workers", "model", "draft_head", "model_aliases", "api_keys", "max_body_mb", "timeout_s",
        "header_timeout_s", "max_generation_s", "max_concurrency",
        "max_queue", "cors_origins", "executor", "executor_workers", "log_level", "http", "loop",
        "strict_models", "mcp", "mcp_root")}
    if options["model_aliases"]:
        options["model_aliases"] = parse_aliases(options["model_aliases"])
    settings = from_env(**options)
    # Worker processes (and the app factory) read their settings from the environment.
    os.environ.update(to_env(settings))
    from ..service import logs

    from ..service.protocol import http_protocol, resolve_loop

    from ..service.metrics_dir import shared_metrics

    logs.configure(settings.log_level)
    # With several workers, one /metrics for all of them (prometheus_client's multiprocess folder).
    with shared_metrics(settings.workers):
        uvicorn.run("fastapply.service.app:create_app_from_env", factory=True, host=settings.host,
                    port=settings.port, workers=settings.workers, http=http_protocol(settings.http),
                    loop=resolve_loop(settings.loop), access_log=False,
                    log_config=None, log_level=settings.log_level, timeout_graceful_shutdown=5)
    return 0
