"""Every refusal names the rule or the missing fact, with its reason tag."""

from __future__ import annotations

import pytest
from tests.games.illuminati.helpers import act, build

from parley.games.illuminati.state import IlluminatiState
from parley.kernel import IllegalAction

FULL = [  # every arrow of the Bavarian Illuminati taken
    "P1: Big Media on Bavarian Illuminati north",
    "P1: The Mafia on Bavarian Illuminati east",
    "P1: C.I.A. on Bavarian Illuminati south",
    "P1: Pentagon on Bavarian Illuminati west",
]


def table(**extra: object) -> IlluminatiState:
    return build(
        {
            "illuminati": ["Bavarian Illuminati", "Gnomes of Zurich"],
            "structure": FULL,
            "center": ["Democrats", "Society for Creative Anarchism"],
            "money": {"Bavarian Illuminati": 6},
            "hands": {"P1": ["Deep Agent", "Slush Fund:up"]},
            **extra,
        }
    )


@pytest.mark.parametrize(
    ("text", "reason", "words"),
    [
        (
            "attack Democrats with Bavarian Illuminati to control",
            "no_room",
            "Democrats would fit on no free outward arrow of Bavarian Illuminati",
        ),
        ("play Deep Agent", "not_playable_now", "Deep Agent is played against a privileged"),
        ("play Murphy's Law", "not_held", "Player 1 holds no Murphy's Law"),
        ("pay 7 to Player 2", "not_enough_money", "Bavarian Illuminati holds 6 MB, not 7"),
        ("give 1 from Big Media to Pentagon", "not_enough_money", "Big Media holds 0 MB"),
        ("attack Democrats with Democrats to control", "not_held", "controls no Democrats"),
        ("move Big Media to Big Media north", "bad_target", "cannot hang on itself"),
        ("roll", "wrong_phase", "not now: the active player is taking actions"),
    ],
)
def test_each_refusal_says_why(text: str, reason: str, words: str) -> None:
    state = table()
    with pytest.raises(IllegalAction) as err:
        act(state, 0, text)
    assert err.value.reason == reason, err.value.message
    assert words in err.value.message


def test_the_old_one_sentence_is_gone() -> None:
    state = table()
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "play Deep Agent")
    assert "is not allowed for Player 1 now" not in err.value.message
