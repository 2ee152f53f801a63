"""Every rule scenario in scenarios.toml: a concrete position, scripted dice, what must follow."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from parley.games.planets import RULES
from parley.kernel import SPECTATOR, Match, ParleyError

from .helpers import COLOURS, act, empty_match, lay_out, seat

# scenarios.toml holds the compact game's rules; the fuller round's tables (one file per
# part, full rules unless a scenario's `options` say otherwise) sit beside it.
TABLES = {
    "scenarios.toml": "compact",
    "scenarios_round.toml": "full",
    "scenarios_forces.toml": "full",
}


def _load() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, rules in TABLES.items():
        path = Path(__file__).parent / name
        if not path.exists():
            continue
        for scenario in tomllib.loads(path.read_text())["scenario"]:
            options = {"rules": rules, **scenario.get("options", {})}
            out.append({**scenario, "options": options})
    return out


SCENARIOS = _load()
CHECKS = {
    "controller",
    "exhausted",
    "token",
    "units",
    "damaged",
    "owed",
    "legal_has",
    "legal_lacks",
    "refuse",
    "events_has",
    "events_lacks",
    "events_order",
    "deck_left",
    "discards",
    "goods",
    "fragments",
    "points",
    "scored",
    "attachments",
    "resources",
    "influence",
    "ready_influence",
    "pool",
    "production",
    "round",
    "winner",
    "tokens_in",
    "dice_left",
    "player_planets",
    "do",
    # the fuller round (scenarios_round.toml)
    "sheet",
    "reinforcements",
    "speaker",
    "cards",
    "card_goods",
    "initiative",
    "custodians",
    "stage",
}


def _match(scenario: dict[str, Any]) -> Match[Any, Any]:
    options = scenario["options"]
    if scenario.get("fresh"):
        return Match(RULES, 3, options, seed=1)
    return lay_out(empty_match(options=options), scenario.get("board", {}))


def _units(view: dict[str, Any], where: str, colour: str, kind: str, key: str) -> int:
    places = {s["id"]: s for s in view["systems"]} | {p["name"]: p for p in view["planets"]}
    for entry in places[where].get("units", []):
        if entry["colour"] == colour:
            return int(entry.get(key, {}).get(kind, 0))
    return 0


def _owed(match: Match[Any, Any]) -> str:
    turn = match.turn()
    if not turn.owed:
        return "none"
    return f"{COLOURS[turn.owed[0].seat]} {turn.owed[0].kind}"


def check(match: Match[Any, Any], step: dict[str, Any], where: str) -> None:
    unknown = set(step) - CHECKS
    assert not unknown, f"{where}: unknown checks {unknown}"
    view = match.observe(SPECTATOR)["view"]
    planets = {p["name"]: p for p in view["planets"]}
    players = view["players"]
    events = "\n".join(e["text"] for e in view["events"])
    for name, colour in step.get("controller", {}).items():
        got = planets[name]["controller"]
        assert (COLOURS[got] if got is not None else "none") == colour, (
            f"{where}: {name} held by {got}"
        )
    for name, value in step.get("exhausted", {}).items():
        assert planets[name]["exhausted"] is value, f"{where}: {name} exhausted is not {value}"
    for name, value in step.get("token", {}).items():
        assert planets[name].get("control_token", False) is value, f"{where}: {name} token"
    for key in ("units", "damaged"):
        for spec, n in step.get(key, {}).items():
            *place, colour, kind = spec.split()
            got = _units(view, " ".join(place), colour, kind, key)
            assert got == n, f"{where}: {spec} is {got}, not {n}"
    if "owed" in step:
        assert _owed(match) == step["owed"], f"{where}: owed {_owed(match)}"
    if "legal_has" in step or "legal_lacks" in step:
        turn = match.turn()
        legal = {RULES.format(a) for a in match.legal_actions(turn.owed[0].seat)}
        for text in step.get("legal_has", []):
            assert text in legal, f"{where}: {text!r} not among {sorted(legal)}"
        for text in step.get("legal_lacks", []):
            assert text not in legal, f"{where}: {text!r} is offered"
    for line, words in step.get("refuse", []):
        before = match.observe(SPECTATOR)
        with pytest.raises(ParleyError) as err:
            act(match, line)
        assert words in err.value.message, f"{where}: {line!r} refused with {err.value.message!r}"
        assert match.observe(SPECTATOR) == before, f"{where}: a refused action changed the game"
    for text in step.get("events_has", []):
        assert text in events, f"{where}: no event {text!r} in\n{events}"
    for text in step.get("events_lacks", []):
        assert text not in events, f"{where}: event {text!r} in\n{events}"
    order = [events.find(text) for text in step.get("events_order", [])]
    assert all(i >= 0 for i in order) and order == sorted(order), (
        f"{where}: order {order}\n{events}"
    )
    for trait, n in step.get("deck_left", {}).items():
        assert view["decks"][trait]["left"] == n, f"{where}: {trait} deck {view['decks'][trait]}"
    for trait, names in step.get("discards", {}).items():
        assert view["decks"][trait]["discards"] == names, f"{where}: {trait} discards"
    for key, field in (
        ("goods", "trade_goods"),
        ("fragments", "fragments"),
        ("points", "points"),
        ("scored", "scored"),
        ("ready_influence", "ready_influence"),
        ("player_planets", "planets"),
    ):
        for colour, value in step.get(key, {}).items():
            got = players[seat(colour)][field]
            assert got == value, f"{where}: {colour} {field} is {got}, not {value}"
    for name, names in step.get("attachments", {}).items():
        got = [a["name"] for a in planets[name].get("attachments", [])]
        assert got == names, f"{where}: {name} attachments {got}"
    for key in ("resources", "influence"):
        for name, n in step.get(key, {}).items():
            assert planets[name][key] == n, f"{where}: {name} {key} {planets[name][key]}"
    for key in ("pool", "production", "round"):
        if key in step:
            assert view[key] == step[key], f"{where}: {key} is {view[key]}"
    for sid, colours in step.get("tokens_in", {}).items():
        system = next(s for s in view["systems"] if s["id"] == sid)
        assert [COLOURS[t] for t in system.get("tokens", [])] == colours, f"{where}: tokens"
    if "winner" in step:
        outcome = match.outcome()
        assert outcome is not None and outcome.winners == {seat(step["winner"])}, (
            f"{where}: {outcome}"
        )
    if "dice_left" in step:
        script = match.script()
        assert script is not None and script.left == step["dice_left"], where
    check_round(view, step, where)


def check_round(view: dict[str, Any], step: dict[str, Any], where: str) -> None:
    """The fuller round's checks: command sheets ([tactic, fleet, strategy]), reinforcements,
    speaker, card holders ("none" for a card nobody holds), trade goods on cards, initiative
    order, custodians ("on" or who removed them), the stage."""
    sheets = {COLOURS[s["seat"]]: s for s in view.get("command_sheets", [])}
    for colour, pools in step.get("sheet", {}).items():
        got = [sheets[colour][k] for k in ("tactic", "fleet", "strategy")]
        assert got == pools, f"{where}: {colour}'s sheet is {got}, not {pools}"
    for colour, n in step.get("reinforcements", {}).items():
        got = sheets[colour]["reinforcements"]
        assert got == n, f"{where}: {colour} has {got} tokens in reinforcements, not {n}"
    if "speaker" in step:
        assert COLOURS[view["speaker"]] == step["speaker"], f"{where}: speaker {view['speaker']}"
    cards = {c["name"]: c for c in view.get("strategy_cards", [])}
    for name, colour in step.get("cards", {}).items():
        holder = cards[name]["holder"]
        got = "none" if holder is None else COLOURS[holder]
        assert got == colour, f"{where}: {name} is held by {got}, not {colour}"
    for name, n in step.get("card_goods", {}).items():
        got = cards[name]["trade_goods"]
        assert got == n, f"{where}: {name} carries {got} trade goods, not {n}"
    if "initiative" in step:
        got = [COLOURS[s] for s in view["initiative"]]
        assert got == step["initiative"], f"{where}: initiative {got}"
    if "custodians" in step:
        custodians = view["custodians"]
        by = custodians["removed_by"]
        got = "on" if custodians["on"] else (COLOURS[by] if by is not None else "off")
        assert got == step["custodians"], f"{where}: custodians {got}"
    if "stage" in step:
        assert view["stage"] == step["stage"], f"{where}: stage {view['stage']}"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["rule"] for s in SCENARIOS])
def test_scenario(scenario: dict[str, Any]) -> None:
    match = _match(scenario)
    for k, step in enumerate(scenario.get("step", [])):
        where = f"{scenario['rule']} step {k + 1}"
        for line in step.get("do", []):
            act(match, line)
        check(match, step, where)
    match.finish_chance()


def test_every_listed_rule_has_a_scenario() -> None:
    rules = " ".join(s["rule"] for s in SCENARIOS)
    wanted = [
        "25.1",
        "25.1a",
        "25.1b",
        "25.1c",
        "25.2",
        "25.3",
        "25.4",
        "25.5",
        "25.5a",
        "25.5b",
        "25.7",
        "34.2",
        "34.3",
        "34.4",
        "49.1",
        "49.2",
        "49.3",
        "49.4",
        "49.5a",
        "49.5b",
        "49.5c",
        "49.5d",
        "12.1",
        "12.2",
        "12.2a",
        "35.1",
        "35.2",
        "35.2a",
        "35.2b",
        "35.2c",
        "35.2d",
        "35.7",
        "35.8",
        "35.9",
        "42.1",
        "42.2",
        "42.3",
        "42.4",
    ]
    missing = [r for r in wanted if r not in rules.replace(",", " ").split()]
    assert not missing, f"rules without a scenario: {missing}"
