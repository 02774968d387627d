"""The reader's last look, with the frame's local contrast evened out, for dim or unevenly lit cards."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from detector_testkit import spy_on_finder

from table.cards import Card
from vision import onnx_detector
from vision.detection import CardDetection
from vision.models import default_model_path
from vision.onnx_detector import OnnxDetector, contrast_evened
from vision.sources.files import load_image

PHOTO = Path(__file__).resolve().parent / "data" / "dev-photos" / "edje_test_cam_image6.jpg"  # four nines


@pytest.fixture(scope="module")
def detector() -> OnnxDetector:
    # The first finder's looks alone: the near look, which would read such frames again, is tested on its own.
    return OnnxDetector(
        default_model_path(), threads=1, zoom_out=1.8, contrast_look=True, aspect_look=(), near_finder=False
    )


def test_contrast_evened_lifts_a_dim_frame_and_keeps_its_colours() -> None:
    frame = load_image(PHOTO)
    dim = (frame.astype(np.float32) * 0.3).astype(np.uint8)
    evened = contrast_evened(dim)
    assert evened.shape == dim.shape and evened.dtype == np.uint8
    lightness = [cv2.cvtColor(f, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32) for f in (dim, evened)]
    assert lightness[1].std() > 1.5 * lightness[0].std()
    # hue is kept: the red and black of the cards stay apart (a and b channels move little)
    ab = [cv2.cvtColor(f, cv2.COLOR_BGR2LAB)[:, :, 1:].astype(np.float32) for f in (dim, evened)]
    assert float(np.abs(ab[1] - ab[0]).mean()) < 4.0
    flat = np.full((120, 160, 3), 128, np.uint8)
    assert int(np.abs(contrast_evened(flat).astype(int) - 128).max()) <= 2


def _count_looks(detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Spy on the finder: the mean lightness of each frame it is shown."""
    return spy_on_finder(detector, monkeypatch, lambda frame: float(frame.mean()))


def test_the_contrast_look_runs_only_where_something_is_outlined_and_nothing_named(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    looks = _count_looks(detector, monkeypatch)
    frame = load_image(PHOTO)
    assert len(detector.detect(frame)) == 4
    assert len(looks) == 1  # named at first sight: no other look
    looks.clear()
    assert detector.detect(np.full((480, 640, 3), 90, np.uint8)) == []
    assert len(looks) == 2  # nothing outlined (an empty mat): the zoomed-out look, and no contrast look
    # outlines but no name (here: the classifier silenced): the frame is looked at a third time, evened out
    monkeypatch.setattr(onnx_detector, "name_outlines", lambda *args, **kwargs: [])
    looks.clear()
    assert detector.detect(frame) == []
    assert len(looks) == 3
    assert looks[2] != pytest.approx(looks[0])  # the third frame is not the frame itself
    detector.contrast_look = False
    looks.clear()
    detector.detect(frame)
    assert len(looks) == 2
    detector.contrast_look = True


def test_a_reading_only_to_be_checked_does_not_stop_the_other_looks_and_is_kept_where_they_find_nothing(
    detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    looks = _count_looks(detector, monkeypatch)
    frame = load_image(PHOTO)
    box = (10.0, 10.0, 60.0, 90.0)
    split = CardDetection(Card.parse("Kc"), 0.9 * detector.min_confidence, box, 0)  # a twin split, to check
    sure = CardDetection(Card.parse("9h"), 0.95, box, 0)
    answers = iter([[split], [], [sure]])  # first look, zoomed out, evened out
    monkeypatch.setattr(onnx_detector, "name_outlines", lambda *args, **kwargs: next(answers))
    assert detector.detect(frame) == [sure] and len(looks) == 3  # all three looks; the sure one stands
    answers = iter([[split], [], []])
    looks.clear()
    assert detector.detect(frame) == [split] and len(looks) == 3  # nothing surer: the reading to check stays


DEV2 = Path(__file__).resolve().parent / "data" / "dev2-photos"


@pytest.mark.parametrize(("name", "card"), [("cdz_Kd-4197882d-3991-11ed-a7da-ec2e98cc7ff6.jpg", "Kd"),
                                            ("cdz_Kh-abd7d68a-3990-11ed-a56e-ec2e98cc7ff6.jpg", "Kh")])
def test_a_card_in_a_dim_room_is_named_only_by_the_contrast_look(detector: OnnxDetector, name: str, card: str) -> None:
    """Real webcam photos (a card held up in a dim office) that the first two looks name nothing in."""
    frame = load_image(DEV2 / name)
    without = OnnxDetector(
        default_model_path(), threads=1, zoom_out=1.8, contrast_look=False, aspect_look=(), near_finder=False
    )
    assert without.detect(frame) == []
    assert {str(d.card) for d in detector.detect(frame)} == {card}
