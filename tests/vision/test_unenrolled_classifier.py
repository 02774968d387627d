"""The classifier for decks read without a profile (``corner-cls-unenrolled.onnx``) and the one profiles use.

Without a profile the reader names cards with the unenrolled classifier where one lies beside the finder;
with a profile it reads exactly as it would without the unenrolled classifier, so a profile's features and
prototypes always come from, and are compared by, one network (a dark card's turned-over crops are still
named by the dark classifier, ``corner-cls-dark.onnx``, either way).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from detector_testkit import FINDER, TINY, card_frame, models_folder

from vision.enrol_photos import enrol_from_photos
from vision.errors import UserError
from vision.models import (
    DARK_CLASSIFIER_NAME,
    DARK_FINDER_NAME,
    NEAR_FINDER_NAME,
    REPO_MODELS_DIR,
    UNENROLLED_CLASSIFIER_NAME,
    unenrolled_classifier_path_for,
)
from vision.onnx_detector import OnnxDetector
from vision.sources.files import load_image

RED = (30, 30, 220)
DEV = Path(__file__).resolve().parent / "data" / "dev-photos"
PHOTOS = ["edje_test_IMG_2580.jpg", "edje_test_cam_image2.jpg", "edje_test_cam_image6.jpg"]


def _models(folder: Path, source: Path, names: tuple[str, ...], unenrolled: Path | None) -> Path:
    """A models folder holding ``names`` copied from ``source``, and ``unenrolled`` as the unenrolled
    classifier; its finder's path."""
    return models_folder(folder, source, names, {UNENROLLED_CLASSIFIER_NAME: unenrolled})


TINY_FILES = ("card-obb.onnx", "corner-cls.onnx", "classes.json")
SHIPPED_FILES = (
    "card-obb.onnx", "corner-cls.onnx", "face-cls.onnx", "classes.json", DARK_CLASSIFIER_NAME, DARK_FINDER_NAME,
    NEAR_FINDER_NAME,
)  # everything shipped but the unenrolled classifier


def test_without_a_profile_the_unenrolled_classifier_names_the_cards(tmp_path: Path) -> None:
    frame = card_frame(RED)
    alone = OnnxDetector(_models(tmp_path / "alone", TINY, TINY_FILES, None), threads=1)
    assert [str(d.card) for d in alone.detect(frame)] == ["Kh"]
    # Beside it, a classifier that sees no index anywhere: it, not corner-cls.onnx, now names the cards.
    paired_finder = _models(tmp_path / "paired", TINY, TINY_FILES, TINY / "blind-cls.onnx")
    assert unenrolled_classifier_path_for(paired_finder) == paired_finder.parent / UNENROLLED_CLASSIFIER_NAME
    assert OnnxDetector(paired_finder, threads=1).detect(frame) == []
    # A classifier given by hand reads both ways, whatever lies beside the finder.
    by_hand = OnnxDetector(paired_finder, threads=1, classifier=TINY / "corner-cls.onnx")
    assert [str(d.card) for d in by_hand.detect(frame)] == ["Kh"]


def test_an_unenrolled_classifier_of_other_classes_is_one_clear_error(tmp_path: Path) -> None:
    # The face reader has the classifier's input and 29 outputs, not the 34 classes of classes.json.
    finder = _models(tmp_path / "m", TINY, TINY_FILES, REPO_MODELS_DIR / "face-cls.onnx")
    with pytest.raises(UserError, match=UNENROLLED_CLASSIFIER_NAME + ".*does not match 34 classes"):
        OnnxDetector(finder, threads=1)


def test_an_unenrolled_classifier_of_other_crops_is_one_clear_error(tmp_path: Path) -> None:
    finder = _models(tmp_path / "m", TINY, TINY_FILES, TINY / "square-cls.onnx")
    with pytest.raises(UserError, match=UNENROLLED_CLASSIFIER_NAME + r".*crops \[3, 32, 32\] are not corner-cls"):
        OnnxDetector(finder, threads=1)


def test_no_unenrolled_classifier_beside_the_tiny_finder() -> None:
    assert unenrolled_classifier_path_for(FINDER) is None


def test_a_profile_is_read_without_the_unenrolled_classifier(tmp_path: Path) -> None:
    shipped = OnnxDetector(REPO_MODELS_DIR / "card-obb.onnx", threads=1)
    assert shipped.classifier is not None and shipped.classifier.unenrolled_session is not None  # as shipped
    profile = enrol_from_photos(
        DEV, DEV / "labels.csv", "house", detector=shipped, out=tmp_path / "house", images=PHOTOS
    ).profile
    shipped.classifier.use_profile(profile)
    without = _models(tmp_path / "corner-only", REPO_MODELS_DIR, SHIPPED_FILES, None)
    corner_only = OnnxDetector(without, threads=1, profile=profile)

    asked: list[Any] = []
    session = shipped.classifier.unenrolled_session

    class Spy:
        def __getattr__(self, name: str) -> Any:
            return getattr(session, name)

        def run(self, outputs: Any, feeds: Any) -> Any:
            asked.append(outputs)
            return session.run(outputs, feeds)

    shipped.classifier.unenrolled_session = Spy()
    for photo in [*PHOTOS, "edje_train_cam_image42.jpg"]:
        frame = load_image(DEV / photo)
        assert shipped.detect(frame) == corner_only.detect(frame)
    assert asked == []  # never asked while a profile is read
    shipped.classifier.use_profile(None)
    shipped.detect(load_image(DEV / PHOTOS[1]))
    assert asked and all(a == ["logits"] for a in asked)  # and asked again once it is dropped
