"""How Parley runs uvicorn: the options `parley serve` and the load benchmark share.

uvloop's event loop and httptools' HTTP parser cost the server less CPU per request and per
WebSocket frame than asyncio's own loop and h11; both are dependencies where they build
(uvloop not on Windows), and the stock ones are used where they are missing.
"""

from __future__ import annotations

import importlib.util
from typing import Any

WS_MAX_SIZE = 64 * 1024  # the largest WebSocket message a client may send


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def uvicorn_options() -> dict[str, Any]:
    """Keyword arguments for `uvicorn.run` / `uvicorn.Config`."""
    return {
        "loop": "uvloop" if _installed("uvloop") else "asyncio",
        "http": "httptools" if _installed("httptools") else "h11",
        "ws": "websockets-sansio",
        "ws_max_size": WS_MAX_SIZE,
        # Forwarded headers are believed only from the proxies named in
        # PARLEY_TRUSTED_PROXIES (see `parley.server.net`), not from any local process.
        "proxy_headers": False,
    }


def uvicorn_args() -> list[str]:
    """The same options on uvicorn's command line (`python -m uvicorn ...`)."""
    opts = uvicorn_options()
    return [
        "--loop",
        opts["loop"],
        "--http",
        opts["http"],
        "--ws",
        opts["ws"],
        "--ws-max-size",
        str(opts["ws_max_size"]),
        "--no-proxy-headers",
    ]
