"""Accounts and the lobby over HTTP: sign-up, games, joining, seats, starting (UC 06–15)."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.conftest import Client, LiveServer, sign_up

from parley.server.record import seat_draw

Users = Callable[..., Client]


def test_usernames_are_unique_ignoring_case(live: LiveServer, users: Users) -> None:
    users("Alice")
    again = Client(live.url, "x")
    body = again.post("/api/users", {"username": "alice"}, expect=409)
    assert body["error"] == "username_taken"
    assert "taken" in body["message"]


def test_sign_up_log_in_log_out(live: LiveServer, users: Users) -> None:
    bob = users("bob", password="correct horse")
    assert bob.get("/api/me") == {"id": 1, "username": "bob", "has_password": True}
    second = Client(live.url, "bob")
    wrong = second.post("/api/sessions", {"username": "bob", "password": "nope"}, expect=401)
    assert wrong["error"] == "unauthorized"
    second.token = second.post("/api/sessions", {"username": "BOB", "password": "correct horse"})[
        "token"
    ]
    assert second.token != bob.token
    assert second.get("/api/me")["username"] == "bob"
    bob.call("DELETE", "/api/sessions/current")
    assert bob.get("/api/me", expect=401)["error"] == "unauthorized"
    assert second.get("/api/me")["username"] == "bob"  # other sessions live on


def test_passwordless_accounts_cannot_log_in_by_name(live: LiveServer, users: Users) -> None:
    users("carol")
    stranger = Client(live.url, "mallory")
    stranger.post("/api/sessions", {"username": "carol", "password": "anything"}, expect=401)


def test_bad_usernames_are_refused(live: LiveServer) -> None:
    client = Client(live.url, "x")
    for name in ["a", "-dash", "white space", "x" * 33, "évé", "tab\there"]:
        body = client.post("/api/users", {"username": name}, expect=422)
        assert body["error"] == "invalid_request"


def test_tokens_are_stored_hashed(live: LiveServer, users: Users) -> None:
    dave = users("dave")
    with live.services.tables.db.read() as s:
        stored = [r[0] for r in s.connection().exec_driver_sql("SELECT token_hash FROM tokens")]
    assert dave.token not in stored
    assert all(len(h) == 64 for h in stored)


def test_create_game_with_name_description_period(live: LiveServer, users: Users) -> None:
    host = users("host")
    game = host.post(
        "/api/games",
        {
            "game": "countdown",
            "name": "Friday night",
            "description": "bring snacks",
            "period_seconds": 3600,
            "seats": 3,
            "options": {"start": 10},
        },
        expect=201,
    )
    assert game["id"] and game["status"] == "lobby"
    assert (game["name"], game["description"], game["period_seconds"]) == (
        "Friday night",
        "bring snacks",
        3600,
    )
    assert game["options"] == {"start": 10} and game["seat_count"] == 3
    assert game["host"] == "host" and game["you"]["host"] is True
    assert [p["player"] for p in game["players"]] == ["host"]
    default = host.post("/api/games", {"game": "count"}, expect=201)  # aliases work
    assert default["game"] == "countdown" and default["period_seconds"] == 900
    assert default["name"] == "Game" and default["seat_count"] == 2


def test_creating_refuses_bad_settings(live: LiveServer, users: Users) -> None:
    host = users("host")
    cases = [
        ({"game": "chess"}, 400, "unknown_game"),
        ({"game": "countdown", "seats": 9}, 400, "bad_options"),
        ({"game": "countdown", "options": {"start": 0}}, 400, "bad_options"),
        ({"game": "countdown", "options": {"speed": 3}}, 400, "bad_options"),
        ({"game": "countdown", "period_seconds": 0}, 422, "invalid_request"),
        ({"game": "countdown", "press": "loud"}, 422, "invalid_request"),
        ({"game": "countdown", "takeover_bot": "genius"}, 400, "bad_options"),
        ({"game": "countdown", "name": "a\u0000b"}, 422, "invalid_request"),
        ({"game": "countdown", "extra": 1}, 422, "invalid_request"),
    ]
    for body, status, code in cases:
        answer = host.post("/api/games", body, expect=status)
        assert answer["error"] == code, (body, answer)
    assert host.get("/api/me/games")["games"] == []


def test_join_as_player_or_spectator_and_start(live: LiveServer, users: Users) -> None:
    host, ann, ben, sue = users("host"), users("ann"), users("ben"), users("sue")
    game = host.post("/api/games", {"game": "countdown", "seats": 3}, expect=201)
    gid = game["id"]
    ann.post(f"/api/games/{gid}/join", {"role": "player"})
    sue.post(f"/api/games/{gid}/join", {"role": "spectator"})
    # The host may not start before every seat is taken.
    early = host.post(f"/api/games/{gid}/start", {}, expect=409)
    assert "2 of 3 seats" in early["message"]
    ben.post(f"/api/games/{gid}/join")
    full = users("late").post(f"/api/games/{gid}/join", {"role": "player"}, expect=409)
    assert "spectator" in full["message"]
    ann.post(f"/api/games/{gid}/start", {}, expect=403)  # only the host starts (UC 13)
    started = host.post(f"/api/games/{gid}/start", {})
    assert started["status"] == "active"
    assert started["spectators"] == 1
    # Seats are drawn from the game's seed, in joining order (UC 15).
    draw = seat_draw(started_seed(live, gid), 3)
    by_seat = {s["seat"]: s["player"] for s in started["seats"]}
    assert [by_seat[draw[i]] for i in range(3)] == ["host", "ann", "ben"]
    assert all(s["controller"] == "human" for s in started["seats"])
    assert started["deadline"]["remaining_seconds"] == 900
    host.post(f"/api/games/{gid}/start", {}, expect=409)


def started_seed(live: LiveServer, gid: str) -> int:
    with live.services.tables.db.read() as s:
        row = s.connection().exec_driver_sql("SELECT seed FROM games WHERE id = ?", (gid,)).one()
    return int(row[0])


def test_seat_draw_is_random_but_recorded(live: LiveServer, users: Users) -> None:
    host, guest = users("host"), users("guest")
    seen = set()
    for seed in range(12):
        gid = host.post("/api/games", {"game": "countdown", "seed": seed}, expect=201)["id"]
        guest.post(f"/api/games/{gid}/join")
        seats = host.post(f"/api/games/{gid}/start")["seats"]
        order = tuple(s["player"] for s in seats)
        assert order == tuple(["host", "guest"][i] for i in _inverse(seat_draw(seed, 2)))
        seen.add(order)
        events = host.get(f"/api/games/{gid}/events")["events"]
        started = next(e for e in events if e["kind"] == "started")
        assert started["data"] == {"seats": list(order)}  # the seed is not shown while it runs
        host.post(f"/api/games/{gid}/close")
        archive = guest.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
        assert archive["seed"] == seed
    assert len(seen) == 2  # both orders happen


def _inverse(draw: list[int]) -> list[int]:
    out = [0] * len(draw)
    for joiner, seat in enumerate(draw):
        out[seat] = joiner
    return out


def test_host_fills_empty_seats_with_bots(live: LiveServer, users: Users) -> None:
    host = users("host")
    gid = host.post("/api/games", {"game": "countdown", "seats": 4}, expect=201)["id"]
    lobby = host.post(f"/api/games/{gid}/bots", {"bot": "random", "count": 1})
    assert [p["bot"] for p in lobby["players"]] == [None, "random"]
    host.post(f"/api/games/{gid}/bots", {"count": 3}, expect=409)  # only 2 seats are left
    game = host.post(f"/api/games/{gid}/start", {"fill_with": "random"})
    kinds = sorted(s["controller"] for s in game["seats"])
    assert kinds == ["bot", "bot", "bot", "human"]
    # Bots moved until it was the human's turn (or the game ended).
    state = host.get(f"/api/games/{gid}/state")
    assert state["owes"] or state["status"] == "finished"


def test_private_games_need_the_invite_code(live: LiveServer, users: Users) -> None:
    host, friend, stranger = users("host"), users("friend"), users("stranger")
    game = host.post("/api/games", {"game": "countdown", "private": True}, expect=201)
    gid, code = game["id"], game["invite_code"]
    assert code
    assert gid not in [g["id"] for g in stranger.get("/api/games")["games"]]
    assert stranger.get(f"/api/games/{gid}", expect=404)["error"] == "not_found"
    stranger.post(f"/api/games/{gid}/join", {"invite_code": "guess"}, expect=404)
    joined = friend.post(f"/api/games/{gid}/join", {"invite_code": code})
    assert joined["invite_code"] is None  # only the host is shown the code
    assert gid in [g["id"] for g in friend.get("/api/games")["games"]]


def test_listing_public_games(live: LiveServer, users: Users) -> None:
    host, other = users("host"), users("other")
    a = host.post("/api/games", {"game": "countdown", "name": "A"}, expect=201)["id"]
    b = host.post("/api/games", {"game": "sealed-bids", "name": "B"}, expect=201)["id"]
    listed = other.get("/api/games")["games"]
    assert [g["id"] for g in listed] == [b, a] or {g["id"] for g in listed} == {a, b}
    other.post(f"/api/games/{a}/join")
    host.post(f"/api/games/{a}/start")
    active = other.get("/api/games", params={"status": "active"})["games"]
    assert [g["id"] for g in active] == [a]
    assert [g["id"] for g in other.get("/api/games", params={"mine": True})["games"]] == [a]


def test_unknown_game_id(live: LiveServer, users: Users) -> None:
    ann = users("ann")
    assert ann.post("/api/games/nosuchgame/join", {}, expect=404)["error"] == "not_found"
    assert ann.get("/api/games/bad id!", expect=422)["error"] == "invalid_request"


def test_leaving_the_lobby_and_the_host_leaving_closes(live: LiveServer, users: Users) -> None:
    host, ann = users("host"), users("ann")
    gid = host.post("/api/games", {"game": "countdown"}, expect=201)["id"]
    ann.post(f"/api/games/{gid}/join")
    game = ann.post(f"/api/games/{gid}/leave")
    assert [p["player"] for p in game["players"]] == ["host"]
    ann.post(f"/api/games/{gid}/leave", expect=404)
    closed = host.post(f"/api/games/{gid}/leave")
    assert closed["status"] == "closed"


def test_catalog_lists_games_and_bots(live: LiveServer) -> None:
    anyone = sign_up(live.url, "anyone")
    catalog = anyone.get("/api/game-types")
    names = {g["name"] for g in catalog["games"]}
    assert {"countdown", "sealed-bids"} <= names
    assert "random" in catalog["bots"]
    assert catalog["default_period_seconds"] == 900
