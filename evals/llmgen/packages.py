"""The registry packages and release pairs the `--style llm` generator downloads, and their split.

Pinned versions, so that a cache built today yields the same cases tomorrow. Entries with split
"heldout" are never fetched for, or read by, the dev split (see splits.py): do not tune on them.
Languages: TypeScript, TSX and JavaScript (npm), Go, Rust, Ruby, PHP, Lua, Bash, C and C++ (Debian
packages), C and Cython (PyPI sdists), TOML (Cargo.toml, pyproject.toml inside those), YAML and JSON.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import NamedTuple


class Package(NamedTuple):
    registry: str  # "npm" | "deb" | "pypi"
    name: str
    version: str
    split: str  # "dev" | "heldout" | "heldout2"


class ReleasePair(NamedTuple):
    """Two consecutive releases: files changed between them give real edits."""

    registry: str  # "pypi" | "npm"
    name: str
    old: str
    new: str
    split: str


PACKAGES: list[Package] = [
    # dev
    Package("npm", "zod", "3.23.8", "dev"),
    Package("npm", "rxjs", "7.8.1", "dev"),
    Package("npm", "@tanstack/query-core", "5.59.0", "dev"),
    Package("npm", "@tanstack/react-query", "5.59.0", "dev"),
    Package("npm", "express", "4.19.2", "dev"),
    Package("deb", "golang-github-spf13-cobra-dev", "1.6.1-1", "dev"),
    Package("deb", "golang-github-sirupsen-logrus-dev", "1.9.0-1", "dev"),
    Package("deb", "librust-serde-json-dev", "1.0.87-1", "dev"),
    Package("deb", "librust-regex-dev", "1.7.1-1", "dev"),
    Package("deb", "ruby-thor", "1.2.1-2", "dev"),
    Package("deb", "ruby-rack", "2.2.22-0+deb12u2", "dev"),
    Package("deb", "lua-penlight", "1.13.1-3", "dev"),
    Package("deb", "php-symfony-console", "5.4.53+dfsg-0+deb12u1", "dev"),
    Package("deb", "php-monolog", "2.9.1-1", "dev"),
    Package("deb", "bash-completion", "1:2.11-6", "dev"),
    Package("deb", "libfmt-dev", "9.1.0+ds1-2", "dev"),
    Package("deb", "libcjson-dev", "1.7.15-1+deb12u4", "dev"),
    Package("deb", "nlohmann-json3-dev", "3.11.2-2", "dev"),
    Package("pypi", "msgpack", "1.1.0", "dev"),
    Package("npm", "axios", "1.7.7", "dev"),
    Package("npm", "lodash", "4.17.21", "dev"),
    # more Lua and JavaScript styles for dev (penlight alone hid Lua's blank-line habits)
    Package("deb", "lua-http", "0.4-1", "dev"),
    Package("deb", "lua-busted", "2.1.1-1", "dev"),
    Package("npm", "ws", "8.18.0", "dev"),
    # held out: never used by the dev split
    Package("npm", "immer", "10.1.1", "heldout"),
    Package("npm", "koa", "2.15.3", "heldout"),
    Package("npm", "@tanstack/react-table", "8.20.5", "heldout"),
    Package("npm", "@tanstack/react-virtual", "3.10.8", "heldout"),
    Package("npm", "@tanstack/virtual-core", "3.10.8", "heldout"),
    Package("deb", "golang-github-gorilla-mux-dev", "1.8.0-1", "heldout"),
    Package("deb", "golang-github-urfave-cli-dev", "1.22.9-2", "heldout"),
    Package("deb", "librust-clap-dev", "4.0.32-1", "heldout"),
    Package("deb", "librust-anyhow-dev", "1.0.69-1", "heldout"),
    Package("deb", "ruby-mustermann", "3.0.0-2", "heldout"),
    Package("deb", "ruby-rainbow", "3.1.1-1", "heldout"),
    Package("deb", "lua-json", "1.3.4-2", "heldout"),
    Package("deb", "php-symfony-yaml", "5.4.53+dfsg-0+deb12u1", "heldout"),
    Package("deb", "php-psr-log", "1.1.4-2", "heldout"),
    Package("deb", "neofetch", "7.1.0-4", "heldout"),
    Package("deb", "libspdlog-dev", "1:1.10.0+ds-0.4", "heldout"),
    Package("deb", "libinih-dev", "55-1", "heldout"),
    Package("deb", "libutf8proc-dev", "2.8.0-1", "heldout"),
    Package("deb", "libcli11-dev", "2.1.2+ds-1", "heldout"),
    Package("deb", "libmsgsl-dev", "4.0.0-2+deb12u1", "heldout"),
    Package("pypi", "pyyaml", "6.0.2", "heldout"),
    Package("pypi", "cmarkgfm", "2024.11.20", "heldout"),
    Package("npm", "react-day-picker", "8.10.1", "heldout"),
    Package("npm", "commander", "12.1.0", "heldout"),
    Package("deb", "pass", "1.7.4-6", "heldout"),
    Package("deb", "dkms", "3.0.10-8+deb12u1", "heldout"),
    # heldout2 (tenth round): drawn at random (seed 20261203) from candidates no split or batch had
    # used, before that round's engine work; never read while developing
    Package("deb", "golang-github-codegangsta-negroni-dev", "0.1-3", "heldout2"),
    Package("deb", "golang-github-dghubble-sling-dev", "1.3.0-1", "heldout2"),
    Package("deb", "golang-github-googleapis-gax-go-dev", "2.0.5-4", "heldout2"),
    Package("deb", "librust-cssparser-dev", "0.29.6-3", "heldout2"),
    Package("deb", "librust-cloudabi-dev", "0.0.3-1+b1", "heldout2"),
    Package("deb", "librust-totp-rs-dev", "3.0.1-2", "heldout2"),
    Package("deb", "ruby-kaminari-core", "1.2.2-1", "heldout2"),
    Package("deb", "ruby-sentry-rails", "5.3.0-2", "heldout2"),
    Package("deb", "php-symfony-fake-chat-notifier", "5.4.53+dfsg-0+deb12u1", "heldout2"),
    Package("deb", "php-symfony-serializer", "5.4.53+dfsg-0+deb12u1", "heldout2"),
    Package("deb", "lua-redis", "2.0.5~git20141117.880dda9-7", "heldout2"),
    Package("deb", "lua-orbit", "2.2.1+dfsg-2", "heldout2"),
    Package("deb", "libcpptoml-dev", "0.1.1-3", "heldout2"),
    Package("deb", "libcuckoo-dev", "0.3.1-2", "heldout2"),
    Package("deb", "git-ftp", "1.6.0+dfsg-1", "heldout2"),
    Package("deb", "runoverssh", "3.0.3-2", "heldout2"),
    Package("npm", "reselect", "5.1.1", "heldout2"),
    Package("npm", "nunjucks", "3.2.4", "heldout2"),
    Package("npm", "unified", "11.0.5", "heldout2"),
]

RELEASE_PAIRS: list[ReleasePair] = [
    ReleasePair("pypi", "click", "8.1.6", "8.1.7", "dev"),
    ReleasePair("pypi", "rich", "13.7.0", "13.7.1", "dev"),
    ReleasePair("pypi", "attrs", "23.1.0", "23.2.0", "dev"),
    ReleasePair("pypi", "jinja2", "3.1.3", "3.1.4", "dev"),
    ReleasePair("pypi", "flask", "3.0.2", "3.0.3", "dev"),
    ReleasePair("npm", "express", "4.18.2", "4.19.2", "dev"),
    # more dev pairs (added in the seventh round): a wider sample of real edits to develop on
    ReleasePair("pypi", "requests", "2.32.2", "2.32.3", "dev"),
    ReleasePair("pypi", "urllib3", "2.2.1", "2.2.2", "dev"),
    ReleasePair("pypi", "werkzeug", "3.0.3", "3.0.4", "dev"),
    ReleasePair("pypi", "starlette", "0.37.1", "0.37.2", "dev"),
    ReleasePair("pypi", "idna", "3.6", "3.7", "dev"),
    ReleasePair("pypi", "itsdangerous", "2.1.2", "2.2.0", "dev"),
    ReleasePair("pypi", "anyio", "4.3.0", "4.4.0", "dev"),
    ReleasePair("pypi", "platformdirs", "4.2.0", "4.2.1", "dev"),
    ReleasePair("pypi", "more-itertools", "10.2.0", "10.3.0", "dev"),
    ReleasePair("pypi", "tqdm", "4.66.4", "4.66.5", "dev"),
    ReleasePair("npm", "axios", "1.6.8", "1.7.0", "dev"),
    ReleasePair("npm", "ws", "8.16.0", "8.17.0", "dev"),
    ReleasePair("npm", "debug", "4.3.4", "4.3.5", "dev"),
    ReleasePair("pypi", "fastapi", "0.110.0", "0.110.1", "dev"),
    ReleasePair("pypi", "uvicorn", "0.29.0", "0.30.0", "dev"),
    ReleasePair("pypi", "pytest", "8.2.0", "8.2.1", "dev"),
    ReleasePair("pypi", "isort", "5.13.1", "5.13.2", "dev"),
    ReleasePair("pypi", "pyparsing", "3.1.1", "3.1.2", "dev"),
    ReleasePair("pypi", "tomlkit", "0.12.4", "0.12.5", "dev"),
    ReleasePair("pypi", "marshmallow", "3.21.1", "3.21.2", "dev"),
    ReleasePair("pypi", "structlog", "24.1.0", "24.2.0", "dev"),
    ReleasePair("pypi", "hypothesis", "6.100.0", "6.100.1", "dev"),
    ReleasePair("pypi", "trio", "0.25.0", "0.25.1", "dev"),
    ReleasePair("pypi", "sqlparse", "0.5.0", "0.5.1", "dev"),
    ReleasePair("npm", "eslint", "9.2.0", "9.3.0", "dev"),
    ReleasePair("npm", "semver", "7.6.0", "7.6.1", "dev"),
    ReleasePair("npm", "yargs", "17.7.1", "17.7.2", "dev"),
    # held out
    ReleasePair("pypi", "httpx", "0.27.0", "0.27.2", "heldout"),
    ReleasePair("pypi", "packaging", "24.0", "24.1", "heldout"),
    ReleasePair("pypi", "pluggy", "1.4.0", "1.5.0", "heldout"),
    ReleasePair("pypi", "markdown", "3.6", "3.7", "heldout"),
    ReleasePair("npm", "koa", "2.15.2", "2.15.3", "heldout"),
    # heldout2 (tenth round; see splits.py): the last two releases before 2025-06 of a random draw
    # (httpretty and webencodings 0.5 were drawn too but publish no wheel, so they are not listed)
    ReleasePair("pypi", "protobuf", "6.31.0", "6.31.1", "heldout2"),
    ReleasePair("pypi", "s3transfer", "0.12.0", "0.13.0", "heldout2"),
    ReleasePair("pypi", "celery", "5.5.1", "5.5.2", "heldout2"),
    ReleasePair("pypi", "cryptography", "45.0.2", "45.0.3", "heldout2"),
    ReleasePair("pypi", "mock", "5.1.0", "5.2.0", "heldout2"),
    ReleasePair("pypi", "click-plugins", "1.1", "1.1.1", "heldout2"),
    ReleasePair("pypi", "nose2", "0.15.0", "0.15.1", "heldout2"),
    ReleasePair("pypi", "black", "24.10.0", "25.1.0", "heldout2"),
    ReleasePair("npm", "remark-parse", "10.0.2", "11.0.0", "heldout2"),
    ReleasePair("npm", "eslint-plugin-react", "7.37.4", "7.37.5", "heldout2"),
    ReleasePair("npm", "engine.io", "6.6.2", "6.6.4", "heldout2"),
]


def folder_name(registry: str, name: str, version: str) -> str:
    return f"{registry}-{name.replace('/', '+').replace('@', '')}-{version.replace(':', '_')}"


def load_batch(path: Path) -> tuple[list[Package], list[ReleasePair]]:
    """A check batch: extra packages and release pairs, read from a TOML file
    (`[[package]] registry name version`, `[[pair]] registry name old new`; see
    evals/llmgen/batches/). They count as the dev split of the cache they are fetched into, which
    should be a cache of their own (`FASTAPPLY_EVALS_CACHE`): the generator reads whatever that
    cache holds, so a batch in its own cache gives cases of that batch only (for release pairs;
    `--style llm` also reads the standard library and site-packages, so keep only the ids of
    registry packages: `grep '"id":"llm:[0-9]*:\\(deb\\|npm\\|pypi\\)-'`)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    packages = [Package(p["registry"], p["name"], p["version"], "dev") for p in data.get("package", [])]
    pairs = [ReleasePair(p["registry"], p["name"], p["old"], p["new"], "dev") for p in data.get("pair", [])]
    for entry in (*packages, *pairs):
        if entry.registry not in ("npm", "deb", "pypi"):
            raise ValueError(f"{path}: unknown registry {entry.registry!r} for {entry.name}")
    return packages, pairs
