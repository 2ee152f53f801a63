"""What a viewer sees (everything but the order of the decks), and a text picture of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parley.kernel import JSON, Viewer

from . import forces
from .cards import CARDS, OBJECTIVES
from .engine import (
    capacity_of,
    controlled,
    has_token,
    hits_text,
    owner_of,
    planet_influence,
    planet_resources,
    production_limit,
)
from .state import COLOURS, Area, PlanetsState, Stage
from .units import CARGO, DOCK_FIGHTERS, ORDER

EVENTS_SHOWN = 20  # recent public events in each observation

STEP_NAMES = {
    Stage.ACTION: "choose an action",
    Stage.MOVE: "movement",
    Stage.SPACE: "space combat",
    Stage.BOMBARD: "invasion 1: bombardment",
    Stage.COMMIT: "invasion 2: commit ground forces",
    Stage.CANNON: "invasion 3: space cannon defence",
    Stage.GROUND: "invasion 4: ground combat",
    Stage.CONTROL: "invasion 5: establish control",
    Stage.EXPLORE: "exploration",
    Stage.PRODUCE: "production",
    Stage.OFFENSE: "space cannon offense: choose a target",
    Stage.RETREAT: "space combat: announce a retreat or stay",
    Stage.STRATEGY: "strategy phase: pick a strategy card",
    Stage.PRIMARY: "strategic action: the primary ability",
    Stage.SECONDARY: "strategic action: follow the secondary ability or decline",
    Stage.FOLLOW: "strategic action: the secondary ability",
    Stage.STATUS: "status phase: place your command tokens",
    Stage.OVER: "game over",
}


def colour(seat: int) -> str:
    return COLOURS[seat]


def _units(area: Area) -> list[dict[str, JSON]]:
    return [
        {
            "seat": seat,
            "colour": colour(seat),
            "units": {k: n for k, n in sorted(kinds.items(), key=lambda kv: ORDER[kv[0]])},
            **({"damaged": dict(area.damaged[seat])} if seat in area.damaged else {}),
        }
        for seat, kinds in sorted(area.units.items())
    ]


def observe(state: PlanetsState, viewer: Viewer) -> dict[str, JSON]:
    galaxy = state.galaxy
    stage = state.stage
    owner = owner_of(state)
    step = f"{STEP_NAMES[state.stage]}: assign hits" if state.hits else STEP_NAMES[stage]
    if state.trims and not state.hits:
        step = f"{STEP_NAMES[stage]}: remove ships over the fleet supply"
    players: list[JSON] = []
    for seat in range(state.seats):
        mine = controlled(state, seat)
        ready = [p for p in mine if not state.planets[p].exhausted]
        players.append(
            {
                "seat": seat,
                "colour": colour(seat),
                "home": state.homes[seat],
                "points": state.points[seat],
                "tactics": state.tactics[seat],
                "passed": state.passed[seat],
                "trade_goods": state.goods[seat],
                "fragments": list(state.fragments[seat]),
                "scored": list(state.scored[seat]),
                "planets": mine,
                "ready_resources": sum(planet_resources(state, p) for p in ready),
                "ready_influence": sum(planet_influence(state, p) for p in ready),
                "total_resources": sum(planet_resources(state, p) for p in mine),
                "total_influence": sum(planet_influence(state, p) for p in mine),
            }
        )
    systems: list[JSON] = []
    for sid, system in galaxy.systems.items():
        space = state.space[sid]
        entry: dict[str, JSON] = {"id": sid, "q": system.q, "r": system.r}
        entry["kind"] = system.kind.value
        if sid in state.homes:
            entry["home"] = state.homes.index(sid)
        if system.planets:
            entry["planets"] = list(system.planets)
        if state.tokens.get(sid):
            entry["tokens"] = sorted(state.tokens[sid])
        if space.units:
            entry["units"] = _units(space)
        systems.append(entry)
    planets: list[JSON] = []
    for name, printed in galaxy.planets.items():
        planet = state.planets[name]
        item: dict[str, JSON] = {
            "name": name,
            "system": printed.system,
            "resources": planet_resources(state, name),
            "influence": planet_influence(state, name),
            "traits": list(printed.traits),
            "controller": planet.controller,
            "exhausted": planet.exhausted,
        }
        # Optional keys appear only when they say something (observations stay small).
        if printed.specialty:
            item["specialty"] = printed.specialty
        if printed.legendary:
            item["legendary"] = True
        if has_token(state, name):
            item["control_token"] = True
        if planet.attachments:
            item["attachments"] = [
                {"name": CARDS[c].name, "text": CARDS[c].text()} for c in planet.attachments
            ]
        if planet.area.units:
            item["units"] = _units(planet.area)
        planets.append(item)
    view: dict[str, JSON] = {
        "galaxy": galaxy.name,
        "you": viewer.seat,
        "round": state.round,
        "rounds": state.rounds,
        "target": state.target,
        "first": state.first,
        "current": state.current if stage is not Stage.OVER else None,
        "to_act": owner,
        "stage": stage.value,
        "step": step,
        "active": state.active,
        "hits": [{"seat": h.seat, "where": h.where, "count": h.count} for h in state.hits],
        "last_combat": state.last_combat,
        "committed": list(state.committed),
        "explore_queue": list(state.explore_queue),
        "pool": state.pool,
        "produced": state.produced,
        "production": production_limit(state, state.current)
        if stage is Stage.PRODUCE and state.active
        else 0,
        "capacity": capacity_of(state.space[state.active], state.current) if state.active else 0,
        "players": players,
        "systems": systems,
        "planets": planets,
        "decks": {
            trait: {
                "left": len(state.decks[trait]),
                "discards": [CARDS[c].name for c in state.discards[trait]],
            }
            for trait in state.decks
        },
        "objectives": [
            {
                "id": o,
                "name": OBJECTIVES[o].name,
                "text": OBJECTIVES[o].text(),
                "scored_by": [s for s in range(state.seats) if o in state.scored[s]],
            }
            for o in state.revealed
        ],
        "objectives_left": len(state.objective_deck),
        "events": [dict(e) for e in state.events[-EVENTS_SHOWN:]],
        "winner": state.winner,
        "over": stage is Stage.OVER,
        "reason": state.reason,
    }
    if not state.compact:
        view.update(_round_view(state))
    if not state.compact:
        view.update(_forces_view(state))
    return view


def _round_view(state: PlanetsState) -> dict[str, JSON]:
    """The fuller round's public facts: cards, speaker, initiative, sheets, custodians."""
    from . import strategy

    cards: list[JSON] = [
        {
            "number": c.number,
            "name": c.name,
            "primary": c.primary,
            "secondary": c.secondary,
            "holder": state.holders[c.number - 1],
            "used": state.used[c.number - 1],
            "trade_goods": state.card_goods[c.number - 1],
        }
        for c in strategy.CARDS
    ]
    sheets: list[JSON] = [
        {
            "seat": s,
            "tactic": state.tactics[s],
            "fleet": state.fleet[s],
            "strategy": state.strategy_pool[s],
            "reinforcements": strategy.reinforcements(state, s),
            "on_board": strategy.on_board(state, s),
        }
        for s in range(state.seats)
    ]
    resolving: JSON = None
    if state.strategic is not None:
        resolving = {
            "card": state.strategic,
            "name": strategy.card(state.strategic).name,
            "holder": state.holders[state.strategic - 1],
            "step": state.step,
            "followers": list(state.followers),
            "granted": list(state.granted),
        }
    return {
        "rules": "full",
        "speaker": state.speaker,
        "initiative": strategy.initiative(state) if state.stage is not Stage.STRATEGY else [],
        "strategy_cards": cards,
        "command_sheets": sheets,
        "strategic": resolving,
        "round_step": state.step,
        "expected": strategy.expected(state)
        if state.step or state.stage in strategy.ROUND_STAGES
        else "",
        "gain": state.gain,
        "influence": state.influence,
        "fleet_excess": [{"seat": s, "system": sid} for s, sid in state.trims],
        "custodians": {"on": state.custodians, "removed_by": state.custodians_by},
    }


def _get(view: Mapping[str, Any], key: str, default: Any) -> Any:
    value = view.get(key, default)
    return default if value is None else value


def _units_line(entries: list[Mapping[str, Any]]) -> str:
    parts = []
    for entry in entries:
        hurt = entry.get("damaged") or {}
        units = ", ".join(
            f"{n} {k}" + (f" ({hurt[k]} damaged)" if hurt.get(k) else "")
            for k, n in entry.get("units", {}).items()
        )
        parts.append(f"{entry.get('colour')}: {units}")
    return "; ".join(parts)


def _forces_view(state: PlanetsState) -> dict[str, JSON]:
    """The full rules' forces: capacity in each space area with cargo or carriers (a dock
    shelters three fighters), and a retreat announced in the space combat going on."""
    capacity: list[JSON] = []
    for sid, area in state.space.items():
        for seat in area.seats():
            room = capacity_of(area, seat)
            cargo = sum(area.count(seat, k) for k in CARGO)
            if room or cargo:
                shelter = DOCK_FIGHTERS * forces.docks_in(state, seat, sid)
                capacity.append(
                    {
                        "system": sid,
                        "seat": seat,
                        "capacity": room,
                        "cargo": cargo,
                        "sheltered": min(shelter, area.count(seat, "fighter")),
                    }
                )
    retreat = state.retreat
    return {
        "space_capacity": capacity,
        "retreat": None if retreat is None else {"seat": retreat[0], "system": retreat[1]},
        "combat_step": state.combat_step,
    }


def _forces_lines(view: Mapping[str, Any], colours: Sequence[str]) -> list[str]:
    lines = ["Capacity in space (fighters and ground forces carried / capacity):"]
    for c in _get(view, "space_capacity", []):
        shelter = f", {c['sheltered']} fighters sheltered by docks" if c["sheltered"] else ""
        lines.append(
            f"  {c['system']} {colours[c['seat']]}: {c['cargo'] - c['sheltered']} / "
            f"{c['capacity']}{shelter}"
        )
    retreat = view.get("retreat")
    if retreat:
        lines.append(
            f"Retreat announced: {colours[retreat['seat']]} to {retreat['system']} "
            "(carried out after this round's hits)"
        )
    return lines


def render(observation: Mapping[str, Any]) -> str:
    """Systems, planets (controller, readied or exhausted, values, attachments), units and
    the step of the tactical action in progress, as plain text."""
    view: Mapping[str, Any] = observation
    inner = observation.get("view")
    if isinstance(inner, Mapping) and "systems" in inner:
        view = inner
    planets = {p["name"]: p for p in _get(view, "planets", [])}
    lines = [
        f"Planet control, galaxy {view.get('galaxy')}: round {view.get('round')} of "
        f"{view.get('rounds')}, {view.get('target')} points to win"
    ]
    you = view.get("you")
    lines.append("Players:")
    kind = "tactic" if view.get("rules") == "full" else "command"  # full: the tactic pool
    for p in _get(view, "players", []):
        marks = [
            m
            for m, on in (("you", p["seat"] == you), ("to act", p["seat"] == view.get("to_act")))
            if on
        ]
        lines.append(
            f"  {p['colour']:<7} {p['points']} pt, {p['tactics']} {kind} tokens"
            f"{', passed' if p['passed'] else ''}, {_goods(p['trade_goods'])}, "
            f"spendable {p['ready_resources']} resources / {p['ready_influence']} influence"
            f"{', fragments ' + ' '.join(p['fragments']) if p['fragments'] else ''}"
            f"{'  <- ' + ', '.join(marks) if marks else ''}"
        )
    lines.append("Systems (id kind: command tokens; ships; planets):")
    colours = [p["colour"] for p in _get(view, "players", [])]
    for s in _get(view, "systems", []):
        head = f"  {s['id']} {s['kind']}"
        if s.get("home") is not None:
            head += f" (home of {colours[s['home']]})"
        if s.get("tokens"):
            head += f", tokens: {' '.join(colours[t] for t in s['tokens'])}"
        if s.get("units"):
            head += f", space: {_units_line(s['units'])}"
        lines.append(head)
        for name in s.get("planets", []):
            p = planets[name]
            owner = "uncontrolled" if p["controller"] is None else colours[p["controller"]]
            state = "exhausted" if p["exhausted"] else "readied"
            extras = []
            if p["traits"]:
                extras.append("/".join(p["traits"]))
            if p.get("legendary"):
                extras.append("legendary")
            if p.get("specialty"):
                extras.append(f"{p['specialty']} specialty")
            if p.get("control_token"):
                extras.append("control token")
            for a in p.get("attachments", []):
                extras.append(f"attached {a['name']}")
            line = (
                f"      {name}: {p['resources']}R/{p['influence']}I, {owner}"
                + (f" ({state})" if p["controller"] is not None else "")
                + (f", {', '.join(extras)}" if extras else "")
            )
            if p.get("units"):
                line += f"; units {_units_line(p['units'])}"
            lines.append(line)
    objectives = _get(view, "objectives", [])
    lines.append("Objectives: " + "; ".join(f"{o['name']} ({o['text']})" for o in objectives))
    decks = _get(view, "decks", {})
    lines.append(
        "Exploration decks: " + ", ".join(f"{t} {d['left']} left" for t, d in decks.items())
    )
    if view.get("rules") == "full":
        lines.extend(_round_lines(view, colours))
    if "space_capacity" in view:
        lines.extend(_forces_lines(view, colours))
    fight = view.get("last_combat")
    if fight:
        lines.append(combat_text(fight, colours))
    events = _get(view, "events", [])
    if events:
        lines.append("Lately:")
        lines.extend(f"  {e['text']}" for e in events[-8:])
    if view.get("over"):
        lines.append(f"Game over: {view.get('reason')}")
    else:
        now = f"Now: {view.get('step')}"
        if view.get("active"):
            now += f" (active system {view.get('active')})"
        hits = _get(view, "hits", [])
        if hits:
            h = hits[0]
            count = int(h["count"])
            hit_words = f"{count} hit" if count == 1 else f"{count} hits"
            now += f"; {colours[h['seat']]} assigns {hit_words} at {h['where']}"
        if view.get("to_act") is not None:
            now += f"; {colours[view['to_act']]} to act"
        lines.append(now)
    return "\n".join(lines)


def _goods(n: int) -> str:
    return f"{n} trade good{'s' * (n != 1)}"


def _round_lines(view: Mapping[str, Any], colours: Sequence[str]) -> list[str]:
    """The fuller round in words: speaker, initiative, cards, command sheets, custodians."""
    lines = [f"Speaker: {colours[view['speaker']]}"]
    order = _get(view, "initiative", [])
    if order:
        lines.append("Initiative order: " + ", ".join(colours[s] for s in order))
    lines.append("Strategy cards (number name: holder; primary / secondary):")
    for c in _get(view, "strategy_cards", []):
        holder = "not taken" if c["holder"] is None else f"held by {colours[c['holder']]}"
        if c["holder"] is not None:
            holder += ", used" if c["used"] else ", not used yet"
        n = c["trade_goods"]
        goods = f", {n} trade good{'s' * (n != 1)} on it" if n else ""
        lines.append(
            f"  {c['number']} {c['name']}: {holder}{goods}. "
            f"Primary: {c['primary']} Secondary: {c['secondary']}"
        )
    lines.append("Command sheets (tactic / fleet / strategy; reinforcements):")
    for s in _get(view, "command_sheets", []):
        lines.append(
            f"  {colours[s['seat']]:<7} {s['tactic']} / {s['fleet']} / {s['strategy']}; "
            f"{s['reinforcements']} in reinforcements, {s['on_board']} on the board"
        )
    custodians = view.get("custodians") or {}
    if custodians.get("on"):
        lines.append("Custodians: on the central planet (6 influence removes them, 1 point)")
    elif custodians.get("removed_by") is not None:
        lines.append(f"Custodians: removed by {colours[custodians['removed_by']]}")
    resolving = view.get("strategic")
    if resolving:
        lines.append(
            f"Resolving {resolving['name']} ({colours[resolving['holder']]}'s card)"
            + (f", step {resolving['step']}" if resolving.get("step") else "")
        )
    if view.get("gain"):
        lines.append(f"Tokens gained to place: {view['gain']}")
    if view.get("influence"):
        lines.append(f"Influence gathered: {view['influence']}")
    for excess in _get(view, "fleet_excess", []):
        lines.append(f"Over the fleet supply: {colours[excess['seat']]} at {excess['system']}")
    if view.get("expected"):
        lines.append(f"Wanted: {view['expected']}")
    return lines


COMBAT_NAMES = {
    "space": "space combat",
    "ground": "ground combat",
    "bombardment": "bombardment",
    "space_cannon": "space cannon fire",
    "space_cannon_offense": "space cannon offense",
}
RESULTS = {
    None: "going on",
    "attacker_wins": "{a} wins",
    "defender_wins": "{d} wins",
    "both_destroyed": "both sides destroyed",
    "fired": "fired",
}


def combat_text(fight: Mapping[str, Any], colours: Sequence[str]) -> str:
    """The last combat in one line: where, who, each round's rolls and hits, the result."""
    a, d = colours[fight["attacker"]], colours[fight["defender"]]
    rounds = []
    for i, r in enumerate(fight["rounds"], 1):
        ours, theirs = r["rolls"]
        text = f"round {i}: {a} {ours} ({hits_text(r['hits'][0])})"
        if fight["kind"] in ("space", "ground"):
            text += f", {d} {theirs} ({hits_text(r['hits'][1])})"
        rounds.append(text)
    barrage = fight.get("barrage")
    if barrage:
        (ours, theirs), (h1, h2) = barrage["rolls"], barrage["hits"]
        rounds.insert(
            0,
            f"anti-fighter barrage: {a} {ours} ({hits_text(h1)}), {d} {theirs} ({hits_text(h2)})",
        )
    result = RESULTS.get(fight["result"], str(fight["result"])).format(a=a, d=d)
    return (
        f"Last combat: {COMBAT_NAMES.get(fight['kind'], fight['kind'])} at {fight['where']}, "
        f"{a} against {d}: {'; '.join(rounds)}; {result}"
    )
