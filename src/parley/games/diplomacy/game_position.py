"""A Diplomacy game's position as JSON: the board position of `parley diplomacy adjudicate`
(phase, units, centres, dislodged units, contested provinces) with what a game adds: the
options, how many powers have seats, the orders already submitted this phase (secret
until the phase resolves, but part of the truth), the phases played and the last results.
See docs/diplomacy.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from parley.kernel import BadOptions, BadPosition, ParleyError
from parley.kernel.positions import Codec

from .civil_disorder import CivilDisorderRule
from .map import MapError, standard_map
from .phases import Ending, GameOptions
from .position import PositionError
from .serial import position_from_json, position_to_json

if TYPE_CHECKING:
    from .rules import DiplomacyRules, DiplomacyState

_ANY = Codec()
_KEYS = {"game", "options", "seats", "position", "submitted", "epoch", "last", "phases", "ending"}


def write(state: DiplomacyState) -> dict[str, Any]:
    dip = state.map
    ending = state.ending
    return {
        "game": "diplomacy",
        "options": {
            "map": dip.name,
            "civil_disorder": state.options.civil_disorder.value,
            "year_limit": state.options.year_limit,
        },
        "seats": state.seats,
        "position": position_to_json(state.position),
        "submitted": {dip.powers[s]: a.text for s, a in sorted(state.submitted.items())},
        "epoch": state.epoch,
        "last": list(state.last),
        "phases": list(state.phases),
        "ending": None
        if ending is None
        else {"winner": ending.winner, "powers": list(ending.powers), "reason": ending.reason},
    }


def read(rules: DiplomacyRules, data: Mapping[str, Any]) -> DiplomacyState:
    from .rules import DiplomacyState

    if not isinstance(data, Mapping):
        raise BadPosition("a position is a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise BadPosition(f"{unknown[0]}: no such field (known: {', '.join(sorted(_KEYS))})")
    if data.get("game", "diplomacy") != "diplomacy":
        raise BadPosition("game: this is not a Diplomacy position")
    raw = data.get("options", {})
    if not isinstance(raw, Mapping):
        raise BadPosition("options: expected an object")
    try:
        o = rules.spec.resolve_options(raw)
        dip = standard_map(str(o["map"]))
    except (BadOptions, MapError) as err:
        raise BadPosition(f"options: {err}") from None
    options = GameOptions(
        civil_disorder=CivilDisorderRule(str(o["civil_disorder"])),
        year_limit=int(o["year_limit"]),
    )
    seats = _ANY.read(data.get("seats", len(dip.powers)), int, "seats")
    if not rules.spec.min_seats <= seats <= len(dip.powers):
        raise BadPosition(f"seats: the {dip.name} map takes 2–{len(dip.powers)} seats, not {seats}")
    if "position" not in data:
        raise BadPosition("position: missing (phase, units, centres...)")
    try:
        pos = position_from_json(data["position"], dip)
    except PositionError as err:
        raise BadPosition(f"position: {err}") from None
    raw_ending = _ANY.read(data.get("ending"), dict[str, Any] | None, "ending")
    ending = None
    if raw_ending is not None:
        if set(raw_ending) != {"winner", "powers", "reason"}:
            raise BadPosition("ending: expected winner, powers and reason")
        ending = Ending(
            _ANY.read(raw_ending["winner"], str | None, "ending.winner"),
            tuple(_ANY.read(raw_ending["powers"], list[str], "ending.powers")),
            _ANY.read(raw_ending["reason"], str, "ending.reason"),
        )
        for power in (*ending.powers, *([ending.winner] if ending.winner else [])):
            if power not in dip.powers:
                raise BadPosition(f"ending: no power {power!r} on the {dip.name} map")
    state = DiplomacyState(
        dip,
        seats,
        options,
        pos,
        {},
        _ANY.read(data.get("epoch", 0), int, "epoch"),
        _ANY.read(data.get("last", []), list[dict[str, Any]], "last"),
        _ANY.read(data.get("phases", []), list[str], "phases"),
        ending,
    )
    submitted = _ANY.read(data.get("submitted", {}), dict[str, str], "submitted")
    for power, text in submitted.items():
        if power not in dip.powers[:seats]:
            raise BadPosition(f"submitted[{power!r}]: not a power with a seat")
        seat = dip.powers.index(power)
        try:
            action = rules.parse(text, state, seat)
            rules.check_submission(state, seat, action)
        except ParleyError as err:
            raise BadPosition(f"submitted[{power!r}]: {err.message}") from None
        state.submitted[seat] = action
    return state
