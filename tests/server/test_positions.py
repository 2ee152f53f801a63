"""Games created from a position: checked, started from it, replayed from it after a restart,
and never shown whole to a seat while they run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.conftest import make_settings

from parley.games.campus import RULES
from parley.kernel import ARCHIVE, BadOptions, BadPosition, Match
from parley.server.app import build_services
from parley.server.errors import Forbidden
from parley.server.schemas import ActionIn, CreateGame
from parley.server.services import Services
from parley.server.vocab import Role


@pytest.fixture
def services(sqlite_url: str) -> Iterator[Services]:
    svc = build_services(make_settings(sqlite_url))
    yield svc
    svc.tables.db.dispose()


def a_position() -> dict[str, Any]:
    """A campus game two moves in, its PVC hidden somewhere."""
    match = Match(RULES, 2, {"round_limit": 9}, seed=21)
    for _ in range(2):
        seat = next(iter(match.turn().owing))
        match.act(seat, match.legal_actions(seat)[0])
    return RULES.write_position(match.state)


def test_a_game_from_a_position_starts_there_and_replays_after_a_restart(
    services: Services, sqlite_url: str
) -> None:
    position = a_position()
    amy, _ = services.accounts.register("amy", None)
    bob, _ = services.accounts.register("bob", None)
    created = services.lobby.create(amy, CreateGame(game="campus", position=position))
    assert created.from_position and created.seat_count == 2
    assert created.options["round_limit"] == 9  # the position's options
    services.lobby.join(bob, created.id, role=Role.PLAYER, invite_code=None)
    services.lobby.start(amy, created.id, None)
    match = services.tables.view(created.id, lambda live: live.match)
    assert match is not None and RULES.write_position(match.state) == position
    seat = next(iter(match.turn().owing))
    user = amy if match.players[seat] == "amy" else bob
    text = RULES.format(match.legal_actions(seat)[0])
    services.play.act(user, created.id, ActionIn(action=text))
    expected = services.tables.view(created.id, lambda live: live.match.to_json())  # type: ignore[union-attr]
    assert expected["position"] == position and len(expected["entries"]) == 1

    fresh = build_services(make_settings(sqlite_url, migrate=False))
    try:
        loaded = fresh.tables.view(created.id, lambda live: live.match)
        assert loaded is not None and loaded.to_json() == expected
        assert loaded.observe(ARCHIVE) == services.tables.view(
            created.id,
            lambda live: live.match.observe(ARCHIVE),  # type: ignore[union-attr]
        )
        # A seat's record of a running game does not carry the position: it is the whole
        # truth; the archive is published once the game has ended.
        seen = fresh.play.record(amy, created.id, archive=False)
        assert seen.view == "seat" and "position" not in seen.record
        assert str(position["pvc"]) not in str(seen.record)
        with pytest.raises(Forbidden):
            fresh.play.record(amy, created.id, archive=True)
    finally:
        fresh.tables.db.dispose()


def test_a_bad_position_or_a_clash_with_it_is_refused(services: Services) -> None:
    amy, _ = services.accounts.register("amy", None)
    broken = {**a_position(), "pvc": "Q9"}
    with pytest.raises(BadPosition, match="pvc"):
        services.lobby.create(amy, CreateGame(game="campus", position=broken))
    with pytest.raises(BadOptions, match="2 seats, not 3"):
        services.lobby.create(amy, CreateGame(game="campus", seats=3, position=a_position()))
    with pytest.raises(BadOptions, match="carries its options"):
        services.lobby.create(
            amy, CreateGame(game="campus", options={"max_level": 3}, position=a_position())
        )


def test_a_position_naming_a_file_is_refused_before_it_is_read(services: Services) -> None:
    from parley.games.planets import RULES as PLANETS
    from parley.server.errors import BadRequest

    amy, _ = services.accounts.register("amy", None)
    position = PLANETS.write_position(Match(PLANETS, 3, seed=1).state)
    position["options"]["galaxy"] = "/etc/hostname"
    with pytest.raises(BadRequest, match="built-in maps and galaxies by name"):
        services.lobby.create(amy, CreateGame(game="planets", position=position))
