"""The dark look: a frame in which a card was judged printed light on dark paper is read again with the finder
taught such decks (``card-obb-dark.onnx``), where one lies beside the finder, and where it names a card surely
the two readings are merged (``merged_readings``: the surer of two detections on one card)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from detector_testkit import SHIPPED_READER, large_card_frame, models_folder

from lab.synth.faces import procedural_face
from lab.synth.scenes import GOLD, restyle_face
from table.cards import Card
from vision.detection import CardDetection
from vision.models import DARK_CLASSIFIER_NAME, DARK_FINDER_NAME, REPO_MODELS_DIR, dark_finder_path_for
from vision.onnx_detector import OnnxDetector, merged_readings


def _dark_frame() -> np.ndarray:
    return large_card_frame(restyle_face(procedural_face("9c", 2), "9c", "dark", (15.0, 15.0, 15.0), GOLD))


class Spy:
    """Stands in for the dark finder's session: counts the frames asked of it, and answers as the finder it
    wraps, or with no candidate at all (``blind``)."""

    def __init__(self, session: Any, blind: bool = False) -> None:
        self.session, self.blind, self.asked = session, blind, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def run(self, outputs: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.asked += 1
        out = self.session.run(outputs, feeds)
        if self.blind:
            out[0] = np.zeros_like(out[0])
        return list(out)


@pytest.fixture(scope="module")
def dual(tmp_path_factory: pytest.TempPathFactory) -> OnnxDetector:
    extras: dict[str, Path | None] = {
        DARK_CLASSIFIER_NAME: REPO_MODELS_DIR / DARK_CLASSIFIER_NAME,
        DARK_FINDER_NAME: REPO_MODELS_DIR / "card-obb.onnx",  # a stand-in: the finder itself
    }
    finder = models_folder(tmp_path_factory.mktemp("m") / "models", REPO_MODELS_DIR, SHIPPED_READER, extras)
    assert dark_finder_path_for(finder) == finder.parent / DARK_FINDER_NAME
    # Without the face reader: it reads a dark card's face too, and takes the drawn nine of clubs below (a ring of
    # small pips) for an eight, which puts the corners' share under DARK_LOOK_SHARE.
    return OnnxDetector(finder, threads=1, face_reader=False)


def test_a_frame_with_a_dark_card_is_read_again_by_the_dark_finder(dual: OnnxDetector) -> None:
    spy = Spy(dual.dark_finder)
    dual.dark_finder = spy
    dual.looks.clear()
    white = dual.detect(large_card_frame(procedural_face("9c", 2)))
    assert white and spy.asked == 0 and dual.looks["dark"] == 0  # a white card never asks it
    found = dual.detect(_dark_frame())
    assert spy.asked == 1 and dual.looks["dark"] == 1
    # the stand-in dark finder outlines as the finder does: its reading stands, and names the card
    assert dual.looks["dark-named"] == 1 and found


def test_where_the_dark_finder_names_nothing_the_first_reading_stands(dual: OnnxDetector) -> None:
    session = dual.dark_finder.session if isinstance(dual.dark_finder, Spy) else dual.dark_finder
    dual.dark_finder = None
    frame = _dark_frame()
    first = [(str(d.card), round(d.confidence, 6)) for d in dual.detect(frame)]
    assert first
    spy = Spy(session, blind=True)
    dual.dark_finder = spy
    dual.looks.clear()
    again = [(str(d.card), round(d.confidence, 6)) for d in dual.detect(frame)]
    assert spy.asked == 1 and dual.looks["dark"] == 1 and dual.looks["dark-named"] == 0
    assert again == first


def test_a_dark_card_named_under_the_share_does_not_call_the_dark_finder(
    dual: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dark outlines that name nothing surely (a face or a shirt behind a card held up) leave the frame as read."""
    from vision import onnx_detector

    spy = Spy(dual.dark_finder.session if isinstance(dual.dark_finder, Spy) else dual.dark_finder)
    dual.dark_finder = spy
    dual.looks.clear()
    monkeypatch.setattr(onnx_detector, "DARK_LOOK_SHARE", 1.01)  # no share reaches it
    dual.detect(_dark_frame())
    assert spy.asked == 0 and dual.looks["dark"] == 0
    monkeypatch.setattr(onnx_detector, "DARK_LOOK_SHARE", 0.5)
    dual.detect(_dark_frame())
    assert spy.asked == 1 and dual.looks["dark"] == 1


class LeftBlindSpy(Spy):
    """A dark finder that outlines nothing in the left half of its input: it misses a white card lying there."""

    def run(self, outputs: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        out = super().run(outputs, feeds)
        out[0] = np.array(out[0])
        half = next(iter(feeds.values())).shape[-1] / 2
        out[0][:, 4, :][out[0][:, 0, :] < half] = 0.0  # the scores of candidates centred left of it
        return out


def _white_and_dark_frame() -> np.ndarray:
    """An ace of diamonds printed as drawn on the left, a nine of clubs printed dark on the right."""
    dark = restyle_face(procedural_face("9c", 2), "9c", "dark", (15.0, 15.0, 15.0), GOLD)
    white = large_card_frame(procedural_face("Ad", 2), cx=170, height=240, angle=0.2)
    return large_card_frame(dark, cx=470, height=240, angle=0.2, onto=white)


def test_the_dark_looks_reading_is_merged_with_the_first_not_put_in_its_place(dual: OnnxDetector) -> None:
    session = dual.dark_finder.session if isinstance(dual.dark_finder, Spy) else dual.dark_finder
    dual.dark_finder = None
    frame = _white_and_dark_frame()
    assert sorted(str(d.card) for d in dual.detect(frame)) == ["9c", "Ad"]  # the first finder names both
    dual.dark_finder = LeftBlindSpy(session)
    dual.looks.clear()
    found = sorted(str(d.card) for d in dual.detect(frame) if d.confidence >= dual.min_confidence)
    # the dark finder names the nine of clubs alone; put in the first reading's place, the ace would be lost
    assert dual.looks["dark-named"] == 1
    assert found == ["9c", "Ad"]


def _det(card: str, confidence: float, box: tuple[float, float, float, float]) -> CardDetection:
    return CardDetection(Card.parse(card), confidence, box, 0)


def test_merged_readings_keep_the_surer_of_two_on_one_card_and_every_card_of_either() -> None:
    first = [_det("Jh", 0.93, (0, 0, 100, 140)), _det("9c", 0.70, (200, 0, 300, 140))]
    second = [
        _det("Jd", 0.81, (4, 2, 102, 141)), _det("9c", 0.90, (203, 1, 301, 139)), _det("As", 0.88, (400, 0, 500, 140)),
    ]
    merged = {(str(d.card), d.confidence) for d in merged_readings(first, second)}
    # the first's surer jack of hearts stands over the second's jack of diamonds on the same card (replacing the
    # first reading by the second lost it); the second's surer nine of clubs and its ace (no first reading there) join
    assert merged == {("Jh", 0.93), ("9c", 0.90), ("As", 0.88)}


def test_merged_readings_leave_overlapping_cards_of_one_reading_alone() -> None:
    spread = [_det("Th", 0.9, (0, 0, 100, 140)), _det("Qh", 0.85, (30, 0, 130, 140))]  # IoU 0.54: a tight spread
    assert merged_readings(spread, []) == spread
    assert merged_readings([], spread) == spread
    # a tie between the two readings keeps the first's
    tie = merged_readings([_det("Kc", 0.8, (0, 0, 10, 14))], [_det("Ks", 0.8, (0, 0, 10, 14))])
    assert [str(d.card) for d in tie] == ["Kc"]
