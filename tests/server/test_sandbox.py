"""Sandboxes: one user plays every seat of a position; "continue from here" takes a moment
of any game as the asker may see it, and nothing hidden from them reaches the sandbox."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.conftest import make_settings

from parley import games
from parley.kernel import SPECTATOR, Match, Viewer
from parley.server.app import build_services
from parley.server.errors import Forbidden, NotFound
from parley.server.sandbox import Sandbox
from parley.server.schemas import ActionIn, CreateGame
from parley.server.services import Services
from parley.server.vocab import GameStatus, Role, UserRecord

GAMES = ["campus", "illuminati", "planets", "diplomacy", "sucker"]


@pytest.fixture
def services(sqlite_url: str) -> Iterator[Services]:
    svc = build_services(make_settings(sqlite_url))
    yield svc
    svc.tables.db.dispose()


def sandbox_of(svc: Services) -> Sandbox:
    return Sandbox(svc.tables, svc.lobby.clock, svc.lobby)


def match_of(svc: Services, game_id: str) -> Match[Any, Any]:
    match = svc.tables.view(game_id, lambda live: live.match)
    assert match is not None
    return match


def first_position(game: str, seed: int = 5) -> dict[str, Any]:
    rules = games.find(game)
    match = Match(rules, rules.spec.default_seats or rules.spec.min_seats, seed=seed)
    return rules.write_position(match.state)


def play_as(svc: Services, user: UserRecord, game_id: str, seat: int) -> None:
    """Move to `seat` and play its first legal action through the server."""
    box = sandbox_of(svc)
    assert box.switch(user, game_id, seat).you.seat == seat  # type: ignore[union-attr]
    state = svc.play.state(user, game_id, with_options=True, with_text=False)
    assert state.viewer.seat == seat and state.can_act
    match = match_of(svc, game_id)
    action = match.rules.format(match.legal_actions(seat)[0])
    svc.play.act(user, game_id, ActionIn(action=action))


@pytest.mark.parametrize("game", GAMES)
def test_a_sandbox_plays_every_seat_and_nobody_else_does(services: Services, game: str) -> None:
    amy, _ = services.accounts.register("amy", None)
    bob, _ = services.accounts.register("bob", None)
    box = sandbox_of(services)
    made = box.create(amy, game, first_position(game), None)
    assert made.sandbox and made.private and made.status is GameStatus.ACTIVE
    assert made.you is not None and made.you.seat == 0
    match = match_of(services, made.id)
    assert match.seq == 0  # no bot, no civil disorder acted for the other seats
    acted: list[int] = []
    for _ in range(2):
        match = match_of(services, made.id)
        owing = sorted(match.turn().owing)
        seat = next((s for s in owing if s not in acted), owing[0])
        play_as(services, amy, made.id, seat)
        acted.append(seat)
    match = match_of(services, made.id)
    played = [e.seat for e in match.entries if hasattr(e, "action")]
    assert played[:2] == acted
    if match.seats > 1 and len(set(acted)) == 1:
        # The same seat owed twice (a turn of several actions): still another seat can be seen.
        other = (acted[0] + 1) % match.seats
        box.switch(amy, made.id, other)
        seen = services.play.state(amy, made.id, with_options=False, with_text=False)
        assert seen.viewer.seat == other
    # Private and marked: others neither see it listed nor may read it.
    listed = services.lobby.find(bob, [GameStatus.ACTIVE], False, 50, 0)
    assert made.id not in [g.id for g in listed]
    mine = services.lobby.find(amy, [GameStatus.ACTIVE], True, 50, 0)
    assert [g.sandbox for g in mine if g.id == made.id] == [True]


def test_moving_between_seats_is_refused_outside_a_sandbox(services: Services) -> None:
    amy, _ = services.accounts.register("amy", None)
    bob, _ = services.accounts.register("bob", None)
    game = services.lobby.create(amy, CreateGame(game="sucker", seats=3))
    services.lobby.start(amy, game.id, "random")
    with pytest.raises(Forbidden, match="only in a sandbox"):
        sandbox_of(services).switch(amy, game.id, 1)
    made = sandbox_of(services).create(amy, "sucker", first_position("sucker"), "mine")
    with pytest.raises(NotFound):  # a sandbox is private: unseen by others
        sandbox_of(services).switch(bob, made.id, 1)
    with pytest.raises(Exception, match="no seat 9"):
        sandbox_of(services).switch(amy, made.id, 9)


def test_a_bad_position_is_refused_and_nothing_is_made(services: Services) -> None:
    from parley.kernel import BadPosition

    amy, _ = services.accounts.register("amy", None)
    broken = {**first_position("campus"), "pvc": "Q9"}
    with pytest.raises(BadPosition, match="pvc"):
        sandbox_of(services).create(amy, "campus", broken, None)
    assert services.lobby.find(amy, [GameStatus.LOBBY, GameStatus.ACTIVE], True, 50, 0) == []


def running_game(svc: Services, user: UserRecord, game: str, seed: int, steps: int) -> str:
    """A game of `game` with `user` and random bots, `steps` of the user's moves in."""
    rules = games.find(game)
    seats = rules.spec.default_seats or rules.spec.min_seats
    made = svc.lobby.create(user, CreateGame(game=game, seats=seats, seed=seed))
    svc.lobby.start(user, made.id, "random")
    for _ in range(steps):
        match = match_of(svc, made.id)
        seat = match.players.index(user.username)
        if match.is_over or not match.turn().can_act(seat):
            break
        rng_pick = match.legal_actions(seat)
        svc.play.act(user, made.id, ActionIn(action=rules.format(rng_pick[seed % len(rng_pick)])))
    return made.id


HIDDEN = {
    "campus": {"pvc", "minigame"},
    "illuminati": {"deck", "players"},
    "planets": {"decks", "objective_deck"},
    "diplomacy": {"submitted"},
}


@pytest.mark.parametrize("game", sorted(HIDDEN))
def test_a_running_games_hidden_information_does_not_reach_the_sandbox(
    services: Services, game: str
) -> None:
    """Over several seeds: the position a player takes into a sandbox shows them exactly
    what they see, while what is hidden from them (and the generator) is drawn anew."""
    amy, _ = services.accounts.register("amy", None)
    rules = games.find(game)
    differed: set[str] = set()
    for seed in range(1, 6):
        game_id = running_game(services, amy, game, seed, steps=2)
        match = match_of(services, game_id)
        if match.is_over:
            continue
        seat = match.players.index("amy")
        truth = rules.write_position(match.state)
        got = sandbox_of(services).position_for(amy, game_id, None)
        assert not got.whole and got.viewer_seat == seat
        seen = rules.read_position(got.position)
        me = Viewer.of(seat)
        assert rules.observe(seen, me) == rules.observe(match.state, me)
        if "rng" in truth:
            assert got.position["rng"] != truth["rng"]
        differed |= {k for k in truth if truth[k] != got.position[k]}
        if game == "diplomacy":
            mine = truth["position"]  # unchanged: the board is public
            assert got.position["position"] == mine
            theirs = {
                p: t
                for p, t in truth["submitted"].items()
                if p != rules.seat_names(match.seats, match.options)[seat]
            }
            for power, text in theirs.items():
                held = got.position["submitted"][power]
                assert held != text or all(o.endswith(" H") for o in text.split("; "))
            assert all(
                text not in json.dumps(got.position)
                for text in theirs.values()
                if not all(o.endswith(" H") for o in text.split("; "))
            )
    assert HIDDEN[game] & differed, f"nothing hidden was redrawn in {game}: {differed}"


def test_continue_from_a_moment_of_an_ended_game(services: Services) -> None:
    """A closed game's earlier moment, as a spectator saw it, starts a sandbox there."""
    amy, _ = services.accounts.register("amy", None)
    carl, _ = services.accounts.register("carl", None)
    game_id = running_game(services, amy, "campus", 3, steps=3)
    services.lobby.join(carl, game_id, role=Role.SPECTATOR, invite_code=None)
    services.lobby.close(amy, game_id)
    match = match_of(services, game_id)
    at = max(1, match.seq // 2)
    got = sandbox_of(services).position_for(carl, game_id, at)
    assert got.at == at and got.viewer_seat is None and not got.whole
    past = services.tables.view(game_id, lambda live: services.tables.past(live, at))
    made = sandbox_of(services).create(carl, "campus", got.position, None)
    start = match_of(services, made.id)
    assert start.observe(SPECTATOR)["view"] == past.observe(SPECTATOR)["view"]
    # The owner's own sandbox gives its whole truth back, as it was set up.
    again = sandbox_of(services).position_for(carl, made.id, None)
    assert again.whole and again.position == got.position


def test_ready_in_a_diplomacy_sandbox_submits_that_seats_saved_orders(services: Services) -> None:
    """Saved orders count once every owed seat is ready; in a sandbox nobody sits at the
    other seats, so a seat's "ready" submits its saved orders at once."""
    from parley.server.drafts import Drafts
    from parley.server.schemas import DraftIn

    amy, _ = services.accounts.register("amy", None)
    made = sandbox_of(services).create(amy, "diplomacy", first_position("diplomacy"), None)
    drafts = Drafts(services.tables)
    drafts.save(amy, made.id, DraftIn(ready=True))
    match = match_of(services, made.id)
    assert 0 in match.state.submitted and match.seq == 1
    sandbox_of(services).switch(amy, made.id, 3)
    drafts.save(amy, made.id, DraftIn(ready=True))
    assert set(match_of(services, made.id).state.submitted) == {0, 3}


def test_private_bargains_stay_with_their_parties() -> None:
    """So Long Sucker has no hidden chance, but private bargains (an option) are secrets."""
    from parley.games.sucker.actions import Propose
    from parley.kernel import Rng
    from parley.server.sandbox import conceal

    rules = games.find("sucker")
    match = Match(rules, 3, {"private_channels": True}, seed=2)
    match.act(1, Propose((2,), (), "meet at pile nine", True))
    match.act(0, Propose((1,), (), "an open offer", False))
    for seat, knows in [(0, False), (1, True), (2, True)]:
        viewer = Viewer.of(seat)
        hidden = conceal(rules, match.state, viewer, Rng(seat))
        text = json.dumps(rules.write_position(hidden))
        assert ("meet at pile nine" in text) is knows
        assert "an open offer" in text
        assert rules.observe(hidden, viewer) == rules.observe(match.state, viewer)
    assert "meet at pile nine" in json.dumps(rules.write_position(match.state))  # untouched


def test_the_routes_answer_with_clear_errors(users: Any) -> None:
    """Over HTTP: a sandbox is made and switched; bad input and wrong games are refused."""
    amy, bob = users("amy"), users("bob")
    made = amy.post("/api/sandbox", {"game": "sucker", "position": first_position("sucker")}, 201)
    assert made["sandbox"] and made["you"]["seat"] == 0 and made["status"] == "active"
    moved = amy.post(f"/api/sandbox/{made['id']}/seat", {"seat": 2}, 200)
    assert moved["you"]["seat"] == 2
    assert amy.get(f"/api/games/{made['id']}/state", 200)["viewer"]["seat"] == 2
    whole = amy.get(f"/api/games/{made['id']}/position", 200)
    assert whole["whole"] and whole["position"] == first_position("sucker")
    broken = {**first_position("campus"), "pvc": "Q9"}
    bad = amy.post("/api/sandbox", {"game": "campus", "position": broken}, 400)
    assert bad["error"] == "bad_position" and "pvc" in bad["message"]
    amy.post(f"/api/sandbox/{made['id']}/seat", {"seat": 7}, 400)
    amy.post(f"/api/sandbox/{made['id']}/seat", {"seat": -1}, 422)
    bob.post(f"/api/sandbox/{made['id']}/seat", {"seat": 1}, 404)  # private: unseen
    game = bob.post("/api/games", {"game": "sucker", "seats": 3}, 201)
    bob.post(f"/api/sandbox/{game['id']}/seat", {"seat": 1}, 403)
    bob.get(f"/api/games/{game['id']}/position", 409)  # not started: no position yet
