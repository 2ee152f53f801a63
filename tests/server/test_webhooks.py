"""Webhooks: only public addresses, called at the very address that was checked (a resolver
that changes its answer cannot steer a call to loopback), no IPv6 form that carries a
private IPv4 address, and deliveries side by side so a slow endpoint delays only itself."""

from __future__ import annotations

import ipaddress
import json
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import trustme
from sqlalchemy import select
from tests.server.conftest import LiveServer, make_settings, sign_up, start_live_server
from tests.server.test_play import start_game

from parley.server import webhooks
from parley.server.db.models import Outbox
from parley.server.errors import BadRequest
from parley.server.notify import Notifier, NotifySettings

# A public address that no test ever reaches: every connection to it is refused in the test
# process before a packet leaves.
PUBLIC = "8.8.8.8"
WAIT = 10.0  # the longest any test waits for something that should happen at once

# Forms of an IPv6 address that carry a private or local IPv4 address, each accepted as
# public by the standard library's `is_global` on its own.
CARRYING_PRIVATE_V4 = [
    "::127.0.0.1",  # IPv4-compatible
    "::ffff:0:7f00:1",  # IPv4-translated (SIIT)
    "64:ff9b::7f00:1",  # NAT64, well-known prefix
    "64:ff9b::a00:1",  # ... carrying 10.0.0.1
    "64:ff9b:1::a9fe:a9fe",  # local-use NAT64 (RFC 8215)
    "2002:7f00:1::",  # 6to4
    "2002:a9fe:a9fe::1",  # 6to4 carrying 169.254.169.254
    "2a00:1450:4001::5efe:7f00:1",  # ISATAP under a global prefix
    "2a00:1450:4001::200:5efe:c0a8:1",  # ISATAP, universal bit set, 192.168.0.1
]
ALSO_REFUSED = [
    "::ffff:127.0.0.1",  # IPv4-mapped
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1 (inverted bits)
    "::1",
    "fe80::1",
    "fc00::1",
    "224.0.0.1",  # multicast
    "ff0e::1",
    "100.64.0.1",  # shared address space
]


@pytest.mark.parametrize("text", CARRYING_PRIVATE_V4 + ALSO_REFUSED)
def test_every_address_form_carrying_a_private_ipv4_is_refused(text: str) -> None:
    assert webhooks.refusal(ipaddress.ip_address(text)) is not None


@pytest.mark.parametrize("text", ["8.8.8.8", "2606:4700::1111", "2001:4860:4860::8888"])
def test_public_addresses_are_callable(text: str) -> None:
    assert webhooks.refusal(ipaddress.ip_address(text)) is None


def test_embedded_ipv4_reads_each_form() -> None:
    def inner(text: str) -> set[str]:
        address = ipaddress.IPv6Address(text)
        return {str(a) for a in webhooks.embedded_ipv4(address)}

    assert inner("::127.0.0.1") == {"127.0.0.1"}
    assert inner("64:ff9b::7f00:1") == {"127.0.0.1"}
    assert inner("2002:7f00:1::") == {"127.0.0.1"}
    assert inner("2001:0:4136:e378:8000:63bf:80ff:fffe") == {"65.54.227.120", "127.0.0.1"}
    assert inner("2a00:1450:4001::5efe:a00:1") == {"10.0.0.1"}
    assert inner("2606:4700::1111") == set()


class Resolver:
    """A stand-in for the system resolver: `script` answers for `name`, in turn (the last
    answer again and again); an answer is one address or several joined by commas."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.script: list[str] = []
        self.asked = 0
        self.real = socket.getaddrinfo

    def __call__(self, host: Any, port: Any, *args: Any, **kw: Any) -> Any:
        if host != self.name:
            return self.real(host, port, *args, **kw)
        self.asked += 1
        answer = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        return [
            (
                socket.AF_INET6 if ":" in address else socket.AF_INET,
                socket.SOCK_STREAM,
                6,
                "",
                (address, int(port or 0)),
            )
            for address in answer.split(",")
        ]


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Resolver]:
    stub = Resolver("hooks.example")
    monkeypatch.setattr(socket, "getaddrinfo", stub)
    yield stub


def test_a_name_resolving_to_a_private_form_is_refused(
    live: LiveServer, resolver: Resolver
) -> None:
    amy = sign_up(live.url, "amy")
    for address in [*CARRYING_PRIVATE_V4, "127.0.0.1"]:  # bracketed IPv4: refused too
        for url in (f"http://[{address}]/hook", "https://hooks.example/hook"):
            resolver.script = [address]
            out = amy.call("PUT", "/api/me/notifications", 400, json={"webhook_url": url})
            assert out["error"] == "bad_request" and out["field"] == "webhook_url", (url, out)
    # One private address among public ones is enough to refuse the name.
    resolver.script = [f"{PUBLIC},::127.0.0.1"]
    bad = {"webhook_url": "https://hooks.example/hook"}
    assert amy.call("PUT", "/api/me/notifications", 400, json=bad)["field"] == "webhook_url"
    assert amy.get("/api/me/notifications")["source"] == "none"
    resolver.script = [PUBLIC]
    assert amy.call("PUT", "/api/me/notifications", 200, json=bad)["webhook_url"]


class Receiver:
    """A webhook endpoint on loopback; `hold` runs before it answers each POST."""

    def __init__(
        self, hold: Callable[[], None] = lambda: None, tls: ssl.SSLContext | None = None
    ) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.hosts: list[str | None] = []
        self.active = 0
        self.most_active = 0
        lock = threading.Lock()
        me = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                with lock:
                    me.active += 1
                    me.most_active = max(me.most_active, me.active)
                try:
                    body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                    hold()
                    with lock:
                        me.bodies.append(body)
                        me.hosts.append(self.headers.get("Host"))
                    self.send_response(204)
                    self.end_headers()
                finally:
                    with lock:
                        me.active -= 1

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> LiveServer:
    monkeypatch.setenv("PARLEY_NOTIFY_POLL", "0")  # the test delivers by hand
    for key, value in env.items():
        monkeypatch.setenv(f"PARLEY_{key}", value)
    return start_live_server(make_settings(f"sqlite:///{tmp_path / 'w.sqlite3'}"))


def _notifier(live: LiveServer) -> Notifier:
    tables = live.services.tables
    return Notifier(tables.db, tables, live.clock, "test", NotifySettings.from_env())


def test_dns_rebinding_cannot_steer_a_delivery_to_loopback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, resolver: Resolver
) -> None:
    """The name answers a public address, then 127.0.0.1: the POST goes to the checked
    public address (refused here, before any packet leaves), never to loopback."""
    hook = Receiver()
    tried: list[tuple[str, int]] = []
    real_connect = socket.create_connection

    def connect(address: tuple[str, int], *args: Any, **kw: Any) -> socket.socket:
        tried.append((str(address[0]), int(address[1])))
        if address[0] == PUBLIC:
            raise ConnectionRefusedError(111, "refused by the test")
        return real_connect(address, *args, **kw)

    monkeypatch.setattr(socket, "create_connection", connect)
    live = _server(monkeypatch, tmp_path)
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        resolver.script = [PUBLIC]
        url = f"http://hooks.example:{hook.port}/hook"
        assert amy.call("PUT", "/api/me/notifications", json={"webhook_url": url})["webhook_url"]
        start_game(amy, [bob], "sealed-bids", period_seconds=600)
        tried.clear()
        resolver.asked = 0
        resolver.script = [PUBLIC, "127.0.0.1"]  # first answer public, every later one loopback
        notifier = _notifier(live)
        assert notifier.run_once() == 0
        assert hook.bodies == []  # nothing reached loopback
        assert resolver.asked == 1  # resolved once, for the check and the call alike
        assert [a for a in tried if a[1] == hook.port] == [(PUBLIC, hook.port)]
        assert notifier.failed == 1
    finally:
        live.stop()
        hook.close()


def test_a_pinned_call_keeps_the_host_name_for_http_and_tls() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.host == "2606:4700::1111":
            raise httpx.ConnectError("unreachable", request=request)
        return httpx.Response(204)

    target = webhooks.resolve(
        webhooks.check_url(
            "https://Hooks.Example:8443/in?x=1", allow_private=False, allowed_hosts=frozenset()
        ),
        lambda host, port: ["2606:4700::1111", PUBLIC],
    )
    answered = webhooks.post(target, b"{}", timeout=1.0, transport=httpx.MockTransport(answer))
    assert answered.status_code == 204
    assert [str(r.url) for r in seen] == [
        "https://[2606:4700::1111]:8443/in?x=1",  # could not connect: the next checked one
        f"https://{PUBLIC}:8443/in?x=1",
    ]
    for request in seen:
        assert request.headers["Host"] == "hooks.example:8443"
        assert request.extensions["sni_hostname"] == "hooks.example"  # the certificate's name
    with pytest.raises(BadRequest):
        webhooks.resolve(target, lambda host, port: [PUBLIC, "64:ff9b::a00:1"])


def _note_name(asked: list[str | None], sock: Any, server_name: str | None, ctx: Any) -> None:
    asked.append(server_name)


def test_a_pinned_https_call_checks_the_certificate_against_the_name() -> None:
    """Over real TLS on loopback: the call goes to the pinned address, names the host in
    SNI, and accepts only a certificate for that name."""
    ca = trustme.CA()
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    for name, accepted in (("hooks.example", True), ("elsewhere.example", False)):
        served = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ca.issue_cert(name).configure_cert(served)
        asked: list[str | None] = []
        served.sni_callback = partial(_note_name, asked)
        hook = Receiver(tls=served)
        try:
            url = f"https://hooks.example:{hook.port}/hook"
            target = webhooks.Target(url, "https", "hooks.example", hook.port, ("127.0.0.1",))
            if accepted:
                answer = webhooks.post(target, b"{}", timeout=WAIT, verify=trusting)
                assert answer.status_code == 204
                assert hook.hosts == [f"hooks.example:{hook.port}"]
            else:
                with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
                    webhooks.post(target, b"{}", timeout=WAIT, verify=trusting)
                assert hook.bodies == []
            assert asked == ["hooks.example"]
        finally:
            hook.close()


def test_a_slow_webhook_delays_only_its_own_messages(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Five messages to an endpoint that answers only once the other endpoint has been
    delivered to: delivered side by side, the fast one is not held up, and the slow one
    never has more than its bound of deliveries at once."""
    fast_delivered = threading.Event()
    waited: list[bool] = []

    def hold() -> None:
        waited.append(fast_delivered.wait(WAIT))

    slow = Receiver(hold)
    fast = Receiver(fast_delivered.set)
    live = _server(monkeypatch, tmp_path, WEBHOOK_ALLOW_PRIVATE="1")
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        amy.call("PUT", "/api/me/notifications", json={"webhook_url": slow.url})
        gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600)
        for n in range(4):
            bob.post(f"/api/games/{gid}/press", {"text": f"note {n}", "to": [seats["amy"]]})
        bob.call("PUT", "/api/me/notifications", json={"webhook_url": fast.url})
        amy.post(f"/api/games/{gid}/press", {"text": "hello", "to": [seats["bob"]]})
        notifier = _notifier(live)
        sent = notifier.run_once()
        assert waited and all(waited)  # the slow ones answered only after the fast one
        assert len(fast.bodies) == 1 and "hello" in fast.bodies[0]["text"]
        assert sent == 3 and len(waited) == 2  # two to the slow endpoint (its bound), one fast
        # As the background sender runs: it does not wait for what it started. The slow
        # endpoint's backlog, with no place free, is not even read, so the limit on rows
        # read never hides another endpoint's message behind it.
        fast_delivered.clear()
        amy.post(f"/api/games/{gid}/press", {"text": "again", "to": [seats["bob"]]})
        assert notifier.deliver(limit=2, wait=False) == 0  # the two oldest: slow, held
        assert notifier.deliver(limit=2) == 1  # the fast one, not the third slow one
        assert len(fast.bodies) == 2 and "again" in fast.bodies[1]["text"]
        for _ in range(200):  # bounded: the held two end once the fast one is delivered
            if len(slow.bodies) == 4 and notifier.sent == 6:
                break
            threading.Event().wait(0.05)
        assert len(slow.bodies) == 4 and notifier.sent == 6
        assert notifier.run_once() == 1
        assert notifier.run_once() == 0
        assert len(slow.bodies) == 5 and slow.most_active == 2
        assert waited == [True] * 5
    finally:
        live.stop()
        slow.close()
        fast.close()


def test_the_background_sender_delivers_and_stops(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As `parley serve` runs it: the periodic sender starts deliveries without waiting
    for them, and the server stops cleanly."""
    hook = Receiver()
    live = _server(monkeypatch, tmp_path, WEBHOOK_ALLOW_PRIVATE="1", NOTIFY_POLL="0.05")
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        amy.call("PUT", "/api/me/notifications", json={"webhook_url": hook.url})
        start_game(amy, [bob], "sealed-bids", period_seconds=600)
        for _ in range(200):  # bounded: a poll every 50 ms
            if hook.bodies:
                break
            threading.Event().wait(0.05)
        assert len(hook.bodies) == 1 and "to decide" in hook.bodies[0]["text"]
    finally:
        live.stop()
        hook.close()


def _claimed(live: LiveServer) -> int:
    with live.services.tables.db.read() as s:
        rows = s.execute(select(Outbox).where(Outbox.claimed_by.is_not(None))).scalars()
        return len(list(rows))


def test_deliveries_under_way_are_bounded_overall(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Three places in all, two per endpoint: two endpoints that hold every request get
    three deliveries between them, and the rest wait unclaimed until places free up."""
    release = threading.Event()
    holding = [Receiver(lambda: release.wait(WAIT) and None) for _ in range(2)]
    live = _server(monkeypatch, tmp_path, WEBHOOK_ALLOW_PRIVATE="1", NOTIFY_WORKERS="3")
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        amy.call("PUT", "/api/me/notifications", json={"webhook_url": holding[0].url})
        bob.call("PUT", "/api/me/notifications", json={"webhook_url": holding[1].url})
        gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600)
        for n in range(2):
            amy.post(f"/api/games/{gid}/press", {"text": f"a{n}", "to": [seats["bob"]]})
            bob.post(f"/api/games/{gid}/press", {"text": f"b{n}", "to": [seats["amy"]]})
        notifier = _notifier(live)
        assert notifier.deliver(wait=False) == 0
        assert _claimed(live) == 3  # claimed before it returned: three, of six due
        for _ in range(200):  # bounded: until the three started requests arrive
            if sum(h.active for h in holding) == 3:
                break
            threading.Event().wait(0.05)
        assert sorted(h.active for h in holding) == [1, 2]
        assert notifier.deliver(wait=False) == 0
        assert _claimed(live) == 3  # no place free: nothing more claimed
        release.set()
        for _ in range(200):
            if notifier.sent == 3:
                break
            threading.Event().wait(0.05)
        assert notifier.run_once() == 3  # the other three, now that places are free
        assert sum(len(h.bodies) for h in holding) == 6
        assert max(h.most_active for h in holding) == 2
    finally:
        release.set()
        live.stop()
        for hook in holding:
            hook.close()
