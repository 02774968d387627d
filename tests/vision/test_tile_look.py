"""The tile look: a still photo whose cards are small to the finder is read again in enlarged tiles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from detector_testkit import labelled_boxes, spy_on_finder

from vision.models import default_model_path
from vision.onnx_detector import (
    TILE_GRID,
    TILE_LOOK_BELOW,
    Finder,
    OnnxDetector,
    _cut_by_inner_edge,
)
from vision.postprocess import box_iou
from vision.sources.files import load_image

LAID_OUT = Path(__file__).resolve().parent / "data" / "laid-out"
SCENE = "synth_00016.jpg"  # ten cards of a held-out deck in three rows under a phone, 640x853
DEV1 = Path(__file__).resolve().parent / "data" / "dev-photos" / "edje_test_cam_image6.jpg"  # four nines, large


def _labels() -> dict[str, npt.NDArray[np.float32]]:
    """The scene's labelled boxes in its own pixels (x1, y1, x2, y2), by card."""
    return labelled_boxes(LAID_OUT, SCENE)


@pytest.fixture(scope="module")
def live() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1)


@pytest.fixture(scope="module")
def still() -> OnnxDetector:
    return OnnxDetector(default_model_path(), threads=1, tile_look=True)


def _sure(detector: OnnxDetector, frame: np.ndarray) -> dict[str, tuple[float, float, float, float]]:
    return {str(d.card): d.box for d in detector.detect(frame) if d.confidence >= detector.min_confidence}


def test_a_still_photo_of_small_cards_gets_the_cards_the_live_reading_missed(
    live: OnnxDetector, still: OnnxDetector
) -> None:
    frame = load_image(LAID_OUT / SCENE)
    labels = _labels()
    as_live = _sure(live, frame)
    as_still = _sure(still, frame)
    added = set(as_still) - set(as_live)
    assert added, "the tiles add nothing on this photo"
    # every card the tiles add is a card lying there, at its place in the photo's own pixels
    for card in added:
        assert card in labels, card
        assert box_iou(np.array(as_still[card], np.float32), labels[card][None])[0] > 0.5, card
    # and every card the photo's own reading named stays as it was
    for card, box in as_live.items():
        assert as_still.get(card) == box
    assert still.looks["tiles"] >= 1 and still.looks["tiles-named"] >= 1


def test_the_tiles_are_enlarged_views_of_the_photo(still: OnnxDetector, monkeypatch: pytest.MonkeyPatch) -> None:
    frame = load_image(LAID_OUT / SCENE)
    h, w = frame.shape[:2]
    shown = spy_on_finder(still, monkeypatch, lambda f: (f.shape[1], f.shape[0]))
    still.detect(frame)
    assert shown[0] == (w, h)
    tiles = shown[-TILE_GRID * TILE_GRID :]
    # each tile is a part of the photo, over half of it each way (they overlap), so the finder sees it larger
    assert all(w / 2 < tw < w and h / 2 < th < h for tw, th in tiles)


def _turned_over(frame: np.ndarray) -> np.ndarray:
    """The photo with its lightness turned over: its cards printed light on dark paper, on a light surface."""
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
    lab[..., 0] = 255 - lab[..., 0]
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


@pytest.mark.parametrize("dark", [False, True])
def test_a_photo_judged_dark_has_its_tiles_read_by_the_dark_finder_too(
    still: OnnxDetector, monkeypatch: pytest.MonkeyPatch, dark: bool
) -> None:
    frame = load_image(LAID_OUT / SCENE)
    if dark:
        frame = _turned_over(frame)
    h, w = frame.shape[:2]
    asked: list[tuple[tuple[int, int], str]] = []
    real = still._candidates

    def spy(image: np.ndarray, finder: Finder = "first") -> Any:
        asked.append(((image.shape[1], image.shape[0]), finder))
        return real(image, finder)

    monkeypatch.setattr(still, "_candidates", spy)
    before = still.looks.copy()
    still.detect(frame)
    assert (still.looks - before)["tiles"] == 1
    on_tiles = [finder for size, finder in asked if size != (w, h)]
    tiles = TILE_GRID * TILE_GRID
    assert on_tiles == (["first", "dark"] * tiles if dark else ["first"] * tiles)


def test_cards_large_to_the_finder_take_no_tile_look(still: OnnxDetector, monkeypatch: pytest.MonkeyPatch) -> None:
    # the four nines, the photo cut to their columns: each spans over a third of the picture's height
    frame = np.ascontiguousarray(load_image(DEV1)[:, 280:710])
    h, w = frame.shape[:2]
    shown = spy_on_finder(still, monkeypatch, lambda f: (f.shape[1], f.shape[0]))
    before = still.looks.copy()
    found = still.detect(frame)
    assert sorted(str(d.card) for d in found) == ["9c", "9d", "9h", "9s"]
    sides = sorted(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) * 256 / max(w, h) for d in found)
    assert (sides[1] + sides[2]) / 2 >= TILE_LOOK_BELOW  # their median, in the finder's input pixels
    assert shown == [(w, h)]  # read once, as the live table reads it
    assert (still.looks - before)["tiles"] == 0
    # the whole photo, where they span less of it, takes the look (and it adds nothing there)
    shown.clear()
    assert sorted(str(d.card) for d in still.detect(load_image(DEV1))) == ["9c", "9d", "9h", "9s"]
    assert len(shown) == 1 + TILE_GRID * TILE_GRID


def test_an_empty_frame_takes_no_tile_look(still: OnnxDetector) -> None:
    before = still.looks.copy()
    assert still.detect(np.full((480, 640, 3), 90, np.uint8)) == []
    assert (still.looks - before)["tiles"] == 0


def test_the_live_reader_never_takes_the_tile_look(live: OnnxDetector) -> None:
    live.detect(load_image(LAID_OUT / SCENE))
    assert live.looks["tiles"] == 0


@pytest.mark.parametrize(
    ("quad", "x0", "y0", "cut"),
    [
        # a card well inside a tile that lies in the photo's middle
        ([[40, 40], [90, 40], [90, 120], [40, 120]], 100, 100, False),
        # ending on the tile's left edge, inside the photo: cut
        ([[0, 40], [50, 40], [50, 120], [0, 120]], 100, 100, True),
        # ending on the tile's left edge where that is the photo's edge: a card cut by the photo, not the tile
        ([[0, 40], [50, 40], [50, 120], [0, 120]], 0, 100, False),
        # ending on the tile's bottom edge, inside the photo: cut
        ([[40, 150], [90, 150], [90, 200], [40, 200]], 0, 0, True),
        # ending on the tile's right edge where the tile ends at the photo's right edge
        ([[150, 40], [200, 40], [200, 120], [150, 120]], 200, 0, False),
    ],
)
def test_an_outline_cut_by_a_tiles_inner_edge_is_left_to_its_neighbour(
    quad: list[list[float]], x0: int, y0: int, cut: bool
) -> None:
    # a 200x200 tile of a 400x400 photo
    assert _cut_by_inner_edge(np.array(quad, np.float32), x0, y0, 200, 200, 400, 400) is cut
