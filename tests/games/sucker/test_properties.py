"""Invariants under any sequence of legal actions (Hypothesis chooses them)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.sucker.helpers import conserved

from parley.games.sucker import RULES, STALL_LIMIT, Phase, SuckerState, move_bound
from parley.kernel import ARCHIVE, Match, Rng


def check_invariants(state: SuckerState) -> None:
    assert conserved(state), "a chip went missing or appeared"
    for seat in range(state.seats):
        if not state.alive[seat]:
            assert state.held(seat) == 0, "a defeated player holds chips"
    assert state.moves <= move_bound(state.seats, state.chips)
    turn = RULES.turn(state)
    if state.phase is Phase.OVER:
        assert turn.owed == () and turn.anytime == frozenset()
        living = state.survivors()
        assert state.drawn or living == [state.winner]
        assert RULES.outcome(state) is not None
        return
    assert RULES.outcome(state) is None
    assert len(turn.owed) == 1, "exactly one decision is owed while the game goes on"
    actor = turn.owed[0].seat
    assert state.alive[actor] and actor == state.actor()
    assert turn.anytime == frozenset(state.survivors())
    assert len(state.survivors()) >= 2
    assert state.stall < STALL_LIMIT
    if state.phase is Phase.MOVE:
        assert state.held(state.holder) > 0, "the player with the move holds a chip"
    elif state.phase is Phase.RESCUE:
        assert state.held(state.holder) == 0 and state.alive[state.holder]
        assert state.asked != state.holder and state.prisoners(state.asked) > 0
    elif state.phase is Phase.NEXT:
        assert len(state.choices) >= 2
        assert all(state.alive[s] for s in state.choices)
    elif state.phase is Phase.KILL:
        assert len(state.captured) >= 2 and state.captured[-1] == state.captured[-2]
        assert state.capturer == state.captured[-1]
    assert RULES.legal_actions(state, actor), "an owed decision has an answer"


OPTIONS = st.fixed_dictionaries(
    {
        "chips": st.sampled_from([3, 5, 7]),
        "defeated_capture": st.sampled_from(["dead-box", "leave"]),
        "private_channels": st.booleans(),
    }
)


@settings(max_examples=50)
@given(seats=st.integers(3, 6), options=OPTIONS, seed=st.integers(0, 2**32), data=st.data())
def test_invariants_hold_along_any_legal_play(
    seats: int, options: dict[str, object], seed: int, data: st.DataObject
) -> None:
    match = Match(RULES, seats, options, seed=seed)
    rng = Rng(seed)
    for _ in range(600):
        check_invariants(match.state)
        if match.is_over:
            break
        turn = match.turn()
        # Hypothesis picks who acts (mostly the owing seat) and which legal action.
        owing = min(turn.owing)
        actor = data.draw(st.sampled_from([owing, owing, owing, *sorted(turn.anytime)]))
        legal = list(match.legal_actions(actor))
        if not legal or data.draw(st.integers(0, 30)) == 0:
            action = RULES.random_action(match.state, actor, rng)  # may be a proposal
        else:
            action = data.draw(st.sampled_from(legal))
        match.act(actor, action)


@settings(max_examples=40)
@given(seats=st.integers(3, 6), options=OPTIONS, seed=st.integers(0, 2**32))
def test_clone_is_independent(seats: int, options: dict[str, object], seed: int) -> None:
    match = Match(RULES, seats, options, seed=seed)
    rng = Rng(seed)
    for _ in range(40):
        if match.is_over:
            break
        twin = RULES.clone(match.state)
        snapshot = RULES.observe(twin, ARCHIVE)
        seat = min(match.turn().owing)
        match.act(seat, RULES.random_action(match.state, seat, rng))
        assert RULES.observe(twin, ARCHIVE) == snapshot
        assert twin == RULES.clone(twin)
