"""The classifier that reads a dark card's corners turned over (``corner-cls-dark.onnx``).

Without a profile, the crops of a card judged printed light on dark paper (``cardcrop.is_dark_card``) that are
cut with their lightness turned over are read by it, where it lies beside the finder; the crops as they are,
and every white card, by the unenrolled classifier as before; with a profile, by the corner classifier, whose
features the profile compares, the turned-over crops still named by the dark classifier.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from detector_testkit import Naming, models_folder

from lab.synth.faces import procedural_face
from lab.synth.scenes import GOLD, _warp_face, card_quad, restyle_face
from vision import cardcrop
from vision.enrol_photos import enrol_from_photos
from vision.errors import UserError
from vision.models import DARK_CLASSIFIER_NAME, REPO_MODELS_DIR, dark_classifier_path_for
from vision.onnx_detector import OnnxDetector

DEV = Path(__file__).resolve().parent / "data" / "dev-photos"
PHOTOS = ["edje_test_IMG_2580.jpg", "edje_test_cam_image2.jpg", "edje_test_cam_image6.jpg"]
SHIPPED = ("card-obb.onnx", "corner-cls.onnx", "corner-cls-unenrolled.onnx", "face-cls.onnx", "classes.json")


def _frame(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    frame = np.full((480, 640, 3), 200, np.float32)
    quad = card_quad(320, 240, 260, face.shape[1] / face.shape[0], 0.3)
    patch, x0, y0 = _warp_face(face, quad, 640, 480)
    ph, pw = patch.shape[:2]
    frame[y0 : y0 + ph, x0 : x0 + pw] = frame[y0 : y0 + ph, x0 : x0 + pw] * (1 - patch[:, :, 3:4]) + patch[:, :, :3]
    return np.clip(frame, 0, 255).astype(np.uint8), quad.astype(np.float32)


def _models(folder: Path, dark: Path | None) -> Path:
    return models_folder(folder, REPO_MODELS_DIR, SHIPPED, {DARK_CLASSIFIER_NAME: dark})


@pytest.fixture(scope="module")
def paired(tmp_path_factory: pytest.TempPathFactory) -> OnnxDetector:
    finder = _models(tmp_path_factory.mktemp("m") / "models", REPO_MODELS_DIR / "corner-cls-unenrolled.onnx")
    assert dark_classifier_path_for(finder) == finder.parent / DARK_CLASSIFIER_NAME
    # Without the face reader, which reads a dark card's face too and would doubt the spy's naming below.
    return OnnxDetector(finder, threads=1, face_reader=False)


def test_a_dark_cards_turned_over_crops_are_read_by_the_dark_classifier(paired: OnnxDetector) -> None:
    classifier = paired.classifier
    assert classifier is not None and classifier.dark_session is not None
    spy = Naming(classifier.dark_session, classifier.classes, "Qs")
    classifier.dark_session = spy
    dark = restyle_face(procedural_face("9c", 2), "9c", "dark", (15.0, 15.0, 15.0), GOLD)
    frame, quad = _frame(dark)
    assert cardcrop.is_dark_card(frame, quad)
    ((card, conf, _, _),) = classifier.classify(frame, quad[None])
    block = len(cardcrop.corner_crops(frame, quad, dark=True))
    assert spy.asked == [block // 2]  # the turned-over half of the card's crops, and only those
    assert str(card) == "Qs" and conf > 0.5  # what it named is what the reader reads
    white = procedural_face("9c", 2)
    frame, quad = _frame(white)
    assert not cardcrop.is_dark_card(frame, quad)
    ((card, _, _, _),) = classifier.classify(frame, quad[None])
    assert spy.asked == [block // 2] and str(card) != "Qs"  # a white card never asks it


def test_with_a_profile_the_dark_classifier_names_the_turned_over_crops_too(
    paired: OnnxDetector, tmp_path: Path
) -> None:
    classifier = paired.classifier
    assert classifier is not None
    spy = Naming(classifier.dark_session, classifier.classes, "Qs")
    classifier.dark_session = spy
    profile = enrol_from_photos(
        DEV, DEV / "labels.csv", "house", detector=paired, out=tmp_path / "house", images=PHOTOS
    ).profile
    classifier.use_profile(profile)
    frame, quad = _frame(restyle_face(procedural_face("9c", 2), "9c", "dark", (15.0, 15.0, 15.0), GOLD))
    block = len(cardcrop.corner_crops(frame, quad, dark=True))
    try:
        classifier.classify(frame, quad[None])
        assert spy.asked == [block // 2]
        white, white_quad = _frame(procedural_face("9c", 2))
        classifier.classify(white, white_quad[None])
        assert spy.asked == [block // 2]  # a white card never asks it, with a profile either
    finally:
        classifier.use_profile(None)


def test_a_dark_classifier_of_other_classes_is_one_clear_error(tmp_path: Path) -> None:
    # The face reader has the classifier's input and 29 outputs, not the 34 classes of classes.json.
    finder = _models(tmp_path / "m", REPO_MODELS_DIR / "face-cls.onnx")
    with pytest.raises(UserError, match=DARK_CLASSIFIER_NAME + ".*does not match 34 classes"):
        OnnxDetector(finder, threads=1)


def test_without_a_dark_classifier_the_reader_reads_as_before(tmp_path: Path) -> None:
    finder = _models(tmp_path / "m", None)
    assert dark_classifier_path_for(finder) is None
    detector = OnnxDetector(finder, threads=1)
    assert detector.classifier is not None and detector.classifier.dark_session is None


class Splitting(Naming):
    """Every crop split between two cards: ``card`` at 0.6 and ``other`` at 0.4."""

    def __init__(self, session: Any, classes: list[str], card: str, other: str) -> None:
        super().__init__(session, classes, card)
        self.other = other

    def run(self, outputs: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        (crops,) = feeds.values()
        logits = np.full((len(crops), len(self.classes)), -20.0, np.float32)
        assert self.card is not None
        logits[:, self.classes.index(self.card)] = np.log(0.6)
        logits[:, self.classes.index(self.other)] = np.log(0.4)
        return [logits]


def test_a_dark_cards_reading_split_with_its_cousin_is_doubted(paired: OnnxDetector) -> None:
    """Turned over, gold print is grey whatever its suit: corners split between a king of spades and the king of
    diamonds (another colour: a cousin) make an unsure reading, where the same split between the king and the
    queen of spades does not (``cardcrop.COUSIN_DOUBT``)."""
    classifier = paired.classifier
    assert classifier is not None and classifier.dark_session is not None
    shipped = classifier.dark_session
    frame, quad = _frame(restyle_face(procedural_face("9c", 2), "9c", "dark", (15.0, 15.0, 15.0), GOLD))
    confidence = {}
    try:
        for other in ("Kd", "Qs"):
            classifier.dark_session = Splitting(shipped, classifier.classes, "Ks", other)
            ((card, conf, _, _),) = classifier.classify(frame, quad[None])
            assert str(card) == "Ks"
            confidence[other] = conf
    finally:
        classifier.dark_session = shipped
    assert confidence["Qs"] > 0.5 > 0.2 > confidence["Kd"]


def test_cousins_are_the_rank_in_the_other_colour() -> None:
    names = tuple(c for c in cardcrop.CLASSIFIER_CLASSES if c != cardcrop.NONE_CLASS)
    cousins = cardcrop.cousin_indices(names)
    assert sorted(names[i] for i in cousins[names.index("Kd")]) == ["Kc", "Ks"]
    assert sorted(names[i] for i in cousins[names.index("9s")]) == ["9d", "9h"]
    assert cousins[names.index(cardcrop.JOKER)] == ()
    split = np.full((4, len(cardcrop.CLASSIFIER_CLASSES)), -20.0, np.float32)
    split[:, cardcrop.CLASSIFIER_CLASSES.index("Ks")] = np.log(0.6)
    split[:, cardcrop.CLASSIFIER_CLASSES.index("Kd")] = np.log(0.4)
    name, plain, _, _ = cardcrop.corner_shares(split)
    blind_name, blind, _, _ = cardcrop.corner_shares(split, colour_blind=True)
    assert name == blind_name == "Ks"
    assert blind == pytest.approx(plain * (1 - 0.4 / 0.6) ** cardcrop.COUSIN_DOUBT, rel=1e-4)
