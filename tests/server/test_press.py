"""Press: public, one-to-one and group channels; spectators; modes; sizes (UC 20–25)."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game

Users = Callable[..., Client]


def texts(client: Client, gid: str) -> list[str]:
    entries = client.get(f"/api/games/{gid}/history")["entries"]
    return [e["text"] for e in entries if e["type"] == "press"]


def test_public_private_and_group_press(live: LiveServer, users: Users) -> None:
    amy, bob, cat, dan, spec = (users(n) for n in ("amy", "bob", "cat", "dan", "spec"))
    gid, seats = start_game(amy, [bob, cat, dan], "countdown")
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    watch = {name: c.ws(gid) for name, c in (("dan", dan), ("spec", spec), ("bob", bob))}
    for ws in watch.values():
        ws.wait_for(lambda m: m["type"] == "state")
    amy.post(f"/api/games/{gid}/press", {"text": "hello everyone"})  # UC 25
    private = amy.post(f"/api/games/{gid}/press", {"text": "psst bob", "to": [seats["bob"]]})
    assert private["entry"]["to"] == [seats["bob"]]  # UC 22
    group = {"text": "north pact", "to": [seats["bob"], seats["cat"]], "channel": "pact"}
    assert amy.post(f"/api/games/{gid}/press", group)["entry"]["channel"] == "pact"
    bob.post(f"/api/games/{gid}/press", {"text": "ok amy", "to": [seats["amy"]]})
    assert texts(amy, gid) == ["hello everyone", "psst bob", "north pact", "ok amy"]
    assert texts(bob, gid) == ["hello everyone", "psst bob", "north pact", "ok amy"]
    assert texts(cat, gid) == ["hello everyone", "north pact"]
    assert texts(dan, gid) == ["hello everyone"]
    assert texts(spec, gid) == ["hello everyone"]  # UC 23: spectators read public press
    for name, ws in watch.items():
        ws.drain()
        pushed = [e["text"] for e in ws.entries().values() if e["type"] == "press"]
        assert pushed == texts({"dan": dan, "spec": spec, "bob": bob}[name], gid), name
        ws.close()


def test_press_modes_are_enforced(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    public, seats = start_game(amy, [bob], "countdown", press="public")
    amy.post(f"/api/games/{public}/press", {"text": "fine"})
    refused = amy.post(
        f"/api/games/{public}/press", {"text": "no", "to": [seats["bob"]]}, expect=403
    )
    assert refused["error"] == "press_disabled"
    gunboat, _ = start_game(amy, [bob], "countdown", press="none")
    assert amy.post(f"/api/games/{gunboat}/press", {"text": "hi"}, expect=403)["error"] == (
        "press_disabled"
    )
    assert texts(bob, gunboat) == []


def test_press_input_is_checked(live: LiveServer, users: Users) -> None:
    amy, bob, spec = users("amy"), users("bob"), users("spec")
    gid, seats = start_game(amy, [bob], "countdown")
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    bad = [
        ({"text": "x" * 2001}, 400),
        ({"text": "bell\u0007"}, 400),
        ({"text": "hidden\u202eright-to-left"}, 400),
        ({"text": "   "}, 400),
        ({"text": ""}, 422),
        ({"text": "to nobody", "to": [7]}, 400),
        ({"text": "to myself", "to": [seats["amy"]]}, 400),
        ({"text": "channel alone", "channel": "pact"}, 400),
        ({"text": "bad channel", "to": [seats["bob"]], "channel": "<b>"}, 422),
        ({"text": 5}, 422),
    ]
    for body, status in bad:
        answer = amy.post(f"/api/games/{gid}/press", body, expect=status)
        assert answer["message"], body
    assert spec.post(f"/api/games/{gid}/press", {"text": "hi"}, expect=403)["error"] == "forbidden"
    # Markup is kept as written; escaping it is the client's job when it displays it.
    amy.post(f"/api/games/{gid}/press", {"text": "<script>alert(1)</script>\nline two"})
    assert texts(bob, gid) == ["<script>alert(1)</script>\nline two"]
