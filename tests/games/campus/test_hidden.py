"""The hidden PVC and the secret picks: nobody learns them before they are revealed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.campus.helpers import position

from parley.games.campus import RULES, CampusRules, CampusState
from parley.kernel import ARCHIVE, JSON, SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import check_hidden_information


def start() -> CampusState:
    return position(
        seats=3, units={"E5": ["Ash", 1], "A4": ["Beech", 1], "C1": ["Cedar", 1]}, pvc="E6"
    )


def test_no_viewer_but_the_archive_sees_the_hidden_pvc() -> None:
    state = start()
    for viewer in (Viewer.of(0), Viewer.of(1), Viewer.of(2), SPECTATOR):
        pvc = RULES.observe(state, viewer)["pvc"]
        assert pvc == {"status": "hidden", "sector": None, "cycles": 0, "reveal_after": 5}
    assert RULES.observe(state, ARCHIVE)["pvc"]["sector"] == "E6"


def test_a_revealed_pvc_is_seen_by_everyone() -> None:
    state = start()
    state.pvc_revealed = True
    for viewer in (Viewer.of(0), SPECTATOR):
        assert RULES.observe(state, viewer)["pvc"]["sector"] == "E6"
    assert "on Engineering Yard (E6)" in RULES.render(RULES.observe(state, SPECTATOR))
    assert RULES.hidden_variant(state, SPECTATOR, Rng(1)) is None


def test_the_variant_moves_the_pvc_where_it_could_be() -> None:
    state = start()
    seen = set()
    for k in range(40):
        variant = RULES.hidden_variant(state, Viewer.of(0), Rng(k))
        assert variant is not None
        assert variant.pvc != state.pvc
        assert not variant.board.is_landmark[variant.pvc] and variant.unit[variant.pvc] < 0
        seen.add(variant.pvc)
    assert len(seen) > 5
    assert state.board.codes[state.pvc] == "E6"  # the original is untouched


def _history_text(match: Match[Any, Any], viewer: Viewer) -> str:
    return json.dumps(match.history(viewer))


def test_picks_stay_secret_until_revealed_together() -> None:
    match = Match(RULES, 3, seed=11)
    match.state = start()
    match.act(0, "move E5 to E6")
    match.act(1, "pick 37")
    assert "pick 37" in _history_text(match, Viewer.of(1))
    for viewer in (Viewer.of(0), Viewer.of(2), SPECTATOR):
        assert "pick 37" not in _history_text(match, viewer)
        assert "37" not in json.dumps(match.observe(viewer)["view"]["minigame"])
        assert "my_pick" not in match.observe(viewer)["view"]
    assert "secret pick in minigame 1: 37" in match.observe(Viewer.of(1))["view"]["my_pick"]
    assert match.observe(SPECTATOR)["view"]["minigame"]["picked"] == [1]
    match.act(0, "pick 80")
    match.act(2, "pick 5")
    for viewer in (Viewer.of(0), Viewer.of(2), SPECTATOR):
        assert "pick 37" in _history_text(match, viewer)
    last = match.observe(SPECTATOR)["view"]["last_minigame"]
    assert last["picks"] == {"0": 80, "1": 37, "2": 5}


class LeakyRules(CampusRules):
    """Shows the PVC to everyone: the conformance check must notice."""

    def observe(self, state: CampusState, viewer: Viewer) -> dict[str, JSON]:
        out = super().observe(state, viewer)
        out["hint"] = state.pvc
        return out


class NervousRules(CampusRules):
    """Never offers a step into the PVC's sector: the offered actions tell where it is."""

    def legal_actions(self, state: CampusState, seat: int) -> list[Any]:
        where = state.board.codes[state.pvc] if state.pvc >= 0 else None
        return [a for a in super().legal_actions(state, seat) if getattr(a, "dst", "") != where]


@pytest.mark.parametrize("leaky", [LeakyRules(), NervousRules()])
def test_conformance_catches_a_leak(leaky: CampusRules) -> None:
    with pytest.raises(AssertionError):
        check_hidden_information(leaky, seeds=range(2))


def test_render_for_a_player_describes_the_board() -> None:
    state = start()
    text = RULES.render(RULES.observe(state, Viewer.of(0)))
    assert "Ash (you)" in text
    assert "Maths Institute (E5): Ash, Ash unit level 1 -> next to:" in text
    assert "Engineering Yard (E6): unowned" in text
    assert "Pro-Vice-Chancellor: hidden" in text
    assert text == RULES.render(
        RULES.observe(RULES.hidden_variant(state, Viewer.of(0), Rng(2)), Viewer.of(0))
    )
