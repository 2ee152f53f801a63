"""Invariants of random play from random seeds: no crash, one unit per province, every
order answered, centres conserved, and no more units than centres after adjustments."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.diplomacy.helpers import Step, random_game

from parley.games.diplomacy.map import standard_map
from parley.games.diplomacy.phase import PhaseKind
from parley.games.diplomacy.phases import GameOptions
from parley.games.diplomacy.position import Position
from parley.games.diplomacy.results import Outcome, Reason


def check_position(pos: Position) -> None:
    dip = pos.map
    for prov, piece in pos.units.items():
        assert dip.loc_province[piece.loc] == prov, "a unit is filed under the wrong province"
        stand = dip.fleet_can_stand if piece.fleet else dip.army_can_stand
        assert stand[piece.loc], f"{dip.locations[piece.loc].code}: unit cannot stand there"
    for prov, away in pos.dislodged.items():
        assert dip.loc_province[away.piece.loc] == prov
    assert set(pos.owner) <= {p.index for p in dip.provinces if p.centre}
    owned = len(pos.owner)
    neutral = sum(1 for p in dip.provinces if p.centre and p.index not in pos.owner)
    assert owned + neutral == dip.centre_count


def check_step(step: Step) -> None:
    before, report = step.position, step.report
    after = report.position
    check_position(after)
    # Every order given is answered, in the order given, by its power.
    given = [(power, order) for power, orders in step.orders.items() for order in orders]
    answered = [(r.power, r.order) for r in report.results if not r.defaulted]
    assert answered == given
    kind = before.phase.kind
    disbanded = sum(
        1 for _, results in report.auto for r in results if r.reason is Reason.DISBANDED
    )
    if kind is PhaseKind.MOVEMENT:
        ordered_units = {
            r.order.loc.split("/")[0]  # type: ignore[union-attr]
            for r in report.results
            if r.outcome is not Outcome.ILLEGAL or r.reason is Reason.DUPLICATE
        }
        on_board = {before.map.provinces[p].code for p in before.units}
        assert on_board <= ordered_units, "a unit got no result"
        assert len(before.units) == len(after.units) + len(after.dislodged) + disbanded
    elif kind is PhaseKind.RETREAT:
        retreated = sum(1 for r in report.results if r.reason is Reason.RETREATED)
        assert len(after.units) == len(before.units) + retreated
        assert not after.dislodged
        dip = before.map
        for r in report.results:
            if r.reason is Reason.RETREATED:
                landing = dip.loc_province[dip.loc_index[r.order.dst]]  # type: ignore[union-attr]
                assert landing not in before.units, "a retreat landed on a unit"
                assert not before.contested >> landing & 1, "a retreat into a standoff"
    else:
        built = sum(1 for r in report.results if r.reason is Reason.BUILT)
        gone = sum(1 for r in report.results if r.reason is Reason.DISBANDED)
        assert len(after.units) == len(before.units) + built - gone
        centres = after.centre_counts()
        for p, count in enumerate(after.unit_counts()):
            assert count <= centres[p], f"{after.map.powers[p]} has more units than centres"


@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32 - 1),
    phases=st.integers(1, 45),
    noise=st.sampled_from([0.0, 0.3]),
)
def test_random_play_on_the_standard_map_keeps_the_invariants(
    seed: int, phases: int, noise: float
) -> None:
    for step in random_game(seed, phases, noise=noise):
        check_step(step)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), phases=st.integers(1, 80))
def test_random_play_on_the_tiny_map_keeps_the_invariants(seed: int, phases: int) -> None:
    for step in random_game(seed, phases, standard_map("tiny"), noise=0.2):
        check_step(step)


def test_a_long_random_game_reaches_its_year_limit() -> None:
    steps = list(random_game(7, 500, options=GameOptions(year_limit=1920)))
    for step in steps:
        check_step(step)
    ending = steps[-1].report.ending
    assert ending is not None
    assert steps[-1].report.position.phase.year <= 1921
