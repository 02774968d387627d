"""Index crops cut from a camera's larger stream: the finder reads the small frame, the classifier the large one."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from table.cards import Card
from vision.detection import CardDetection, detail_scale, scaled_detection
from vision.detector import detect_frame
from vision.models import default_model_path
from vision.onnx_detector import OnnxDetector
from vision.sources.files import load_image

PHOTO = Path(__file__).resolve().parent / "data" / "dev-photos" / "edje_test_cam_image2.jpg"  # four kings
KINGS = ["Kc", "Kd", "Kh", "Ks"]


def blank(w: int, h: int) -> npt.NDArray[np.uint8]:
    return np.zeros((h, w, 3), np.uint8)


def test_detail_scale_is_how_much_larger_the_detail_picture_is_each_way() -> None:
    assert detail_scale(blank(640, 480), None) is None
    assert detail_scale(blank(640, 480), blank(640, 480)) is None  # no larger: nothing to gain
    assert detail_scale(blank(640, 480), blank(700, 520)) is None  # barely larger either
    assert detail_scale(blank(640, 480), blank(1280, 960)) == (2.0, 2.0)
    assert detail_scale(blank(640, 480), blank(1920, 960)) == (3.0, 2.0)  # another aspect: each way alone
    assert detail_scale(blank(640, 480), blank(1280, 480)) is None


def test_a_scaled_detection_keeps_its_card_and_confidence() -> None:
    d = CardDetection(
        Card.parse("Qh"), 0.9, (10.0, 20.0, 30.0, 60.0), 7, ((10.0, 20.0), (30.0, 20.0), (30.0, 60.0), (10.0, 60.0))
    )
    s = scaled_detection(d, 0.5, 0.25)
    assert (s.card, s.confidence, s.frame) == (d.card, d.confidence, 7)
    assert s.box == (5.0, 5.0, 15.0, 15.0)
    assert s.corners == ((5.0, 5.0), (15.0, 5.0), (15.0, 15.0), (5.0, 15.0))


class Plain:
    """A detector that knows nothing of detail pictures."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def detect(self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0) -> list[CardDetection]:
        self.calls.append(frame)
        return []


class Detailed(Plain):
    def __init__(self, reads: bool) -> None:
        super().__init__()
        self.reads = reads
        self.details: list[tuple[int, int] | None] = []

    @property
    def reads_detail(self) -> bool:
        return self.reads

    def detect(
        self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0, detail_bgr: npt.NDArray[np.uint8] | None = None
    ) -> list[CardDetection]:
        self.details.append(None if detail_bgr is None else (detail_bgr.shape[1], detail_bgr.shape[0]))
        return super().detect(frame_bgr, frame)


def test_detect_frame_hands_the_detail_picture_only_to_a_detector_that_reads_it() -> None:
    small, big = blank(64, 48), blank(128, 96)
    plain = Plain()
    assert detect_frame(plain, small, 3, big) == [] and plain.calls == [3]
    reads, ignores = Detailed(True), Detailed(False)
    detect_frame(reads, small, 4, big)
    detect_frame(reads, small, 5, None)
    detect_frame(ignores, small, 6, big)
    assert reads.details == [(128, 96), None] and reads.calls == [4, 5]
    assert ignores.details == [None]


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1)


def test_cards_too_blurred_to_read_in_the_small_frame_are_read_from_the_large_one(detector: OnnxDetector) -> None:
    photo = load_image(PHOTO)
    h, w = photo.shape[:2]
    # The small frame: a third of the size and out of focus; the finder still outlines the four kings in it
    small = np.asarray(
        cv2.GaussianBlur(cv2.resize(photo, (w // 3, h // 3), interpolation=cv2.INTER_AREA), (0, 0), 2.0), np.uint8
    )
    assert len(detector.outlines(small)[0]) == 4
    assert detector.reads_detail
    assert detector.detect(small, 5) == []
    found = detector.detect(small, 5, detail_bgr=photo)
    assert sorted(str(d.card) for d in found) == KINGS
    # ... reported in the small frame's pixels, where the finder outlined them, and stamped with its number
    outlines = detector.outlines(small)[0]
    for d in found:
        assert d.frame == 5 and d.corners is not None
        centre = np.mean(np.array(d.corners), axis=0)
        assert np.linalg.norm(outlines.mean(axis=1) - centre, axis=1).min() < 0.03 * w / 3
        x1, y1, x2, y2 = d.box
        assert 0 <= x1 < x2 <= w // 3 and 0 <= y1 < y2 <= h // 3


def test_a_detail_picture_no_larger_than_the_frame_changes_nothing(detector: OnnxDetector) -> None:
    photo = load_image(PHOTO)
    plain = detector.detect(photo, 1)
    assert sorted(str(d.card) for d in plain) == KINGS
    assert detector.detect(photo, 1, detail_bgr=photo.copy()) == plain
