"""The conformance suite itself: it passes sound games and catches broken ones."""

from __future__ import annotations

import pytest
from tests.kernel.toygames import (
    Countdown,
    HalfApplyCountdown,
    LeakyBids,
    SealedBids,
    SloppyCountdown,
)

from parley.kernel.conformance import (
    CHECKS,
    check_errors,
    check_notation_roundtrip,
    check_redaction,
)


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("rules", [Countdown(), SealedBids()], ids=["countdown", "sealed-bids"])
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
