"""Table geometry: the homography both ways, ArUco markers seen by a tilted camera, zones and rotation."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.observations import KITTY, TRICK, Zone
from vision.zones import (
    Calibration,
    MarkerLayout,
    MarkerRefresher,
    Rect,
    TableLayout,
    calibration_from_markers,
    detect_markers,
    fit_homography,
    load_table,
    save_table,
)

SHEET_MM = (420.0, 297.0)  # A3 landscape
IMAGE_SIZE = (1280, 960)


def camera_homography(tilt_deg: float, roll_deg: float = 0.0, yaw_deg: float = 0.0) -> np.ndarray:
    """Mat coordinates (0-1) -> pixels of a pinhole camera tilted ``tilt_deg`` from looking straight down."""
    t, r, y = (math.radians(a) for a in (tilt_deg, roll_deg, yaw_deg))
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    ry = np.array([[math.cos(y), 0, math.sin(y)], [0, 1, 0], [-math.sin(y), 0, math.cos(y)]])
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    rotation = rx @ ry @ rz
    distance = 620.0  # mm from the camera to the mat centre
    translation = np.array([0.0, 0.0, distance])
    k = np.array([[1000.0, 0, IMAGE_SIZE[0] / 2], [0, 1000.0, IMAGE_SIZE[1] / 2], [0, 0, 1]])
    plane_to_image = k @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
    w, h = SHEET_MM
    mat_to_plane = np.array([[w, 0, -w / 2], [0, h, -h / 2], [0, 0, 1]])
    m: np.ndarray = plane_to_image @ mat_to_plane
    normalised: np.ndarray = m / m[2, 2]
    return normalised


def render_mat(layout: MarkerLayout, px_per_mm: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """A white sheet with its markers (and a card or two); returns the picture and mat->picture scaling."""
    w, h = int(SHEET_MM[0] * px_per_mm), int(SHEET_MM[1] * px_per_mm)
    sheet = np.full((h, w, 3), 255, dtype=np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id, quad in layout.markers.items():
        x1, y1 = int(round(quad[0][0] * w)), int(round(quad[0][1] * h))
        side = int(round((quad[1][0] - quad[0][0]) * w))
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        sheet[y1 : y1 + side, x1 : x1 + side] = marker[:, :, None]
    cv2.rectangle(sheet, (int(0.45 * w), int(0.45 * h)), (int(0.55 * w), int(0.62 * h)), (30, 30, 200), -1)
    cv2.rectangle(sheet, (int(0.1 * w), int(0.4 * h)), (int(0.2 * w), int(0.6 * h)), (20, 20, 20), 3)
    scale = np.array([[1.0 / w, 0, 0], [0, 1.0 / h, 0], [0, 0, 1]])  # sheet pixels -> mat units
    return sheet, scale


def camera_view(tilt_deg: float, roll_deg: float = 0.0, yaw_deg: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The mat on a green table as the tilted camera sees it, and the true pixel->mat homography."""
    layout = MarkerLayout.for_sheet(*SHEET_MM)
    sheet, sheet_to_mat = render_mat(layout)
    mat_to_image = camera_homography(tilt_deg, roll_deg, yaw_deg)
    image = cv2.warpPerspective(
        sheet, mat_to_image @ sheet_to_mat, IMAGE_SIZE, flags=cv2.INTER_AREA, borderValue=(40, 110, 40)
    )
    truth: np.ndarray = np.linalg.inv(mat_to_image)
    return np.asarray(image, dtype=np.uint8), truth


def mapped(h: np.ndarray, x: float, y: float) -> tuple[float, float]:
    p = h @ np.array([x, y, 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


SAMPLES = [(u, v) for u in (0.1, 0.3, 0.5, 0.7, 0.9) for v in (0.1, 0.5, 0.9)]


# ---- homography ----


def test_from_corners_round_trip() -> None:
    mat_to_image = camera_homography(25.0, roll_deg=10.0)
    corners = [mapped(mat_to_image, u, v) for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))]
    calibration = Calibration.from_corners(corners)
    for u, v in SAMPLES:
        x, y = mapped(mat_to_image, u, v)
        assert calibration.to_mat(x, y) == pytest.approx((u, v), abs=1e-9)
        assert calibration.to_image(u, v) == pytest.approx((x, y), abs=1e-6)


def test_fit_homography_least_squares_over_many_points() -> None:
    truth = camera_homography(30.0, yaw_deg=8.0)
    rng = np.random.default_rng(3)
    mat = rng.uniform(0, 1, size=(20, 2))
    image = [mapped(truth, *p) for p in mat]
    h = fit_homography(image, [tuple(p) for p in mat])
    for u, v in SAMPLES:
        assert mapped(h, *mapped(truth, u, v)) == pytest.approx((u, v), abs=1e-9)


def test_degenerate_points_are_refused() -> None:
    with pytest.raises(ValueError, match="at least four"):
        fit_homography([(0, 0), (1, 0), (1, 1)], [(0, 0), (1, 0), (1, 1)])
    with pytest.raises(ValueError, match="degenerate"):
        fit_homography([(0, 0), (1, 1), (2, 2), (3, 3)], list(UNIT := [(0, 0), (1, 0), (1, 1), (0, 1)]))
    assert UNIT


def test_calibration_dict_and_file_round_trip(tmp_path: Path) -> None:
    calibration = Calibration.from_corners([(100, 80), (1180, 95), (1210, 900), (70, 880)])
    assert Calibration.from_dict(calibration.to_dict()) == calibration
    layout = TableLayout(rotation=3)
    path = tmp_path / "table.json"
    save_table(path, calibration, layout)
    assert json.loads(path.read_text())["layout"]["rotation"] == 3
    loaded_calibration, loaded_layout = load_table(path)
    assert loaded_layout == layout
    assert np.allclose(loaded_calibration.matrix, calibration.matrix)


@pytest.mark.parametrize(
    "content, message",
    [
        ("{", "not JSON"),
        ("[]", "expected an object"),
        ('{"calibration": {}}', "no 'homography'"),
        ('{"calibration": {"homography": [[1, 0], [0, 1]]}}', "3x3"),
        ('{"calibration": {"homography": [[0,0,0],[0,0,0],[0,0,1]]}}', "singular"),
        ('{"calibration": {"homography": [[1,0,0],[0,1,0],[0,0,1]]}, "layout": {"rotation": 7}}', "quarter turns"),
    ],
)
def test_bad_table_files_are_user_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "table.json"
    path.write_text(content)
    with pytest.raises(UserError, match=message):
        load_table(path)
    with pytest.raises(UserError, match="cannot read"):
        load_table(tmp_path / "missing.json")


# ---- ArUco markers ----


@pytest.mark.parametrize("tilt, roll, yaw", [(0, 0, 0), (15, 90, 0), (30, 0, 0), (30, 25, 10), (-30, 180, -5)])
def test_markers_give_the_homography_of_a_tilted_camera(tilt: float, roll: float, yaw: float) -> None:
    image, truth = camera_view(tilt, roll, yaw)
    calibration = calibration_from_markers(image, MarkerLayout.for_sheet(*SHEET_MM))
    assert calibration is not None and calibration.source == "markers"
    worst = max(math.dist(calibration.to_mat(*mapped(np.linalg.inv(truth), u, v)), (u, v)) for u, v in SAMPLES)
    assert worst < 0.004  # about 1.5 mm on A3


def test_markers_with_one_hidden_still_calibrate() -> None:
    image, truth = camera_view(30.0, 10.0)
    layout = MarkerLayout.for_sheet(*SHEET_MM)
    hidden = [mapped(np.linalg.inv(truth), u, v) for u, v in layout.markers[2]]
    cv2.fillConvexPoly(image, np.array(hidden, dtype=np.int32), (10, 10, 10))  # a hand over marker 2
    assert set(detect_markers(image)) == {0, 1, 3}
    calibration = calibration_from_markers(image, layout)
    assert calibration is not None
    x, y = mapped(np.linalg.inv(truth), 0.5, 0.5)
    assert math.dist(calibration.to_mat(x, y), (0.5, 0.5)) < 0.004


def test_no_markers_no_calibration() -> None:
    blank = np.full((480, 640, 3), 90, dtype=np.uint8)
    assert calibration_from_markers(blank, MarkerLayout.for_sheet(*SHEET_MM)) is None
    image, _ = camera_view(10.0)
    assert calibration_from_markers(image, MarkerLayout.for_sheet(*SHEET_MM), min_markers=5) is None


def test_marker_layout_for_sheet() -> None:
    layout = MarkerLayout.for_sheet(420, 297, marker_mm=42, margin_mm=21)
    assert layout.markers[0][0] == pytest.approx((0.05, 21 / 297))
    assert layout.markers[2][2] == pytest.approx((1 - 0.05, 1 - 21 / 297))
    with pytest.raises(ValueError, match="do not fit"):
        MarkerLayout.for_sheet(100, 100, marker_mm=45, margin_mm=10)
    with pytest.raises(UserError, match="ArUco dictionary"):
        detect_markers(np.zeros((10, 10), dtype=np.uint8), "DICT_NOPE")


# ---- zones ----


@pytest.mark.parametrize(
    "rotation, expected",
    [
        (0, {"bottom": 0, "left": 1, "top": 2, "right": 3}),
        (1, {"bottom": 3, "left": 0, "top": 1, "right": 2}),
        (2, {"bottom": 2, "left": 3, "top": 0, "right": 1}),
        (3, {"bottom": 1, "left": 2, "top": 3, "right": 0}),
    ],
)
def test_seat_zones_go_clockwise_from_the_rotation(rotation: int, expected: dict[str, int]) -> None:
    layout = TableLayout(rotation=rotation)
    points = {"bottom": (0.5, 0.77), "left": (0.23, 0.5), "top": (0.5, 0.23), "right": (0.77, 0.5)}
    for edge, point in points.items():
        assert layout.zone_at(point) == Zone.of_seat(expected[edge]), edge
    assert layout.zone_at((0.5, 0.5)) == TRICK
    assert layout.zone_at((0.78, 0.22)) == KITTY
    assert layout.zone_at((0.02, 0.02)) is None  # a mat corner, where the markers are


def test_zone_rects_do_not_overlap() -> None:
    rects = list(TableLayout().zone_rects().values())
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            assert a.x2 <= b.x1 or b.x2 <= a.x1 or a.y2 <= b.y1 or b.y2 <= a.y1, (a, b)
    with pytest.raises(ValueError, match="overlap"):
        TableLayout(seat_zone=Rect(0.32, 0.64, 0.68, 0.90))  # wide zones meet at the corners
    with pytest.raises(ValueError, match="overlap"):
        TableLayout(kitty_zone=Rect(0.45, 0.45, 0.55, 0.55))


def test_zone_of_a_pixel_through_a_tilted_calibration() -> None:
    mat_to_image = camera_homography(30.0, roll_deg=90.0)
    calibration = Calibration.from_corners([mapped(mat_to_image, u, v) for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))])
    layout = TableLayout(rotation=1)
    pixel = mapped(mat_to_image, 0.5, 0.8)  # in front of the bottom edge
    assert layout.zone_at(calibration.to_mat(*pixel)) == Zone.of_seat(3)


def test_rect_turns() -> None:
    r = Rect(0.32, 0.64, 0.68, 0.90)
    assert r.quarter_turns(1).to_list() == pytest.approx([0.10, 0.32, 0.36, 0.68])  # bottom -> left
    assert r.quarter_turns(2).to_list() == pytest.approx([0.32, 0.10, 0.68, 0.36])  # -> top
    assert r.quarter_turns(4) == r
    with pytest.raises(ValueError):
        Rect(0.5, 0.5, 0.4, 0.6)


def test_layout_dict_round_trip() -> None:
    layout = TableLayout(rotation=2, kitty_zone=Rect(0.1, 0.1, 0.2, 0.2))
    assert TableLayout.from_dict(layout.to_dict()) == layout
    assert TableLayout.from_dict({}) == TableLayout()
    with pytest.raises(UserError, match="layout"):
        TableLayout.from_dict({"seat_zone": [0.5, 0.5, 0.1]})


def test_marker_refresher_follows_a_nudged_camera() -> None:
    layout = MarkerLayout.for_sheet(*SHEET_MM)
    refresher = MarkerRefresher(layout, every=5)
    blank = np.full((960, 1280, 3), 90, dtype=np.uint8)
    assert refresher.update(blank, 0) is None  # no markers yet, no fallback
    first_view, first_truth = camera_view(10.0)
    assert refresher.update(first_view, 1) is None  # not due until frame 5
    first = refresher.update(first_view, 5)
    assert first is not None
    assert refresher.update(blank, 10) is first  # markers hidden: keep the last good one
    nudged_view, nudged_truth = camera_view(25.0, roll_deg=5.0)
    assert refresher.update(nudged_view, 12) is first  # not due yet
    nudged = refresher.update(nudged_view, 15)
    assert nudged is not None and nudged is not first
    x, y = mapped(np.linalg.inv(nudged_truth), 0.5, 0.8)
    assert math.dist(nudged.to_mat(x, y), (0.5, 0.8)) < 0.004
