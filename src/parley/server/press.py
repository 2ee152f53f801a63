"""Press rules the server adds to the kernel's: who may talk, on which channels, how much."""

from __future__ import annotations

from .errors import BadRequest, PressDisabled
from .text import clean_text
from .vocab import PressMode


def check_press(
    mode: PressMode, text: str, to: list[int] | None, channel: str, max_chars: int
) -> tuple[str, list[int] | None, str]:
    """The message as the kernel should record it, or the reason it may not be sent."""
    if mode is PressMode.NONE:
        raise PressDisabled("this game is played without press (gunboat)")
    if mode is PressMode.PUBLIC and to is not None:
        raise PressDisabled("this game allows public press only")
    if channel and to is None:
        raise BadRequest("a named channel needs its recipients ('to')", field="channel")
    clean_text(text, "text", max_chars)
    if not text.strip():
        raise BadRequest("a message needs some text", field="text")
    recipients = None if to is None else sorted(set(to))
    return text, recipients, channel
