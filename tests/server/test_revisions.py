"""Each seat's submission has a revision number: two tabs cannot overwrite each other unseen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.server.conftest import Client, LiveServer


def _hold_everything(state: dict[str, Any]) -> list[str]:
    """One order per unit: the first leaf under each unit (a hold)."""
    out = []
    for unit in state["options"]["children"]:
        node = unit
        while node.get("action") is None:
            node = node["children"][0]
        out.append(node["action"])
    return out


def test_a_submission_naming_an_older_revision_is_refused_as_stale(
    live: LiveServer, users: Callable[..., Client]
) -> None:
    host, bob = users("host"), users("bob")  # bob's orders keep the phase open
    gid = host.post("/api/games", {"game": "diplomacy", "period_seconds": 3600}, expect=201)["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    host.post(f"/api/games/{gid}/start", {"fill_with": "random"})
    tab_one = host.get(f"/api/games/{gid}/state")
    tab_two = host.get(f"/api/games/{gid}/state")  # the same page, open twice
    assert tab_one["revision"] == tab_two["revision"] == 0
    orders = _hold_everything(tab_one)
    body = {"parts": orders, "state_id": tab_one["state_id"], "revision": tab_one["revision"]}
    done = host.post(f"/api/games/{gid}/actions", body)
    assert done["revision"] == 1
    stale = host.post(
        f"/api/games/{gid}/actions",
        {"parts": orders, "state_id": tab_two["state_id"], "revision": 0},
        expect=409,
    )
    assert stale["error"] == "stale" and stale["revision"] == 1
    now = host.get(f"/api/games/{gid}/state")
    assert now["revision"] == 1 and now["state_id"] == tab_one["state_id"]
    again = {"parts": orders, "state_id": now["state_id"], "revision": now["revision"]}
    assert host.post(f"/api/games/{gid}/actions", again)["revision"] == 2
    assert bob.get(f"/api/games/{gid}/state")["revision"] == 0  # each seat has its own
    watcher = users("watcher")
    watcher.post(f"/api/games/{gid}/join", {"role": "spectator"})
    assert watcher.get(f"/api/games/{gid}/state")["revision"] is None
