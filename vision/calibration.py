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
(``lab.calibration_fit``) and writes the coefficients into ``models/classes.json``. Pure numpy.

The shipped coefficients were fitted for earlier models and kept: for today's
finder and classifiers they are cautious (a reading given 0.5 is right about
four times in five), and they rank readings as well as a refit while keeping
wrong readings above the 0.6 line rare, so they are read as a rank against
that line (model card, "How a frame is read", step 4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

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
        bias, w_finder, w_classifier = values
        return cls(
            bias,
            w_finder,
            w_classifier,
            samples=int(data.get("samples", 0) or 0),
            fitted_on=str(data.get("fitted_on", "")),
        )
