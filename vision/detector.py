"""The detector protocol every backend fulfils, and the loader that picks a backend for a model file.

A detector turns one BGR frame into the cards it sees (``CardDetection``,
the one type that crosses the vision boundary). Two backends exist:

- ``vision.onnx_detector.OnnxDetector`` (ONNX Runtime, numpy post-processing):
  the default and the one the table runs; it never imports torch.
- ``vision.ultralytics_detector.UltralyticsDetector`` (.pt, .onnx or an NCNN
  folder through Ultralytics): for comparison and for NCNN on a Pi; it
  imports torch through Ultralytics, so it is only loaded when asked for.

Both letterbox the same way, decode the same classes, suppress overlaps
class-agnostically and merge two detections of one card in
``vision.postprocess``, so they report the same cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from vision.detection import CardDetection
from vision.errors import UserError

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile

BACKENDS = ("auto", "onnx", "ultralytics")


@runtime_checkable
class Detector(Protocol):
    """Finds cards in a frame."""

    def detect(self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0) -> list[CardDetection]:
        """The cards in ``frame_bgr`` (H x W x 3, BGR uint8); ``frame`` is stamped on each detection."""
        ...


@runtime_checkable
class DetailDetector(Detector, Protocol):
    """A detector that can name cards from a larger picture of the same view (a camera's second stream)."""

    @property
    def reads_detail(self) -> bool:
        """Whether :meth:`detect` makes use of ``detail_bgr``."""
        ...

    def detect(
        self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0, detail_bgr: npt.NDArray[np.uint8] | None = None
    ) -> list[CardDetection]:
        """As :meth:`Detector.detect`; ``detail_bgr`` (or None) shows the same view as ``frame_bgr``, larger."""
        ...


def detect_frame(
    detector: Detector,
    frame_bgr: npt.NDArray[np.uint8],
    frame: int = 0,
    detail_bgr: npt.NDArray[np.uint8] | None = None,
) -> list[CardDetection]:
    """``detector.detect`` on one frame, with its detail picture where there is one and the detector reads it.

    The Pi camera gives the finder its small ``lores`` stream and, in ``Frame.display_bgr``, the same view
    at twice the size (``main``): a two-stage reader cuts its index crops from that, where a card on the mat
    spans twice the pixels (``vision.onnx_detector.OnnxDetector.detect``).
    """
    if detail_bgr is not None and isinstance(detector, DetailDetector) and detector.reads_detail:
        return detector.detect(frame_bgr, frame, detail_bgr=detail_bgr)
    return detector.detect(frame_bgr, frame)


def load_detector(
    model: Path,
    backend: str = "auto",
    threads: int | None = None,
    conf_threshold: float | None = None,
    min_confidence: float | None = None,
    profile: DeckProfile | str | Path | None = None,
    still: bool = False,
    table: bool = False,
) -> Detector:
    """Open ``model`` with ``backend``: ``auto`` takes ONNX Runtime for ``.onnx`` and Ultralytics otherwise.

    ``threads`` limits the backend's CPU threads (None: the library default);
    ``conf_threshold`` and ``min_confidence`` override the backend's defaults.
    ``profile``: a deck profile (``vision.deck_profile``: the profile, its folder or its ``profile.json``)
    the reader names that deck's cards with; ONNX backend only. ``still``: each frame is a still photo, read
    with the looks a photo gets and the live table does not (``OnnxDetector(tile_look=True,
    dark_deck_look=True)``; ONNX backend only, the other reads as before). ``table``: the frames are a live
    table's, one game's after another, whose deck is judged over them and read as a deck printed light on dark
    paper where it is one (``OnnxDetector(table_deck_look=True)``; ONNX backend only). A missing or unreadable
    model or profile raises UserError.
    """
    if backend not in BACKENDS:
        raise UserError(f"unknown detector backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if not model.exists():
        raise UserError(f"{model}: model not found")
    if backend == "auto":
        backend = "onnx" if model.suffix.lower() == ".onnx" else "ultralytics"
    if backend == "onnx":
        from vision.onnx_detector import OnnxDetector

        return OnnxDetector(
            model, threads=threads, conf_threshold=conf_threshold, min_confidence=min_confidence, profile=profile,
            tile_look=still, dark_deck_look=still, table_deck_look=table,
        )
    if profile is not None:
        raise UserError("a deck profile is read by the ONNX backend only (use --backend onnx)")
    from vision.ultralytics_detector import UltralyticsDetector

    return UltralyticsDetector(model, threads=threads, conf_threshold=conf_threshold, min_confidence=min_confidence)
