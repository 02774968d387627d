"""A card judged printed light on dark paper is named surely only from a line of its own
(``vision.onnx_detector.DARK_CARD_MIN_CONFIDENCE``); read from the reporting line up to it, it is reported to be
checked, under the line, so the engine asks the table and proves no renege with it."""

from __future__ import annotations

import numpy as np
import pytest

from table.cards import Card
from vision.onnx_detector import DARK_CARD_MIN_CONFIDENCE, name_outlines

FLOOR = 0.6
approx = pytest.approx


class ReadsEach:
    """A calibrated classifier stand-in: outline k reads as ``readings[k]`` (card, share, judged dark); the
    calibration is the share itself."""

    calibration = object()
    default_min_confidence = FLOOR
    profile = None

    def __init__(self, *readings: tuple[str, float, bool]) -> None:
        self.readings = [(Card.parse(c), p, p) for c, p, _ in readings]
        self.dark = [d for _, _, d in readings]
        self.dark_outlines: list[bool] = []

    def classify(
        self, frame: np.ndarray, quads: np.ndarray, refine: bool = True, polarity_apart: bool = True
    ) -> list[tuple[Card | None, float, float]]:
        assert len(quads) == len(self.readings)
        self.dark_outlines = list(self.dark)
        return list(self.readings)

    def read_spreads(self, frame: np.ndarray, quads: np.ndarray) -> list[None]:
        return [None] * len(quads)

    def confidence(self, finder_score: float, classifier_conf: float) -> float:
        return classifier_conf


def read(*readings: tuple[str, float, bool]) -> list[tuple[str, float]]:
    frame = np.zeros((80, 200, 3), np.uint8)
    xs = range(5, 5 + 48 * len(readings), 48)
    quads = np.stack([np.array([[x, 10], [x + 40, 10], [x + 40, 66], [x, 66]], np.float32) for x in xs])
    scores = np.full(len(readings), 0.9, np.float32)
    classifier = ReadsEach(*readings)
    dets = name_outlines(frame, quads, scores, classifier, frame=0, second_look=False, complete_cut=False)  # type: ignore[arg-type]
    return [(str(d.card), d.confidence) for d in dets]


def test_the_line_lies_over_the_reporting_line() -> None:
    assert FLOOR < DARK_CARD_MIN_CONFIDENCE < 1.0


def test_a_dark_card_under_its_line_is_reported_to_be_checked() -> None:
    # The same reading stands for a white card, and is reported under the line for a dark one.
    assert read(("Kd", 0.75, False)) == [("Kd", approx(0.75))]
    assert read(("Kd", 0.75, True)) == [("Kd", approx(0.75 * FLOOR))]
    # From its line up a dark card stands as any other.
    assert read(("Kd", 0.9, True)) == [("Kd", approx(0.9))]
    # Under the reporting line it is not reported at all, dark or not.
    assert read(("Kd", 0.5, True)) == [] == read(("Kd", 0.5, False))


def test_a_dark_card_read_surely_elsewhere_is_reported_once() -> None:
    # A second outline on the same card names it surely: no reading of it to be checked beside that.
    assert read(("Kd", 0.95, True), ("Kd", 0.7, True)) == [("Kd", approx(0.95))]
    # Two outlines on one dark card, both under its line: reported once, the likelier.
    assert read(("Kd", 0.7, True), ("Kd", 0.8, True)) == [("Kd", approx(0.8 * FLOOR))]
    # Two dark cards under the line, and a white one over it: the white one is named, the dark ones checked.
    assert sorted(read(("Kd", 0.7, True), ("9c", 0.65, False), ("As", 0.8, True))) == [
        ("9c", approx(0.65)), ("As", approx(0.8 * FLOOR)), ("Kd", approx(0.7 * FLOOR)),
    ]


def test_the_reader_records_which_outlines_it_judged_dark() -> None:
    """With the shipped reader: a white card's outlines are judged white, a gold-on-black card's dark, and every
    reading of the dark card is either sure from its line or reported under the reporting line, to be checked."""
    from detector_testkit import large_card_frame

    from lab.synth.faces import procedural_face
    from lab.synth.scenes import GOLD, restyle_face
    from vision.models import REPO_MODELS_DIR
    from vision.onnx_detector import OnnxDetector

    reader = OnnxDetector(REPO_MODELS_DIR / "card-obb.onnx", threads=1)
    assert reader.classifier is not None and reader.min_confidence == approx(FLOOR)
    white = reader.detect(large_card_frame(procedural_face("9c", 2)))
    assert white and not any(reader.classifier.dark_outlines)
    dark_face = restyle_face(procedural_face("9c", 2), "9c", "dark", (15.0, 15.0, 15.0), GOLD)
    found = reader.detect(large_card_frame(dark_face))
    assert any(reader.classifier.dark_outlines)
    assert found and all(d.confidence >= DARK_CARD_MIN_CONFIDENCE or d.confidence < FLOOR for d in found)
