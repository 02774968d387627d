"""Helpers shared by the detector and eval tests: tiny stand-in models, a frame they read, a hand-made eval case."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np
import pytest

from table.cards import Card
from vision import cardcrop
from vision import postprocess as pp
from vision.detection import CardDetection
from vision.onnx_detector import Finder, OnnxDetector

T = TypeVar("T")

TINY = Path(__file__).resolve().parent / "data" / "tiny"
FINDER = TINY / "card-obb.onnx"
# The shipped reader's files but the finders its looks read (``card-obb-dark.onnx``, ``card-obb-near.onnx``).
SHIPPED_READER = ("card-obb.onnx", "corner-cls.onnx", "corner-cls-unenrolled.onnx", "face-cls.onnx", "classes.json")
# The stand-in finder's card, in a 128 x 128 frame (its 64 px input at scale 0.5): centre, size, angle.
CARD_XYWH = (64.0, 64.0, 40.0, 56.0)
CARD_ANGLE = 0.3


def card_frame(ink: tuple[int, int, int] | None) -> np.ndarray:
    """A 128 x 128 felt frame with the stand-in card drawn where the finder 'sees' it, index in ``ink``."""
    frame = np.zeros((128, 128, 3), np.uint8)
    frame[:] = (40, 110, 30)  # green felt, BGR
    quad = pp.rotated_corners(np.array([CARD_XYWH], np.float32), np.array([CARD_ANGLE], np.float32))[0]
    cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), (250, 250, 250), lineType=cv2.LINE_AA)
    if ink is not None:
        tl, tr, _, bl = cardcrop.order_corners(quad)
        for u, v in ((0.16, 0.17), (0.84, 0.83)):  # the index and its turned twin
            p = tl + u * (tr - tl) + v * (bl - tl)
            cv2.circle(frame, (int(round(p[0])), int(round(p[1]))), 4, ink, -1, lineType=cv2.LINE_AA)
    return frame


HEADER = "image,class,x_center,y_center,width,height"

# image -> (labelled cards with boxes, reported cards with boxes in pixels of a 100 x 100 image)
CASE: dict[str, tuple[list[tuple[str, tuple[float, ...]]], list[tuple[str, tuple[float, ...]]]]] = {
    # all right
    "a.png": (
        [("Kh", (0.2, 0.5, 0.2, 0.4)), ("Qs", (0.5, 0.5, 0.2, 0.4)), ("9c", (0.8, 0.5, 0.2, 0.4))],
        [("Kh", (10, 30, 30, 70)), ("Qs", (40, 30, 60, 70)), ("9c", (70, 30, 90, 70))],
    ),
    # a red suit swap: the ace of hearts read as the ace of diamonds
    "b.png": (
        [("Ah", (0.3, 0.5, 0.2, 0.4)), ("Td", (0.7, 0.5, 0.2, 0.4))],
        [("Ad", (20, 30, 40, 70)), ("Td", (60, 30, 80, 70))],
    ),
    # a black swap, a red swap and a false alarm
    "c.png": (
        [("Jc", (0.3, 0.5, 0.2, 0.4)), ("Kd", (0.7, 0.5, 0.2, 0.4))],
        [("Js", (20, 30, 40, 70)), ("Kh", (60, 30, 80, 70)), ("7s", (0, 0, 5, 5))],
    ),
    # both red queens labelled, one missed: the one reported is right, so this is a miss, not a swap
    "d.png": ([("Qh", (0.3, 0.5, 0.2, 0.4)), ("Qd", (0.7, 0.5, 0.2, 0.4))], [("Qd", (60, 30, 80, 70))]),
    # no cards labelled: anything reported is a false alarm
    "e.png": ([], [("9h", (10, 10, 20, 20))]),
    # a card reported twice counts once
    "f.png": ([("9s", (0.5, 0.5, 0.3, 0.5))], [("9s", (40, 30, 60, 70)), ("9s", (41, 31, 61, 71))]),
    # a wrong card where a labelled one lies: paired by place in the confusion table
    "g.png": ([("9h", (0.5, 0.5, 0.4, 0.6))], [("Tc", (35, 25, 65, 75))]),
    # two nines missed, nothing reported
    "h.png": ([("9c", (0.3, 0.5, 0.2, 0.4)), ("9d", (0.7, 0.5, 0.2, 0.4))], []),
}


class FakeDetector:
    """Reports the cards CASE lists for an image; the image's pixel value says which image it is."""

    def __init__(self) -> None:
        self.names = sorted(CASE)

    def detect(self, frame_bgr: np.ndarray, frame: int = 0) -> list[CardDetection]:
        name = self.names[int(frame_bgr[0, 0, 0])]
        return [
            CardDetection(card=Card.parse(card), confidence=0.9, box=(box[0], box[1], box[2], box[3]), frame=frame)
            for card, box in CASE[name][1]
        ]


def write_case(folder: Path) -> tuple[Path, Path]:
    images = folder / "images"
    images.mkdir()
    rows = [HEADER]
    for i, name in enumerate(sorted(CASE)):
        cv2.imwrite(str(images / name), np.full((100, 100, 3), i, np.uint8))
        rows += [f"{name},{card},{','.join(map(str, box))}" for card, box in CASE[name][0]]
    labels = folder / "labels.csv"
    labels.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return images, labels


def spy_on_finder(detector: OnnxDetector, monkeypatch: pytest.MonkeyPatch, note: Callable[[np.ndarray], T]) -> list[T]:
    """Spy on an ``OnnxDetector``'s finder: ``note`` of each frame it is shown, in order, in the list returned."""
    shown: list[T] = []
    real = detector._candidates

    def spy(frame: np.ndarray, finder: Finder = "first") -> Any:
        shown.append(note(frame))
        return real(frame, finder)

    monkeypatch.setattr(detector, "_candidates", spy)
    return shown


def models_folder(folder: Path, source: Path, names: tuple[str, ...], extras: dict[str, Path | None]) -> Path:
    """A models folder holding ``names`` copied from ``source`` and each of ``extras`` (file name -> file,
    None: left out); its finder's path."""
    import shutil

    folder.mkdir()
    for name in names:
        shutil.copy(source / name, folder / name)
    for name, path in extras.items():
        if path is not None:
            shutil.copy(path, folder / name)
    return folder / "card-obb.onnx"


def large_card_frame(
    face: np.ndarray, cx: float = 320, height: float = 260, angle: float = 0.3, onto: np.ndarray | None = None
) -> np.ndarray:
    """A 640 x 480 grey frame (or ``onto``, a copy) with the card face ``face`` (BGRA) drawn ``height`` px tall
    round (``cx``, 240), turned by ``angle``."""
    from lab.synth.scenes import _warp_face, card_quad

    frame = np.full((480, 640, 3), 200, np.float32) if onto is None else onto.astype(np.float32)
    quad = card_quad(cx, 240, height, face.shape[1] / face.shape[0], angle)
    patch, x0, y0 = _warp_face(face, quad, 640, 480)
    ph, pw = patch.shape[:2]
    frame[y0 : y0 + ph, x0 : x0 + pw] = frame[y0 : y0 + ph, x0 : x0 + pw] * (1 - patch[:, :, 3:4]) + patch[:, :, :3]
    return np.clip(frame, 0, 255).astype(np.uint8)


class Naming:
    """Stands in for a classifier's ONNX session: records how many crops each call held, and answers naming ``card``
    for every crop (None: as the session it wraps answers)."""

    def __init__(self, session: Any, classes: list[str], card: str | None) -> None:
        self.session, self.classes, self.card = session, classes, card
        self.asked: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def run(self, outputs: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        (crops,) = feeds.values()
        self.asked.append(len(crops))
        if self.card is None:
            return list(self.session.run(outputs, feeds))
        logits = np.full((len(crops), len(self.classes)), -8.0, np.float32)
        logits[:, self.classes.index(self.card)] = 8.0
        return [logits]


def labelled_boxes(folder: Path, image: str) -> dict[str, np.ndarray]:
    """The labelled cards of ``image`` in ``folder``'s ``labels.csv`` (``vision.labels``), by card: each one's box
    (x1, y1, x2, y2) in the image's own pixels."""
    from vision.labels import read_labels
    from vision.sources.files import load_image

    h, w = load_image(folder / image).shape[:2]
    return {
        str(lab.card): np.array(
            [(lab.box[0] - lab.box[2] / 2) * w, (lab.box[1] - lab.box[3] / 2) * h,
             (lab.box[0] + lab.box[2] / 2) * w, (lab.box[1] + lab.box[3] / 2) * h], np.float32,
        )
        for lab in read_labels(folder / "labels.csv")[image]
    }
