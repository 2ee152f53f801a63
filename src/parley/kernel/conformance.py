"""The checks every registered game must pass.

Each check takes the game's rules and raises AssertionError with a message naming the seed
and step on failure. `CHECKS` lists them; the test suite runs each for every registered
game, so a new game is checked by registering it.
"""

from __future__ import annotations

import json
import pickle
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import REASONS, IllegalAction, InvalidAction, OutOfTurn, ParleyError, StaleState
from .game import ARCHIVE, SPECTATOR, Outcome, Rules, Viewer
from .log import Match, replay
from .rng import Rng


@dataclass(frozen=True, slots=True)
class PlayoutStats:
    """What a batch of random playouts did."""

    games: int
    finished: int
    plies: int
    longest: int


def seat_counts(rules: Rules[Any, Any]) -> list[int]:
    spec = rules.spec
    return sorted({spec.min_seats, spec.default_seats or spec.min_seats, spec.max_seats})


def random_step(match: Match[Any, Any], rng: Rng) -> bool:
    """Take one random legal action; False when nobody can act."""
    turn = match.turn()
    owing = sorted(turn.owing)
    anytime = sorted(turn.anytime - turn.owing)
    if not owing and not anytime:
        return False
    # Mostly serve what is owed; now and then let an anytime seat act, as people do.
    if owing and (not anytime or rng.below(4) != 0):
        seat = rng.choice(owing)
    else:
        seat = rng.choice(anytime)
    action = match.rules.random_action(match.state, seat, rng)
    match.act(seat, action)
    return True


def play_random(match: Match[Any, Any], rng: Rng, max_plies: int) -> int:
    """Random legal play until the end or `max_plies` actions; returns actions taken."""
    taken = 0
    while taken < max_plies and not match.is_over and random_step(match, rng):
        taken += 1
    return taken


def option_sets(rules: Rules[Any, Any]) -> list[Mapping[str, Any]]:
    """The defaults, then each option set the game asks the suite to play."""
    return [{}, *rules.spec.test_options]


def playouts(
    rules: Rules[Any, Any], seeds: range, max_plies: int | None = None
) -> Iterator[Match[Any, Any]]:
    """Random games over every interesting seat count and option set, one per seed."""
    cap = max_plies or rules.spec.max_plies
    counts = seat_counts(rules)
    sets = option_sets(rules)
    for seed in seeds:
        options = sets[seed % len(sets)]
        match = Match(rules, counts[seed % len(counts)], options, seed=seed)
        play_random(match, Rng(seed * 7919 + 1), cap)
        yield match


def check_outcome(outcome: Outcome, seats: int) -> None:
    assert len(outcome.ranks) == seats, f"ranks {outcome.ranks} for {seats} seats"
    assert len(outcome.scores) == seats, f"scores {outcome.scores} for {seats} seats"
    assert outcome.winners <= set(range(seats)), f"winners {outcome.winners} out of range"
    assert all(r >= 1 for r in outcome.ranks), f"ranks start at 1: {outcome.ranks}"
    assert not outcome.winners or all(outcome.ranks[w] == 1 for w in outcome.winners)
    assert outcome.reason, "an outcome says why the game ended"


def check_random_playouts(rules: Rules[Any, Any], seeds: range = range(12)) -> PlayoutStats:
    """Random games never raise, and reach a legal end or the step cap."""
    finished = plies = longest = 0
    games = 0
    for match in playouts(rules, seeds):
        games += 1
        plies += match.ply
        longest = max(longest, match.ply)
        outcome = match.outcome()
        if outcome is not None:
            finished += 1
            check_outcome(outcome, match.seats)
            assert not match.turn().owed, "an ended game owes no decisions"
        else:
            assert match.ply == rules.spec.max_plies, (
                f"{rules.spec.name} seed {match.seed}: stuck after {match.ply} actions "
                f"with nobody able to act"
            )
    return PlayoutStats(games, finished, plies, longest)


def check_determinism(rules: Rules[Any, Any], seeds: range = range(4)) -> None:
    """The same seed and actions give the same game, observation for observation."""
    for seed in seeds:
        cap = min(rules.spec.max_plies, 400)
        first = Match(rules, seat_counts(rules)[-1], seed=seed)
        second = Match(rules, seat_counts(rules)[-1], seed=seed)
        play_random(first, Rng(seed), cap)
        play_random(second, Rng(seed), cap)
        assert first.to_json() == second.to_json(), f"{rules.spec.name} seed {seed}: records differ"
        assert first.observe(ARCHIVE) == second.observe(ARCHIVE), (
            f"{rules.spec.name} seed {seed}: same actions, different states"
        )


def check_record_roundtrip(rules: Rules[Any, Any], seeds: range = range(4)) -> None:
    """A record survives JSON and replays to the same state; forks replay their prefix."""
    for match in playouts(rules, seeds, max_plies=min(rules.spec.max_plies, 300)):
        if match.seq:
            match.say(None, "hello from the table")
        text = match.dumps()
        again = replay(rules, json.loads(text))
        assert again.to_json() == match.to_json(), f"seed {match.seed}: record changed on replay"
        assert again.observe(ARCHIVE) == match.observe(ARCHIVE), f"seed {match.seed}: state differs"
        half = match.seq // 2
        fork = match.fork(half)
        assert fork.seq == half or fork.seq == half + 1  # a trailing vote adds its decision
        assert fork.to_json()["entries"] == match.to_json()["entries"][: fork.seq]


def check_notation_roundtrip(rules: Rules[Any, Any], seeds: range = range(4)) -> int:
    """parse(format(a)) == a for every legal action met in random games."""
    checked = 0
    for seed in seeds:
        match = Match(rules, seat_counts(rules)[seed % len(seat_counts(rules))], seed=seed)
        rng = Rng(seed + 101)
        for _ in range(min(rules.spec.max_plies, 150)):
            if match.is_over:
                break
            turn = match.turn()
            for seat in sorted(turn.owing | turn.anytime):
                for action in rules.legal_actions(match.state, seat):
                    checked += _roundtrip(rules, match, seat, action)
                checked += _roundtrip(
                    rules, match, seat, rules.random_action(match.state, seat, rng)
                )
            if not random_step(match, rng):
                break
    return checked


def _roundtrip(rules: Rules[Any, Any], match: Match[Any, Any], seat: int, action: Any) -> int:
    text = rules.format(action)
    back = rules.parse(text, match.state, seat)
    assert back == action, f"{text!r} parses to {back!r}, not {action!r}"
    assert rules.format(back) == text, f"{text!r} formats back as {rules.format(back)!r}"
    assert rules.action_from_json(rules.action_to_json(action), match.state, seat) == action
    return 1


def check_redaction(rules: Rules[Any, Any], seeds: range = range(6)) -> int:
    """No viewer's observation or history shows another seat's secrets."""
    checked = 0
    sets = option_sets(rules)
    for seed in seeds:
        match = Match(rules, seat_counts(rules)[-1], sets[seed % len(sets)], seed=seed)
        rng = Rng(seed + 202)
        for _ in range(min(rules.spec.max_plies, 200)):
            checked += _check_views(rules, match)
            if match.is_over or not random_step(match, rng):
                break
    return checked


def _text_of(value: Any) -> str:
    """Every string in a JSON value, one per line (secrets are searched in these, unescaped)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(f"{k}\n{_text_of(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "\n".join(_text_of(v) for v in value)
    return str(value)


def _check_views(rules: Rules[Any, Any], match: Match[Any, Any]) -> int:
    viewers = [Viewer.of(s) for s in range(match.seats)] + [SPECTATOR]
    views = {v: _text_of([match.observe(v), match.history(v)]) for v in viewers}
    checked = 0
    for owner in range(match.seats):
        for secret in rules.secrets(match.state, owner):
            assert secret in views[Viewer.of(owner)], (
                f"{rules.spec.name}: seat {owner}'s secret {secret!r} is not in its own view"
            )
            for viewer, text in views.items():
                if viewer.seat == owner:
                    continue
                assert secret not in text, (
                    f"{rules.spec.name} seed {match.seed} ply {match.ply}: "
                    f"viewer {viewer.to_json()} sees seat {owner}'s secret {secret!r}"
                )
                checked += 1
    for group, texts in rules.shared_secrets(match.state).items():
        for secret in texts:
            for viewer, text in views.items():
                inside = viewer.seat is not None and viewer.seat in group
                assert (secret in text) == inside, (
                    f"{rules.spec.name} seed {match.seed} ply {match.ply}: viewer "
                    f"{viewer.to_json()} {'misses' if inside else 'sees'} the secret {secret!r} "
                    f"of seats {sorted(group)}"
                )
                checked += 1
    return checked


def check_hidden_information(rules: Rules[Any, Any], seeds: range = range(4)) -> int:
    """No viewer can tell the state from one whose hidden parts were drawn anew.

    Games that hide a position (a hidden piece, unseen cards) give `hidden_variant`; the
    viewer's observation, who owes what, its options and legal actions, and the errors its
    refused actions get must not depend on what it cannot see.
    """
    checked = 0
    sets = option_sets(rules)
    for seed in seeds:
        match = Match(rules, seat_counts(rules)[-1], sets[seed % len(sets)], seed=seed)
        rng = Rng(seed + 404)
        pool: dict[str, tuple[int, Any]] = {}
        for _ in range(min(rules.spec.max_plies, 120)):
            checked += _check_variants(rules, match, rng, pool)
            if match.is_over or not random_step(match, rng):
                break
    return checked


def _refusal(rules: Rules[Any, Any], state: Any, seat: int, action: Any) -> str | None:
    """The error an action gets on a copy of `state`, or None when it is accepted."""
    try:
        rules.apply(rules.clone(state), seat, action)
    except ParleyError as err:
        return f"{type(err).__name__} ({err.reason}): {err.message}"
    return None


def _check_variants(
    rules: Rules[Any, Any], match: Match[Any, Any], rng: Rng, pool: dict[str, tuple[int, Any]]
) -> int:
    state = match.state
    turn = rules.turn(state)
    for actor in sorted(turn.owing | turn.anytime):
        for action in rules.legal_actions(state, actor):
            pool.setdefault(rules.format(action), (actor, action))
    before = json.dumps(rules.observe(state, ARCHIVE), sort_keys=True)
    checked = 0
    for viewer in [Viewer.of(s) for s in range(match.seats)] + [SPECTATOR]:
        variant = rules.hidden_variant(state, viewer, rng)
        assert json.dumps(rules.observe(state, ARCHIVE), sort_keys=True) == before, (
            f"{rules.spec.name}: hidden_variant changed the state it was given"
        )
        if variant is None:
            continue
        where = f"{rules.spec.name} seed {match.seed} ply {match.ply} viewer {viewer.to_json()}"
        assert rules.observe(variant, viewer) == rules.observe(state, viewer), (
            f"{where}: the observation tells what it may not see"
        )
        assert rules.turn(variant) == turn, f"{where}: who owes what tells a hidden fact"
        checked += 1
        seat = viewer.seat
        if seat is None or not turn.can_act(seat):
            continue
        assert rules.options_tree(variant, seat) == rules.options_tree(state, seat), (
            f"{where}: the options tree tells a hidden fact"
        )
        ours = [rules.format(a) for a in rules.legal_actions(state, seat)]
        theirs = [rules.format(a) for a in rules.legal_actions(variant, seat)]
        assert ours == theirs, f"{where}: the legal actions tell a hidden fact"
        legal = set(ours)
        refused = [a for text, (_, a) in pool.items() if text not in legal]
        for _ in range(min(4, len(refused))):
            action = refused[rng.below(len(refused))]
            first, second = (
                _refusal(rules, state, seat, action),
                _refusal(rules, variant, seat, action),
            )
            assert first == second, (
                f"{where}: {rules.format(action)!r} is refused differently: "
                f"{first!r} against {second!r}"
            )
            checked += 1
    return checked


def check_errors(rules: Rules[Any, Any], seeds: range = range(4)) -> int:
    """Bad input raises the right error and leaves the game exactly as it was.

    Actions that were legal earlier (or for another seat) but are not among the actor's
    legal actions now must be refused as illegal.
    """
    checked = 0
    for seed in seeds:
        match = Match(rules, seat_counts(rules)[0], seed=seed)
        rng = Rng(seed + 303)
        pool: dict[str, Any] = {}
        for _ in range(min(rules.spec.max_plies, 60)):
            if match.is_over:
                break
            checked += _check_rejections(rules, match, rng, pool)
            if not random_step(match, rng):
                break
    return checked


def _check_rejections(
    rules: Rules[Any, Any], match: Match[Any, Any], rng: Rng, pool: dict[str, Any]
) -> int:
    before = json.dumps(match.observe(ARCHIVE))
    seq = match.seq

    def refuse(kind: type[ParleyError], *args: Any, **kwargs: Any) -> int:
        _expect(kind, match.act, *args, **kwargs)
        assert json.dumps(match.observe(ARCHIVE)) == before, (
            f"a refused {kind.__name__} {args!r} changed the state"
        )
        assert match.seq == seq, "a refused action was recorded"
        return 1

    turn = match.turn()
    checked = 0
    idle = [s for s in range(match.seats) if not turn.can_act(s)]
    if idle and turn.owing:
        checked += refuse(OutOfTurn, idle[0], rules.default_action(match.state, min(turn.owing)))
    actor = min(turn.owing | turn.anytime)
    checked += refuse(InvalidAction, actor, "\u2603 this is no action \u2603")
    stale_action = rules.random_action(match.state, actor, rng)
    checked += refuse(StaleState, actor, stale_action, state_id=match.state_id + 1)
    checked += refuse(InvalidAction, match.seats + 3, "x")
    legal = {rules.format(a) for a in rules.legal_actions(match.state, actor)}
    for seat in turn.owing | turn.anytime:
        for action in rules.legal_actions(match.state, seat):
            pool.setdefault(rules.format(action), action)
    stale_ones = [a for text, a in pool.items() if text not in legal]
    for i in range(min(3, len(stale_ones))):
        action = stale_ones[rng.below(len(stale_ones))] if i else stale_ones[-1]
        checked += refuse(IllegalAction, actor, action)
    return checked


def _expect(kind: type[ParleyError], act: Callable[..., object], *args: Any, **kwargs: Any) -> None:
    try:
        act(*args, **kwargs)
    except kind as err:
        assert err.message, f"{kind.__name__} without a message"
        return
    except ParleyError as err:
        raise AssertionError(f"expected {kind.__name__}, got {type(err).__name__}: {err}") from err
    raise AssertionError(f"expected {kind.__name__}, but {args!r} was accepted")


def snapshot_copy(match: Match[Any, Any]) -> Match[Any, Any]:
    """The match as the server's snapshot gives it back: pickled, unpickled, same rules.

    The server (`parley.server.record`) stores a running game as this pickle and resumes
    from it after a restart, so whatever a game's state holds must survive it.
    """
    try:
        data = pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as err:
        raise AssertionError(
            f"{match.rules.spec.name} seed {match.seed} ply {match.ply}: the match cannot be "
            f"snapshotted: {type(err).__name__}: {err}"
        ) from err
    again = pickle.loads(data)
    assert isinstance(again, Match), f"a snapshot gave back {type(again).__name__}"
    again.rules = match.rules  # as the server does: the registered instance is shared
    return again


def check_snapshot_roundtrip(rules: Rules[Any, Any], seeds: range = range(3)) -> int:
    """At every step of random games, the match survives a snapshot and goes on identically.

    One match is played straight through; its twin is snapshotted and restored before every
    step and given the same random stream. Both must show the same state, owe the same
    decisions and choose the same actions to the end (or the step cap). Now and then a draw
    is proposed, so a pending vote is snapshotted too. Returns the snapshots taken.
    """
    taken = 0
    counts, sets = seat_counts(rules), option_sets(rules)
    # Each snapshot pickles the whole record, so the cost grows with the square of the cap.
    cap = min(rules.spec.max_plies, 120)
    for seed in seeds:
        options = sets[seed % len(sets)]
        seats = counts[(seed + 1) % len(counts)]
        straight = Match(rules, seats, options, seed=seed)
        twin = Match(rules, seats, options, seed=seed)
        rngs = Rng(seed * 613 + 17), Rng(seed * 613 + 17)
        for step in range(cap):
            twin = snapshot_copy(twin)
            taken += 1
            where = f"{rules.spec.name} seed {seed} step {step}"
            assert twin.observe(ARCHIVE) == straight.observe(ARCHIVE), (
                f"{where}: the restored match shows another state"
            )
            assert twin.turn() == straight.turn(), f"{where}: the restored match owes otherwise"
            if straight.is_over:
                break
            if step % 23 == 7:
                _propose_draw(straight)
                _propose_draw(twin)
            moved = random_step(straight, rngs[0])
            assert random_step(twin, rngs[1]) == moved, f"{where}: one of the two cannot move"
            if not moved:
                break
            assert twin.history(ARCHIVE, twin.seq - 1) == straight.history(
                ARCHIVE, straight.seq - 1
            ), f"{where}: the restored match took another action"
        assert twin.to_json() == straight.to_json(), (
            f"{rules.spec.name} seed {seed}: the records differ"
        )
        for seat in range(seats):
            viewer = Viewer.of(seat)
            assert twin.observe(viewer) == straight.observe(viewer), (
                f"{rules.spec.name} seed {seed}: seat {seat} sees another state"
            )
    return taken


def _propose_draw(match: Match[Any, Any]) -> None:
    """The first surviving seat proposes a draw (left pending) when two or more survive."""
    alive = sorted(match.rules.alive(match.state))
    if len(alive) >= 2 and not match.pending_draw_votes():
        match.vote_draw(alive[0], True)


def check_spec(rules: Rules[Any, Any]) -> None:
    """The declared metadata is coherent and every default option is accepted."""
    spec = rules.spec
    assert spec.name and spec.name == spec.name.lower(), "names are lower-case"
    assert 1 <= spec.min_seats <= spec.max_seats
    assert spec.resolve_options({}) == {o.name: o.default for o in spec.options}
    for seats in seat_counts(rules):
        match = Match(rules, seats, seed=1)
        names = match.seat_names()
        assert len(names) == seats and len(set(names)) == seats, f"seat names {names}"
        json.dumps(match.observe(ARCHIVE))
        json.dumps(match.observe(SPECTATOR))
        turn = match.turn()
        for seat in turn.owing:
            tree = rules.options_tree(match.state, seat)
            json.dumps(tree.to_json())
            assert tree.leaves(), f"seat {seat} owes a decision but has no options"


def refusal_table(rules: Rules[Any, Any]) -> list[dict[str, Any]]:
    """The game's table of refused actions: `data/refusals.toml` beside its rules' module.

    Rows with a `game` key belong to that game only (one file may serve several games).
    """
    module = sys.modules[type(rules).__module__].__file__
    assert module is not None, f"{rules.spec.name}: its rules have no module file"
    path = Path(module).parent / "data" / "refusals.toml"
    assert path.is_file(), f"{rules.spec.name}: no refusal table at {path}"
    rows = [
        row
        for row in tomllib.loads(path.read_text(encoding="utf-8")).get("refusal", [])
        if row.get("game", rules.spec.name) == rules.spec.name
    ]
    assert rows, f"{rules.spec.name}: the refusal table {path} has no row for it"
    return rows


def _seat_of(match: Match[Any, Any], name: Any, where: str) -> int:
    if isinstance(name, int):
        return name
    names = [n.lower() for n in match.seat_names()]
    assert str(name).lower() in names, f"{where}: no seat called {name!r} (seats: {names})"
    return names.index(str(name).lower())


def refusal_position(rules: Rules[Any, Any], row: Mapping[str, Any]) -> Match[Any, Any]:
    """The match a row describes: seats, options and seed, then its moves played in order.

    A move is "<seat name>: <action>", or "<seat name>: default" for the seat's default
    action (what a deadline would do).
    """
    where = f"{rules.spec.name} refusal {row.get('what', '?')!r}"
    seats = int(row.get("seats", seat_counts(rules)[0]))
    match = Match(rules, seats, dict(row.get("options", {})), seed=int(row.get("seed", 1)))
    for i, move in enumerate(row.get("moves", [])):
        name, sep, text = str(move).partition(": ")
        assert sep, f"{where}: move {i} {move!r} is not '<seat>: <action>'"
        seat = _seat_of(match, name.strip(), where)
        try:
            if text.strip() == "default":
                match.act_default(seat)
            else:
                match.act(seat, text.strip())
        except ParleyError as err:
            raise AssertionError(f"{where}: move {i} {move!r} is refused: {err.message}") from err
    return match


def check_refusal_reasons(rules: Rules[Any, Any]) -> int:
    """Every row of the game's refusal table is refused, saying why.

    A row gives a position (seats, options, seed and moves), the seat, the action, and what
    the refusal must carry: the error's `code`, its `reason` tag (one of `REASONS`), and
    text its message must contain (`says`, one string or several). A refusal changes
    nothing and records nothing. Returns the rows checked.
    """
    checked = 0
    for row in refusal_table(rules):
        where = f"{rules.spec.name} refusal {row.get('what', '?')!r}"
        match = refusal_position(rules, row)
        before, seq = json.dumps(match.observe(ARCHIVE), sort_keys=True), match.seq
        seat = _seat_of(match, row["seat"], where)
        try:
            match.act(seat, str(row["action"]))
        except ParleyError as err:
            said = f"{err.code}/{err.reason}: {err.message}"
            if "code" in row:
                assert err.code == row["code"], f"{where}: expected {row['code']}, got {said}"
            if "reason" in row:
                assert row["reason"] in REASONS, f"{where}: unknown reason {row['reason']!r}"
                assert err.reason == row["reason"], (
                    f"{where}: expected reason {row['reason']}, got {said}"
                )
            assert err.reason is None or err.reason in REASONS, f"{where}: unknown reason {said}"
            says = row.get("says", [])
            for text in [says] if isinstance(says, str) else says:
                assert text.lower() in err.message.lower(), f"{where}: {text!r} not in {said}"
        else:
            raise AssertionError(f"{where}: {row['action']!r} by {row['seat']} was accepted")
        assert json.dumps(match.observe(ARCHIVE), sort_keys=True) == before, (
            f"{where}: the refusal changed the state"
        )
        assert match.seq == seq, f"{where}: the refusal was recorded"
        checked += 1
    return checked


CHECKS: dict[str, Callable[[Rules[Any, Any]], object]] = {
    "spec": check_spec,
    "random_playouts": check_random_playouts,
    "determinism": check_determinism,
    "record_roundtrip": check_record_roundtrip,
    "notation_roundtrip": check_notation_roundtrip,
    "redaction": check_redaction,
    "hidden_information": check_hidden_information,
    "errors": check_errors,
    "snapshot_roundtrip": check_snapshot_roundtrip,
    "refusal_reasons": check_refusal_reasons,
}
