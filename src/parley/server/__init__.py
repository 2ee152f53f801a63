"""The Parley server: HTTP + WebSocket shell around the kernel.

`create_app(Settings(...))` builds a FastAPI application; `parley serve` runs one. The app
is imported on first use, so that `parley` commands that do not serve start quickly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import Limits, Settings

__all__ = ["Limits", "Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name in ("Limits", "Settings"):
        from . import settings

        return getattr(settings, name)
    raise AttributeError(f"module 'parley.server' has no attribute {name!r}")
