"""The HTTP service (litestar + msgspec): `create_app(settings)`; run it with `fastapply serve`.

Imported only on demand: `import fastapply` never pulls litestar in.
"""

from __future__ import annotations

from .app import create_app
from .settings import Settings, from_env

__all__ = ["Settings", "create_app", "from_env"]
