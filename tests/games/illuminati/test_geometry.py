"""The grid: sides turn with the card, a hung card touches its master and never overlaps it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from parley.games.illuminati import geometry as geo

DIRS = st.sampled_from(geo.DIRECTIONS)
SIDES = st.sampled_from(("top", "right", "bottom", "left"))


@given(facing=DIRS, side=SIDES)
def test_world_and_local_are_inverse(facing: str, side: str) -> None:
    assert geo.local(facing, geo.world(facing, side)) == side


@given(facing=DIRS, direction=DIRS, x=st.integers(-20, 20), y=st.integers(-20, 20))
def test_a_hung_card_touches_its_master_at_the_arrow(
    facing: str, direction: str, x: int, y: int
) -> None:
    w, h = (2, 4) if facing in ("north", "south") else (4, 2)
    master = geo.Rect(x, y, w, h, facing)
    child = master.child(direction)
    assert child.facing == direction
    assert not child.cells() & master.cells()
    assert child.orientation == ("portrait" if direction in ("north", "south") else "landscape")
    # the child's inward side lies against the master's side, centred on the arrow
    if direction == "north":
        assert child.y + child.h == master.y and child.x + 1 == master.x + master.w // 2
    if direction == "east":
        assert child.x == master.x + master.w and child.y + 1 == master.y + master.h // 2


def test_hang_leaves_out_puppets_that_do_not_fit_and_theirs() -> None:
    links = {"I": geo.Link(None, None), "A": geo.Link("I", "top"), "B": geo.Link("I", "right")}
    # B (east, landscape at 2,1) blocks the square south of a card hung east of A
    moving = {"X": geo.Link(None, None), "Y": geo.Link("X", "right"), "Z": geo.Link("Y", "top")}
    left = geo.hang(links, "I", moving, "X", "A", "east")
    assert left == ["Y", "Z"]
    assert links["X"] == geo.Link("A", "right")
    rects = geo.layout(links, "I")
    assert rects["X"] == geo.Rect(2, -3, 4, 2, "east")
    assert geo.depth(links, "X") == 2 and geo.path(links, "X") == ["I", "A", "X"]
