"""The calibration screen: synthetic clicks on a drawn table, the saved file, the rendered screen, bad input."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pygame
import pytest

from companion.cli import main
from companion.commands.calibrate import first_picture, parse_clicks
from companion.errors import UserError
from display.calibrate import (
    CalibrationState,
    Outcome,
    Step,
    Viewport,
    draw,
    edge_at,
    handle_event,
    inside_convex,
    order_corners,
    picture_surface,
    run_window,
)
from vision.observations import TRICK, Zone
from vision.sources import FakeSource
from vision.zones import load_table

NAMES = ("North", "East", "South", "West")
SIZE = (640, 480)
# The table as a camera tilted towards seat 0 sees it: a skewed quadrilateral, far edge shorter.
TL, TR, BR, BL = (170.0, 90.0), (480.0, 70.0), (590.0, 420.0), (60.0, 400.0)
TABLE = (TL, TR, BR, BL)
FELT = (40, 110, 30)  # BGR
FLOOR = (60, 70, 90)
# A point on each side, just outside the table (where a player's chair is), by edge index.
SIDE_POINTS = {0: (330.0, 455.0), 1: (60.0, 240.0), 2: (320.0, 40.0), 3: (600.0, 240.0)}


def table_picture() -> npt.NDArray[np.uint8]:
    image = np.zeros((SIZE[1], SIZE[0], 3), dtype=np.uint8)
    image[:] = FLOOR
    cv2.fillPoly(image, [np.asarray(TABLE, dtype=np.int32)], FELT)
    cv2.polylines(image, [np.asarray(TABLE, dtype=np.int32)], True, (200, 220, 230), 3)
    return image


def clicked(*points: tuple[float, float]) -> CalibrationState:
    state = CalibrationState(SIZE)
    for p in points:
        state = state.click(p)
        assert state.error == "", state.error
    return state


def midpoint(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def diagonals_cross() -> tuple[float, float]:
    """Where the table's diagonals cross in the picture: the image of the table's centre under any perspective."""
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = TL, BR, TR, BL
    d = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / d
    return (x1 + t * (x2 - x1), y1 + t * (y2 - y1))


# Each edge of the clicked table in the picture, by edge index (bottom, left, top, right).
EDGE_MIDPOINTS = {0: midpoint(BL, BR), 1: midpoint(TL, BL), 2: midpoint(TL, TR), 3: midpoint(TR, BR)}


# ---- the state machine ----


@pytest.mark.parametrize("order", list(itertools.permutations(range(4))))
def test_corners_in_any_order_give_the_same_table(order: tuple[int, ...]) -> None:
    state = clicked(*(TABLE[i] for i in order))
    assert state.step is Step.SEAT
    assert state.corners == TABLE  # clockwise from the picture's top-left


def test_the_calibration_maps_the_clicked_corners_to_the_mat_corners() -> None:
    calibration = clicked(TR, BL, TL, BR).calibration
    assert calibration is not None
    for corner, expected in zip(TABLE, ((0, 0), (1, 0), (1, 1), (0, 1)), strict=True):
        assert calibration.to_mat(*corner) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("edge", [0, 1, 2, 3])
def test_the_seat_click_sets_the_rotation_and_seat_zones_face_their_sides(edge: int) -> None:
    state = clicked(*TABLE, SIDE_POINTS[edge])
    assert state.step is Step.CONFIRM
    assert state.rotation == edge
    calibration, layout = state.calibration, state.layout
    assert calibration is not None and layout is not None
    for zone, rect in layout.zone_rects().items():
        centre = calibration.to_image(*rect.center)
        assert inside_convex(centre, TABLE), f"{zone} centre {centre} outside the table"
    # Seat s sits s sides clockwise from seat 0's: its zone's centre is nearest that side of the table.
    for seat in range(4):
        centre = calibration.to_image(*layout.zone_rects()[Zone.of_seat(seat)].center)
        nearest = min(range(4), key=lambda e: math.dist(centre, EDGE_MIDPOINTS[e]))
        assert nearest == (edge + seat) % 4


@pytest.mark.parametrize(
    ("point", "edge"),
    [
        ((330.0, 380.0), 0),  # inside, near the bottom edge
        ((330.0, 470.0), 0),  # on the chair beyond it
        ((110.0, 250.0), 1),
        ((5.0, 250.0), 1),
        ((320.0, 100.0), 2),
        ((320.0, 5.0), 2),
        ((520.0, 240.0), 3),
        ((635.0, 240.0), 3),
    ],
)
def test_a_side_counts_inside_and_outside_the_table(point: tuple[float, float], edge: int) -> None:
    calibration = clicked(*TABLE).calibration
    assert calibration is not None
    assert edge_at(calibration, point) == edge


def test_the_saved_file_loads_back(tmp_path: Path) -> None:
    from vision.zones import save_table

    state = clicked(*TABLE, SIDE_POINTS[3])
    assert state.calibration is not None and state.layout is not None
    path = tmp_path / "table.json"
    save_table(path, state.calibration, state.layout)
    calibration, layout = load_table(path)
    assert layout.rotation == 3
    assert calibration.homography == pytest.approx(state.calibration.homography)
    assert layout.zone_at(calibration.to_mat(*diagonals_cross())) == TRICK  # the table's centre, in perspective


def test_undo_walks_back_one_click_at_a_time() -> None:
    state = clicked(*TABLE, SIDE_POINTS[0])
    state = state.undo()
    assert (state.step, state.seat_click, len(state.clicks)) == (Step.SEAT, None, 4)
    state = state.undo()
    assert (state.step, state.clicks) == (Step.CORNERS, TABLE[:3])
    state = state.undo().undo().undo().undo()  # one more than there are: nothing happens
    assert state.clicks == ()


@pytest.mark.parametrize(
    ("fourth", "words"),
    [
        ((TR[0] + 3, TR[1] + 2), "on top of each other"),
        ((400.0, 150.0), "four-sided"),  # inside the triangle of the other three
    ],
)
def test_a_corner_that_makes_no_table_is_refused(fourth: tuple[float, float], words: str) -> None:
    state = clicked(TL, TR, BR).click(fourth)
    assert state.step is Step.CORNERS and state.clicks == (TL, TR, BR)
    assert words in state.error
    assert clicked(TL, TR, BR).click(BL).error == ""  # the right click after a refusal is taken


def test_a_tiny_table_and_clicks_off_the_picture_are_refused() -> None:
    tiny = clicked((10, 10), (40, 10), (40, 40)).click((10, 40))
    assert "too small" in tiny.error and len(tiny.clicks) == 3
    off = CalibrationState(SIZE).click((-5.0, 20.0))
    assert off.clicks == () and "picture" in off.error
    done = clicked(*TABLE, SIDE_POINTS[0])
    assert done.click((100, 100)).seat_click == done.seat_click


# ---- events and the window ----


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def test_events_drive_the_state_through_the_viewport() -> None:
    view = Viewport.fit(SIZE, (800, 480))
    state = CalibrationState(SIZE)
    for p in TABLE:
        event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=view.to_screen(p))
        state, outcome = handle_event(state, event, view)
        assert outcome is Outcome.NONE
    assert state.corners is not None
    for got, want in zip(state.corners, TABLE, strict=True):
        assert got == pytest.approx(want, abs=1e-6)
    right_click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=view.to_screen(SIDE_POINTS[1]))
    assert handle_event(state, right_click, view)[0] == state
    state, outcome = handle_event(state, key(pygame.K_RETURN), view)
    assert outcome is Outcome.NONE and "Not yet" in state.error
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=view.to_screen(SIDE_POINTS[1]))
    state, _ = handle_event(state, click, view)
    assert state.rotation == 1
    assert handle_event(state, key(pygame.K_RETURN), view)[1] is Outcome.SAVE
    assert handle_event(state, key(pygame.K_BACKSPACE), view)[0].step is Step.SEAT
    assert handle_event(state, key(pygame.K_ESCAPE), view)[1] is Outcome.QUIT
    assert handle_event(state, pygame.event.Event(pygame.QUIT), view)[1] is Outcome.QUIT


def _post_clicks(view: Viewport, points: list[tuple[float, float]], *keys: int) -> None:
    pygame.event.clear()
    for p in points:
        pos = tuple(round(v) for v in view.to_screen(p))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    for k in keys:
        pygame.event.post(key(k))


def test_the_window_loop_returns_the_confirmed_state_or_none() -> None:
    surface = pygame.display.set_mode((800, 480))
    view = Viewport.fit(SIZE, surface.get_size())
    _post_clicks(view, [*TABLE, SIDE_POINTS[2]], pygame.K_RETURN)
    state = run_window(surface, table_picture(), NAMES)
    assert state is not None and state.rotation == 2
    _post_clicks(view, [TL, TR], pygame.K_ESCAPE)
    assert run_window(surface, table_picture(), NAMES) is None


# ---- the rendered screen ----


def render(state: CalibrationState, path: Path, hover: tuple[float, float] | None = None) -> pygame.Surface:
    surface = pygame.Surface((800, 480))
    draw(surface, picture_surface(table_picture()), state, NAMES, hover)
    pygame.image.save(surface, str(path))
    return surface


def test_the_screens_render_headless_with_the_zones_over_the_table(tmp_path: Path) -> None:
    view = Viewport.fit(SIZE, (800, 480))
    blank = render(CalibrationState(SIZE), tmp_path / "1-start.png")
    render(clicked(TL, TR), tmp_path / "2-two-corners.png")
    render(clicked(*TABLE), tmp_path / "3-seat.png", hover=view.to_screen(SIDE_POINTS[1]))
    done = clicked(*TABLE, SIDE_POINTS[0])
    confirm = render(done, tmp_path / "4-confirm.png")
    assert all((tmp_path / name).stat().st_size > 0 for name in ("1-start.png", "4-confirm.png"))

    def pixel(surface: pygame.Surface, image_point: tuple[float, float]) -> tuple[int, int, int]:
        x, y = view.to_screen(image_point)
        c = surface.get_at((round(x), round(y)))
        return (c.r, c.g, c.b)

    calibration = done.calibration
    assert calibration is not None
    assert done.layout is not None
    kitty = done.layout.kitty_zone  # a point inside it, clear of its label in the middle
    kitty_centre = calibration.to_image(kitty.x1 + 0.02, kitty.y2 - 0.02)
    felt_rgb = (FELT[2], FELT[1], FELT[0])
    assert pixel(blank, kitty_centre) == pytest.approx(felt_rgb, abs=3)  # the bare picture before the zones
    tinted = pixel(confirm, kitty_centre)
    assert tinted != pytest.approx(felt_rgb, abs=10)
    assert tinted[1] > felt_rgb[1]  # the kitty's green wash lies over the felt
    # The instruction bar has writing in it.
    bar = pygame.surfarray.array3d(confirm)[:, : round(480 * 0.1)]
    assert bar.max() > 200


# ---- the command line ----


@pytest.fixture
def picture_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "pictures"
    folder.mkdir()
    cv2.imwrite(str(folder / "frame0.png"), table_picture())
    return folder


CLICKS = " ".join(f"{x:g},{y:g}" for x, y in (BR, TL, BL, TR, SIDE_POINTS[1]))


def test_scripted_clicks_save_the_table_and_print_the_config_line(
    picture_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, preview = tmp_path / "table.json", tmp_path / "preview.png"
    args = ["calibrate", "--source", f"images:{picture_dir}", "--out", str(out), "--clicks", CLICKS]
    assert main([*args, "--preview", str(preview)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert f'[camera] calibration = "{out.resolve()}"' in lines
    summary = dict(pair.split("=", 1) for pair in lines[-1].split())
    assert summary["saved"] == "1" and summary["rotation"] == "1" and summary["seat0_side"] == "left"
    assert summary["out"] == str(out.resolve()) and summary["image"] == "640x480"
    calibration, layout = load_table(out)
    assert layout.rotation == 1
    assert calibration.to_mat(*TL) == pytest.approx((0.0, 0.0), abs=1e-9)
    assert pygame.image.load(str(preview)).get_size() == (800, 480)


def test_the_default_out_is_next_to_the_config(picture_dir: Path, tmp_path: Path) -> None:
    config = tmp_path / "conf" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'[camera]\nsource = "images:{picture_dir}"\n', encoding="utf-8")
    assert main(["calibrate", "--config", str(config), "--clicks", CLICKS]) == 0
    assert load_table(config.parent / "table.json")[1].rotation == 1


def one_error_line(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["calibrate", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("euchre-table: error: ")
    return err[0]


def test_a_missing_source_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "table.json")
    assert "no such folder" in one_error_line(capsys, "--source", f"images:{tmp_path / 'nope'}", "--out", out)
    assert "no such video file" in one_error_line(capsys, "--source", "video:/nope.mp4", "--out", out)
    assert "unknown source" in one_error_line(capsys, "--source", "telescope", "--out", out)
    assert not (tmp_path / "table.json").exists()


def test_an_unwritable_out_is_one_clear_error_before_any_click(
    picture_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"images:{picture_dir}"
    line = one_error_line(capsys, "--source", source, "--out", str(tmp_path / "missing" / "t.json"), "--clicks", CLICKS)
    assert "no such folder" in line and "missing" in line
    assert "is a folder" in one_error_line(capsys, "--source", source, "--out", str(tmp_path), "--clicks", CLICKS)
    a_file = tmp_path / "file"
    a_file.write_text("x", encoding="utf-8")
    assert "no such folder" in one_error_line(capsys, "--source", source, "--out", str(a_file / "t.json"))


def test_bad_scripted_clicks_are_one_clear_error(
    picture_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--source", f"images:{picture_dir}", "--out", str(tmp_path / "t.json"), "--clicks"]
    assert "five points" in one_error_line(capsys, *base, "1,2 3,4")
    assert "not X,Y" in one_error_line(capsys, *base, "1,2 3,4 5 6,7 8,9")
    line = one_error_line(capsys, *base, "170,90 480,70 590,420 172,91 10,10")
    assert "on top of each other" in line
    assert not (tmp_path / "t.json").exists()


def test_a_camera_that_gives_nothing_is_a_user_error() -> None:
    unplugged = FakeSource(count=3)
    unplugged.unplug()
    with pytest.raises(UserError, match="camera:7: fake: no such device"):
        first_picture(unplugged, "camera:7")
    ticks = iter(range(100))
    empty = FakeSource(count=0)
    with pytest.raises(UserError, match="no picture came"):
        first_picture(empty, "video:x.mp4", clock=lambda: float(next(ticks)))


def test_parse_clicks_reads_pairs() -> None:
    assert parse_clicks("1,2 3.5,4;5,6 7,8 9,10") == [(1, 2), (3.5, 4), (5, 6), (7, 8), (9, 10)]
    assert order_corners([(0, 0), (10, 10), (10, 0), (0, 10)]) == ((0, 0), (10, 0), (10, 10), (0, 10))


def test_the_window_path_saves_on_enter_and_saves_nothing_on_esc(
    picture_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table.json"
    args = ["calibrate", "--source", f"images:{picture_dir}", "--out", str(out), "--windowed"]
    seen: list[tuple[int, int]] = []

    def esc(surface: pygame.Surface, picture: npt.NDArray[np.uint8], names: object, *rest: object) -> None:
        seen.append(surface.get_size())
        return None

    monkeypatch.setattr("display.calibrate.run_window", esc)
    try:
        assert main(args) == 1
        assert seen == [(800, 480)]  # the config's display size
        assert capsys.readouterr().out.strip().splitlines()[-1].startswith("saved=0 ")
        assert not out.exists()
        monkeypatch.setattr("display.calibrate.run_window", lambda *a: clicked(*TABLE, SIDE_POINTS[2]))
        assert main(args) == 0
        assert load_table(out)[1].rotation == 2
    finally:
        pygame.display.init()  # the command closes the display when it is done
