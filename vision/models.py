"""Finds the shipped detector model: the ``models/`` folder of the source tree, or one named by the environment.

The weights are not Python package data: they live in the repository's
``models/`` folder next to ``vision/`` (``models/MODEL_CARD.md`` describes
them): the card finder ``card-obb.onnx`` (also ``card-obb.pt``), and the
corner-index classifier ``corner-cls.onnx`` with its class list in
``classes.json`` (key ``"classifier"``), and, where there is one, the
classifier that reads a deck no profile describes,
``corner-cls-unenrolled.onnx`` (same classes; see
``vision.onnx_detector.CornerClassifier``). The classifiers and class list are
looked for next to whichever finder model is used, so ``--model
other/card-obb.onnx`` picks up ``other/corner-cls.onnx``.

The table runs from that tree (an editable install, or the Pi install with
``WorkingDirectory=`` the checkout), so the default is found relative to
this file. Elsewhere, point at a model explicitly:

1. ``EUCHRE_TABLE_MODEL`` = a model file (used as is);
2. ``EUCHRE_TABLE_MODELS_DIR`` = a folder holding ``DEFAULT_MODEL_NAME``;
3. ``<source tree>/models/DEFAULT_MODEL_NAME``;
4. ``./models/DEFAULT_MODEL_NAME`` in the working directory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from vision.errors import UserError

if TYPE_CHECKING:
    from vision.calibration import ConfidenceCalibration

DEFAULT_MODEL_NAME = "card-obb.onnx"
CLASSIFIER_NAME = "corner-cls.onnx"
UNENROLLED_CLASSIFIER_NAME = "corner-cls-unenrolled.onnx"
DARK_CLASSIFIER_NAME = "corner-cls-dark.onnx"
DARK_FINDER_NAME = "card-obb-dark.onnx"
NEAR_FINDER_NAME = "card-obb-near.onnx"
CLASSES_NAME = "classes.json"
REPO_MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


def model_candidates() -> list[Path]:
    """Where the default model is looked for, in order."""
    found: list[Path] = []
    if env := os.environ.get("EUCHRE_TABLE_MODEL"):
        return [Path(env)]
    if env_dir := os.environ.get("EUCHRE_TABLE_MODELS_DIR"):
        found.append(Path(env_dir) / DEFAULT_MODEL_NAME)
    found.append(REPO_MODELS_DIR / DEFAULT_MODEL_NAME)
    found.append(Path.cwd() / "models" / DEFAULT_MODEL_NAME)
    return found


def default_model_path() -> Path:
    """The shipped ONNX model, or UserError listing where it was looked for."""
    candidates = model_candidates()
    for path in candidates:
        if path.is_file():
            return path
    raise UserError(f"no detector model found (looked at {', '.join(str(p) for p in candidates)}); pass --model PATH")


def _models_dir_of(model: Path) -> Path:
    # An NCNN export is a folder (models/card-obb_ncnn_model/): its companions sit beside the folder.
    return model.parent


def _beside(model: Path, name: str) -> Path | None:
    """The file ``name`` beside the finder ``model``, where there is one."""
    path = _models_dir_of(model) / name
    return path if path.is_file() else None


def classifier_path_for(model: Path) -> Path | None:
    """The corner-index classifier that goes with the finder ``model``, if there is one beside it."""
    return _beside(model, CLASSIFIER_NAME)


def unenrolled_classifier_path_for(model: Path) -> Path | None:
    """The classifier that names the cards of a deck read without a profile, where one lies beside the
    finder ``model`` (else the corner classifier reads both ways)."""
    return _beside(model, UNENROLLED_CLASSIFIER_NAME)


def dark_classifier_path_for(model: Path) -> Path | None:
    """The classifier that reads a dark card's corners turned over (``cardcrop.lightness_inverted``) where no
    profile is in use, where one lies beside the finder ``model`` (else the unenrolled one reads them too)."""
    return _beside(model, DARK_CLASSIFIER_NAME)


def dark_finder_path_for(model: Path) -> Path | None:
    """The finder taught decks printed light on dark paper, where one lies beside the finder ``model``: it
    reads again a frame in which a card was judged so (``OnnxDetector``'s dark look)."""
    return _beside(model, DARK_FINDER_NAME)


def near_finder_path_for(model: Path) -> Path | None:
    """The finder taught cards large in the frame (held up to a webcam before a room or an office, photographed
    from near), where one lies beside the finder ``model``: it reads again a frame in which the looks before
    it named nothing (``OnnxDetector``'s near look)."""
    return _beside(model, NEAR_FINDER_NAME)


def _classes_json(model: Path) -> tuple[Path, object] | None:
    """``classes.json`` beside ``model``, read (None if there is no such file)."""
    path = _models_dir_of(model) / CLASSES_NAME
    if not path.is_file():
        return None
    try:
        return path, json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: cannot read the class list ({exc})") from None


def classifier_classes_for(model: Path) -> list[str] | None:
    """The classifier's class names from ``classes.json`` beside ``model`` (None if there is no such file)."""
    found = _classes_json(model)
    if found is None:
        return None
    path, data = found
    classes = data.get("classifier") if isinstance(data, dict) else None
    if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes):
        raise UserError(f'{path}: expected a list of class names under "classifier"')
    return classes


def calibration_for(model: Path) -> ConfidenceCalibration | None:
    """The confidence calibration in ``classes.json`` beside ``model`` (None where there is none)."""
    from vision.calibration import ConfidenceCalibration

    found = _classes_json(model)
    if found is None:
        return None
    path, data = found
    if not isinstance(data, dict) or "calibration" not in data:
        return None
    try:
        return ConfidenceCalibration.from_json(data["calibration"], str(path))
    except ValueError as exc:
        raise UserError(str(exc)) from None
