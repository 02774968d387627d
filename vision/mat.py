"""The printable play mat: ArUco corner markers where ``vision.zones`` looks, seat zones, kitty and trick area.

The mat is a landscape sheet (A3 or A2). Its corner markers come from
``MarkerLayout.for_sheet`` (the same call the camera side makes through
:func:`marker_layout`), and its zones from ``TableLayout.zone_rects``, so the
printed mat and the calibration agree by construction. Everything is drawn
with OpenCV into a numpy image at print resolution; :func:`write_mat` saves it
as PNG, or as a one-page PDF through Pillow with the page size set from the
resolution (print at 100 %, "actual size").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.errors import UserError
from vision.observations import KITTY, TRICK, ZoneKind
from vision.zones import MarkerLayout, Rect, TableLayout

Image = npt.NDArray[np.uint8]

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class MatSize:
    """A landscape sheet: ``name`` as on the command line, width and height in millimetres."""

    name: str
    width_mm: float
    height_mm: float


MAT_SIZES: dict[str, MatSize] = {
    "A3": MatSize("A3", 420.0, 297.0),
    "A2": MatSize("A2", 594.0, 420.0),
}
DEFAULT_DPI = 150  # 40 mm markers come out 236 px wide: far more than the camera needs, small files

# Ink: a light print so the cards stand out against it; zone colours are pale so a home printer copes.
PAPER = (255, 255, 255)
INK = (40, 40, 40)
SEAT_FILL = (236, 242, 232)
TRICK_FILL = (238, 236, 246)
KITTY_FILL = (232, 240, 248)
LINE = (120, 120, 120)


def mat_size(name: str) -> MatSize:
    """The sheet called ``name`` (``A3`` or ``A2``, any case); anything else is a ``UserError``."""
    size = MAT_SIZES.get(name.strip().upper())
    if size is None:
        raise UserError(f"--size {name!r}: choose one of {', '.join(MAT_SIZES)}")
    return size


def marker_layout(size: MatSize | str = "A3") -> MarkerLayout:
    """Where the markers of the printed mat of ``size`` are: what the camera side passes to the marker search."""
    sheet = mat_size(size) if isinstance(size, str) else size
    return MarkerLayout.for_sheet(sheet.width_mm, sheet.height_mm)


def _to_px(point: tuple[float, float], width: int, height: int) -> tuple[int, int]:
    return (round(point[0] * width), round(point[1] * height))


def _text_block(text: str, scale: float, thickness: int, colour: tuple[int, int, int] = INK) -> Image:
    """``text`` drawn black-on-transparent-white into its own tight image (so it can be turned to face a seat)."""
    import cv2

    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    pad = thickness * 2
    img = np.full((th + base + 2 * pad, tw + 2 * pad, 3), 255, np.uint8)
    cv2.putText(img, text, (pad, pad + th), font, scale, colour, thickness, cv2.LINE_AA)
    return img


def _stamp(canvas: Image, block: Image, centre: tuple[float, float], quarter_turns: int) -> None:
    """Paste ``block`` (turned clockwise by ``quarter_turns``) centred at ``centre``, darkening only (text on tint)."""
    turned = np.rot90(block, k=-quarter_turns % 4)
    bh, bw = turned.shape[:2]
    x0, y0 = round(centre[0] - bw / 2), round(centre[1] - bh / 2)
    h, w = canvas.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(w, x0 + bw), min(h, y0 + bh)
    if xa >= xb or ya >= yb:
        return
    region = canvas[ya:yb, xa:xb]
    np.minimum(region, turned[ya - y0 : yb - y0, xa - x0 : xb - x0], out=region)


def _zone_box(canvas: Image, rect: Rect, fill: tuple[int, int, int], px_per_mm: float) -> None:
    import cv2

    h, w = canvas.shape[:2]
    p1, p2 = _to_px((rect.x1, rect.y1), w, h), _to_px((rect.x2, rect.y2), w, h)
    cv2.rectangle(canvas, p1, (p2[0] - 1, p2[1] - 1), fill, -1)
    # Dashed outline: a zone is a guide, not a wall; a solid line would look like a card edge to the camera.
    dash, gap = max(2, round(6 * px_per_mm)), max(2, round(4 * px_per_mm))
    thick = max(1, round(0.6 * px_per_mm))
    corners = [p1, (p2[0] - 1, p1[1]), (p2[0] - 1, p2[1] - 1), (p1[0], p2[1] - 1)]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        length = float(np.hypot(b[0] - a[0], b[1] - a[1]))
        steps = int(length // (dash + gap)) + 1
        for k in range(steps):
            t0, t1 = k * (dash + gap) / length, min(1.0, (k * (dash + gap) + dash) / length)
            if t0 >= 1.0:
                break
            q0 = (round(a[0] + (b[0] - a[0]) * t0), round(a[1] + (b[1] - a[1]) * t0))
            q1 = (round(a[0] + (b[0] - a[0]) * t1), round(a[1] + (b[1] - a[1]) * t1))
            cv2.line(canvas, q0, q1, LINE, thick, cv2.LINE_AA)


def render_mat(
    size: MatSize | str = "A3",
    px_per_mm: float = DEFAULT_DPI / MM_PER_INCH,
    layout: TableLayout | None = None,
    seat_names: Sequence[str] | None = None,
    footer: bool = True,
) -> Image:
    """The mat as a BGR image, ``px_per_mm`` pixels per millimetre.

    Seat labels face their seat (the text's foot towards that edge); seat
    ``s`` sits at the edge ``layout.edge_of_seat(s)``. The footer names the
    sheet and the marker dictionary and carries an 80 mm rule to check that
    the print came out at actual size.
    """
    import cv2

    sheet = mat_size(size) if isinstance(size, str) else size
    table = layout if layout is not None else TableLayout()
    names = list(seat_names) if seat_names is not None else [f"SEAT {s}" for s in range(4)]
    if len(names) != 4:
        raise ValueError(f"four seat names, please: got {len(names)}")
    if px_per_mm <= 0:
        raise ValueError(f"px_per_mm must be positive: {px_per_mm}")
    width, height = round(sheet.width_mm * px_per_mm), round(sheet.height_mm * px_per_mm)
    canvas = np.full((height, width, 3), PAPER, np.uint8)
    mm = px_per_mm
    scale = 0.16 * mm  # Hershey scale: about 5 mm tall capitals
    thick = max(1, round(0.5 * mm))

    # The mat's outline, inside the marker margin so it never touches a marker's quiet zone.
    markers = marker_layout(sheet)
    inset = round(4 * mm)
    cv2.rectangle(canvas, (inset, inset), (width - 1 - inset, height - 1 - inset), LINE, max(1, round(0.4 * mm)))

    rects = table.zone_rects()
    for zone, rect in rects.items():
        if zone.kind is ZoneKind.SEAT:
            fill = SEAT_FILL
        elif zone == TRICK:
            fill = TRICK_FILL
        else:
            fill = KITTY_FILL
        _zone_box(canvas, rect, fill, mm)

    # Seat labels between each seat zone and its edge of the mat, facing the seat.
    for zone, rect in rects.items():
        if zone.seat is None:
            continue
        edge = table.edge_of_seat(zone.seat)
        cx, cy = rect.center
        # Midway between the zone's outer side and the mat edge, in mat units.
        if edge == 0:
            centre = (cx, (rect.y2 + 1.0) / 2)
        elif edge == 1:
            centre = (rect.x1 / 2, cy)
        elif edge == 2:
            centre = (cx, rect.y1 / 2)
        else:
            centre = ((rect.x2 + 1.0) / 2, cy)
        label = _text_block(names[zone.seat], scale * 1.2, thick + 1)
        # A seat at the bottom reads upright; at the left edge the text's foot points left: turned clockwise.
        _stamp(canvas, label, (centre[0] * width, centre[1] * height), edge)
        hint = _text_block("play here", scale * 0.8, thick, LINE)
        _stamp(canvas, hint, (cx * width, cy * height), edge)

    for zone, text in ((TRICK, "TRICKS"), (KITTY, "KITTY")):
        rect = rects[zone]
        cx, cy = rect.center
        _stamp(canvas, _text_block(text, scale, thick), (cx * width, cy * height - 4 * mm), 0)
        if zone == KITTY:
            hint = _text_block("up-card on top", scale * 0.7, thick, LINE)
            _stamp(canvas, hint, (cx * width, cy * height + 4 * mm), 0)

    dictionary = _aruco_dictionary(markers.dictionary)
    for marker_id, quad in markers.markers.items():
        (x1, y1), _, (x2, y2), _ = quad
        p1, p2 = _to_px((x1, y1), width, height), _to_px((x2, y2), width, height)
        side = min(p2[0] - p1[0], p2[1] - p1[1])
        # A quiet zone of white around each marker: the detector needs it to find the black border.
        pad = round(3 * mm)
        canvas[max(0, p1[1] - pad) : p1[1] + side + pad, max(0, p1[0] - pad) : p1[0] + side + pad] = PAPER
        marker = np.asarray(cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1), np.uint8)
        canvas[p1[1] : p1[1] + side, p1[0] : p1[0] + side] = marker[:, :, None]

    if footer:
        # In the empty corner between seat 0's zone and seat 1's: a note and a rule to check the print scale.
        fx, fy = 0.24 * width, 0.80 * height
        lines = (
            f"euchre-table play mat {sheet.name}",
            f"ArUco {markers.dictionary}, ids " + ",".join(str(i) for i in sorted(markers.markers)),
            "print at actual size:",
            "this rule is 80 mm",
        )
        for k, text in enumerate(lines):
            _stamp(canvas, _text_block(text, scale * 0.6, max(1, thick - 1), LINE), (fx, fy + (k - 2) * 5 * mm), 0)
        y = round(fy + 3 * 5 * mm)
        x0, x1 = round(fx - 40 * mm), round(fx + 40 * mm)
        line = max(1, round(0.4 * mm))
        cv2.line(canvas, (x0, y), (x1, y), LINE, line)
        for x in (x0, x1):
            cv2.line(canvas, (x, y - round(1.5 * mm)), (x, y + round(1.5 * mm)), LINE, line)
    return canvas


def _aruco_dictionary(name: str) -> Any:
    from vision.zones import aruco_dictionary

    return aruco_dictionary(name)


def write_mat(
    path: Path,
    size: MatSize | str = "A3",
    dpi: float = DEFAULT_DPI,
    layout: TableLayout | None = None,
    seat_names: Sequence[str] | None = None,
) -> tuple[int, int]:
    """Draw the mat and save it to ``path`` (``.pdf`` or ``.png``); returns the picture's (width, height) in pixels."""
    import cv2

    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise UserError(f"--out {path}: write a .pdf or a .png")
    if not 30 <= dpi <= 1200:
        raise UserError(f"--dpi {dpi}: choose between 30 and 1200")
    image = render_mat(size, dpi / MM_PER_INCH, layout, seat_names)
    if path.parent and not path.parent.exists():
        raise UserError(f"--out {path}: no such folder {path.parent}")
    if suffix == ".png":
        if not cv2.imwrite(str(path), image):
            raise UserError(f"--out {path}: cannot write the picture")
    else:
        from PIL import Image as PILImage

        page = PILImage.fromarray(np.ascontiguousarray(image[:, :, ::-1]))
        try:
            # Pillow sizes the page from the resolution: pixels / dpi inches, so the sheet prints at actual size.
            page.save(path, "PDF", resolution=float(dpi))
        except OSError as exc:
            raise UserError(f"--out {path}: cannot write the PDF ({exc})") from None
    return image.shape[1], image.shape[0]


__all__ = [
    "DEFAULT_DPI",
    "MAT_SIZES",
    "MatSize",
    "marker_layout",
    "mat_size",
    "render_mat",
    "write_mat",
]
