"""The models a service process holds: loaded once per process, used one request at a time.

Loading runs in the background at startup so /healthz answers at once while /readyz says 503 until
every configured model is loaded. Each model has a lock: a model's requests queue behind each other
(generation on one model is not re-entrant), while structural merges keep flowing.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import anyio
import anyio.to_thread

from ..errors import ErrorCode
from .errors import ServiceCode, ServiceError

log = logging.getLogger("fastapply.service")

STRUCTURAL = "fastapply-structural"
AUTO = "auto"


class ApplyModelLike(Protocol):
    """What the service needs from `fastapply.load_model(spec)` (see fastapply.runtime)."""

    name: str

    def merge(self, original: str, update: str, **kwargs: Any) -> Any: ...

    def stream(self, original: str, update: str, **kwargs: Any) -> Any: ...


class Models:
    def __init__(self, specs: list[str], preloaded: list[ApplyModelLike] | None = None,
                 aliases: dict[str, str] | None = None, strict: bool = False,
                 draft_head: str | None = None) -> None:
        self.specs = specs
        self.draft_head = draft_head
        self.aliases = aliases or {}
        # strict: only configured names; else any apply-model name (see vendor_apply_name) means auto.
        self.strict = strict
        self.loaded: dict[str, ApplyModelLike] = {}
        self.locks: dict[str, anyio.Lock] = {}
        self.state: dict[str, str] = {spec: "loading" for spec in specs}
        for model in preloaded or []:
            self._add(model)

    def _add(self, model: ApplyModelLike) -> None:
        self.loaded[model.name] = model
        self.locks[model.name] = anyio.Lock()

    @property
    def ready(self) -> bool:
        return all(state == "loaded" for state in self.state.values())

    def status(self) -> dict[str, str]:
        return {**{name: "loaded" for name in self.loaded}, **self.state}

    async def load_all(self, on_loaded: Any = None) -> None:
        for spec in self.specs:
            try:
                import fastapply

                load_model = getattr(fastapply, "load_model", None)
                if load_model is None:
                    raise RuntimeError("this build of fastapply has no model runtime (fastapply.load_model)")
                kwargs = {"draft_head": self.draft_head} if self.draft_head else {}
                model = await anyio.to_thread.run_sync(lambda: load_model(spec, **kwargs))
            except Exception as exc:  # a bad spec must not take the structural service down
                log.exception("could not load model %r", spec)
                self.state[spec] = f"failed: {exc}"
                continue
            self._add(model)
            self.state[spec] = "loaded"
            log.info("model %r loaded as %r", spec, model.name)
            if on_loaded is not None:
                on_loaded(model.name)

    def names(self) -> list[str]:
        return list(self.loaded)

    def canonical(self, name: str) -> str:
        """The served name for a request's `model` (aliases such as morph-v3-fast -> auto)."""
        if name in self.loaded or name in (AUTO, STRUCTURAL):
            return name
        if name in self.aliases:
            return self.aliases[name]
        if self.strict or not vendor_apply_name(name) or self._loading(name):
            return name
        return AUTO

    def _loading(self, name: str) -> bool:
        """A configured model still loading under this name (its spec, or the spec's last part): the
        request waits for it (503) rather than being served as `auto`."""
        for spec, state in self.state.items():
            tail = spec.rstrip("/").rsplit("/", 1)[-1]
            if state == "loading" and name in (spec, tail, tail.removesuffix(".gguf")):
                return True
        return False

    def resolve(self, name: str) -> ApplyModelLike | None:
        """The model a request's `model` field names: None for the structural engine or auto
        without a loaded model; raises 404 model_not_found for anything else unknown."""
        name = self.canonical(name)
        if name == STRUCTURAL:
            return None
        if name == AUTO:
            return next(iter(self.loaded.values()), None)
        model = self.loaded.get(name)
        if model is not None:
            return model
        if any(state == "loading" for state in self.state.values()):
            raise ServiceError(503, f"model {name!r} is not loaded yet; retry when /readyz says ready",
                               code=ServiceCode.MODEL_NOT_READY, headers={"Retry-After": "5"})
        known = [AUTO, STRUCTURAL, *self.loaded]
        raise ServiceError(404, f"unknown model {name!r}; use one of {', '.join(known)}",
                           code=ServiceCode.MODEL_NOT_FOUND, details={"field": "model", "models": known})

    def lock(self, model: ApplyModelLike) -> anyio.Lock:
        return self.locks[model.name]


def vendor_apply_name(name: str) -> bool:
    """Names clients send for an apply model (morph-v2, morph-v3-large, relace-apply-3, any *apply*):
    served as `auto` unless the server runs with --strict-models."""
    lower = name.lower()
    return lower.startswith(("morph-", "relace-")) or "apply" in lower


def model_unavailable() -> ServiceError:
    return ServiceError(422, "no model is loaded; start the service with --model",
                        code=ErrorCode.MODEL_NOT_CONFIGURED)
