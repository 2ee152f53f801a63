"""The Parley server: HTTP + WebSocket shell around the kernel.

`create_app(Settings(...))` builds a FastAPI application; `parley serve` runs one.
"""

from .app import create_app
from .settings import Limits, Settings

__all__ = ["Limits", "Settings", "create_app"]
