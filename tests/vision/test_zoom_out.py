"""The finder's second look "as from further away", for frames whose cards are far larger than at the table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.models import default_model_path
from vision.onnx_detector import Finder, OnnxDetector
from vision.sources.files import load_image

PHOTO = Path(__file__).resolve().parent / "data" / "dev-photos" / "edje_test_cam_image6.jpg"  # four nines


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1, zoom_out=1.8)


def test_zoomed_out_outlines_come_back_in_the_frames_own_pixels(detector: OnnxDetector) -> None:
    frame = load_image(PHOTO)
    h, w = frame.shape[:2]
    near, _ = detector.outlines(frame)
    far, scores = detector.zoomed_out_outlines(frame, 1.8)
    assert len(near) >= 4 and len(far) >= 3 and len(scores) == len(far)
    # each card found as usual is found from further away too, in the same place (centre within 4% of the
    # frame): the outlines are brought back to the frame's own pixels
    far_centres = far.mean(axis=1)
    for quad in near:
        gap = np.linalg.norm(far_centres - quad.mean(axis=0), axis=1).min()
        assert gap < 0.04 * max(h, w), gap
    assert len(far) <= len(near) + 2
    assert (far_centres >= 0).all() and (far_centres <= (w, h)).all()


def test_the_second_look_runs_only_where_nothing_is_named(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[float] = []
    real = detector.zoomed_out_outlines

    def spy(frame: np.ndarray, scale: float, finder: Finder = "first") -> tuple[np.ndarray, np.ndarray]:
        calls.append(scale)
        return real(frame, scale, finder)

    monkeypatch.setattr(detector, "zoomed_out_outlines", spy)
    assert len(detector.detect(load_image(PHOTO))) == 4
    assert calls == []
    assert detector.detect(np.full((480, 640, 3), 90, np.uint8)) == []
    assert calls == [1.8]
    detector.zoom_out = None
    detector.detect(np.full((480, 640, 3), 90, np.uint8))
    assert calls == [1.8]
