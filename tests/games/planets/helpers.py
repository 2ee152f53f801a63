"""Scenario helpers: a cleared galaxy, a board laid out from a table, then a match started
from that position with its dice scripted through the kernel's public `Script`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parley.games.planets import RULES, PlanetsState, Stage
from parley.games.planets.state import COLOURS, Area
from parley.kernel import Match, Rng


def seat(colour: str) -> int:
    return COLOURS.index(colour.lower())


def empty_match(
    seed: int = 1, seats: int = 3, options: Mapping[str, Any] | None = None
) -> Match[Any, Any]:
    """A fresh game with every unit, control and command token removed."""
    match: Match[Any, Any] = Match(RULES, seats, dict(options or {}), seed=seed)
    state: PlanetsState = match.state
    for area in state.space.values():
        area.units.clear()
        area.damaged.clear()
    for planet in state.planets.values():
        planet.controller = None
        planet.exhausted = False
        planet.attachments.clear()
        planet.area = Area()
    state.tokens.clear()
    state.current = state.first = 0
    state.stage = Stage.ACTION
    return match


def place(state: PlanetsState, line: str) -> None:
    """`<system or planet> <colour> <unit> <count> [damaged]`; planet names may have spaces."""
    words = line.split()
    damaged = words[-1] == "damaged"
    if damaged:
        words = words[:-1]
    *where, colour, kind, count = words
    area = state.where(" ".join(where))
    area.add(seat(colour), kind, int(count))
    if damaged:
        area.set_hurt(seat(colour), kind, area.hurt(seat(colour), kind) + int(count))


def lay_out(match: Match[Any, Any], board: Mapping[str, Any]) -> Match[Any, Any]:
    """The board's position, as a match started from it with the board's dice scripted."""
    state: PlanetsState = match.state
    for line in board.get("units", []):
        place(state, line)
    for name, colour in board.get("control", {}).items():
        state.planets[name].controller = seat(colour)
    for name in board.get("exhausted", []):
        state.planets[name].exhausted = True
    for name, cards in board.get("attachments", {}).items():
        state.planets[name].attachments = list(cards)
    for trait, cards in board.get("deck", {}).items():
        rest = [c for c in state.decks[trait] if c not in cards]
        state.decks[trait] = rest + list(reversed(cards))  # written top first; drawn from the end
    for trait in board.get("empty_decks", []):
        state.decks[trait] = []
    for trait, cards in board.get("discards", {}).items():
        state.discards[trait] = list(cards)
    for colour, n in board.get("goods", {}).items():
        state.goods[seat(colour)] = n
    for colour, n in board.get("tactics", {}).items():
        state.tactics[seat(colour)] = n
    for colour, n in board.get("points", {}).items():
        state.points[seat(colour)] = n
    for colour, kinds in board.get("fragments", {}).items():
        state.fragments[seat(colour)] = list(kinds)
    for colour in board.get("passed", []):
        state.passed[seat(colour)] = True
    for sid, colours in board.get("tokens", {}).items():
        state.tokens[sid] = [seat(c) for c in colours]
    if "revealed" in board:
        state.revealed = list(board["revealed"])
    for key in ("target", "round", "rounds"):
        if key in board:
            setattr(state, key, board[key])
    lay_out_round(state, board)
    if "turn" in board:
        state.current = seat(board["turn"])
    state.rng = Rng(board.get("seed", 1))
    position = RULES.write_position(state)
    return Match.from_position(RULES, position, chance=board.get("dice", []))


def lay_out_round(state: PlanetsState, board: Mapping[str, Any]) -> None:
    """The fuller round's board keys: `sheet` (colour: [tactic, fleet, strategy]), `cards`
    (card name: colour), `used` (card names), `card_goods` (card name: n), `speaker`,
    `custodians` (false: removed), `strategy_phase` (true: the picks begin, speaker first)."""
    from parley.games.planets import strategy

    for colour, (tactic, fleet, pool) in board.get("sheet", {}).items():
        state.tactics[seat(colour)], state.fleet[seat(colour)] = tactic, fleet
        state.strategy_pool[seat(colour)] = pool
    for name, colour in board.get("cards", {}).items():
        state.holders[strategy.BY_NAME[name].number - 1] = seat(colour)
    for name in board.get("used", []):
        state.used[strategy.BY_NAME[name].number - 1] = True
    for name, n in board.get("card_goods", {}).items():
        state.card_goods[strategy.BY_NAME[name].number - 1] = n
    if "speaker" in board:
        state.speaker = seat(board["speaker"])
    if "custodians" in board:
        state.custodians = bool(board["custodians"])
    if board.get("strategy_phase"):
        strategy.strategy_phase(state)


def act(match: Match[Any, Any], line: str) -> None:
    """`colour: action` through the parser and the checked rules."""
    colour, _, text = line.partition(":")
    match.act(seat(colour.strip()), text.strip())
