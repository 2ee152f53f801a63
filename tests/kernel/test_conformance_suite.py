"""The conformance suite itself: it passes sound games and catches broken ones."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from tests.kernel.toygames import (
    Countdown,
    CountdownState,
    Cups,
    HalfApplyCountdown,
    LeakyBids,
    PeekingCups,
    SealedBids,
    SloppyCountdown,
    TellingCups,
)

from parley.kernel.conformance import (
    CHECKS,
    check_errors,
    check_hidden_information,
    check_notation_roundtrip,
    check_redaction,
    check_snapshot_roundtrip,
)
from parley.kernel.game import Setup


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize(
    "rules", [Countdown(), SealedBids(), Cups()], ids=["countdown", "sealed-bids", "cups"]
)
def test_sound_toy_games_pass(rules: object, check: str) -> None:
    CHECKS[check](rules)  # type: ignore[arg-type]


def test_a_leak_is_caught() -> None:
    with pytest.raises(AssertionError, match=r"sees seat .* secret"):
        check_redaction(LeakyBids())


def test_a_notation_mismatch_is_caught() -> None:
    with pytest.raises(AssertionError, match="parses to"):
        check_notation_roundtrip(SloppyCountdown())


def test_a_half_applied_illegal_action_is_caught() -> None:
    with pytest.raises(AssertionError, match="changed the state"):
        check_errors(HalfApplyCountdown())


def test_a_hidden_position_told_by_the_options_is_caught() -> None:
    with pytest.raises(AssertionError, match="options tree tells"):
        check_hidden_information(PeekingCups())


def test_a_hidden_position_told_by_an_error_is_caught() -> None:
    with pytest.raises(AssertionError, match="refused differently"):
        check_hidden_information(TellingCups())


def test_the_hidden_check_looks_at_something() -> None:
    assert check_hidden_information(Cups()) > 0


class LockedCountdown(Countdown):
    """Keeps a lock in its state, as a game keeping a compiled native object would."""

    def setup(self, setup: Setup) -> CountdownState:
        state = super().setup(setup)
        state.lock = threading.Lock()  # type: ignore[attr-defined]
        return state


class ForgetfulState(CountdownState):
    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles without whose move it is: the restored game goes on from another seat.
        return (ForgetfulState, (self.seats, self.left, 0, self.winner))


class ForgetfulCountdown(Countdown):
    def setup(self, setup: Setup) -> CountdownState:
        s = super().setup(setup)
        return ForgetfulState(s.seats, s.left, s.mover, s.winner)


def test_a_state_that_cannot_be_snapshotted_is_caught() -> None:
    with pytest.raises(AssertionError, match=r"seed 0 ply 0: the match cannot be snapshotted"):
        check_snapshot_roundtrip(LockedCountdown())


def test_a_state_that_restores_otherwise_is_caught() -> None:
    with pytest.raises(AssertionError, match="restored match"):
        check_snapshot_roundtrip(ForgetfulCountdown())
