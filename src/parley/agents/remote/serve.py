"""`parley mcp --transport http`: the MCP tools over streamable HTTP, behind a bearer token
of their own and the SDK's Host and Origin checks, whatever the bind address.

The tools act as the Parley account whose token `parley mcp` holds, so whoever reaches
the port must prove they may: every request carries `Authorization: Bearer <MCP token>`
(a token given with `--mcp-token` or `PARLEY_MCP_TOKEN`, or one made at start and printed
once). The Host and Origin headers are checked against the bind address, the loopback
names and the names given with `--allow-host`, so a web page cannot reach a local server
through DNS rebinding. Listening beyond loopback needs a token given explicitly: a token
printed on a terminal is too easily lost track of for a port the network can reach.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
from collections.abc import Sequence
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

MIN_TOKEN_CHARS = 16
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


class TokenRefused(ValueError):
    """A token that cannot guard the server (missing where one must be given, too short)."""


def is_loopback(host: str) -> bool:
    """Whether listening on `host` keeps the port on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to anything


def server_token(given: str | None, host: str) -> tuple[str, bool]:
    """The MCP token, and whether it was made here (and must be shown to the user)."""
    if given is not None and given.strip():
        if len(given.strip()) < MIN_TOKEN_CHARS:
            raise TokenRefused(f"the MCP token must have at least {MIN_TOKEN_CHARS} characters")
        return given.strip(), False
    if not is_loopback(host):
        raise TokenRefused(
            f"listening on {host} (beyond loopback) needs an MCP token given explicitly: "
            f"--mcp-token or PARLEY_MCP_TOKEN (a random string of {MIN_TOKEN_CHARS}+ "
            "characters, e.g. from `openssl rand -hex 24`)"
        )
    return secrets.token_urlsafe(32), True


def _with_port(name: str, port: int) -> list[str]:
    """A Host header value as given, and with the port when it has none."""
    bare = name.strip()
    has_port = "]:" in bare if bare.startswith("[") else bare.count(":") == 1
    if not bare.startswith("[") and bare.count(":") > 1:
        bare = f"[{bare}]"  # an IPv6 address, as a Host header writes it
    return [bare] if has_port else [bare, f"{bare}:{port}"]


def security_settings(
    host: str, port: int, allow_hosts: Sequence[str] = ()
) -> TransportSecuritySettings:
    """DNS-rebinding protection, always on: the bind address, loopback names and extras."""
    hosts: list[str] = [f"{name}:*" for name in LOOPBACK_NAMES]
    wildcard = host in ("0.0.0.0", "::", "")
    for name in ([] if wildcard else [host]) + list(allow_hosts):
        hosts += [h for h in _with_port(name, port) if h not in hosts]
    origins: list[str] = []
    for allowed in hosts:
        origins += [f"http://{allowed}", f"https://{allowed}"]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


class BearerGuard:
    """Answers 401 to every HTTP request without `Authorization: Bearer <token>`."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self._admitted(scope):
            body = json.dumps(
                {
                    "error": "unauthorized",
                    "message": "send 'Authorization: Bearer <token>' with the token this MCP "
                    "server was started with",
                }
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"www-authenticate", b'Bearer realm="parley-mcp"'),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)

    def _admitted(self, scope: Scope) -> bool:
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                scheme, _, given = value.partition(b" ")
                if scheme.lower() == b"bearer":
                    return hmac.compare_digest(given.strip(), self.token)
        return False


def http_app(
    mcp: MCPServer, *, host: str, port: int, token: str, allow_hosts: Sequence[str] = ()
) -> Any:
    """The streamable-HTTP app (at `/mcp`), guarded by the token and the header checks."""
    app = mcp.streamable_http_app(
        transport_security=security_settings(host, port, allow_hosts), host=host
    )
    return BearerGuard(app, token)


def serve_http(
    mcp: MCPServer, *, host: str, port: int, token: str, allow_hosts: Sequence[str] = ()
) -> None:
    """Serve until interrupted."""
    import uvicorn

    app = http_app(mcp, host=host, port=port, token=token, allow_hosts=allow_hosts)
    uvicorn.run(app, host=host, port=port, log_level="warning")
