"""The legibility study's bands and its crop mode, on procedurally drawn faces (no fetched artwork)."""

from __future__ import annotations

import math

import pytest

from lab.legibility_study import BANDS, _band, band_names, study_crops
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
