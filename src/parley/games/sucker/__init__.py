"""So Long Sucker (Hausner, Nash, Shapley, Shubik): the 1964 rules, with bargains on record."""

from .actions import (
    Accept,
    Action,
    ChipPromise,
    ChooseNext,
    Decline,
    GivePrisoner,
    KillFromPile,
    KillPrisoner,
    PassPromise,
    Play,
    Promise,
    Propose,
    Reject,
    Rescue,
    Withdraw,
)
from .colours import Colour
from .engine import MAX_OPEN_BARGAINS, STALL_LIMIT, move_bound
from .rules import RULES, SuckerRules
from .state import Bargain, CaptureRule, Phase, SuckerState

__all__ = [
    "MAX_OPEN_BARGAINS",
    "RULES",
    "STALL_LIMIT",
    "Accept",
    "Action",
    "Bargain",
    "CaptureRule",
    "ChipPromise",
    "ChooseNext",
    "Colour",
    "Decline",
    "GivePrisoner",
    "KillFromPile",
    "KillPrisoner",
    "PassPromise",
    "Phase",
    "Play",
    "Promise",
    "Propose",
    "Reject",
    "Rescue",
    "SuckerRules",
    "SuckerState",
    "Withdraw",
    "move_bound",
]
