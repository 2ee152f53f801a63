"""Taking an action back: only one's own last action, before anyone else acts and when it
revealed nothing (campus: a step without dice that found nothing hidden). The record stays
append-only: a takeback entry follows the action, replay honours it, the store reloads it,
and every reader sees it."""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game

from parley import games
from parley.kernel import IllegalAction, Match, replay

Users = Any
RULES: Any = games.find("campus")


def plain_step(match: Match[Any, Any]) -> tuple[int, str]:
    """A step of the seat to move that can be taken back (tried on a copy)."""
    seat = match.turn().owed[0].seat
    for leaf in RULES.options_tree(match.state, seat).leaves():
        trial = match.copy()
        trial.act(seat, leaf)
        if trial.can_take_back(seat):
            return seat, leaf
    raise AssertionError("no step can be taken back here")


def test_a_plain_step_is_taken_back_and_the_record_replays() -> None:
    match: Match[Any, Any] = Match(RULES, 3, seed=4)
    before = RULES.write_position(match.state)
    seat, leaf = plain_step(match)
    sid = match.state_id
    match.act(seat, leaf)
    assert match.can_take_back(seat) and not match.can_take_back((seat + 1) % 3)
    with pytest.raises(IllegalAction):
        match.take_back((seat + 1) % 3)
    entry = match.take_back(seat)
    assert entry.undone == match.seq - 2
    assert match.state_id == sid  # the same state again, under the id actions aim at
    assert RULES.write_position(match.state) == before
    assert not match.can_take_back(seat)  # once
    record = match.to_json()
    assert [e["type"] for e in record["entries"]] == ["action", "takeback"]
    assert record["entries"][1] == {"seq": 1, "type": "takeback", "seat": seat, "of": 0}
    again = replay(RULES, record)
    assert RULES.write_position(again.state) == before and again.state_id == match.state_id
    # A forged takeback of what was not the last action does not replay.
    forged = dict(record, entries=[*record["entries"], dict(record["entries"][1], seq=2)])
    with pytest.raises(Exception, match="take back"):
        replay(RULES, forged)


def test_an_attack_or_another_seats_action_ends_the_chance() -> None:
    match: Match[Any, Any] = Match(RULES, 3, seed=4)
    rolled = 0
    for _ in range(300):
        seat = match.turn().owed[0].seat
        for leaf in RULES.options_tree(match.state, seat).leaves():
            trial = match.copy()
            trial.act(seat, leaf)
            if trial.state.rng != match.state.rng:
                assert not trial.can_take_back(seat)  # dice were rolled
                rolled += 1
        match.act(seat, RULES.options_tree(match.state, seat).leaves()[0])
        if match.is_over:
            break
        if match.turn().owed[0].seat != seat:
            assert not match.can_take_back(seat)  # the turn passed on
    assert rolled > 0


def test_undo_over_http(live: LiveServer, users: Users) -> None:
    amy, bob, cat = users("amy"), users("bob"), users("cat")
    gid, seats = start_game(amy, [bob, cat], "campus", seed=4)
    people: dict[int, Client] = {seats[c.username]: c for c in (amy, bob, cat)}
    watcher = users("watch")
    watcher.post(f"/api/games/{gid}/join", {"role": "spectator"})
    first = next(c for c in people.values() if c.get(f"/api/games/{gid}/state")["owes"])
    seat = seats[first.username]
    start = first.get(f"/api/games/{gid}/state")
    assert start["can_undo"] is False
    # The step the kernel test found for this seed's opening, if the seat is the same.
    match: Match[Any, Any] = Match(RULES, 3, seed=4)
    for leaf in start["options"] and _leaves(start["options"]):
        trial = match.copy()
        if trial.turn().owed[0].seat != seat:
            break
        trial.act(seat, leaf)
        if trial.can_take_back(seat):
            break
    first.post(f"/api/games/{gid}/actions", {"action": leaf})
    after = first.get(f"/api/games/{gid}/state")
    assert after["can_undo"] is True
    other = next(c for s, c in people.items() if s != seat)
    assert other.get(f"/api/games/{gid}/state")["can_undo"] is False
    refused = other.post(f"/api/games/{gid}/undo", expect=422)
    assert refused["error"] == "illegal" and "take back" in refused["message"]
    assert watcher.post(f"/api/games/{gid}/undo", expect=403)["error"] == "forbidden"
    done = first.post(f"/api/games/{gid}/undo")
    assert done["undone"] == 0 and done["state_id"] == start["state_id"] and done["seq"] == 2
    back = first.get(f"/api/games/{gid}/state")
    assert back["observation"]["view"] == {**start["observation"]["view"]}
    assert back["can_undo"] is False and back["owes"]
    entries = watcher.get(f"/api/games/{gid}/history")["entries"]
    assert [(e["type"], e.get("of")) for e in entries] == [("action", None), ("takeback", 0)]
    # Read back from the store, not the cache: the same state.
    live.services.tables.forget(gid)
    assert first.get(f"/api/games/{gid}/state")["observation"] == back["observation"]
    # A second undo has nothing to take back.
    assert first.post(f"/api/games/{gid}/undo", expect=422)["error"] == "illegal"
    # The past state before the takeback is still there to be seen.
    past = watcher.get(f"/api/games/{gid}/state?at=1")
    assert past["seq"] == 1


def _leaves(node: dict[str, Any]) -> list[str]:
    if isinstance(node.get("action"), str):
        return [node["action"]]
    return [x for c in node.get("children") or [] for x in _leaves(c)]


def first_undoable(match: Match[Any, Any], kind: str, steps: int = 600) -> tuple[int, str]:
    """Random play until the seat to move has a leaf starting with `kind` it may take back."""
    from parley.kernel import Rng
    from parley.kernel.conformance import random_step

    rng = Rng(9)
    for _ in range(steps):
        for owed in match.turn().owed:
            for leaf in match.rules.options_tree(match.state, owed.seat).leaves():
                if leaf.startswith(kind):
                    trial = match.copy()
                    trial.act(owed.seat, leaf)
                    if trial.can_take_back(owed.seat):
                        return owed.seat, leaf
        random_step(match, rng)
    raise AssertionError(f"no {kind!r} to take back came up")


@pytest.mark.parametrize(
    ("game", "seed", "kind"), [("illuminati", 5, "give "), ("sucker", 3, "play ")]
)
def test_illuminati_transfers_and_sucker_plays_are_taken_back(
    game: str, seed: int, kind: str
) -> None:
    rules: Any = games.find(game)
    match: Match[Any, Any] = Match(rules, 3, seed=seed)
    seat, leaf = first_undoable(match, kind)
    before = rules.write_position(match.state)
    match.act(seat, leaf)
    match.take_back(seat)
    assert rules.write_position(match.state) == before
    assert rules.write_position(replay(rules, match.to_json()).state) == before
    # Other kinds of action are never kept to be taken back.
    for other in rules.options_tree(match.state, seat).leaves():
        if not other.startswith(kind):
            trial = match.copy()
            trial.act(seat, other)
            assert not trial.can_take_back(seat), other
            break


def test_stepping_and_taking_back_buys_no_time(live: LiveServer, users: Users) -> None:
    """A step that can be taken back, and its takeback, keep the deadline the step had: a
    player cannot stall by stepping and taking back. What cannot be taken back buys time."""
    amy, bob, cat = users("amy"), users("bob"), users("cat")
    gid, seats = start_game(amy, [bob, cat], "campus", seed=4, period_seconds=600)
    people: dict[int, Client] = {seats[c.username]: c for c in (amy, bob, cat)}
    seat, leaf = plain_step(Match(RULES, 3, seed=4))
    mover = people[seat]
    start = mover.get(f"/api/games/{gid}/state")
    assert start["owes"]

    def deadline() -> tuple[int, float]:
        found = amy.get(f"/api/games/{gid}")["deadline"]
        return found["state_id"], found["remaining_seconds"]

    assert deadline() == (start["state_id"], 600)
    assert live.advance(500) == 0
    for left in (100, 70, 40):  # step and take back, again and again: the clock runs on
        mover.post(f"/api/games/{gid}/actions", {"action": leaf})
        stepped = mover.get(f"/api/games/{gid}/state")["state_id"]
        assert stepped != start["state_id"] and deadline() == (stepped, left)
        assert mover.post(f"/api/games/{gid}/undo")["state_id"] == start["state_id"]
        assert deadline() == (start["state_id"], left)
        assert live.advance(30) == 0
    # The step's own time runs out: the deadline fires as it would have without the stalling.
    assert live.advance(10) == 1
    fired = [e for e in amy.get(f"/api/games/{gid}/events")["events"] if e["kind"] == "deadline"]
    assert len(fired) == 1 and fired[0]["data"]["seats"] == [seat]
    # The default taken, the game moved on: the next step has a whole period again.
    assert deadline()[1] == 600
