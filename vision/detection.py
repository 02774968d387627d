"""The one value that crosses the vision boundary: a card the detector saw in a frame."""

from __future__ import annotations

from dataclasses import dataclass

from table.cards import Card


@dataclass(frozen=True)
class CardDetection:
    """A card seen in one frame.

    ``box`` is (x1, y1, x2, y2) in frame pixels. ``corners`` holds the card's
    corner points where the model gives them. ``frame`` is the frame number.
    """

    card: Card
    confidence: float
    box: tuple[float, float, float, float]
    frame: int
    corners: tuple[tuple[float, float], ...] | None = None

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)


def detection_row(d: CardDetection) -> list[object]:
    """``d`` as a JSON-ready row, its frame left out: ``[card, confidence, x1, y1, x2, y2, corners or None]``
    (the detection cache's and ``simulate --detections``' files)."""
    return [str(d.card), d.confidence, *d.box, [list(p) for p in d.corners] if d.corners is not None else None]


def detection_from_row(row: list[object], frame: int) -> CardDetection:
    """The detection a :func:`detection_row` row holds, in ``frame``; a malformed row raises ``ValueError``,
    ``TypeError`` or ``table.cards.CardParseError``."""
    card, conf, x1, y1, x2, y2, corners = row
    pts = tuple((float(p[0]), float(p[1])) for p in corners) if isinstance(corners, list) else None
    return CardDetection(
        Card.parse(str(card)),
        float(conf),  # type: ignore[arg-type]
        (float(x1), float(y1), float(x2), float(y2)),  # type: ignore[arg-type]
        frame,
        pts,
    )
