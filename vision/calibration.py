"""A reading's confidence as the chance that the card is named right, from the finder's and the classifier's scores.

The two stages score different things: the finder how sure it is that an
outline is a card, the classifier how sure it is of the index it read. Their
product ranks readings well but is not a probability (a card the finder
outlines at 0.5 and the classifier reads at 0.95 is almost always right, yet
scores 0.475), and the tracker and the engine read a confidence as one: under
0.6 a card is "check this card" and can prove nothing. So the detector reports

    p = sigmoid(b + w1 * logit(finder score) + w2 * logit(classifier confidence))

with (b, w1, w2) fitted by logistic regression on readings of labelled
images: each outline's reading counts as right when the image holds that card.
The fit is made on the synthetic scenes of the held-out decks (never on the
real photos, which stay for judging); ``euchre-table train calibrate`` does it
and writes the coefficients into ``models/classes.json``. Pure numpy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from vision.onnx_detector import OnnxDetector

_EPS = 1e-4


def _logit(p: float | npt.NDArray[np.float64]) -> Any:
    q = np.clip(p, _EPS, 1.0 - _EPS)
    return np.log(q / (1.0 - q))


@dataclass(frozen=True)
class ConfidenceCalibration:
    """``p = sigmoid(bias + w_finder * logit(score) + w_classifier * logit(conf))``."""

    bias: float
    w_finder: float
    w_classifier: float
    samples: int = 0
    fitted_on: str = ""

    def __call__(self, finder_score: float, classifier_conf: float) -> float:
        z = self.bias + self.w_finder * float(_logit(finder_score)) + self.w_classifier * float(_logit(classifier_conf))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def to_json(self) -> dict[str, Any]:
        return {
            "form": "sigmoid(bias + w_finder*logit(finder_score) + w_classifier*logit(classifier_confidence))",
            "bias": round(self.bias, 6),
            "w_finder": round(self.w_finder, 6),
            "w_classifier": round(self.w_classifier, 6),
            "samples": self.samples,
            "fitted_on": self.fitted_on,
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> ConfidenceCalibration:
        """Read the ``"calibration"`` object of ``classes.json``; a malformed one is a ``ValueError`` naming it."""
        if not isinstance(data, dict):
            raise ValueError(f'{where}: "calibration" must be an object')
        try:
            values = [float(data[k]) for k in ("bias", "w_finder", "w_classifier")]
        except (KeyError, TypeError, ValueError):
            raise ValueError(f'{where}: "calibration" needs numbers bias, w_finder and w_classifier') from None
        if not all(math.isfinite(v) for v in values):
            raise ValueError(f'{where}: "calibration" coefficients must be finite numbers')
        return cls(*values, samples=int(data.get("samples", 0) or 0), fitted_on=str(data.get("fitted_on", "")))


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
    detector: OnnxDetector, images_dir: Path, labels_csv: Path
) -> list[tuple[float, float, bool]]:
    """(finder score, classifier confidence, named right) for every named outline in a labelled image folder.

    A reading is right when its image is labelled with that card (the same per-image set rule as
    ``euchre-table eval-vision``).
    """
    from vision.evaluate import list_images, load_image, read_labels

    labels = read_labels(labels_csv)
    samples: list[tuple[float, float, bool]] = []
    for name in list_images(images_dir, labels, labels_csv):
        present = {entry.card for entry in labels.get(name, [])}
        for score, card, conf in detector.readings(load_image(images_dir / name)):
            if card is not None:
                samples.append((score, conf, card in present))
    return samples
