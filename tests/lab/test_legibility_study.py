"""The legibility study's bands and its crop mode, on procedurally drawn faces (no fetched artwork)."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.legibility_study import BANDS, _band, band_names, study_crops, study_scenes
from lab.synth import build
from vision.models import default_model_path


def test_bands_cover_every_legibility_once() -> None:
    assert _band(-1.0) == "-"
    assert _band(0.0) == "0-30" and _band(29.99) == "0-30" and _band(30.0) == "30-45"
    assert _band(1e6) == "150+"
    names = band_names()
    assert len(names) == len(BANDS) and len(set(names)) == len(names)
    assert all(_band(lo) in names for lo in BANDS[:-1])
    assert math.isinf(BANDS[-1])


def test_crop_study_counts_every_crop_in_one_band() -> None:
    classifier = default_model_path().parent / "corner-cls.onnx"
    result = study_crops(None, classifier, count=120)
    assert set(result) <= set(band_names())
    assert sum(n for n, *_ in result.values()) >= 120
    for n, right, none, sure_wrong in result.values():
        assert n > 0
        assert 0.0 <= right <= 1.0 and 0.0 <= none <= 1.0 and 0.0 <= sure_wrong <= 1.0
        assert right + none <= 1.0 + 1e-9
    with pytest.raises(ValueError):
        _band(math.nan)


def test_scene_study_reads_each_scene_and_refuses_an_image_its_seed_does_not_render(tmp_path: Path) -> None:
    model = default_model_path()
    labelled = build.build_test(None, tmp_path / "procedural", count=4, procs=1)
    result = study_scenes(None, "procedural", tmp_path, None, model)
    assert set(result) <= set(band_names())
    readings = sum(n for n, _ in result.values())
    assert readings > 0 and all(0 <= wrong <= n for n, wrong in result.values())
    assert labelled > 0
    first = tmp_path / "procedural" / "images" / "synth_00000.jpg"
    cv2.imwrite(str(first), np.full_like(cv2.imread(str(first)), 128))
    with pytest.raises(SystemExit, match="not the scene its seed renders"):
        study_scenes(None, "procedural", tmp_path, None, model)
