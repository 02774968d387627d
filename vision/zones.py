"""Table geometry: where each zone lies on the mat, and the camera-to-mat homography.

Mat coordinates are normalised: ``(0, 0)`` is the mat's (or table's) top-left
corner as the camera sees it when set up square, ``(1, 1)`` the bottom-right,
``x`` to the right and ``y`` down. A ``Calibration`` maps camera pixels there,
from four table corners clicked by hand or from the ArUco markers printed on
the mat. A ``TableLayout`` says which zone a mat point is in: the play zone in
front of each seat (seats 0-3 clockwise, seen from above), the kitty with its
up-card, and the shared trick pile in the middle.

Only numpy is imported here; OpenCV is imported by the marker functions that
need it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.errors import UserError
from vision.observations import KITTY, TRICK, Zone

Point = tuple[float, float]

# Edge positions of the seat zones, clockwise seen from above: bottom, left, top, right.
EDGE_NAMES = ("bottom", "left", "top", "right")


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in mat coordinates; contains its top/left edges, not its bottom/right."""

    x1: float
    y1: float
    x2: float
    y2: float

    def __post_init__(self) -> None:
        if not (self.x1 < self.x2 and self.y1 < self.y2):
            raise ValueError(f"an empty rectangle: {self}")

    def contains(self, point: Point) -> bool:
        x, y = point
        return self.x1 <= x < self.x2 and self.y1 <= y < self.y2

    def overlaps(self, other: Rect) -> bool:
        return self.x1 < other.x2 and other.x1 < self.x2 and self.y1 < other.y2 and other.y1 < self.y2

    def quarter_turns(self, turns: int) -> Rect:
        """This rectangle turned clockwise (as seen on screen) about the mat centre."""
        r = self
        for _ in range(turns % 4):
            # (x, y) -> (1 - y, x) is a clockwise quarter turn with y pointing down.
            r = Rect(1.0 - r.y2, r.x1, 1.0 - r.y1, r.x2)
        return r

    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        return ((self.x1, self.y1), (self.x2, self.y1), (self.x2, self.y2), (self.x1, self.y2))

    @property
    def center(self) -> Point:
        return ((self.x1 + self.x2) / 2.0, (self.y1 + self.y2) / 2.0)

    def to_list(self) -> list[float]:
        return [self.x1, self.y1, self.x2, self.y2]

    @classmethod
    def from_list(cls, values: Sequence[float]) -> Rect:
        x1, y1, x2, y2 = (float(v) for v in values)
        return cls(x1, y1, x2, y2)


@dataclass(frozen=True)
class TableLayout:
    """The zones of the mat.

    ``seat_zone`` is the play zone at the bottom edge; the other three are it
    turned a quarter, half and three quarters clockwise. ``rotation`` (0-3,
    quarter turns clockwise) says at which edge seat 0 sits: 0 bottom, 1 left,
    2 top, 3 right; seat ``s`` sits ``s`` edges further clockwise. The kitty
    and the trick area are printed on the mat and do not move with it. No two
    zones may overlap (for the seat zones: ``seat_zone.x1 >= 1 - seat_zone.y1``).
    """

    rotation: int = 0
    seat_zone: Rect = field(default=Rect(0.36, 0.64, 0.64, 0.90))
    trick_zone: Rect = field(default=Rect(0.37, 0.37, 0.63, 0.63))
    kitty_zone: Rect = field(default=Rect(0.70, 0.14, 0.86, 0.30))

    def __post_init__(self) -> None:
        if self.rotation not in (0, 1, 2, 3):
            raise ValueError(f"rotation is a number of quarter turns, 0-3: {self.rotation}")
        items = list(self.zone_rects().items())
        for i, (zone_a, a) in enumerate(items):
            for zone_b, b in items[i + 1 :]:
                if a.overlaps(b):
                    raise ValueError(f"zones {zone_a} and {zone_b} overlap: {a.to_list()} and {b.to_list()}")

    def edge_of_seat(self, seat: int) -> int:
        """Index into ``EDGE_NAMES`` of the edge ``seat`` sits at."""
        return (seat + self.rotation) % 4

    def zone_rects(self) -> dict[Zone, Rect]:
        """Every zone with its rectangle, seat zones first (also what a mat drawing needs)."""
        rects = {Zone.of_seat(s): self.seat_zone.quarter_turns(self.edge_of_seat(s)) for s in range(4)}
        rects[TRICK] = self.trick_zone
        rects[KITTY] = self.kitty_zone
        return rects

    def seat_side(self, point: Point, band: float = 0.4, margin: float = 0.1) -> int | None:
        """The seat whose side of the mat ``point`` clearly lies on, or ``None`` where that is not clear.

        Clearly: within ``band`` of that seat's edge, nearer to it than to any other edge by at least
        ``margin`` (so not near a corner, where two seats meet), and in no zone but that seat's own play
        zone (not the kitty, the trick pile or another seat's zone).
        """
        x, y = point
        by_edge = sorted(((1.0 - y, 0), (x, 1), (y, 2), (1.0 - x, 3)))  # (distance, edge), edges as EDGE_NAMES
        (d1, edge), (d2, _) = by_edge[0], by_edge[1]
        if d1 > band or d2 - d1 < margin:
            return None
        seat = (edge - self.rotation) % 4
        zone = self.zone_at(point)
        if zone is not None and zone != Zone.of_seat(seat):
            return None
        return seat

    def zone_at(self, point: Point) -> Zone | None:
        """The zone a mat point lies in, or ``None`` outside every zone."""
        for zone, rect in self._rects.items():
            if rect.contains(point):
                return zone
        return None

    @property
    def _rects(self) -> dict[Zone, Rect]:
        # Cached on first use; the dataclass is frozen so the cache never goes stale.
        cached: dict[Zone, Rect] | None = self.__dict__.get("_rects_cache")
        if cached is None:
            cached = self.zone_rects()
            object.__setattr__(self, "_rects_cache", cached)
        return cached

    def to_dict(self) -> dict[str, Any]:
        return {
            "rotation": self.rotation,
            "seat_zone": self.seat_zone.to_list(),
            "trick_zone": self.trick_zone.to_list(),
            "kitty_zone": self.kitty_zone.to_list(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "table layout") -> TableLayout:
        try:
            default = cls()
            return cls(
                rotation=int(data.get("rotation", 0)),
                seat_zone=Rect.from_list(data["seat_zone"]) if "seat_zone" in data else default.seat_zone,
                trick_zone=Rect.from_list(data["trick_zone"]) if "trick_zone" in data else default.trick_zone,
                kitty_zone=Rect.from_list(data["kitty_zone"]) if "kitty_zone" in data else default.kitty_zone,
            )
        except (TypeError, ValueError, KeyError) as exc:
            raise UserError(f"{where}: {exc}") from None


FloatArray = npt.NDArray[np.float64]


def fit_homography(src: Sequence[Point], dst: Sequence[Point]) -> FloatArray:
    """The 3x3 homography taking ``src`` points to ``dst`` (least squares over four or more pairs).

    Direct linear transform on Hartley-normalised points, so pixel and mat
    scales do not spoil the conditioning.
    """
    if len(src) != len(dst) or len(src) < 4:
        raise ValueError(f"a homography needs at least four point pairs, got {len(src)} and {len(dst)}")
    a = np.asarray(src, dtype=np.float64)
    b = np.asarray(dst, dtype=np.float64)
    ta, tb = _normaliser(a), _normaliser(b)
    an = _apply(ta, a)
    bn = _apply(tb, b)
    rows = []
    for (x, y), (u, v) in zip(an, bn, strict=True):
        rows.append([-x, -y, -1.0, 0.0, 0.0, 0.0, u * x, u * y, u])
        rows.append([0.0, 0.0, 0.0, -x, -y, -1.0, v * x, v * y, v])
    _, singular, vt = np.linalg.svd(np.asarray(rows))
    if singular[-2] < 1e-9:
        raise ValueError("the points are degenerate (three or more in a line): no homography")
    hn = vt[-1].reshape(3, 3)
    h: FloatArray = np.linalg.inv(tb) @ hn @ ta
    result: FloatArray = h / h[2, 2]
    return result


def _normaliser(points: FloatArray) -> FloatArray:
    mean = points.mean(axis=0)
    spread = float(np.sqrt(((points - mean) ** 2).sum(axis=1)).mean())
    s = math.sqrt(2.0) / spread if spread > 0 else 1.0
    return np.array([[s, 0.0, -s * mean[0]], [0.0, s, -s * mean[1]], [0.0, 0.0, 1.0]])


def _apply(h: FloatArray, points: FloatArray) -> FloatArray:
    ones = np.ones((points.shape[0], 1))
    p = np.hstack([points, ones]) @ h.T
    result: FloatArray = p[:, :2] / p[:, 2:3]
    return result


UNIT_SQUARE: tuple[Point, Point, Point, Point] = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


@dataclass(frozen=True)
class Calibration:
    """Camera pixels to mat coordinates: a homography, kept as nine floats (row-major).

    ``source`` records how it was made (``"corners"``, ``"markers"``), for the
    config file and the display.
    """

    homography: tuple[float, ...]
    source: str = "corners"

    def __post_init__(self) -> None:
        if len(self.homography) != 9 or not all(math.isfinite(v) for v in self.homography):
            raise ValueError(f"a homography is nine finite numbers: {self.homography}")
        if abs(float(np.linalg.det(self.matrix))) < 1e-15:
            raise ValueError("a singular homography maps the picture to a line")

    @classmethod
    def from_matrix(cls, matrix: FloatArray | Sequence[Sequence[float]], source: str = "corners") -> Calibration:
        m = np.asarray(matrix, dtype=np.float64)
        if m.shape != (3, 3):
            raise ValueError(f"a homography is a 3x3 matrix, got shape {m.shape}")
        m = m / m[2, 2]
        return cls(tuple(float(v) for v in m.ravel()), source)

    @classmethod
    def from_corners(cls, image_corners: Sequence[Point], mat_corners: Sequence[Point] = UNIT_SQUARE) -> Calibration:
        """From the four table (or mat) corners clicked in the camera picture.

        ``image_corners`` go top-left, top-right, bottom-right, bottom-left of
        the mat, so they meet ``mat_corners`` in that order.
        """
        if len(image_corners) != 4:
            raise ValueError(f"four corners, please: got {len(image_corners)}")
        return cls.from_matrix(fit_homography(image_corners, mat_corners), "corners")

    @property
    def matrix(self) -> FloatArray:
        return np.asarray(self.homography, dtype=np.float64).reshape(3, 3)

    def to_mat(self, x: float, y: float) -> Point:
        """A camera pixel's mat coordinates (plain floats: the tracker calls this per detection)."""
        h = self.homography
        w = h[6] * x + h[7] * y + h[8]
        return ((h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w)

    def to_image(self, u: float, v: float) -> Point:
        """A mat point's camera pixel (for drawing zones over the picture)."""
        p = np.linalg.inv(self.matrix) @ np.array([u, v, 1.0])
        return (float(p[0] / p[2]), float(p[1] / p[2]))

    def to_dict(self) -> dict[str, Any]:
        m = self.matrix
        return {"source": self.source, "homography": [[float(v) for v in row] for row in m]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "calibration") -> Calibration:
        try:
            return cls.from_matrix(data["homography"], str(data.get("source", "corners")))
        except KeyError:
            raise UserError(f"{where}: no 'homography' (a 3x3 list of numbers)") from None
        except (TypeError, ValueError) as exc:
            raise UserError(f"{where}: {exc}") from None


def save_table(path: Path, calibration: Calibration, layout: TableLayout) -> None:
    """Write the calibration and layout as one small JSON file."""
    data = {"calibration": calibration.to_dict(), "layout": layout.to_dict()}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def load_table(path: Path) -> tuple[Calibration, TableLayout]:
    """Read what ``save_table`` wrote; a missing or malformed file is a ``UserError`` naming it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read table calibration {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or "calibration" not in data:
        raise UserError(f"{path}: expected an object with 'calibration' (and optionally 'layout')")
    calibration = Calibration.from_dict(data["calibration"], f"{path}: calibration")
    layout = TableLayout.from_dict(data.get("layout", {}), f"{path}: layout")
    return calibration, layout


# ---- ArUco markers on a printed mat ----

Quad = tuple[Point, Point, Point, Point]


@dataclass(frozen=True)
class MarkerLayout:
    """Where the printed ArUco markers are, in mat coordinates.

    ``markers`` maps a marker id to its four corners in ArUco's order
    (the marker's own top-left, top-right, bottom-right, bottom-left).
    """

    dictionary: str
    markers: Mapping[int, Quad]

    @classmethod
    def for_sheet(
        cls,
        width_mm: float,
        height_mm: float,
        marker_mm: float = 40.0,
        margin_mm: float = 10.0,
        ids: tuple[int, int, int, int] = (0, 1, 2, 3),
        dictionary: str = "DICT_4X4_50",
    ) -> MarkerLayout:
        """Upright markers in the four corners of a sheet (ids top-left, top-right, bottom-right, bottom-left).

        The mat drawing and the detector both call this, so they agree.
        """
        if marker_mm <= 0 or margin_mm < 0 or 2 * (marker_mm + margin_mm) >= min(width_mm, height_mm):
            raise ValueError(f"markers of {marker_mm} mm with {margin_mm} mm margins do not fit {width_mm}x{height_mm}")
        left, top = margin_mm, margin_mm
        right, bottom = width_mm - margin_mm - marker_mm, height_mm - margin_mm - marker_mm
        origins = ((left, top), (right, top), (right, bottom), (left, bottom))
        markers: dict[int, Quad] = {}
        for marker_id, (ox, oy) in zip(ids, origins, strict=True):
            x1, y1 = ox / width_mm, oy / height_mm
            x2, y2 = (ox + marker_mm) / width_mm, (oy + marker_mm) / height_mm
            markers[marker_id] = ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
        return cls(dictionary, markers)


def aruco_dictionary(name: str) -> Any:
    """OpenCV's predefined ArUco dictionary called ``name`` (``"DICT_4X4_50"``)."""
    import cv2

    code = getattr(cv2.aruco, name, None)
    if not isinstance(code, int) or not name.startswith("DICT_"):
        raise UserError(f"not an ArUco dictionary: {name!r} (for example DICT_4X4_50)")
    return cv2.aruco.getPredefinedDictionary(code)


def detect_markers(image: npt.NDArray[np.uint8], dictionary: str = "DICT_4X4_50") -> dict[int, FloatArray]:
    """ArUco markers in a picture: id -> 4x2 corner pixels (ArUco's corner order)."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), cv2.aruco.DetectorParameters())
    corners, ids, _rejected = detector.detectMarkers(gray)
    found: dict[int, FloatArray] = {}
    if ids is None:
        return found
    for marker_id, quad in zip(ids.ravel().tolist(), corners, strict=True):
        found[int(marker_id)] = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    return found


def calibration_from_markers(
    image: npt.NDArray[np.uint8],
    layout: MarkerLayout,
    min_markers: int = 2,
    max_error: float = 0.01,
) -> Calibration | None:
    """The homography from the mat's markers in one picture, or ``None`` if too few are seen.

    Uses every corner of every known marker found (a hand over one corner is
    fine with ``min_markers`` of the four seen). A fit whose corners miss
    their printed places by more than ``max_error`` (mat units) is refused, so
    a misread marker cannot bend the mat.
    """
    found = detect_markers(image, layout.dictionary)
    src: list[Point] = []
    dst: list[Point] = []
    count = 0
    for marker_id, quad in found.items():
        if marker_id not in layout.markers:
            continue
        count += 1
        src.extend((float(x), float(y)) for x, y in quad)
        dst.extend(layout.markers[marker_id])
    if count < max(1, min_markers):
        return None
    try:
        h = fit_homography(src, dst)
    except ValueError:
        return None
    error = float(np.abs(_apply(h, np.asarray(src)) - np.asarray(dst)).max())
    if error > max_error:
        return None
    return Calibration.from_matrix(h, "markers")


class MarkerRefresher:
    """Re-measures the mat from its markers every ``every`` frames, so a nudged camera or mat keeps working.

    ``update`` returns the newest good calibration (or ``fallback`` until the
    markers are first seen); a picture where too few markers show (a hand
    over them) keeps the last good one. The tracker works in mat
    coordinates, so swapping its calibration mid-game is safe.
    """

    def __init__(
        self, layout: MarkerLayout, every: int = 15, fallback: Calibration | None = None, min_markers: int = 2
    ) -> None:
        if every < 1:
            raise ValueError(f"every must be at least 1 frame: {every}")
        self.layout = layout
        self.every = every
        self.min_markers = min_markers
        self.calibration = fallback
        self._last_try: int | None = None

    def update(self, image: npt.NDArray[np.uint8], frame: int) -> Calibration | None:
        if self._last_try is None or frame - self._last_try >= self.every:
            self._last_try = frame
            found = calibration_from_markers(image, self.layout, self.min_markers)
            if found is not None:
                self.calibration = found
        return self.calibration
