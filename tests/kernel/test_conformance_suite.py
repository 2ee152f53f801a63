"""The conformance suite itself: it passes sound games and catches broken ones."""

from __future__ import annotations

import pytest
from tests.kernel.toygames import (
    Countdown,
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
)


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
