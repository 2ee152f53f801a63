"""Who is asking: the client's address, trusting forwarded headers only from named proxies."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
UNVERIFIED = "forwarded-unverified"  # an address that came from a header nobody vouches for


@cache
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


def _trusted(address: str, networks: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(scope: Mapping[str, Any], trusted_proxies: tuple[str, ...]) -> str:
    """The peer's address; behind a trusted proxy, the last address it was forwarded for.

    `X-Forwarded-For` is read only when the peer itself is one of `trusted_proxies`
    (addresses or networks); anyone else could write whatever they like into it. Walking
    the list from the right, the first address that is not a trusted proxy is the client.
    """
    client = scope.get("client")
    peer = str(client[0]) if client else "unknown"
    forwarded = [
        value.decode("latin-1")
        for name, value in scope.get("headers", ())
        if name == b"x-forwarded-for"
    ]
    hops = [h.strip() for line in forwarded for h in line.split(",") if h.strip()]
    networks = _networks(trusted_proxies)
    if not networks or not _trusted(peer, networks):
        if peer in hops:
            # The server in front of the app (uvicorn run by hand keeps its proxy headers
            # on for loopback) already took the address from the header: it is whatever the
            # sender wrote. All such requests share one allowance.
            return UNVERIFIED
        return peer
    for hop in reversed(hops):
        if not _trusted(hop, networks):
            return str(hop)
    return peer
