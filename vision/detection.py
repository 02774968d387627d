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
