"""Two later looks of the reader: a squarish outline read turned a quarter, and the paper edge found at a
stricter whiteness where the card touches something as light as its paper."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from table.cards import Card
from vision import cardcrop
from vision.models import default_model_path
from vision.onnx_detector import TURNED_MIN_CONFIDENCE, OnnxDetector, name_outlines
from vision.sources.files import load_image

DEV2 = Path(__file__).resolve().parent / "data" / "dev2-photos"
STRETCHED = DEV2 / "cdz_IMG_20220921_200624.jpg"  # a ten of clubs, the photo stretched to the wrong aspect
BY_A_WALL = DEV2 / "cdz_As-6a2568b8-3992-11ed-a332-ec2e98cc7ff6.jpg"  # an ace of spades held against a face


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1)


def test_a_quarter_turn_takes_a_long_side_of_the_outline_as_the_cards_top() -> None:
    # A landscape outline: 140 wide, 100 tall. Read as it is, its short (upright) sides are the card's top
    # and bottom; turned a quarter, its long sides are. A dark mark near its bottom-right corner is in the
    # turned read's top-left crop, and in no crop of the plain read's top-left.
    frame = np.full((200, 340, 3), 230, np.uint8)
    frame[130:146, 216:234] = 20
    quad = np.array([[100, 50], [240, 50], [240, 150], [100, 150]], np.float32)
    assert cardcrop.outline_ratio(quad) == pytest.approx(100 / 140)
    plain = cardcrop.corner_crops_bgr(frame, quad)
    turned = cardcrop.corner_crops_bgr(frame, quad, quarter_turn=True)
    assert turned[0].min() < 60  # TL of the turned read: the mark
    assert plain[0].min() > 200
    # the same four corners of the outline are cut either way, each from the other side's point of view
    assert sorted(int(c.min() < 60) for c in plain) == sorted(int(c.min() < 60) for c in turned) == [0, 0, 0, 1]


def test_a_card_whose_outline_lies_across_is_read_turned_a_quarter(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = load_image(STRETCHED)
    quads, _ = detector.outlines(frame)
    assert len(quads) == 1 and cardcrop.outline_ratio(quads[0]) >= cardcrop.SQUARISH_RATIO
    assert [str(d.card) for d in detector.detect(frame)] == ["Tc"]
    # read as it lies, its corners show no index: without the turned read nothing is named
    assert detector.classifier is not None
    ((card, _),) = detector.classifier.classify(frame, quads)
    assert card != Card.parse("Tc")
    monkeypatch.setattr(cardcrop, "SQUARISH_RATIO", 1.01)
    assert detector.detect(frame) == []


class ReadsTurned:
    """A calibrated classifier stand-in that names its card only when asked to read an outline turned."""

    calibration = object()
    default_min_confidence = 0.6

    def __init__(self, card: str, chance: float, plain: dict[int, tuple[str, float]] | None = None) -> None:
        self.card, self.chance = Card.parse(card), chance
        self.plain = plain or {}  # outline index -> what its plain read names
        self.turned_asked: list[int] = []

    def classify(
        self, frame: np.ndarray, quads: np.ndarray, refine: bool = True, quarter_turn: bool = False
    ) -> list[tuple[Card | None, float]]:
        if quarter_turn:
            self.turned_asked.append(len(quads))
            return [(self.card, self.chance)] * len(quads)
        return [
            (Card.parse(self.plain[i][0]), self.plain[i][1]) if i in self.plain else (None, 0.9)
            for i in range(len(quads))
        ]

    def read_spreads(self, frame: np.ndarray, quads: np.ndarray) -> list[None]:
        return [None] * len(quads)

    def confidence(self, finder_score: float, classifier_conf: float) -> float:
        return classifier_conf


def outline(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


FRAME = np.zeros((300, 400, 3), np.uint8)
SQUARISH = outline(40, 40, 90, 100)  # 0.9
CARD_SHAPED = outline(220, 40, 71, 100)  # 0.71


def test_only_squarish_outlines_that_name_no_card_are_read_turned() -> None:
    reader = ReadsTurned("Tc", 0.95)
    dets = name_outlines(FRAME, SQUARISH[None], np.array([0.9], np.float32), reader, frame=3)  # type: ignore[arg-type]
    assert [(str(d.card), d.frame) for d in dets] == [("Tc", 3)]
    reader = ReadsTurned("Tc", 0.95)
    assert name_outlines(FRAME, CARD_SHAPED[None], np.array([0.9], np.float32), reader, frame=3) == []  # type: ignore[arg-type]
    assert reader.turned_asked == []
    # an outline already named is not read again
    reader = ReadsTurned("Tc", 0.95, plain={0: ("9h", 0.9)})
    dets = name_outlines(FRAME, SQUARISH[None], np.array([0.9], np.float32), reader, frame=3)  # type: ignore[arg-type]
    assert [str(d.card) for d in dets] == ["9h"] and reader.turned_asked == []
    reader = ReadsTurned("Tc", 0.95)
    assert name_outlines(FRAME, SQUARISH[None], np.array([0.9], np.float32), reader, frame=3, turn_squarish=False) == []  # type: ignore[arg-type]


def test_a_turned_read_under_its_line_or_repeating_a_card_is_not_reported() -> None:
    reader = ReadsTurned("Tc", TURNED_MIN_CONFIDENCE - 0.05)
    assert name_outlines(FRAME, SQUARISH[None], np.array([0.9], np.float32), reader, frame=0) == []  # type: ignore[arg-type]
    # the card-shaped outline names the ten already: the squarish one does not name it again
    reader = ReadsTurned("Tc", 0.95, plain={1: ("Tc", 0.9)})
    outlines = np.stack([SQUARISH, CARD_SHAPED])
    dets = name_outlines(FRAME, outlines, np.array([0.9, 0.9], np.float32), reader, frame=0)  # type: ignore[arg-type]
    assert [str(d.card) for d in dets] == ["Tc"] and dets[0].box[0] > 200


def test_the_paper_edge_is_found_at_a_stricter_whiteness_where_the_card_touches_a_light_face(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = load_image(BY_A_WALL)
    quads, scores = detector.outlines(frame)
    box = cardcrop.order_corners(quads[int(np.argmax(scores))])
    snapped = cardcrop.refine_quad(frame, box)
    assert not np.allclose(snapped, box)
    # well inside the finder's loose box (which takes in the shirt below the card and the face beside it)
    def area(q: np.ndarray) -> float:
        d1, d2 = q[2] - q[0], q[3] - q[1]  # the diagonals
        return abs(float(d1[0] * d2[1] - d1[1] * d2[0])) / 2

    assert area(snapped) < 0.75 * area(box)
    assert snapped[:, 0].min() >= box[:, 0].min() - 5 and snapped[:, 1].max() <= box[:, 1].max() + 5
    assert [str(d.card) for d in detector.detect(frame)] == ["As"]
    # at the plain threshold the card, the face and the wall are one light blob: no card-shaped edge
    monkeypatch.setattr(cardcrop, "REFINE_WHITE_LEVELS", ())
    assert np.allclose(cardcrop.refine_quad(frame, box), box)
    # (the photo is stretched too, so the box is squarish: the turned read names the ace from it as well)
    assert [str(d.card) for d in detector.detect(frame)] == ["As"]
    monkeypatch.setattr(cardcrop, "SQUARISH_RATIO", 1.01)
    assert "As" not in [str(d.card) for d in detector.detect(frame)]
