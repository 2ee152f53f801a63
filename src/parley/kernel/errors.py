"""One error taxonomy for every game and front end."""

from __future__ import annotations


class ParleyError(Exception):
    """Base of every error Parley raises on purpose; `code` is a stable machine-readable tag."""

    code = "error"

    def __init__(self, message: str, *, text: str | None = None, state_id: int | None = None):
        super().__init__(message)
        self.message = message
        self.text = text
        self.state_id = state_id

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"error": self.code, "message": self.message}
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
    ):
        super().__init__(message, text=text, state_id=state_id)
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
