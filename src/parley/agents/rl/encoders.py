"""Observations as fixed-size arrays, built only from a seat's redacted observation.

Encoders read the kernel's per-viewer observation (never the state), so an RL agent sees
exactly what a human in that seat would. `JsonEncoder` works for any game: the UTF-8 bytes
of the observation's JSON, zero-padded to a fixed length. Games with an RL module supply
feature encoders that suit learning better.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
from gymnasium import spaces

from parley.kernel import JSON, Rules

Features = np.ndarray[Any, np.dtype[Any]]


class EncoderError(ValueError):
    """An observation that does not fit the encoder's fixed size."""


class ObsEncoder(Protocol):
    @property
    def space(self) -> spaces.Box: ...

    def encode(self, observation: Mapping[str, JSON], seat: int) -> Features:
        """The observation of `seat` (kernel envelope, game view inside) as an array.

        `seat` is -1 for the archive view (`env.state()`); an encoder gives no seat features then.
        """


@runtime_checkable
class SharedEncoder(ObsEncoder, Protocol):
    """An encoder whose features differ between seats only through `seat`.

    For games where every seat's observation holds the same encoded facts (what differs
    between seats' views is not encoded), `encode_seats` encodes many seats from any one
    seat's observation, so a Parallel step builds one view instead of one per seat. It
    must give exactly what `encode` gives for each seat's own observation.
    """

    def encode_seats(
        self, observation: Mapping[str, JSON], seats: Sequence[int]
    ) -> list[Features]: ...


def feature_names(encoder: ObsEncoder) -> list[str]:
    """The encoder's `feature_names()` when it has one, else `feature_0`, `feature_1`, ..."""
    size = int(encoder.space.shape[0])
    named = getattr(encoder, "feature_names", None)
    if callable(named):
        names = [str(n) for n in named()]
        if len(names) != size:
            raise EncoderError(f"the encoder names {len(names)} features but makes {size}")
        return names
    return [f"feature_{i}" for i in range(size)]


class JsonEncoder:
    """The observation's canonical JSON as bytes, padded with zeros to `size`."""

    # Keys of the kernel envelope that never change within a game or say who looks.
    _DROP = ("players", "seats", "viewer", "game")

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._space = spaces.Box(0, 255, (size,), np.uint8)

    @property
    def space(self) -> spaces.Box:
        return self._space

    def feature_names(self) -> list[str]:
        return [f"json_byte_{i}" for i in range(self.size)]

    def text(self, observation: Mapping[str, JSON]) -> bytes:
        kept = {k: v for k, v in observation.items() if k not in self._DROP}
        return json.dumps(kept, sort_keys=True, separators=(",", ":")).encode()

    def encode(self, observation: Mapping[str, JSON], seat: int) -> Features:
        data = self.text(observation)
        if len(data) > self.size:
            raise EncoderError(
                f"the observation takes {len(data)} bytes; build the environment with a "
                f"JsonEncoder of at least that size"
            )
        out = np.zeros(self.size, np.uint8)
        out[: len(data)] = np.frombuffer(data, np.uint8)
        return out


EncoderFactory = Callable[[Rules[Any, Any], int, Mapping[str, Any]], ObsEncoder]
