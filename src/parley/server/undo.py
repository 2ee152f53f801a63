"""Taking an action back: a seat's last action, while the game allows it (`Rules.undoable`:
nothing drawn by chance, nothing hidden revealed) and nobody has acted since.

The record stays append-only: a takeback entry follows the action taken back, and replay
honours it (`Match.take_back`), so the archive tells what was done and undone.
"""

from __future__ import annotations

from pydantic import BaseModel

from .errors import Conflict, WrongStatus
from .live import Tables, Txn
from .vocab import Controller, GameStatus, UserRecord


class UndoOut(BaseModel):
    game_id: str
    seat: int
    undone: int  # the seq of the action taken back
    seq: int
    state_id: int


class Undo:
    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def undo(self, user: UserRecord, game_id: str) -> UndoOut:
        def fn(txn: Txn) -> UndoOut:
            from .play import seat_member  # play imports the views this module builds on

            member = seat_member(txn.live, user)
            assert member.seat is not None
            if txn.row.status is not GameStatus.ACTIVE:
                raise WrongStatus(f"the game is {txn.row.status.value}")
            if member.controller is not Controller.HUMAN:
                raise Conflict(
                    f"your seat is in {member.controller.value} control; "
                    "say you are back (POST .../back) to play it again"
                )
            entry = txn.take_back(member.seat)
            return UndoOut(
                game_id=game_id,
                seat=member.seat,
                undone=entry.undone,
                seq=txn.match.seq,
                state_id=txn.match.state_id,
            )

        return self.tables.change(game_id, fn, f"user:{user.id}")
