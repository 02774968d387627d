"""The one value that crosses the vision boundary: a card the detector saw in a frame (and how a detail
picture of the frame's view maps onto it)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from table.cards import Card


@dataclass(frozen=True)
class CardDetection:
    """A card seen in one frame.

    ``box`` is (x1, y1, x2, y2) in frame pixels. ``corners`` holds the card's
    corner points where the model gives them. ``frame`` is the frame number.
    ``rival``: for a reading reported to be checked (doubted under the reporting line), the card the reader
    ranked next, which the table is asked to check it against; None for a sure reading, or none ranked.
    """

    card: Card
    confidence: float
    box: tuple[float, float, float, float]
    frame: int
    corners: tuple[tuple[float, float], ...] | None = None
    rival: Card | None = None

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)


def detection_row(d: CardDetection) -> list[object]:
    """``d`` as a JSON-ready row, its frame left out: ``[card, confidence, x1, y1, x2, y2, corners or None]``,
    and its rival last where it has one (the detection cache's and ``simulate --detections``' files; rows
    written before the rival was kept read the same)."""
    row: list[object] = [
        str(d.card), d.confidence, *d.box, [list(p) for p in d.corners] if d.corners is not None else None
    ]
    return row if d.rival is None else [*row, str(d.rival)]


def detection_from_row(row: list[object], frame: int) -> CardDetection:
    """The detection a :func:`detection_row` row holds, in ``frame``; a malformed row raises ``ValueError``,
    ``TypeError`` or ``table.cards.CardParseError``."""
    if len(row) not in (7, 8):
        raise ValueError(f"a detection row holds 7 or 8 values, not {len(row)}")
    card, conf, x1, y1, x2, y2, corners = row[:7]
    pts = tuple((float(p[0]), float(p[1])) for p in corners) if isinstance(corners, list) else None
    return CardDetection(
        Card.parse(str(card)),
        float(conf),  # type: ignore[arg-type]
        (float(x1), float(y1), float(x2), float(y2)),  # type: ignore[arg-type]
        frame,
        pts,
        Card.parse(str(row[7])) if len(row) == 8 else None,
    )


# A detail picture (``vision.onnx_detector.OnnxDetector.detect(detail_bgr=...)``) is read only when it is
# at least this many times larger than the frame each way; one of about the frame's size adds nothing.
MIN_DETAIL_SCALE = 1.2


def detail_scale(
    frame_bgr: npt.NDArray[np.uint8], detail_bgr: npt.NDArray[np.uint8] | None
) -> tuple[float, float] | None:
    """How many of ``detail_bgr``'s pixels make one of ``frame_bgr``'s, across and down; None where there is
    no detail picture or it is not at least :data:`MIN_DETAIL_SCALE` times larger each way (it would add
    nothing). A camera's two streams show the same view, so a picture of another aspect is scaled each way
    on its own."""
    if detail_bgr is None:
        return None
    h, w = frame_bgr.shape[:2]
    dh, dw = detail_bgr.shape[:2]
    if h < 1 or w < 1:
        return None
    sx, sy = dw / w, dh / h
    if min(sx, sy) < MIN_DETAIL_SCALE:
        return None
    return sx, sy


def scaled_detection(d: CardDetection, sx: float, sy: float) -> CardDetection:
    """``d`` with its box and corners scaled by ``sx`` across and ``sy`` down."""
    x1, y1, x2, y2 = d.box
    corners = None if d.corners is None else tuple((x * sx, y * sy) for x, y in d.corners)
    return CardDetection(d.card, d.confidence, (x1 * sx, y1 * sy, x2 * sx, y2 * sy), d.frame, corners, d.rival)
