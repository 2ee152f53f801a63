from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from parley.kernel import Rng


def test_same_seed_same_stream() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(50)] == [b.next64() for _ in range(50)]
    assert Rng(1).next64() != Rng(2).next64()


def test_known_values_are_stable_across_versions() -> None:
    # Pinned so that a replay recorded today replays the same game on any later version.
    fixed = Rng(2026)
    assert [fixed.randint(1, 6) for _ in range(10)] == [2, 6, 3, 1, 4, 4, 1, 2, 3, 3]


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=10**12))
def test_below_stays_in_range(seed: int, bound: int) -> None:
    rng = Rng(seed)
    for _ in range(20):
        assert 0 <= rng.below(bound) < bound


def test_dice_are_roughly_uniform() -> None:
    rng = Rng(7)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randint(1, 6) - 1] += 1
    # Each face expects 10,000; 5 standard deviations is about 460.
    assert all(abs(c - 10_000) < 460 for c in counts), counts


def test_shuffle_is_a_permutation_and_seeded() -> None:
    items = list(range(30))
    a, b = list(items), list(items)
    Rng(5).shuffle(a)
    Rng(5).shuffle(b)
    assert a == b and sorted(a) == items and a != items


def test_copy_and_fork_are_independent() -> None:
    rng = Rng(9)
    twin = rng.copy()
    assert twin == rng
    assert rng.next64() == twin.next64()
    child = rng.fork(1)
    assert child != rng and child.next64() != rng.copy().next64()


def test_bad_bounds_raise() -> None:
    rng = Rng(1)
    for bad in (0, -3):
        try:
            rng.below(bad)
        except ValueError as err:
            assert str(bad) in str(err)
        else:
            raise AssertionError("below() accepted a non-positive bound")
