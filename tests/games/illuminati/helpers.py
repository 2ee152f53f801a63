"""Build Illuminati positions from scenario data, act on them and query them by name."""

from __future__ import annotations

import json
import re
from typing import Any

from parley.games.illuminati import RULES, engine
from parley.games.illuminati import geometry as geo
from parley.games.illuminati.state import Held, IlluminatiState, Phase, Player
from parley.kernel import Draw, IllegalAction, Match, ParleyError, Rng, Script


def seat(text: str) -> int:
    m = re.fullmatch(r"P(\d+)", text.strip())
    assert m, f"a seat is written P1, P2...: {text!r}"
    return int(m.group(1)) - 1


def build(sc: dict[str, Any]) -> IlluminatiState:
    """A position from a scenario table (see scenarios.toml for the fields).

    The table's fields are laid out on a state, which is then written as a position and
    started as a match (`Match.from_position`) whose random results are the table's `dice`,
    each pair an attack roll, scripted through the kernel's `Script`.
    """
    seats = len(sc["illuminati"])
    options = RULES.spec.resolve_options(sc.get("options", {}))
    dice = [Draw("attack roll", d) for pair in sc.get("dice", []) for d in pair]
    deck = list(reversed(sc.get("deck", [])))  # written top first
    state = IlluminatiState(
        seats=seats,
        options=options,
        rng=Rng(7),
        players=[Player(s) for s in range(seats)],
        deck=deck,
    )
    for s, name in enumerate(sc["illuminati"]):
        engine.take_illuminati(state, s, name)
    for line in sc.get("structure", []):
        m = re.fullmatch(r"(P\d+): (.+) on (.+) (north|east|south|west)", line)
        assert m, f"structure lines read 'P1: Group on Host direction': {line!r}"
        player = state.players[seat(m.group(1))]
        group, host, direction = m.group(2), m.group(3), m.group(4)
        left = geo.hang(
            player.links, player.illuminati, {group: geo.Link(None, None)}, group, host, direction
        )
        assert not left, f"{group} does not fit on {host} {direction}"
        player.money[group] = 0
    for name, amount in sc.get("money", {}).items():
        holder = engine.owner(state, name)
        assert holder is not None, f"{name} is in no structure"
        state.players[holder].money[name] = amount
    for who, cards in sc.get("hands", {}).items():
        for c in cards:
            name, _, face = c.partition(":")
            state.players[seat(who)].hand.append(Held(name, face == "up"))
    for who, n in sc.get("destroyed", {}).items():
        state.players[seat(who)].destroyed = n
    for who, n in sc.get("turns", {}).items():
        state.players[seat(who)].turns = n
    for who, goal in sc.get("goal", {}).items():
        state.players[seat(who)].goal = goal
    state.center = list(sc.get("center", []))
    state.dead = list(sc.get("dead", []))
    state.active = seat(sc.get("active", "P1"))
    state.first = seat(sc.get("first", sc.get("active", "P1")))
    state.round = sc.get("round", 1)
    if sc.get("start", False):
        engine.begin_turn(state)
    else:
        state.phase = Phase.MAIN
    # A table without dice rolls from the seed; one with dice must list every roll.
    match: Match[IlluminatiState, Any] = Match.from_position(
        RULES, RULES.write_position(state), chance=dice if "dice" in sc else None
    )
    return match.state


def finish_dice(state: IlluminatiState) -> None:
    """Fail if the scenario left scripted dice unrolled."""
    if isinstance(state.rng, Script):
        state.rng.finish()


def act(state: IlluminatiState, who: int, text: str) -> None:
    RULES.apply(state, who, RULES.parse(text, state, who))


def query(state: IlluminatiState, what: str) -> Any:
    words = what.split(" ", 1)
    head, rest = words[0], (words[1] if len(words) > 1 else "")
    a = state.attack
    if head == "need":
        assert a is not None, "no attack under way"
        return engine.need(state, a)
    if head == "odds":
        # the number the active player's observation shows for an attack not yet announced
        from parley.games.illuminati import view
        from parley.kernel import Viewer

        return view.attack_odds(state, Viewer.of(state.active)).get(rest)
    if head == "term":
        assert a is not None, "no attack under way"
        return engine.attack_parts(state, a).get(rest, 0)
    if head == "phase":
        return state.phase.value
    if head == "owner":
        if rest in state.center:
            return "center"
        if rest in state.dead:
            return "dead"
        holder = engine.owner(state, rest)
        return None if holder is None else f"P{holder + 1}"
    if head == "master":
        holder = engine.owner(state, rest)
        assert holder is not None
        return state.players[holder].links[rest].parent
    if head == "money":
        holder = engine.owner(state, rest)
        return 0 if holder is None else state.players[holder].money.get(rest, 0)
    if head == "hand":
        return sorted(h.card for h in state.players[seat(rest)].hand)
    if head == "faceup":
        return sorted(h.card for h in state.players[seat(rest)].hand if h.face_up)
    if head == "winners":
        return [f"P{w + 1}" for w in state.winners]
    if head == "pending":
        return [p.group for p in state.pending]
    if head == "center":
        return sorted(state.center)
    if head == "dead":
        return sorted(state.dead)
    if head == "deck":
        return len(state.deck)
    if head == "active":
        return f"P{state.active + 1}"
    if head == "owed":
        s = engine.owed_seat(state)
        return None if s is None else f"P{s + 1}"
    if head == "actions_used":
        return state.actions_used
    if head == "roll":
        return None if a is None else a.roll
    if head == "privileged":
        assert a is not None
        return a.privileged
    if head == "destroyed":
        return state.players[seat(rest)].destroyed
    if head == "eliminated":
        return state.players[seat(rest)].eliminated
    if head == "notes":
        return list(state.players[seat(rest)].notes)
    if head == "groups":
        return sorted(state.players[seat(rest)].groups())
    if head == "alignments":
        return sorted(x.value for x in engine.alignments(state, rest))
    if head == "legal":
        who, _, text = rest.partition(": ")
        return text in {RULES.format(x) for x in RULES.legal_actions(state, seat(who))}
    if head == "fits":
        # fits P1 Group Host direction
        m = re.fullmatch(r"(P\d+) (.+) on (.+) (north|east|south|west)", rest)
        assert m, f"write 'fits P1 Group on Host direction': {rest!r}"
        player = state.players[seat(m.group(1))]
        return (m.group(3), m.group(4)) in engine.spots(player, m.group(2))
    if head == "rect":
        holder = engine.owner(state, rest)
        assert holder is not None
        r = geo.layout(state.players[holder].links, state.players[holder].illuminati)[rest]
        return [r.x, r.y, r.w, r.h, r.facing]
    if head == "round":
        return state.round
    raise AssertionError(f"unknown query {what!r}")


def run_steps(state: IlluminatiState, steps: list[str]) -> None:
    for i, step in enumerate(steps):
        where = f"step {i + 1} {step!r}"
        if step.startswith("expect "):
            what, _, value = step[len("expect ") :].partition(" = ")
            got = query(state, what)
            want = json.loads(value)
            assert got == want, f"{where}: got {got!r}"
            continue
        m = re.fullmatch(r"(P\d+)(!?): (.+)", step)
        assert m, f"{where}: a step is 'P1: action', 'P1!: refused action' or 'expect q = v'"
        who = seat(m.group(1))
        if m.group(2):
            before = json.dumps(RULES.observe(state, engine_archive()), sort_keys=True)
            try:
                act(state, who, m.group(3))
            except ParleyError:  # illegal now, or not understood at all
                after = json.dumps(RULES.observe(state, engine_archive()), sort_keys=True)
                assert before == after, f"{where}: a refused action changed the state"
                continue
            raise AssertionError(f"{where}: accepted, but should be refused")
        try:
            act(state, who, m.group(3))
        except IllegalAction as err:
            legal = [RULES.format(x) for x in RULES.legal_actions(state, who)][:40]
            raise AssertionError(f"{where}: refused ({err}); legal: {legal}") from err


def engine_archive() -> Any:
    from parley.kernel import ARCHIVE

    return ARCHIVE
