"""The reader's look at a frame squeezed to other pixel aspects, for pictures whose pixels are not square."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest
from detector_testkit import spy_on_finder

from vision import onnx_detector
from vision.detection import CardDetection
from vision.models import default_model_path
from vision.onnx_detector import ASPECT_LOOK, ASPECT_LOOK_MIN_CONFIDENCE, OnnxDetector
from vision.sources.files import load_image

DEV2 = Path(__file__).resolve().parent / "data" / "dev2-photos"
# A king of clubs held up to a webcam, in a photo stored at 16:9 that its card's shape says was taken at 4:3:
# turned a little, the card is a slanted shape there that no card outline fits.
STRETCHED = "cdz_Kc-dc5424c8-3991-11ed-b81d-ec2e98cc7ff6.jpg"
DEV1 = Path(__file__).resolve().parent / "data" / "dev-photos" / "edje_test_cam_image6.jpg"  # four nines


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    # The first finder's looks alone: the near look, which would read such frames again, is tested on its own.
    return OnnxDetector(default_model_path(), threads=1, near_finder=False)


def _label_box(name: str, width: int, height: int) -> tuple[float, float, float, float]:
    with (DEV2 / "labels.csv").open(newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["image"] == name)
    cx, cy, w, h = (float(row[k]) for k in ("x_center", "y_center", "width", "height"))
    return (cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Intersection over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / smaller


def test_the_looks_are_the_two_camera_aspects_each_way() -> None:
    # 4:3 stored as 16:9 (or back) is off by 4/3 one way: both ways are looked at, each once
    assert sorted(ASPECT_LOOK) == pytest.approx([0.75, 4 / 3])
    assert ASPECT_LOOK_MIN_CONFIDENCE >= 0.8  # a search over outlines reports only sure readings


def test_a_card_in_a_stretched_photo_is_named_by_the_aspect_look_in_the_frames_own_pixels(
    detector: OnnxDetector,
) -> None:
    frame = load_image(DEV2 / STRETCHED)
    h, w = frame.shape[:2]
    without = OnnxDetector(default_model_path(), threads=1, aspect_look=(), near_finder=False)
    assert not any(str(d.card) == "Kc" and d.confidence >= without.min_confidence for d in without.detect(frame))
    found = detector.detect(frame)
    assert [str(d.card) for d in found] == ["Kc"]
    assert found[0].confidence >= ASPECT_LOOK_MIN_CONFIDENCE
    # the squeezed frame's outline comes back to this frame's pixels: on the card's labelled box
    assert _overlap(found[0].box, _label_box(STRETCHED, w, h)) > 0.7
    assert found[0].corners is not None
    xs, ys = zip(*found[0].corners, strict=True)
    assert 0 <= np.mean(xs) <= w and 0 <= np.mean(ys) <= h


def test_with_a_detail_picture_the_squeezed_crops_are_cut_from_it_squeezed_alike(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two streams (the Pi camera's ``lores`` and ``main``): the finder reads the small frame, the classifier
    the detail picture, both squeezed the same way; the reading comes back in the small frame's pixels."""
    detail = load_image(DEV2 / STRETCHED)
    dh, dw = detail.shape[:2]
    small = cv2.resize(detail, (dw // 2, dh // 2), interpolation=cv2.INTER_AREA)
    named_on: list[tuple[int, int]] = []
    real = onnx_detector.name_outlines

    def spy(frame: np.ndarray, *args: object, **kwargs: object) -> list[CardDetection]:
        named_on.append((frame.shape[1], frame.shape[0]))
        return real(frame, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(onnx_detector, "name_outlines", spy)
    found = detector.detect(small, detail_bgr=detail)
    assert [str(d.card) for d in found] == ["Kc"]
    assert _overlap(found[0].box, _label_box(STRETCHED, dw // 2, dh // 2)) > 0.7
    assert (round(dw * 0.75), dh) in named_on and (dw, round(dh * 0.75)) in named_on  # the detail, squeezed
    assert all(size[0] > dw // 2 for size in named_on)  # never the small frame itself


def _finder_frames(detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Spy on the finder: the size (width, height) of each frame it is shown."""
    return spy_on_finder(detector, monkeypatch, lambda frame: (frame.shape[1], frame.shape[0]))


def test_the_aspect_look_runs_only_where_something_is_outlined_and_nothing_named(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = _finder_frames(detector, monkeypatch)
    frame = load_image(DEV1)
    h, w = frame.shape[:2]
    assert len(detector.detect(frame)) == 4
    assert shown == [(w, h)]  # named at first sight: no other look
    shown.clear()
    assert detector.detect(np.full((480, 640, 3), 90, np.uint8)) == []
    assert len(shown) == 2  # nothing outlined (an empty mat): the zoomed-out look only
    # outlines but no name (the classifier silenced): first, zoomed out, evened out, then squeezed both ways
    monkeypatch.setattr(onnx_detector, "name_outlines", lambda *args, **kwargs: [])
    shown.clear()
    before = detector.looks.copy()
    assert detector.detect(frame) == []
    assert shown[3:] == [(round(w * 0.75), h), (w, round(h * 0.75))]
    # the detector counts the looks it took, and those that named a card (none here)
    taken = detector.looks - before
    assert taken == {"zoom-out": 1, "contrast": 1, "aspect": 1}


def test_only_a_sure_reading_of_a_squeezed_frame_stands_and_the_surest_look_wins(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = load_image(DEV1)
    h, w = frame.shape[:2]
    card = detector.detect(frame)[0].card
    box = (10.0, 20.0, 60.0, 100.0)

    def reading(conf: float) -> list[CardDetection]:
        return [CardDetection(card, conf, box, 0)]

    unsure = reading(ASPECT_LOOK_MIN_CONFIDENCE - 0.05)  # over the reporting line, under the look's own
    # first look, zoomed out, evened out, squeezed narrower, squeezed lower
    answers = iter([[], [], [], unsure, reading(0.85)])
    monkeypatch.setattr(onnx_detector, "name_outlines", lambda *args, **kwargs: next(answers))
    found = detector.detect(frame)
    # the lower squeeze's reading stands, its box brought back to the frame's height
    assert len(found) == 1 and found[0].confidence == 0.85
    assert found[0].box == pytest.approx((10.0, 20.0 * h / round(h * 0.75), 60.0, 100.0 * h / round(h * 0.75)))
    answers = iter([[], [], [], unsure, reading(0.5)])
    assert detector.detect(frame) == []  # neither squeeze is sure enough: nothing
    answers = iter([[], [], [], reading(0.95), reading(0.9)])
    before = detector.looks.copy()
    found = detector.detect(frame)
    assert found[0].confidence == 0.95
    assert (detector.looks - before)["aspect-named"] == 1
    assert found[0].box == pytest.approx((10.0 * w / round(w * 0.75), 20.0, 60.0 * w / round(w * 0.75), 100.0))
