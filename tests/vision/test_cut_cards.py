"""A card cut by the frame's edge: its outline is completed beyond the edge to a whole card's shape and its
corners still in the frame are read again (``vision.cardcrop.completed_outlines``,
``vision.onnx_detector.name_outlines``)."""

from __future__ import annotations

import numpy as np
import pytest

from table.cards import Card
from vision import cardcrop
from vision.onnx_detector import CUT_CARD_MIN_CONFIDENCE, name_outlines

FRAME_W, FRAME_H = 320, 240
LONG, SHORT = 112.0, 80.0  # a card's sides: 80 / 112 = 0.714


def rect(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def turned(quad: np.ndarray, angle: float, centre: tuple[float, float]) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]], np.float32)
    return ((quad - centre) @ rot.T + centre).astype(np.float32)


def same_outline(a: np.ndarray, b: np.ndarray, tol: float = 1.0) -> bool:
    return bool(np.abs(cardcrop.order_corners(a) - cardcrop.order_corners(b)).max() <= tol)


def test_an_outline_inside_the_frame_is_not_completed() -> None:
    assert cardcrop.completed_outlines(rect(100, 60, SHORT, LONG), FRAME_W, FRAME_H) == []
    # near the edge but not on it
    assert cardcrop.completed_outlines(rect(FRAME_W - 1 - SHORT - 10, 60, SHORT, LONG), FRAME_W, FRAME_H) == []


@pytest.mark.parametrize(
    ("whole", "visible"),
    [
        # a card lying on its long side, cut by the right edge: what shows is nearly square
        (rect(250, 90, LONG, SHORT), rect(250, 90, FRAME_W - 1 - 250, SHORT)),
        # standing up, cut by the bottom edge
        (rect(40, 170, SHORT, LONG), rect(40, 170, SHORT, FRAME_H - 1 - 170)),
        # on its long side, cut by the left edge
        (rect(-50, 20, LONG, SHORT), rect(0, 20, LONG - 50, SHORT)),
    ],
)
def test_a_cut_outline_is_completed_to_the_whole_card(whole: np.ndarray, visible: np.ndarray) -> None:
    ways = cardcrop.completed_outlines(visible, FRAME_W, FRAME_H)
    assert any(same_outline(w, whole) for w in ways), ways
    for w in ways:  # every way keeps the visible part and is a card's shape
        sides = sorted([float(np.linalg.norm(w[1] - w[0])), float(np.linalg.norm(w[3] - w[0]))])
        assert sides[0] / sides[1] == pytest.approx(cardcrop.CARD_ASPECT, abs=0.01)
        assert w.min(axis=0)[0] <= visible.min(axis=0)[0] + 0.5 and w.max(axis=0)[0] >= visible.max(axis=0)[0] - 0.5
    # The corner still in the frame is then cut where the whole card's is.
    frame = np.random.default_rng(0).integers(0, 255, (FRAME_H, FRAME_W, 3), dtype=np.uint8)
    best = min(ways, key=lambda w: float(np.abs(w - cardcrop.order_corners(whole)).max()))
    inside = [k for k, p in enumerate(cardcrop.order_corners(whole)) if 0 <= p[0] < FRAME_W and 0 <= p[1] < FRAME_H]
    assert inside
    for k in inside:
        got = cardcrop.corner_crops_bgr(frame, best, corners=(k,))[0].astype(int)
        want = cardcrop.corner_crops_bgr(frame, whole, corners=(k,))[0].astype(int)
        assert np.abs(got - want).mean() < 3.0


def test_a_turned_card_whose_outline_only_touches_the_edge_at_a_corner_is_not_completed() -> None:
    # Only a side lying along the edge says the card goes on beyond it; a corner on the edge does not.
    centre = (160.0, 60.0)
    q = turned(rect(centre[0] - SHORT / 2, centre[1] - LONG / 2, SHORT, LONG), 0.5, centre)
    q = q - (0.0, float(q[:, 1].min()))  # its top corner on the frame's top edge
    assert cardcrop.completed_outlines(q, FRAME_W, FRAME_H) == []


class ReadsWholeCards:
    """A calibrated classifier stand-in that names a card only from an outline of a card's shape reaching
    beyond the frame (a completed cut card); any other outline shows no index."""

    calibration = object()
    default_min_confidence = 0.6

    def __init__(self, card: str, chance: float) -> None:
        self.card, self.chance = Card.parse(card), chance
        self.asked: list[int] = []
        self.apart: list[bool] = []

    def classify(
        self, frame: np.ndarray, quads: np.ndarray, refine: bool = True, polarity_apart: bool = True
    ) -> list[tuple[Card | None, float, float, Card | None]]:
        self.asked.append(len(quads))
        self.apart.append(polarity_apart)
        out: list[tuple[Card | None, float, float, Card | None]] = []
        h, w = frame.shape[:2]
        for q in quads:
            sides = sorted([float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0]))])
            whole = abs(sides[0] / sides[1] - cardcrop.CARD_ASPECT) < 0.02
            beyond = q.min() < -1 or q[:, 0].max() > w or q[:, 1].max() > h
            out.append((self.card, self.chance, self.chance, None) if whole and beyond else (None, 0.9, 0.9, None))
        return out

    def read_spreads(self, frame: np.ndarray, quads: np.ndarray) -> list[None]:
        return [None] * len(quads)

    def confidence(self, finder_score: float, classifier_conf: float) -> float:
        return classifier_conf


def cut_outline() -> np.ndarray:
    return rect(250, 90, FRAME_W - 1 - 250, SHORT)


def test_a_cut_card_is_read_from_its_completed_outline() -> None:
    frame = np.zeros((FRAME_H, FRAME_W, 3), np.uint8)
    scores = np.array([0.9], np.float32)
    reader = ReadsWholeCards("9d", 0.95)
    dets = name_outlines(frame, cut_outline()[None], scores, reader, frame=4)  # type: ignore[arg-type]
    assert [(str(d.card), d.frame) for d in dets] == [("9d", 4)]
    assert dets[0].box[2] <= FRAME_W  # the box is clipped to the frame
    # the first look reads a dark card's two ways apart; the completions, the surest of many tries, pool them
    assert reader.apart == [True, False]
    assert name_outlines(frame, cut_outline()[None], scores, reader, frame=4, complete_cut=False) == []  # type: ignore[arg-type]


@pytest.mark.parametrize("chance", [CUT_CARD_MIN_CONFIDENCE - 0.05, 0.65])
def test_a_cut_card_read_less_surely_than_its_line_is_not_reported(chance: float) -> None:
    frame = np.zeros((FRAME_H, FRAME_W, 3), np.uint8)
    reader = ReadsWholeCards("9d", chance)
    assert name_outlines(frame, cut_outline()[None], np.array([0.9], np.float32), reader, frame=0) == []  # type: ignore[arg-type]


def test_only_outlines_on_the_edge_that_name_no_card_are_completed() -> None:
    frame = np.zeros((FRAME_H, FRAME_W, 3), np.uint8)
    inside = rect(60, 60, SHORT, LONG)
    reader = ReadsWholeCards("9d", 0.95)
    assert name_outlines(frame, inside[None], np.array([0.9], np.float32), reader, frame=0) == []  # type: ignore[arg-type]
    assert reader.asked == [1]  # the first look only: nothing on the edge to complete


def test_a_completed_outline_does_not_repeat_a_card_already_reported() -> None:
    class SameCard(ReadsWholeCards):
        def classify(
            self, frame: np.ndarray, quads: np.ndarray, refine: bool = True, polarity_apart: bool = True
        ) -> list[tuple[Card | None, float, float, Card | None]]:
            out = super().classify(frame, quads, refine, polarity_apart)
            # the card inside the frame reads as the very card the cut one would be completed into
            inside = [bool(q.min() > 10 and q.max() < 200) for q in quads]
            return [(self.card, 0.95, 0.95, None) if k else r for k, r in zip(inside, out, strict=True)]

    frame = np.zeros((FRAME_H, FRAME_W, 3), np.uint8)
    outlines = np.stack([rect(20, 60, SHORT, LONG), cut_outline()])
    dets = name_outlines(frame, outlines, np.array([0.9, 0.9], np.float32), SameCard("9d", 0.95), frame=0)  # type: ignore[arg-type]
    assert [str(d.card) for d in dets] == ["9d"]
    assert dets[0].box[0] < 100  # the one inside the frame
