"""The shipped model (models/) loads by default and names the right cards on dev photos and rendered scenes.

The photos (``data/dev-photos``) are real dev photos it reads right, chosen
from an eval-vision run (the dev set is for validation, never training); the
scenes (``data/scenes``) are rendered from the held-out decks only, chosen
the same way from the synthetic test set (read right by the classifier of
the time it was chosen and by every one shipped since). The exact card sets are asserted,
so a model that reads worse fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from table.cards import Card
from vision.models import DEFAULT_MODEL_NAME, REPO_MODELS_DIR, default_model_path
from vision.onnx_detector import OnnxDetector
from vision.sources.files import load_image

DEV = Path(__file__).resolve().parent / "data" / "dev-photos"
SCENE_DIR = Path(__file__).resolve().parent / "data" / "scenes"

# photo (in data/dev-photos) -> the cards in it (its labels): both red nines, both red aces, all four
# nines, all four kings (the court cards whose pictures differ most from deck to deck)
PHOTOS: dict[str, str] = {
    "edje_test_IMG_2580.jpg": "9d 9h Ac Kc",
    "edje_train_cam_image42.jpg": "Ad Ah Kh",
    "edje_test_cam_image6.jpg": "9c 9d 9h 9s",
    "edje_test_cam_image2.jpg": "Kc Kd Kh Ks",
}
# rendered scene (in data/scenes, held-out decks only) -> the cards labelled in it
SCENES: dict[str, str] = {
    "synth_00012.jpg": "7d B",
    "synth_00083.jpg": "Kd Qd Td",
    "synth_00026.jpg": "9c Jc Kd Qc",
}


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    path = default_model_path()
    assert path == REPO_MODELS_DIR / DEFAULT_MODEL_NAME
    return OnnxDetector(path, threads=1)


def cards(text: str) -> list[str]:
    return sorted(str(Card.parse(c)) for c in text.split())


def test_the_shipped_model_is_two_stage(detector: OnnxDetector) -> None:
    assert detector.classifier is not None
    assert detector.info.task == "obb"


@pytest.mark.parametrize(("photo", "expected"), sorted(PHOTOS.items()))
def test_dev_photos(detector: OnnxDetector, photo: str, expected: str) -> None:
    found = detector.detect(load_image(DEV / photo))
    assert sorted(str(d.card) for d in found) == cards(expected)


@pytest.mark.parametrize(("scene", "expected"), sorted(SCENES.items()))
def test_rendered_scenes(detector: OnnxDetector, scene: str, expected: str) -> None:
    found = detector.detect(load_image(SCENE_DIR / scene))
    assert sorted(str(d.card) for d in found) == cards(expected)


def test_cards_cut_by_the_photos_edge_are_read_from_their_completed_outlines(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The 9d and the Ad run off this photo's right edge, lying on their long sides: what shows of each is
    # nearly square. Read as whole cards (step 6 of the model card), they are named; without it they are not.
    image = load_image(DEV / "edje_train_IMG_2611.jpg")
    assert sorted(str(d.card) for d in detector.detect(image)) == cards("9d Ad Jh Th Ts")
    monkeypatch.setattr("vision.onnx_detector.CUT_CARD_MIN_CONFIDENCE", 2.0)  # no completed reading is sure enough
    assert sorted(str(d.card) for d in detector.detect(image)) == cards("Jh Th Ts")
