"""The HTTP service (litestar + msgspec): `create_app(settings)`; run it with `fastapply serve`.

Imported only on demand: `import fastapply` never pulls litestar in, and neither does building the
CLI parser (`settings` is light; `create_app` imports litestar on first use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .settings import Settings, from_env

if TYPE_CHECKING:
    from .app import create_app


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module 'fastapply.service' has no attribute {name!r}")


__all__ = ["Settings", "create_app", "from_env"]
