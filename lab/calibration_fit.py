"""Fitting the reading confidence (``vision.calibration.ConfidenceCalibration``) on labelled images.

A logistic regression of "named right" on the finder's and the classifier's logit scores; used by
``euchre-table train calibrate``. Pure numpy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from table.cards import Card
from vision.calibration import ConfidenceCalibration, _logit


class Readings(Protocol):
    """What :func:`collect_readings` needs of a reader (``vision.onnx_detector.OnnxDetector``)."""

    def readings(self, frame_bgr: npt.NDArray[np.uint8]) -> list[tuple[float, Card | None, float]]: ...


def fit_calibration(
    samples: Sequence[tuple[float, float, bool]], l2: float = 1e-3, iterations: int = 50, fitted_on: str = ""
) -> ConfidenceCalibration:
    """Logistic regression (Newton's method with a small ridge) of "named right" on the two logit scores.

    ``samples`` are (finder score, classifier confidence, named right). Both
    outcomes must occur, or there is nothing to fit.
    """
    if not samples:
        raise ValueError("no readings to fit the calibration on")
    data = np.asarray([(s, c) for s, c, _ in samples], dtype=np.float64)
    y = np.asarray([1.0 if ok else 0.0 for _, _, ok in samples])
    if y.min() == y.max():
        raise ValueError("the readings are all right or all wrong: no calibration can be fitted")
    x = np.column_stack([np.ones(len(y)), _logit(data[:, 0]), _logit(data[:, 1])])
    w = np.zeros(3)
    ridge = l2 * np.diag([0.0, 1.0, 1.0]) * len(y)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -60, 60)))
        grad = x.T @ (p - y) + ridge @ w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge + 1e-9 * np.eye(3)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return ConfidenceCalibration(float(w[0]), float(w[1]), float(w[2]), samples=len(y), fitted_on=fitted_on)


def reliability(
    calibration: ConfidenceCalibration, samples: Sequence[tuple[float, float, bool]], bins: int = 5
) -> list[tuple[float, float, int]]:
    """Per confidence bin (equal width on 0..1): mean predicted p, share actually right, count."""
    out: list[tuple[float, float, int]] = []
    preds = [(calibration(s, c), ok) for s, c, ok in samples]
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [(p, ok) for p, ok in preds if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if inside:
            n = len(inside)
            out.append((sum(p for p, _ in inside) / n, sum(ok for _, ok in inside) / n, n))
    return out


def collect_readings(
    detector: Readings, images_dir: Path, labels_csv: Path, ignore: Mapping[str, frozenset[Card]] | None = None
) -> list[tuple[float, float, bool]]:
    """(finder score, classifier confidence, named right) for every named outline in a labelled image folder.

    A reading is right when its image is labelled with that card (the same per-image set rule as
    ``euchre-table eval-vision``). A reading of a card on the image's ``ignore`` list and not labelled (it
    lies there, too little of it showing to be labelled, its index in sight: ``lab.evaluate.read_ignore``)
    is left out, being neither right nor wrong.
    """
    from lab.evaluate import list_images
    from vision.labels import read_labels
    from vision.sources.files import load_image

    labels = read_labels(labels_csv)
    samples: list[tuple[float, float, bool]] = []
    for name in list_images(images_dir, labels, labels_csv):
        present = {entry.card for entry in labels.get(name, [])}
        skip = (ignore or {}).get(name, frozenset()) - present
        for score, card, conf in detector.readings(load_image(images_dir / name)):
            if card is not None and card not in skip:
                samples.append((score, conf, card in present))
    return samples


def ignore_beside(labels_csv: Path) -> dict[str, frozenset[Card]] | None:
    """The ``ignore.csv`` a synthetic test set keeps beside its labels (``lab.synth.build test``), if any."""
    from lab.evaluate import read_ignore

    path = labels_csv.parent / "ignore.csv"
    return read_ignore(path) if path.is_file() else None
