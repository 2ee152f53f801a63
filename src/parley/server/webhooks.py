"""Webhook addresses and calls: only public hosts, and the call goes where the check looked.

A host name is resolved once per call; every address it gives must be public, and the
request is sent to one of those very addresses (the URL's host replaced by the address, the
Host header and, for https, the TLS server name and certificate check kept on the name), so
a resolver that answers differently the second time cannot steer a call to a private
address. Redirects are not followed. An IPv6 address that carries an IPv4 one (mapped,
compatible, translated, NAT64, 6to4, Teredo, ISATAP) is judged by the IPv4 address as well.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from .errors import BadRequest

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# host, port -> the addresses the host name stands for, as text
Resolver = Callable[[str, int], Sequence[str]]

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215: never reachable from here
_SIXTOFOUR = ipaddress.ip_network("2002::/16")
_TEREDO = ipaddress.ip_network("2001::/32")
_COMPATIBLE = ipaddress.ip_network("::/96")  # the deprecated IPv4-compatible form
_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")  # SIIT's IPv4-translated form


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses of `host`, from the system's resolver (OSError if none)."""
    found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(info[4][0]).split("%")[0] for info in found))


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address that `address` carries in one of the forms that reach it."""
    out: list[ipaddress.IPv4Address] = []
    low = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        out.append(address.ipv4_mapped)
    if address in _COMPATIBLE or address in _TRANSLATED or address in _NAT64:
        out.append(low)
    if address.sixtofour is not None:
        out.append(address.sixtofour)
    if address.teredo is not None:
        out.extend(address.teredo)  # (server, client); the client's bits come inverted
    # ISATAP: an interface id of 0000:5efe or 0200:5efe (the u bit) then the IPv4 address,
    # under any prefix.
    if (int(address) >> 32) & 0xFDFFFFFF == 0x00005EFE:
        out.append(low)
    return out


def refusal(address: IPAddress) -> str | None:
    """Why this server does not call `address`, or None when it is public."""
    if address.is_multicast:
        return "a multicast address"
    if not address.is_global:
        return "a private or local address"
    if isinstance(address, ipaddress.IPv6Address):
        if address in _NAT64_LOCAL:
            return "a local-use NAT64 address"
        for inner in embedded_ipv4(address):
            if not inner.is_global or inner.is_multicast:
                return f"an address that carries the private or local IPv4 address {inner}"
    return None


@dataclass(frozen=True, slots=True)
class Target:
    """A webhook URL and, when checked, the public addresses to call it at."""

    url: str
    scheme: str
    host: str  # lower case, without brackets
    port: int
    addresses: tuple[str, ...] | None  # None: the host is trusted, called by its name


def check_url(url: str, *, allow_private: bool, allowed_hosts: frozenset[str]) -> Target:
    """The URL's parts, or BadRequest when it is not an http(s) address this server calls."""
    try:
        parts = urlsplit(url)
    except ValueError as err:  # e.g. an IPv4 address in brackets
        raise BadRequest(f"{url!r} is not an http(s) address: {err}", field="webhook_url") from err
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadRequest(f"{url!r} is not an http(s) address", field="webhook_url")
    if parts.username is not None or parts.password is not None:
        raise BadRequest("a webhook address may not carry a user name or password")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as err:
        raise BadRequest(f"{url!r} has a bad port", field="webhook_url") from err
    host = parts.hostname.lower()
    trusted = allow_private or host in allowed_hosts
    return Target(url, parts.scheme, host, port, None if trusted else ())


def resolve(target: Target, resolver: Resolver) -> Target:
    """`target` with the addresses to call, each checked; BadRequest if any is not public.

    Every address the name gives is checked, not only the one called: a name that points
    anywhere private is refused as a whole.
    """
    if target.addresses is None:
        return target
    host = target.host
    addresses = _addresses(host, target.port, resolver)
    for address in addresses:
        why = refusal(address)
        if why is not None:
            raise BadRequest(
                f"the webhook host {host!r} is {why} ({address}); this server does not call those",
                field="webhook_url",
            )
    return Target(target.url, target.scheme, host, target.port, tuple(map(str, addresses)))


def _addresses(host: str, port: int, resolver: Resolver) -> list[IPAddress]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass  # a name, not an address
    try:
        found = resolver(host, port)
    except OSError as err:
        raise BadRequest(
            f"the webhook host {host!r} does not resolve", field="webhook_url"
        ) from err
    try:
        addresses = [ipaddress.ip_address(a) for a in found]
    except ValueError as err:
        raise BadRequest(f"the webhook host {host!r} resolves oddly: {err}") from err
    if not addresses:
        raise BadRequest(f"the webhook host {host!r} does not resolve", field="webhook_url")
    return addresses


def post(
    target: Target,
    payload: bytes,
    *,
    timeout: float,
    transport: httpx.BaseTransport | None = None,
    verify: ssl.SSLContext | bool = True,
) -> httpx.Response:
    """POST `payload` (JSON) to the target, at its checked addresses in turn.

    The next address is tried only when a connection could not be made; a request that
    reached a server is never sent again here.
    """
    headers = {"Content-Type": "application/json"}
    if target.addresses is None:
        with httpx.Client(timeout=timeout, transport=transport, verify=verify) as client:
            return client.post(target.url, content=payload, headers=headers)
    url = httpx.URL(target.url)
    default = 443 if target.scheme == "https" else 80
    name = f"[{target.host}]" if ":" in target.host else target.host
    headers["Host"] = name if target.port == default else f"{name}:{target.port}"
    extensions: dict[str, Any] = {}
    if target.scheme == "https":
        # The certificate is checked against the name, not the address called.
        extensions["sni_hostname"] = target.host
    last: httpx.ConnectError | None = None
    with httpx.Client(
        timeout=timeout, transport=transport, verify=verify, follow_redirects=False
    ) as client:
        for address in target.addresses:
            request = client.build_request(
                "POST",
                url.copy_with(host=address),
                content=payload,
                headers=headers,
                extensions=extensions,
            )
            try:
                return client.send(request)
            except httpx.ConnectError as err:
                last = err
    assert last is not None  # a checked target has at least one address
    raise last
