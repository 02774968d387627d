"""The profile calibration's fit reads a draw of scenes of its own, never the test scenes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.profile_synth import fit_draw_error, fit_profile_calibration
from lab.synth.build import SEEDS_FILE


def _scenes(folder: Path, first: int | None) -> None:
    (folder / "images").mkdir(parents=True)
    (folder / "labels.csv").write_text("image,class,x_center,y_center,width,height\n", encoding="utf-8")
    if first is not None:
        (folder / SEEDS_FILE).write_text(json.dumps({"first": first}), encoding="utf-8")


def test_the_test_scenes_are_refused_for_the_fit_in_one_line(tmp_path: Path) -> None:
    _scenes(tmp_path / "gnome-orell", first=None)  # a set built before offsets were recorded: the test scenes
    _scenes(tmp_path / "kde-jolly-royal", first=0)
    _scenes(tmp_path / "gnome-tigullio", first=250_000)
    problem = fit_draw_error(tmp_path, ["gnome-orell", "kde-jolly-royal", "gnome-tigullio"])
    assert problem is not None and "\n" not in problem
    assert "gnome-orell, kde-jolly-royal hold the test scenes" in problem and "gnome-tigullio" not in problem
    with pytest.raises(SystemExit, match="hold the test scenes"):
        fit_profile_calibration(tmp_path, tmp_path / "profiles", ["gnome-orell"], write=None)


def test_a_draw_of_its_own_may_be_fitted_on(tmp_path: Path) -> None:
    _scenes(tmp_path / "gnome-orell", first=250_000)
    _scenes(tmp_path / "gnome-tigullio", first=250_000)
    assert fit_draw_error(tmp_path, ["gnome-orell", "gnome-tigullio"]) is None
