"""A generic API player: picks actions from the options tree the server sends."""

from __future__ import annotations

import random
from typing import Any

from tests.server.conftest import ApiError, Client


def pick(node: dict[str, Any], rng: random.Random) -> list[str]:
    """One action as the leaves a client would choose: one per child of an `each` node."""
    if "action" in node:
        return [str(node["action"])]
    children = node.get("children", [])
    if not children:
        return []
    if node.get("each"):
        return [leaf for child in children for leaf in pick(child, rng)]
    return pick(rng.choice(children), rng)


def act_randomly(client: Client, gid: str, rng: random.Random, tries: int = 6) -> bool:
    """Submit a random legal-looking action for the client's seat; False if none was taken."""
    for _ in range(tries):
        state = client.get(f"/api/games/{gid}/state")
        if not state["can_act"] or state["options"] is None:
            return False
        leaves = pick(state["options"], rng)
        if not leaves:
            return False
        body: dict[str, Any] = {"action": leaves[0]} if len(leaves) == 1 else {"parts": leaves}
        body["state_id"] = state["state_id"]
        try:
            client.post(f"/api/games/{gid}/actions", body)
            return True
        except ApiError as err:
            if err.status >= 500:
                raise
    return False


def owing(clients: dict[int, Client], gid: str) -> list[int]:
    """Seats that owe a decision now, from the public turn in any observation."""
    any_client = next(iter(clients.values()))
    turn = any_client.get(f"/api/games/{gid}/state", params={"options": False})["observation"][
        "turn"
    ]
    return sorted({int(o["seat"]) for o in turn["owed"]})
