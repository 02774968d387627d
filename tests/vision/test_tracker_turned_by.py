"""Who turned the up-card (``UpCardShown.turned_by``): named only on clear evidence, never from the kitty itself."""

from __future__ import annotations

import pytest

from table.cards import Card
from vision.detection import CardDetection
from vision.observations import Observation, UpCardShown
from vision.tracker import Tracker
from vision.zones import Calibration, Point, TableLayout

# Camera pixels are mat coordinates times 1000.
CALIBRATION = Calibration.from_corners([(0, 0), (1000, 0), (1000, 1000), (0, 1000)])
KITTY_SPOT = (0.78, 0.22)
UP = Card.parse("Jd")


def _seen(point: Point, frame: int, card: Card = UP) -> CardDetection:
    x, y = point[0] * 1000, point[1] * 1000
    return CardDetection(card, 0.95, (x - 30, y - 40, x + 30, y + 40), frame)


def _carried(path: list[Point], layout: TableLayout | None = None, rest: int = 4) -> list[Observation]:
    """The up-card read at each point of ``path`` in turn (a frame each), then resting on the kitty."""
    tracker = Tracker(CALIBRATION, layout)
    out: list[Observation] = []
    frames = [*path, *([KITTY_SPOT] * rest)]
    for n, p in enumerate(frames):
        out += tracker.update([_seen(p, n)], n)
    return out


def _line(a: Point, b: Point) -> list[Point]:
    """The points between ``a`` and ``b`` a card pushed at an even pace passes, a frame each (steps of about
    a tenth of the mat: never at rest on the way, never too fast to follow)."""
    steps = max(2, int(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 // 0.1))
    return [(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps) for k in range(1, steps)]


def _turned_by(obs: list[Observation]) -> list[int | None]:
    return [o.turned_by for o in obs if isinstance(o, UpCardShown)]


@pytest.mark.parametrize(
    ("spot", "seat"),
    [((0.5, 0.8), 0), ((0.2, 0.5), 1), ((0.5, 0.2), 2), ((0.77, 0.55), 3)],
)
def test_turned_in_front_of_a_seat_and_carried_to_the_kitty_names_that_seat(spot: Point, seat: int) -> None:
    obs = _carried([spot, spot, *_line(spot, KITTY_SPOT)])
    assert _turned_by(obs) == [seat]


def test_the_seats_follow_the_layouts_rotation() -> None:
    obs = _carried([(0.5, 0.8), (0.5, 0.8), *_line((0.5, 0.8), KITTY_SPOT)], TableLayout(rotation=1))
    assert _turned_by(obs) == [3]  # seat 0 sits at the left edge: the bottom edge is seat 3's


def test_turned_on_the_kitty_names_nobody() -> None:
    assert _turned_by(_carried([KITTY_SPOT])) == [None]


def test_a_card_read_only_once_before_it_moves_names_nobody() -> None:
    spot = (0.5, 0.8)
    assert _turned_by(_carried([spot, *_line(spot, KITTY_SPOT)])) == [None]


def test_a_card_first_read_where_two_seats_meet_names_nobody() -> None:
    corner = (0.22, 0.78)  # as near the bottom edge as the left one
    assert _turned_by(_carried([corner, corner, *_line(corner, KITTY_SPOT)])) == [None]


def test_a_card_first_read_in_the_trick_pile_names_nobody() -> None:
    middle = (0.5, 0.58)
    assert _turned_by(_carried([middle, middle, *_line(middle, KITTY_SPOT)])) == [None]


def test_a_card_first_read_close_to_the_kitty_names_nobody() -> None:
    near = (0.6, 0.2)  # on the top seat's side, but not carried far: the kitty's doorstep
    assert _turned_by(_carried([near, near, *_line(near, KITTY_SPOT)])) == [None]


def test_seat_side_is_clear_only_inside_one_seats_side() -> None:
    layout = TableLayout()
    assert layout.seat_side((0.5, 0.95)) == 0
    assert layout.seat_side((0.05, 0.5)) == 1
    assert layout.seat_side((0.5, 0.5)) is None  # the middle
    assert layout.seat_side((0.1, 0.1)) is None  # a corner
    assert layout.seat_side((0.78, 0.22)) is None  # the kitty
