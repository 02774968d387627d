"""A card read with its twin close behind (``cardcrop.TWIN_DOUBT``) is reported under the reading line, to be
checked, where it reached that line before the doubt (``vision.onnx_detector.name_outlines``' ``_to_check``)."""

from __future__ import annotations

import numpy as np
import pytest
from detector_testkit import TINY, card_frame

from table.cards import Card
from vision import cardcrop
from vision.onnx_detector import CornerClassifier, name_outlines

FLOOR = 0.6
approx = pytest.approx


def quad(x: float) -> np.ndarray:
    return np.array([[x, 10], [x + 40, 10], [x + 40, 66], [x, 66]], np.float32)


class ReadsEach:
    """A calibrated classifier stand-in: outline k reads as ``readings[k]`` (card, share after the twin doubt,
    share before it); the calibration is the share itself."""

    calibration = object()
    default_min_confidence = FLOOR
    profile = None

    def __init__(self, *readings: tuple[str | None, float, float] | tuple[str | None, float, float, str]) -> None:
        self.readings = [
            (Card.parse(r[0]) if r[0] else None, r[1], r[2], Card.parse(r[3]) if len(r) == 4 else None)
            for r in readings
        ]

    def classify(
        self, frame: np.ndarray, quads: np.ndarray, refine: bool = True, polarity_apart: bool = True
    ) -> list[tuple[Card | None, float, float, Card | None]]:
        assert len(quads) == len(self.readings)
        return list(self.readings)

    def read_spreads(self, frame: np.ndarray, quads: np.ndarray) -> list[None]:
        return [None] * len(quads)

    def confidence(self, finder_score: float, classifier_conf: float) -> float:
        return classifier_conf


def read(*readings: tuple[str | None, float, float]) -> list[tuple[str, float]]:
    frame = np.zeros((80, 200, 3), np.uint8)
    quads = np.stack([quad(5 + 48 * k) for k in range(len(readings))])
    scores = np.full(len(readings), 0.9, np.float32)
    dets = name_outlines(frame, quads, scores, ReadsEach(*readings), frame=0, second_look=False, complete_cut=False)  # type: ignore[arg-type]
    return [(str(d.card), d.confidence) for d in dets]


def test_a_card_the_twin_doubt_took_under_the_line_is_reported_to_be_checked() -> None:
    # Ks read at 0.8 before the doubt, 0.4 after: reported at 0.8 x the line, under it.
    assert read(("Ks", 0.4, 0.8)) == [("Ks", approx(0.8 * FLOOR))]
    # Surer before the doubt, higher under the line: the order of the readings is kept.
    assert read(("Ks", 0.4, 0.95)) == [("Ks", approx(0.95 * FLOOR))]
    # Whatever the reading before the doubt, it stays under the line.
    [(_, conf)] = read(("Ks", 0.4, 1.0))
    assert conf < FLOOR


def test_only_a_reading_the_doubt_took_under_the_line_is_reported_so() -> None:
    assert read(("Ks", 0.5, 0.55)) == []  # under the line before the doubt too
    assert read(("Ks", 0.5, 0.5)) == []  # no twin split: a weak reading, not reported
    assert read(("Ks", 0.7, 0.9)) == [("Ks", approx(0.7))]  # still over the line after the doubt: a sure reading
    assert read((None, 0.9, 0.9)) == []


def test_a_card_read_surely_elsewhere_is_not_reported_again_to_be_checked() -> None:
    assert read(("Ks", 0.9, 0.9), ("Ks", 0.4, 0.8)) == [("Ks", approx(0.9))]
    # Two outlines split the same way on one card: it is reported once, the likelier first.
    assert read(("Kd", 0.3, 0.7), ("Kd", 0.4, 0.8)) == [("Kd", approx(0.8 * FLOOR))]
    # Two cards, each split: both to be checked.
    assert sorted(read(("Kd", 0.3, 0.7), ("9c", 0.4, 0.8))) == [("9c", approx(0.48)), ("Kd", approx(0.42))]


def test_a_reading_reported_to_be_checked_names_the_card_the_vote_ranked_next() -> None:
    frame = np.zeros((80, 200, 3), np.uint8)
    quads = np.stack([quad(5), quad(53)])
    scores = np.full(2, 0.9, np.float32)
    classifier = ReadsEach(("Kd", 0.4, 0.8, "Ks"), ("9c", 0.9, 0.9, "9s"))
    dets = name_outlines(frame, quads, scores, classifier, frame=0, second_look=False, complete_cut=False)  # type: ignore[arg-type]
    by_card = {str(d.card): d for d in dets}
    assert by_card["Kd"].confidence < FLOOR and by_card["Kd"].rival == Card.parse("Ks")  # checked against it
    assert by_card["9c"].rival is None  # a sure reading names no rival


@pytest.mark.parametrize("doubt", [1.0, 2.0])
def test_the_classifier_gives_the_reading_before_the_doubt_beside_the_one_after(
    monkeypatch: pytest.MonkeyPatch, doubt: float
) -> None:
    classifier = CornerClassifier(TINY / "corner-cls.onnx", threads=1)
    frame = card_frame((20, 20, 220))
    from detector_testkit import CARD_ANGLE, CARD_XYWH

    from vision import postprocess as pp

    q = pp.rotated_corners(np.array([CARD_XYWH], np.float32), np.array([CARD_ANGLE], np.float32))
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 0.0)
    monkeypatch.setattr(cardcrop, "RANK_DOUBT", 0.0)
    [(card0, conf0, before0, _)] = classifier.classify(frame, q)
    assert card0 is not None and conf0 == before0  # no doubt: the two are one
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", doubt)
    [(card, conf, before, rival)] = classifier.classify(frame, q)
    assert card == card0
    assert before == pytest.approx(conf0)  # the share before the doubt is the undoubted reading's
    assert conf <= before
    assert rival is not None and rival != card  # the card the vote ranks next, which a check names


def test_the_share_before_the_doubt_is_the_share_with_the_doubt_off(monkeypatch: pytest.MonkeyPatch) -> None:
    mix = np.array([0.6, 0.35, 0.05], np.float32)  # Ks, Kc (its twin), 9h
    twins = (1, 0, 2)
    for evidence in (None, np.array([0.5, 0.4, 0.1])):
        monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 0.0)
        off = cardcrop.weigh_by_face(mix, evidence, twins=twins)
        monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
        best, share, before = cardcrop.weighed_shares(mix, evidence, twins=twins)
        assert (best, before) == off and share < before  # split with its twin: doubted, the card kept


class PrintsKingsAlike:
    """A deck profile stand-in whose deck prints the kings of diamonds and spades alike (every suit in one ink)."""

    reads_benny_faces = False
    holds_benny = False

    def prints_alike(self, card: str) -> bool:
        return card in {"Kd", "Ks"}


def test_a_card_printed_alike_with_a_cousin_is_checked_from_lower_down() -> None:
    from vision.onnx_detector import DOUBTED_CHECK_SHARE

    def read_alike(*readings: tuple[str | None, float, float]) -> list[tuple[str, float]]:
        classifier = ReadsEach(*readings)
        classifier.profile = PrintsKingsAlike()  # type: ignore[assignment]
        frame = np.zeros((80, 200, 3), np.uint8)
        quads = np.stack([quad(5 + 48 * k) for k in range(len(readings))])
        scores = np.full(len(readings), 0.9, np.float32)
        dets = name_outlines(frame, quads, scores, classifier, frame=0, second_look=False, complete_cut=False)  # type: ignore[arg-type]
        return [(str(d.card), d.confidence) for d in dets]

    low = FLOOR * DOUBTED_CHECK_SHARE  # 0.36
    # A one-ink king of diamonds the doubt between cousins took from 0.45 to 0.3: under the line before the doubt,
    # but from the lower line up, so reported to be checked, at 0.45 x the line.
    assert read_alike(("Kd", 0.3, 0.45)) == [("Kd", approx(0.45 * FLOOR))]
    assert read(("Kd", 0.3, 0.45)) == []  # a deck that prints no cousin alike: from the line itself, as before
    assert read_alike(("9c", 0.3, 0.45)) == []  # a card the deck prints unlike any cousin: from the line itself
    assert read_alike(("Ks", 0.2, low - 0.01)) == []  # under the lower line too
    assert read_alike(("Ks", 0.3, 0.3)) == []  # no doubt: a weak reading, not reported
