"""The heuristic bots: what they do in set positions, and that they beat random play.

The measured runs use fixed seeds, so their figures are the same on every run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parley import games
from parley.agents.arena import ArenaConfig, run_arena
from parley.agents.bots import decide, make_bot
from parley.games.sucker import Bargain, Phase
from parley.kernel import Match, Rng, Viewer

SUCKER = games.find("sucker")
DIPLOMACY = games.find("diplomacy")


# --- So Long Sucker --------------------------------------------------------------------


def _table(
    hands: list[list[int]], piles: dict[int, tuple[int, ...]], mover: int = 0
) -> Match[Any, Any]:
    match: Match[Any, Any] = Match(SUCKER, 4, seed=0)
    state = match.state
    state.hands = hands
    state.piles = dict(piles)
    state.next_pile = max(piles, default=0) + 1
    state.phase = Phase.MOVE
    state.holder = mover
    return match


def _sucker_choice(match: Match[Any, Any], seat: int) -> str:
    return SUCKER.format(decide(make_bot("heuristic", SUCKER), match, seat, Rng(0)))


def test_sucker_captures_for_itself() -> None:
    # Red (seat 0) holds red and blue; pile 1 is topped with red: red on it captures.
    match = _table([[2, 1, 0, 0], [0, 5, 0, 0], [0, 0, 5, 0], [0, 0, 0, 5]], {1: (1, 0)})
    assert _sucker_choice(match, 0) == "play red on 1"


def test_sucker_does_not_feed_a_rival_a_capture() -> None:
    # Blue on blue would give Blue the pile; green on green would give Green theirs.
    match = _table([[1, 1, 1, 0], [0, 5, 0, 0], [0, 0, 5, 0], [0, 0, 0, 5]], {1: (3, 1), 2: (3, 2)})
    choice = _sucker_choice(match, 0)
    assert choice not in ("play blue on 1", "play green on 2")


def test_sucker_prefers_prisoners_to_its_own_colour_when_nothing_else_differs() -> None:
    match = _table([[3, 0, 0, 2], [0, 5, 0, 0], [0, 0, 5, 0], [0, 0, 0, 5]], {})
    assert _sucker_choice(match, 0) == "play yellow new"


def _rescue_table(allied: bool) -> Match[Any, Any]:
    match = _table([[3, 2, 1, 0], [0, 0, 0, 0], [0, 0, 4, 0], [0, 0, 0, 4]], {1: (2, 3)})
    state = match.state
    state.phase = Phase.RESCUE
    state.holder = 1  # Blue is chipless and was given the move
    state.asked = 0
    state.anchor = 3
    if allied:
        state.agreed = [Bargain(1, 0, (1,), (), "together", False, frozenset({1}))]
    return match


def test_sucker_rescues_an_ally_with_a_spare_prisoner_and_lets_others_fall() -> None:
    assert _sucker_choice(_rescue_table(allied=True), 0) == "rescue blue with blue"
    assert _sucker_choice(_rescue_table(allied=False), 0) == "decline"


def test_sucker_kills_the_strongest_rivals_colour() -> None:
    match = _table([[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 6, 0], [0, 0, 0, 3]], {})
    state = match.state
    state.phase = Phase.KILL
    state.capturer = 0
    state.holder = 2
    state.captured = (3, 0, 2, 1, 0, 0)
    assert _sucker_choice(match, 0) == "kill green"


def test_sucker_heuristic_beats_three_random_players(tmp_path: Path) -> None:
    config = ArenaConfig(
        "sucker", ("heuristic", "random", "random", "random"), games=100, seed=1, out=tmp_path
    )
    standings = run_arena(config).summary["standings"]
    assert isinstance(standings, dict)
    # Equal play would give each seat 0.25; measured 0.68 over 200 games (docs/agents.md).
    assert standings["heuristic"]["win_share"] >= 0.45
    assert standings["random"]["win_share"] <= 0.2
    assert standings["heuristic"]["rating"]["mu"] > standings["random"]["rating"]["mu"]


# --- Diplomacy ---------------------------------------------------------------------------


def _orders(match: Match[Any, Any], seat: int) -> list[str]:
    action = decide(make_bot("heuristic", DIPLOMACY), match, seat, Rng(0))
    text = DIPLOMACY.format(action)
    return [] if text == "NO ORDERS" else text.split("; ")


def test_diplomacy_opening_orders_every_unit_once_and_legally() -> None:
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=0)
    for seat in range(7):
        orders = _orders(match, seat)
        view = match.observe(Viewer.of(seat))["view"]
        units = view["position"]["units"][match.seat_names()[seat]]
        assert sorted(" ".join(o.split()[:2]) for o in orders) == sorted(units)
        match.act(seat, "; ".join(orders))  # raises on any illegal order
    assert match.state.position.phase.name == "F1901M"


def test_diplomacy_holds_takes_and_builds_in_a_whole_game() -> None:
    """Over a game against random players, checked at each of the bot's decisions."""
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=3)
    me = 2  # France
    bot, rnd = make_bot("heuristic", DIPLOMACY), make_bot("random", DIPLOMACY)
    rngs = [Rng(s) for s in range(7)]
    built = held = 0
    while not match.is_over and match.state.position.phase.year <= 1910:
        for seat in sorted(match.turn().owing):
            if seat != me:
                match.act(seat, decide(rnd, match, seat, rngs[seat]))
                continue
            pos = match.state.position
            view = match.observe(Viewer.of(me))["view"]
            action = decide(bot, match, me, rngs[me])
            orders = [] if not action.orders else DIPLOMACY.format(action).split("; ")
            kind = pos.phase.kind.value
            if kind == "M":
                owner = {c: p for p, cs in view["position"]["centres"].items() for c in cs}
                centres = {p.code for p in pos.map.provinces if p.centre}
                moves = [o.split() for o in orders if o.split()[2] == "-"]
                destinations = [words[3].split("/")[0] for words in moves]
                assert len(destinations) == len(set(destinations)), orders  # no self-bounce
                for order in orders:
                    prov = order.split()[1].split("/")[0]
                    if prov in centres and owner.get(prov) != "FRANCE":
                        assert order.split()[2] == "H", order  # sitting on a centre to take
                        held += 1
            elif kind == "A":
                owed = view["adjustments"]["FRANCE"]
                if owed > 0:
                    builds = [o for o in orders if o.endswith(" B")]
                    assert len(builds) == owed, (orders, owed)
                    built += len(builds)
            match.act(me, action)
    assert built > 0 and held > 0
    assert match.state.position.centre_counts()[me] > 5


def test_diplomacy_heuristic_beats_six_random_powers(tmp_path: Path) -> None:
    bots = ("heuristic", *["random"] * 6)
    config = ArenaConfig("diplomacy", bots, games=7, seed=0, out=tmp_path)
    report = run_arena(config)
    tally = report.standings.tallies
    # One game as each power; random play alone would win one game in seven at best.
    assert tally["heuristic"].wins >= 4
    assert tally["random"].wins <= 2
