"""One error taxonomy for every game and front end."""

from __future__ import annotations

# The reasons a refusal may give (`ParleyError.reason`), shared by every game so a client or
# a bot can act on them; the message names the rule or the missing fact in the game's words.
REASONS: dict[str, str] = {
    "game_over": "the game has ended",
    "not_your_turn": "another seat owes the decision now",
    "wrong_phase": "the action belongs to another phase or step of the turn",
    "out_of_game": "the seat has been eliminated",
    "no_actions_left": "the turn's allowance of actions (or of this action) is used up",
    "not_enough_money": "the seat cannot pay for it",
    "no_room": "there is no room for it",
    "not_held": "the seat does not hold or control that",
    "not_playable_now": "that card cannot be played at this moment",
    "not_reachable": "the target is out of reach (not adjacent, no path, too far)",
    "bad_target": "the rules do not allow that target or choice",
    "forbidden": "a rule forbids it (the message names the rule)",
    "stale": "the action was aimed at an earlier state",
}


class ParleyError(Exception):
    """Base of every error Parley raises on purpose; `code` is a stable machine-readable tag."""

    code = "error"

    def __init__(
        self,
        message: str,
        *,
        text: str | None = None,
        state_id: int | None = None,
        reason: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.text = text
        self.state_id = state_id
        # Why, as a stable tag a program can branch on (`REASONS`); the message says it in words.
        self.reason = reason

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"error": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.text is not None:
            out["input"] = self.text
        if self.state_id is not None:
            out["state_id"] = self.state_id
        return out


class InvalidAction(ParleyError):
    """The input could not be understood as an action of this game."""

    code = "invalid"


class IllegalAction(ParleyError):
    """The action was understood but the rules do not allow it now."""

    code = "illegal"


class AmbiguousAction(ParleyError):
    """The input matches more than one action; `candidates` lists them in notation."""

    code = "ambiguous"

    def __init__(
        self,
        message: str,
        *,
        candidates: tuple[str, ...] = (),
        text: str | None = None,
        state_id: int | None = None,
        reason: str | None = None,
    ):
        super().__init__(message, text=text, state_id=state_id, reason=reason)
        self.candidates = candidates

    def to_json(self) -> dict[str, object]:
        out = super().to_json()
        out["candidates"] = list(self.candidates)
        return out


class OutOfTurn(ParleyError):
    """The seat may not act now (nothing owed and no anytime action open), or the game is over."""

    code = "out_of_turn"


class StaleState(ParleyError):
    """The action was aimed at a state that is no longer current."""

    code = "stale"


class BadOptions(ParleyError):
    """Game options, seat counts or setup parameters that the game does not accept."""

    code = "bad_options"


class UnknownGame(ParleyError):
    """No registered game has that name or alias."""

    code = "unknown_game"


class RecordError(ParleyError):
    """A game record that cannot be read or does not replay."""

    code = "bad_record"


class BadPosition(ParleyError):
    """A position that cannot be read: the message names the field and what is wrong."""

    code = "bad_position"
