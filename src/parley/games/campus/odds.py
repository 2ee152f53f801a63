"""The odds of a campus combat, before it is fought (outline I.C and III.A).

Each side rolls one die of 4 + its unit's level faces and adds its bonus (attack landmarks
and PVC bonuses for the attacker, defence ones for the defender); the attacker wins only on a
strictly greater total, so ties go to the defender. The dice are small, so the chance is
exact: every pair of faces is counted. The engine's own combat is checked against this count
by the tests (tests/games/campus/test_odds.py), face pair by face pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from parley.kernel import JSON

from .actions import Move
from .engine import legal_actions
from .state import NOBODY, CampusState, Phase

DIE_BASE = 4  # a unit of level L rolls 1..(DIE_BASE + L)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a combat: its die's faces and the bonus added to the roll."""

    faces: int
    bonus: int


def attacker_wins(attack_total: int, defence_total: int) -> bool:
    """Whether the attacker wins with these totals (ties defend)."""
    return attack_total > defence_total


def win_chance(attacker: Side, defender: Side) -> Fraction:
    """The attacker's exact chance of winning, by counting every pair of faces."""
    wins = sum(
        attacker_wins(a + attacker.bonus, d + defender.bonus)
        for a in range(1, attacker.faces + 1)
        for d in range(1, defender.faces + 1)
    )
    return Fraction(wins, attacker.faces * defender.faces)


def sides(state: CampusState, seat: int, src: int, dst: int) -> tuple[Side, Side]:
    """The attacker (`seat`'s unit on `src`) and the defender (the unit on `dst`)."""
    defender = state.unit[dst]
    return (
        Side(DIE_BASE + state.level[src], state.attack(seat)),
        Side(DIE_BASE + state.level[dst], state.defence(defender)),
    )


def needed(attacker: Side, defender: Side) -> str:
    """The roll in words: "1–5 +1 against 1–6 +2, ties to the defender"."""

    def roll(side: Side) -> str:
        return f"1–{side.faces}" + (f" +{side.bonus}" if side.bonus else "")

    return f"your {roll(attacker)} against {roll(defender)}; a tie goes to the defender"


def attack_odds(state: CampusState) -> list[JSON]:
    """Every attack the player to move may make now, with its chance of winning.

    Public: levels and bonuses are on the board for everyone, so every viewer gets the same.
    """
    if state.phase is not Phase.MOVE:
        return []
    seat, board = state.current, state.board
    out: list[JSON] = []
    for action in legal_actions(state, seat):
        if not isinstance(action, Move):
            continue
        src, dst = board.index[action.src], board.index[action.dst]
        if state.unit[dst] in (NOBODY, seat):
            continue  # a move, a capture or a swap: no dice
        attacker, defender = sides(state, seat, src, dst)
        chance = win_chance(attacker, defender)
        out.append(
            {
                "from": action.src,
                "to": action.dst,
                "defender": state.unit[dst],
                "win": round(float(chance), 4),
                "wins": chance.numerator,
                "of": chance.denominator,
                "percent": round(float(chance) * 100),
                "roll": needed(attacker, defender),
            }
        )
    return out


__all__ = ["DIE_BASE", "Side", "attack_odds", "attacker_wins", "needed", "sides", "win_chance"]
