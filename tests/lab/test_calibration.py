"""The reading's confidence as a calibrated chance of being right: the fit, its file, and the detector using it."""

from __future__ import annotations

import json
import math
import random
import shutil
from pathlib import Path

import cv2
import pytest
from detector_testkit import FINDER, card_frame

from companion.errors import UserError
from lab.calibration_fit import collect_readings, fit_calibration, ignore_beside, reliability
from table.cards import Card
from vision.calibration import ConfidenceCalibration
from vision.models import calibration_for
from vision.onnx_detector import MIN_CALIBRATED_CONFIDENCE, OnnxDetector


def _draw(truth: ConfidenceCalibration, n: int, seed: int = 0) -> list[tuple[float, float, bool]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s, c = rng.uniform(0.05, 0.99), rng.uniform(0.05, 0.99)
        out.append((s, c, rng.random() < truth(s, c)))
    return out


def test_the_fit_recovers_a_known_logistic_model() -> None:
    truth = ConfidenceCalibration(bias=0.5, w_finder=0.4, w_classifier=1.5)
    fitted = fit_calibration(_draw(truth, 6000), l2=0.0)
    assert fitted.samples == 6000
    assert fitted.bias == pytest.approx(0.5, abs=0.15)
    assert fitted.w_finder == pytest.approx(0.4, abs=0.12)
    assert fitted.w_classifier == pytest.approx(1.5, abs=0.15)
    # and the fitted chances match what happened, bin by bin
    for predicted, right, n in reliability(fitted, _draw(truth, 4000, seed=1)):
        assert abs(predicted - right) < 0.06, (predicted, right, n)


def test_the_confidence_rises_with_either_score() -> None:
    cal = ConfidenceCalibration(0.9, 0.33, 1.24)
    assert cal(0.5, 0.95) > 0.9 > 0.5 * 0.95  # a sure name on a middling outline is a sure card
    assert cal(0.3, 0.4) < cal(0.6, 0.4) < cal(0.6, 0.8)
    assert 0.0 < cal(0.0, 0.0) < cal(1.0, 1.0) < 1.0


@pytest.mark.parametrize(
    "samples, message",
    [([], "no readings"), ([(0.5, 0.5, True)] * 3, "all right or all wrong")],
)
def test_nothing_to_fit_is_said(samples: list[tuple[float, float, bool]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit_calibration(samples)


def _models_copy(tmp_path: Path, calibration: object) -> Path:
    models = tmp_path / "models"
    shutil.copytree(FINDER.parent, models)
    classes = models / "classes.json"
    data = json.loads(classes.read_text()) if classes.is_file() else {}
    data["calibration"] = calibration
    classes.write_text(json.dumps(data))
    return models / FINDER.name


def test_the_file_round_trips_and_a_bad_one_is_named(tmp_path: Path) -> None:
    cal = ConfidenceCalibration(0.25, 0.5, 1.0, samples=12, fitted_on="here")
    model = _models_copy(tmp_path, cal.to_json())
    assert calibration_for(model) == cal
    model = _models_copy(tmp_path / "bad", {"bias": "x", "w_finder": 1, "w_classifier": 1})
    with pytest.raises(UserError, match="classes.json.*numbers bias"):
        calibration_for(model)
    model = _models_copy(tmp_path / "inf", {"bias": math.inf, "w_finder": 1, "w_classifier": 1})
    with pytest.raises(UserError, match="finite"):
        calibration_for(model)


def test_the_detector_reports_the_calibrated_chance(tmp_path: Path) -> None:
    frame = card_frame((20, 20, 220))
    (plain,) = OnnxDetector(FINDER, threads=1, min_confidence=0.0).detect(frame)
    (score, card, conf), *_ = sorted(OnnxDetector(FINDER, threads=1).readings(frame), key=lambda r: -r[0])
    assert card is not None and plain.confidence == pytest.approx(score * conf, abs=1e-6)

    cal = ConfidenceCalibration(2.0, 0.5, 1.0)
    calibrated = OnnxDetector(_models_copy(tmp_path, cal.to_json()), threads=1)
    assert calibrated.min_confidence == MIN_CALIBRATED_CONFIDENCE
    (found,) = calibrated.detect(frame)
    assert found.card == plain.card and found.confidence == pytest.approx(cal(score, conf), abs=1e-6)
    # a calibration that doubts everything reports nothing at the default floor
    doubter = OnnxDetector(_models_copy(tmp_path / "d", ConfidenceCalibration(-9.0, 0.1, 0.1).to_json()), threads=1)
    assert doubter.detect(frame) == []


class _ReadsThree:
    """A reader stand-in: every image reads as the king of hearts, the queen of spades and an outline without a name."""

    def readings(self, frame_bgr: object) -> list[tuple[float, Card | None, float]]:
        return [(0.9, Card.parse("Kh"), 0.8), (0.7, Card.parse("Qs"), 0.6), (0.5, None, 0.0)]


def test_readings_of_cards_left_unlabelled_whose_index_shows_are_left_out_of_the_fit(tmp_path: Path) -> None:
    images = tmp_path / "images"
    images.mkdir()
    for name in ("a.png", "b.png"):
        cv2.imwrite(str(images / name), card_frame((20, 20, 220)))
    labels = tmp_path / "labels.csv"
    labels.write_text("image,class,x_center,y_center,width,height\na.png,Kh,0.5,0.5,0.2,0.2\nb.png,Qs,0.5,0.5,0.2,0.2\n")
    assert ignore_beside(labels) is None
    every = collect_readings(_ReadsThree(), images, labels)
    assert sorted(every) == [(0.7, 0.6, False), (0.7, 0.6, True), (0.9, 0.8, False), (0.9, 0.8, True)]
    # The queen lies in a.png unlabelled, her index in sight: that reading is left out. Listed in b.png too,
    # where she is labelled, she still counts there: a labelled card is never left out.
    (tmp_path / "ignore.csv").write_text("image,class\na.png,Qs\nb.png,Qs\n")
    ignore = ignore_beside(labels)
    assert ignore is not None
    kept = collect_readings(_ReadsThree(), images, labels, ignore)
    assert sorted(kept) == [(0.7, 0.6, True), (0.9, 0.8, False), (0.9, 0.8, True)]
