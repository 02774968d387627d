"""``lab.frame_study``: several readers scored on the same rendered frames."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lab import frame_study
from vision.models import default_model_path


@pytest.mark.slow
def test_readers_are_scored_on_the_same_frames(tmp_path: Path) -> None:
    """The shipped reader and a copy of it, read in turn: the same pixels give the same tallies."""
    model = default_model_path()
    for f in model.parent.iterdir():
        if f.suffix in (".onnx", ".json"):
            shutil.copy(f, tmp_path / f.name)
    copy = tmp_path / model.name
    tallies = frame_study.study("procedural", [model, copy], [0], hands=1, every=60, art=None)
    a, b = tallies[model], tallies[copy]
    assert a.found > 0 and a.right > 0  # the shipped reader names cards on the rendered table
    assert len(a.seconds) == len(b.seconds) > 1  # one time per frame read, for each reader
    assert (a.right, a.wrong, a.found, a.to_find) == (b.right, b.wrong, b.found, b.to_find)


def test_a_missing_model_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no such file"):
        frame_study.main(["--deck", "procedural", "--models", str(tmp_path / "nope.onnx")])
