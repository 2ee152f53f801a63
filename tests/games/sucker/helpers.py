"""Small helpers for So Long Sucker scenarios: act by colour, read the table by colour."""

from __future__ import annotations

from parley.games.sucker import RULES, SuckerState
from parley.games.sucker.colours import label
from parley.games.sucker.notation import parse_player


def seat(who: str | int) -> int:
    return who if isinstance(who, int) else parse_player(who)


def act(state: SuckerState, who: str | int, text: str) -> None:
    """`who` does `text`, through the parser and the checked rules."""
    actor = seat(who)
    RULES.apply(state, actor, RULES.parse(text, state, actor))


def to_act(state: SuckerState) -> str | None:
    """The colour owing the decision now."""
    actor = state.actor()
    return None if actor is None else label(actor)


def owed(state: SuckerState) -> tuple[str, str] | None:
    """(colour, kind) of the one owed decision."""
    turn = RULES.turn(state)
    if not turn.owed:
        return None
    assert len(turn.owed) == 1
    return label(turn.owed[0].seat), turn.owed[0].kind


def hand(state: SuckerState, who: str | int) -> dict[str, int]:
    return {label(c): n for c, n in enumerate(state.hands[seat(who)]) if n}


def pile(state: SuckerState, number: int) -> list[str]:
    return [label(c) for c in state.piles[number]]


def dead(state: SuckerState) -> dict[str, int]:
    return {label(c): n for c, n in enumerate(state.dead) if n}


def conserved(state: SuckerState) -> bool:
    """Every chip is in a hand, a pile, a pending capture or the dead box."""
    for colour in range(state.seats):
        total = sum(h[colour] for h in state.hands) + state.dead[colour]
        total += sum(p.count(colour) for p in state.piles.values())
        total += state.captured.count(colour)
        if total != state.chips:
            return False
    return True
