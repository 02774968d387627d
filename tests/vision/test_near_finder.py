"""The near look: a frame in which the finder outlined something but no look before named a card surely is read
again with the finder taught cards large in the frame (``card-obb-near.onnx``), where one lies beside the
finder, and its reading stands where its surest reaches ``NEAR_LOOK_MIN_CONFIDENCE``. And what the dark look's
finder and the near look's have in common: a file of another input is one clear error, and without it the reader
reads as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from detector_testkit import FINDER, SHIPPED_READER, large_card_frame, models_folder

from lab.synth.faces import procedural_face
from vision.errors import UserError
from vision.models import (
    DARK_FINDER_NAME,
    NEAR_FINDER_NAME,
    REPO_MODELS_DIR,
    dark_finder_path_for,
    near_finder_path_for,
)
from vision.onnx_detector import OnnxDetector


def _frame(card: str = "9c") -> np.ndarray:
    return large_card_frame(procedural_face(card, 2))


class Spy:
    """Stands in for a finder's session: counts the frames asked of it, and answers as the finder it wraps with
    every outline moved ``shift`` input pixels to the right (onto bare background, where nothing is named)."""

    def __init__(self, session: Any, shift: float = 0.0) -> None:
        self.session, self.shift, self.asked = session, shift, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def run(self, outputs: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.asked += 1
        out = list(self.session.run(outputs, feeds))
        out[0] = np.array(out[0])
        out[0][:, 0, :] += self.shift  # the boxes' centres, x
        return out


@pytest.fixture()
def near(tmp_path: Path) -> OnnxDetector:
    extras: dict[str, Path | None] = {NEAR_FINDER_NAME: REPO_MODELS_DIR / "card-obb.onnx"}  # stand-in: the finder
    finder = models_folder(tmp_path / "models", REPO_MODELS_DIR, SHIPPED_READER, extras)
    assert near_finder_path_for(finder) == finder.parent / NEAR_FINDER_NAME
    return OnnxDetector(finder, threads=1)


def test_a_frame_whose_card_is_named_never_asks_the_near_finder(near: OnnxDetector) -> None:
    spy = Spy(near.near_finder)
    near.near_finder = spy
    found = near.detect(_frame())
    assert found and spy.asked == 0 and near.looks["near"] == 0


def test_where_the_looks_before_name_nothing_the_near_finders_reading_stands(near: OnnxDetector) -> None:
    near.session = Spy(near.session, shift=90.0)  # the first finder outlines bare background only
    spy = Spy(near.near_finder)
    near.near_finder = spy
    found = near.detect(_frame())
    assert spy.asked == 1 and near.looks["near"] == 1 and near.looks["near-named"] == 1
    assert [str(d.card) for d in found if d.confidence >= near.min_confidence] == ["9c"]
    # without the near finder the same frame names nothing
    near.near_finder = None
    assert not [d for d in near.detect(_frame()) if d.confidence >= near.min_confidence]


def test_a_near_reading_under_the_line_leaves_the_frame_as_read(
    near: OnnxDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision import onnx_detector

    near.session = Spy(near.session, shift=90.0)
    near.near_finder = Spy(near.near_finder)
    monkeypatch.setattr(onnx_detector, "NEAR_LOOK_MIN_CONFIDENCE", 1.01)  # no reading reaches it
    found = near.detect(_frame())
    assert near.looks["near"] == 1 and near.looks["near-named"] == 0
    assert not [d for d in found if d.confidence >= near.min_confidence]


# Both finders a look reads: its file's name, where it is looked for, and the detector's attribute and switch.
SECOND_FINDERS = [
    (DARK_FINDER_NAME, dark_finder_path_for, "dark_finder"),
    (NEAR_FINDER_NAME, near_finder_path_for, "near_finder"),
]


@pytest.mark.parametrize(("name", "path_for", "attribute"), SECOND_FINDERS)
def test_a_looks_finder_of_another_input_is_one_clear_error(
    tmp_path: Path, name: str, path_for: Any, attribute: str
) -> None:
    finder = models_folder(tmp_path / "m", REPO_MODELS_DIR, SHIPPED_READER, {name: FINDER})  # a 64 px input
    assert path_for(finder) == finder.parent / name
    with pytest.raises(UserError, match=name + ": its input or classes are not card-obb.onnx's"):
        OnnxDetector(finder, threads=1)


@pytest.mark.parametrize(("name", "path_for", "attribute"), SECOND_FINDERS)
def test_without_a_looks_finder_the_reader_reads_as_before(
    tmp_path: Path, name: str, path_for: Any, attribute: str
) -> None:
    finder = models_folder(tmp_path / "m", REPO_MODELS_DIR, SHIPPED_READER, {})
    assert path_for(finder) is None
    assert getattr(OnnxDetector(finder, threads=1), attribute) is None
    switched_off = OnnxDetector(
        REPO_MODELS_DIR / "card-obb.onnx", threads=1,
        dark_finder=attribute != "dark_finder", near_finder=attribute != "near_finder",
    )
    assert getattr(switched_off, attribute) is None
