"""The ONNX Runtime detector end to end on tiny stand-in models: letterbox, finder, NMS, corner classifier, merge.

The stand-in models (``data/tiny``, written by ``data/make_tiny_models.py``)
have a fixed card outline and a colour-reading classifier, so these tests
check the plumbing of the real two-stage pipeline with no trained model:
where the card lands in the frame, that its corners are cropped and named,
and that the runtime path never imports torch.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from detector_testkit import CARD_ANGLE, CARD_XYWH, FINDER, card_frame

from companion.errors import UserError
from table.cards import Card
from vision import postprocess as pp
from vision.detector import Detector, load_detector
from vision.onnx_detector import OnnxDetector


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    # The stand-in finder sees one fixed outline wherever it looks, so its second look "as from further
    # away", or at the frame squeezed, would place that outline elsewhere: the plumbing is tested without
    # those looks (see test_zoom_out and test_aspect_look).
    return OnnxDetector(FINDER, threads=1, zoom_out=None, aspect_look=())


def test_two_stage_model_is_recognised_with_its_classifier(detector: OnnxDetector) -> None:
    assert isinstance(detector, Detector)
    assert detector.classifier is not None and detector.input_size == (64, 64)
    assert detector.info.task == "obb" and detector.info.names == {0: "card"}


@pytest.mark.parametrize(("ink", "card"), [((20, 20, 220), "Kh"), ((25, 25, 25), "As")])
def test_a_card_is_found_outlined_and_named(detector: OnnxDetector, ink: tuple[int, int, int], card: str) -> None:
    dets = detector.detect(card_frame(ink), frame=12)
    assert [str(d.card) for d in dets] == [card]  # the duplicate candidate was suppressed, the weak one dropped
    d = dets[0]
    assert d.frame == 12 and 0.0 < d.confidence <= 0.9
    expected = pp.rotated_corners(np.array([CARD_XYWH], np.float32), np.array([CARD_ANGLE], np.float32))[0]
    assert d.corners is not None
    np.testing.assert_allclose(sorted(d.corners), sorted(map(tuple, expected.tolist())), atol=0.01)
    np.testing.assert_allclose(d.box, [*expected.min(axis=0), *expected.max(axis=0)], atol=0.01)


def test_a_blank_card_is_not_reported(detector: OnnxDetector) -> None:
    assert detector.detect(card_frame(None)) == []


def test_the_confidence_threshold_applies_to_the_finder() -> None:
    strict = OnnxDetector(FINDER, threads=1, conf_threshold=0.95)
    assert strict.detect(card_frame((20, 20, 220))) == []


def test_doubtful_names_are_not_reported() -> None:
    # The card's confidence is the finder's 0.9 times the classifier's: below 0.9 whatever the classifier says.
    frame = card_frame((20, 20, 220))
    (found,) = OnnxDetector(FINDER, threads=1, min_confidence=0.0).detect(frame)
    assert 0.0 < found.confidence < 0.9
    assert OnnxDetector(FINDER, threads=1, min_confidence=0.9).detect(frame) == []


def test_load_detector_picks_onnx_runtime_for_onnx_files() -> None:
    d = load_detector(FINDER, threads=1)
    assert isinstance(d, OnnxDetector)
    assert [str(x.card) for x in d.detect(card_frame((20, 20, 220)))] == ["Kh"]


def test_missing_or_broken_models_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="model not found"):
        load_detector(tmp_path / "nope.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(UserError, match="cannot load"):
        load_detector(broken)
    lonely = tmp_path / "card-obb.onnx"
    lonely.write_bytes(FINDER.read_bytes())
    with pytest.raises(UserError, match="corner-cls.onnx is not beside it"):
        load_detector(lonely)
    with pytest.raises(UserError, match="unknown detector backend"):
        load_detector(FINDER, backend="tflite")


def test_the_onnx_path_never_imports_torch() -> None:
    # A fresh interpreter: load the detector, detect, and look at what got imported.
    code = textwrap.dedent(
        f"""
        import sys
        import numpy as np
        from pathlib import Path
        from vision.detector import load_detector
        from lab.commands import eval_vision
        d = load_detector(Path({str(FINDER)!r}), threads=1)
        d.detect(np.full((128, 128, 3), 255, np.uint8))
        heavy = sorted(m for m in ("torch", "torchvision", "ultralytics") if m in sys.modules)
        print("imported:", heavy)
        sys.exit(1 if heavy else 0)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "imported: []" in done.stdout


def test_detections_are_cards() -> None:
    d = OnnxDetector(FINDER, threads=1).detect(card_frame((20, 20, 220)))
    assert all(isinstance(x.card, Card) for x in d)
