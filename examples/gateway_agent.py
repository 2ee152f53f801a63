"""A minimal external agent: plays one seat of a Parley game through the agent gateway.

    # register a new agent and join game GAME_ID (it must still be in the lobby)
    python examples/gateway_agent.py --server http://127.0.0.1:8000 --name my-agent --game GAME_ID

    # or play with an existing token, in a game the agent has joined already
    python examples/gateway_agent.py --server ... --token TOKEN --game GAME_ID

It asks for the decision its seat owes, picks one legal option (one per group when the
action is composite, as Diplomacy's orders are), sends it with a line of private
reasoning, and repeats until the game is over. It uses nothing but HTTP and JSON, so the
same loop can be written in any language; a language model would read `text` (or
`observation`) and answer with `action` in notation instead of option ids.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx


def register(http: httpx.Client, name: str) -> str:
    """A new agent account; returns its bearer token."""
    reply = http.post("/api/agents", json={"name": name, "description": "example agent"})
    reply.raise_for_status()
    token: str = reply.json()["token"]
    return token


def choose(decision: dict[str, Any], rng: random.Random) -> list[str]:
    """Option ids: one option, or one per group for a composite decision."""
    options = decision["options"]
    if not decision["composite"]:
        return [rng.choice(options)["id"]]
    groups: dict[str, list[str]] = {}
    for option in options:
        groups.setdefault(option["group"], []).append(option["id"])
    return [rng.choice(ids) for ids in groups.values()]


def play(
    http: httpx.Client,
    game_id: str,
    token: str,
    *,
    seed: int = 0,
    wait: Callable[[float], None] = time.sleep,
    poll_seconds: float = 1.0,
    max_decisions: int = 100_000,
) -> dict[str, Any]:
    """Play the agent's seat until the game ends; returns the last gateway answer."""
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(seed)
    url = f"/api/agents/games/{game_id}/decision"
    for _ in range(max_decisions):
        pending = http.get(url, headers=headers)
        pending.raise_for_status()
        body: dict[str, Any] = pending.json()
        if not body["pending"]:
            if body["status"] in ("finished", "closed"):
                return body
            wait(poll_seconds)  # others are deciding
            continue
        decision = body["decision"]
        picked = choose(decision, rng)
        answer = {
            "decision": decision["decision"],
            "options": picked,
            "reasoning": f"{decision['seat_name']}: picked {len(picked)} of "
            f"{len(decision['options'])} options at random",
        }
        reply = http.post(url, json=answer, headers=headers)
        if reply.status_code not in (200, 422):
            reply.raise_for_status()
    raise RuntimeError(f"no end after {max_decisions} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--game", required=True, help="the game's id")
    parser.add_argument("--name", help="register a new agent with this name")
    parser.add_argument("--token", help="the token of an agent registered before")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with httpx.Client(base_url=args.server, timeout=30) as http:
        if args.token:
            token = args.token
        elif args.name:
            token = register(http, args.name)
            joined = http.post(
                f"/api/games/{args.game}/join",
                json={"role": "player"},
                headers={"Authorization": f"Bearer {token}"},
            )
            joined.raise_for_status()
            print(f"registered and joined; token {token}", file=sys.stderr)
        else:
            parser.error("give --name (register) or --token")
        final = play(http, args.game, token, seed=args.seed)
        print(f"game over: {final.get('outcome')}")


if __name__ == "__main__":
    main()
