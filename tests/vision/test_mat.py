"""The printed mat: markers found where vision.zones expects them through a tilted camera; zones map back."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from companion.cli import main
from companion.errors import UserError
from vision.mat import MAT_SIZES, marker_layout, render_mat, write_mat
from vision.zones import Rect, TableLayout, calibration_from_markers

PX_PER_MM = 2.5  # small enough to be fast, big enough for the markers (100 px each)


def tilted_camera(
    width_mm: float, height_mm: float, px_per_mm: float, tilt_deg: float, axis: str, frame: tuple[int, int]
) -> npt.NDArray[np.float64]:
    """Homography from mat-image pixels to a camera frame looking at the mat from ``tilt_deg`` off vertical.

    A pinhole camera above the mat centre, turned about the mat's x or y
    axis, then the picture scaled to fill ``frame`` (so the mat is seen
    foreshortened, one side larger than the other, as on a real table).
    """
    t = math.radians(tilt_deg)
    c, s = math.cos(t), math.sin(t)
    rot = np.array([[1, 0, 0], [0, c, -s], [0, s, c]]) if axis == "x" else np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    distance = 1.3 * max(width_mm, height_mm)
    corners_mm = np.array([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]], np.float64)
    centred = np.hstack([corners_mm - [width_mm / 2, height_mm / 2], np.zeros((4, 1))])
    cam = centred @ rot.T + [0.0, 0.0, distance]
    proj = cam[:, :2] / cam[:, 2:3]
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    fw, fh = frame
    scale = 0.9 * min(fw / (hi[0] - lo[0]), fh / (hi[1] - lo[1]))
    pix = (proj - (lo + hi) / 2) * scale + [fw / 2, fh / 2]
    src = (corners_mm * px_per_mm).astype(np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, pix.astype(np.float32)), np.float64)


def _to(h: npt.NDArray[np.float64], x: float, y: float) -> tuple[float, float]:
    p = h @ np.array([x, y, 1.0])
    return (float(p[0] / p[2]), float(p[1] / p[2]))


@pytest.mark.parametrize("size", sorted(MAT_SIZES))
@pytest.mark.parametrize(("tilt", "axis"), [(0.0, "x"), (18.0, "y"), (30.0, "x"), (-30.0, "y")])
def test_markers_through_a_tilted_camera_give_back_every_zone(size: str, tilt: float, axis: str) -> None:
    sheet = MAT_SIZES[size]
    layout = TableLayout()
    mat = render_mat(sheet, PX_PER_MM, layout)
    frame_size = (1280, 960)
    h = tilted_camera(sheet.width_mm, sheet.height_mm, PX_PER_MM, tilt, axis, frame_size)
    warped = cv2.warpPerspective(mat, h, frame_size, flags=cv2.INTER_AREA, borderValue=(60, 90, 40))
    frame = np.asarray(warped, np.uint8)
    cal = calibration_from_markers(frame, marker_layout(sheet), min_markers=4)
    assert cal is not None, "the four markers were not all found"
    mh, mw = mat.shape[:2]
    for zone, rect in layout.zone_rects().items():
        # Each zone's centre and points just inside its corners come back into that zone.
        inner = Rect(rect.x1 + 0.01, rect.y1 + 0.01, rect.x2 - 0.01, rect.y2 - 0.01)
        for u, v in (rect.center, *inner.corners):
            px, py = _to(h, u * mw, v * mh)
            back = cal.to_mat(px, py)
            assert layout.zone_at(back) == zone, (zone, (u, v), back)
            assert math.dist(back, (u, v)) < 0.004


@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
def test_seat_labels_follow_the_layout_rotation(rotation: int) -> None:
    # Only seat 0 gets a label: ink must appear between its zone and its own edge, and at no other edge.
    layout = TableLayout(rotation=rotation)
    mat = render_mat("A3", 2.0, layout, seat_names=["SEAT 0", " ", " ", " "], footer=False)
    mh, mw = mat.shape[:2]
    for edge in range(4):
        zone = layout.seat_zone.quarter_turns(edge)
        cx, cy = zone.center
        spots = {0: (cx, (zone.y2 + 1) / 2), 1: (zone.x1 / 2, cy), 2: (cx, zone.y1 / 2), 3: ((zone.x2 + 1) / 2, cy)}
        u, v = spots[edge]
        patch = mat[int(v * mh) - 8 : int(v * mh) + 8, int(u * mw) - 8 : int(u * mw) + 8]
        dark = int((patch.min(axis=2) < 100).sum())
        assert (dark > 10) == (edge == layout.edge_of_seat(0)), (edge, rotation, dark)


def test_markers_do_not_touch_any_zone() -> None:
    for sheet in MAT_SIZES.values():
        markers = marker_layout(sheet)
        for quad in markers.markers.values():
            box = Rect(quad[0][0], quad[0][1], quad[2][0], quad[2][1])
            for zone, rect in TableLayout().zone_rects().items():
                assert not box.overlaps(rect), (sheet.name, zone)


def test_pdf_page_is_the_sheet_at_actual_size(tmp_path: Path) -> None:
    out = tmp_path / "mat.pdf"
    width, height = write_mat(out, "A3", dpi=50)
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    box = data[data.index(b"/MediaBox") :].split(b"]")[0].split(b"[")[1].split()
    w_pt, h_pt = float(box[2]), float(box[3])
    assert w_pt == pytest.approx(420 / 25.4 * 72, abs=2.0)  # points: 1/72 inch
    assert h_pt == pytest.approx(297 / 25.4 * 72, abs=2.0)
    assert (width, height) == (round(420 * 50 / 25.4), round(297 * 50 / 25.4))


def test_png_from_the_command_line_has_its_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mat.png"
    assert main(["mat", "--out", str(out), "--size", "a2", "--dpi", "40"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert "size=A2" in line and "markers=0,1,2,3" in line
    image = np.asarray(cv2.imread(str(out)), np.uint8)
    assert image.ndim == 3 and image.shape[1] == round(594 * 40 / 25.4)
    cal = calibration_from_markers(image, marker_layout("A2"), min_markers=4)
    assert cal is not None
    u, v = cal.to_mat(image.shape[1] / 2, image.shape[0] / 2)
    assert abs(u - 0.5) < 0.005 and abs(v - 0.5) < 0.005


@pytest.mark.parametrize(("argv", "message"), [
    (["--out", "x.jpg"], ".pdf or a .png"),
    (["--out", "x.pdf", "--size", "A4"], "A3, A2"),
    (["--out", "x.png", "--dpi", "5"], "between 30 and 1200"),
    (["--out", "x.png", "--names", "a,b"], "four names"),
])  # fmt: skip
def test_bad_arguments_are_one_clear_error(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a if not a.startswith("x.") else str(tmp_path / a) for a in argv]
    assert main(["mat", *argv]) == 2
    assert message in capsys.readouterr().err


def test_size_names_are_checked() -> None:
    with pytest.raises(UserError):
        render_mat("B4")
